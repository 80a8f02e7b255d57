// Calibration: run every device on generated inputs that span the feature space (sizes, skew,
// locality, diameter), record the basis terms and the observed time and energy, and fit each
// (device, operator)'s coefficients by non-negative least squares on relative error. Fitted on
// generated data only, so accuracy measured on real datasets is accuracy on unseen inputs.

import type { CsrMatrix } from '../data/csr.js';
import type { Precision } from '../data/dense.js';
import type { Device, DeviceResult, OperatorKind } from '../devices/device.js';
import type { System } from '../devices/system.js';
import { denseFeatures, generate, type GeneratorSpec } from '../generators/index.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkSystem } from '../devices/system.js';
import { median } from '../stats.js';
import { checkOptions } from '../validate.js';
import { type CalibrationPayload, deviceKey, type DeviceCalibration, MODEL_VERSION, type OperatorFit } from './calibration.js';
import { cachesOf, type Coefficients, defaultCoefficients } from './defaults.js';

/**
 * How hard a fit is pulled towards the spec-derived coefficients (see fitRelative's prior). BFS
 * and multi-source BFS fit 7-9 terms from about one sample per input, where an unregularised fit
 * trades terms freely; with 0.1, a coefficient at twice its prior costs as much as one sample
 * off by 10%. Measured on the quick accuracy run: fastest-device rate 96% -> 100%, cpu BFS MAPE
 * 98% -> 44%, cgra BFS 27% -> 39% (full run: 33% -> 84%, nearly all from pubmed); the
 * scheduler's decision suite picks better (see README).
 */
const PRIOR_WEIGHT = 0.1;
import { fitRelative } from './fit.js';
import { bfsTerms, msbfsTerms, packGraph, packMatrix, ResidentFeatures, spmmTerms, TERMS, type ModelOperator } from './packed.js';
import { graphFeatures, matrixFeatures } from './features.js';

export interface CalibrateOptions {
  /** Fewer and smaller inputs, fewer repeats: about a minute on a 2-core machine. @default false */
  readonly quick?: boolean;
  /** Called after each measured configuration. */
  readonly onProgress?: (done: number, total: number, label: string) => void;
  /** Stop at the next configuration boundary. */
  readonly signal?: AbortSignal;
  /** Generated inputs to calibrate on instead of the built-in set (tests, experiments). */
  readonly inputs?: readonly GeneratorSpec[];
}

/** One observation: the basis terms of a configuration and what the device reported. */
export interface Sample {
  readonly device: string;
  readonly operator: ModelOperator;
  readonly input: string;
  readonly terms: Float64Array;
  readonly seconds: number;
  readonly joules: number;
}

/** Inputs of the quick set: every family at a few sizes (power law, uniform, road-like, banded). */
const QUICK_INPUTS: readonly GeneratorSpec[] = [
  { kind: 'kronecker', scale: 8, edgeFactor: 4, seed: 10 },
  { kind: 'kronecker', scale: 10, edgeFactor: 8, seed: 11 },
  { kind: 'kronecker', scale: 12, edgeFactor: 16, seed: 12 },
  { kind: 'kronecker', scale: 14, edgeFactor: 16, seed: 13 },
  { kind: 'erdos-renyi', n: 4096, m: 16384, directed: true, seed: 15 },
  { kind: 'erdos-renyi', n: 16384, m: 131072, directed: true, seed: 16 },
  { kind: 'erdos-renyi', n: 131072, m: 524288, directed: true, seed: 17 },
  { kind: 'grid', rows: 20, cols: 20, seed: 18 },
  { kind: 'grid', rows: 64, cols: 64, deleteFraction: 0.1, seed: 19 },
  { kind: 'grid', rows: 300, cols: 200, deleteFraction: 0.2, seed: 20 },
  { kind: 'banded', n: 4096, halfBandwidth: 8, seed: 21 },
  { kind: 'banded', n: 32768, halfBandwidth: 2, seed: 22 },
  { kind: 'banded', n: 65536, halfBandwidth: 32, seed: 23 },
];

/** The full set adds larger inputs, denser graphs and a longer road. */
const FULL_INPUTS: readonly GeneratorSpec[] = [
  ...QUICK_INPUTS,
  { kind: 'kronecker', scale: 16, edgeFactor: 8, seed: 14 },
  { kind: 'kronecker', scale: 13, edgeFactor: 32, seed: 24 },
  { kind: 'erdos-renyi', n: 262144, m: 1048576, directed: true, seed: 25 },
  { kind: 'erdos-renyi', n: 2048, m: 65536, directed: true, seed: 26 },
  { kind: 'grid', rows: 700, cols: 500, deleteFraction: 0.3, seed: 27 },
  { kind: 'grid', rows: 1500, cols: 40, seed: 28 },
  { kind: 'banded', n: 262144, halfBandwidth: 4, seed: 29 },
  { kind: 'banded', n: 16384, halfBandwidth: 100, seed: 30 },
];

const SPMM_CONFIGS: readonly (readonly [number, Precision])[] = [[4, 'f32'], [16, 'f32'], [64, 'f32'], [8, 'f64'], [32, 'f64']];
const QUICK_SPMM_CONFIGS: readonly (readonly [number, Precision])[] = [[4, 'f32'], [32, 'f32'], [8, 'f64']];

/** Time a device run: simulators once (deterministic), real devices as the median of repeats. */
async function observe<K extends OperatorKind>(device: Device, repeats: number, run: () => Promise<DeviceResult<K>>): Promise<{ seconds: number; joules: number }> {
  if (device.simulated) {
    const r = await run();
    return { seconds: r.seconds, joules: r.joules };
  }
  await run(); // warm-up: first touch, pool wake-up
  const seconds: number[] = [];
  const joules: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const r = await run();
    seconds.push(r.seconds);
    joules.push(r.joules);
  }
  return { seconds: median(seconds), joules: median(joules) };
}

/** Label of a generated input, as used in samples and reports. */
function label(spec: GeneratorSpec): string {
  return Object.entries(spec).map(([k, v]) => (k === 'kind' ? String(v) : `${k}=${String(v)}`)).join(',');
}

/**
 * Measure every device of `system` on the calibration inputs and return the raw samples.
 * @throws {AbortError} when `signal` aborts.
 */
export async function collectSamples(system: System, options?: CalibrateOptions): Promise<Sample[]> {
  const opts = checkOptions('calibrate', options, ['quick', 'onProgress', 'signal', 'inputs']);
  const quick = opts.quick === true;
  const inputs = opts.inputs ?? (quick ? QUICK_INPUTS : FULL_INPUTS);
  if (!Array.isArray(inputs) || inputs.length === 0) {
    throw new InvalidArgumentError(`calibrate: inputs must be a non-empty array of generator specs, got ${describe(inputs)}`);
  }
  const spmmConfigs = quick ? QUICK_SPMM_CONFIGS : SPMM_CONFIGS;
  const repeats = quick ? 5 : 7;
  // Multi-source BFS at a few and at many sources, so per-level and per-source costs separate.
  const msbfsCounts = quick ? [8, 64] : [4, 16, 128];
  const perInput = spmmConfigs.length + 1 + 2 + 1 + msbfsCounts.length;
  const total = inputs.length * system.devices.length * perInput;
  let done = 0;
  const tick = (what: string): void => {
    done++;
    opts.onProgress?.(done, total, what);
  };
  const samples: Sample[] = [];
  for (const spec of inputs) {
    opts.signal?.throwIfAborted();
    const a = generate(spec);
    const name = label(spec);
    const mf = new ResidentFeatures(packMatrix(matrixFeatures(a)));
    const gfFeatures = graphFeatures(a);
    const gf = new ResidentFeatures(packGraph(gfFeatures, matrixFeatures(a)));
    const sources = gfFeatures.sources;
    for (const device of system.devices) {
      const cache = cachesOf(device);
      const add = (operator: ModelOperator, terms: Float64Array, o: { seconds: number; joules: number }): void => {
        samples.push({ device: device.name, operator, input: name, terms, ...o });
      };
      for (const [k, precision] of spmmConfigs) {
        opts.signal?.throwIfAborted();
        const x = denseFeatures({ rows: a.cols, cols: k, precision, seed: k });
        add('spmm', spmmTerms(mf, k, precision === 'f32' ? 4 : 8, a.rows, a.nnz, cache), await observe(device, repeats, () => device.run({ kind: 'spmm' }, { a, x })));
        tick(`${device.name} spmm k=${k} ${precision} on ${name}`);
      }
      {
        // A row range, as co-execution splits use: the first half of the rows.
        const half = Math.floor(a.rows / 2);
        const x = denseFeatures({ rows: a.cols, cols: 16, precision: 'f32', seed: 3 });
        const nnzHalf = Number(a.rowPtr[half]!) - Number(a.rowPtr[0]!);
        add('spmm', spmmTerms(mf, 16, 4, half, nnzHalf, cache), await observe(device, repeats, () => device.run({ kind: 'spmm' }, { a, x }, [0, half])));
        tick(`${device.name} spmm rows [0, ${half}) on ${name}`);
      }
      for (const precision of ['f32', 'f64'] as const) {
        opts.signal?.throwIfAborted();
        const x = denseFeatures({ rows: a.cols, cols: 1, precision, seed: 1 });
        add('spmv', spmmTerms(mf, 1, precision === 'f32' ? 4 : 8, a.rows, a.nnz, cache), await observe(device, repeats, () => device.run({ kind: 'spmv' }, { a, x })));
        tick(`${device.name} spmv ${precision} on ${name}`);
      }
      if (a.rows === a.cols) {
        // BFS: the mean over the sources the graph features sampled, so terms and observations agree.
        let seconds = 0;
        let joules = 0;
        for (const source of sources) {
          const o = await observe(device, repeats, () => device.run({ kind: 'bfs', source }, { graph: a }));
          seconds += o.seconds / sources.length;
          joules += o.joules / sources.length;
        }
        add('bfs', bfsTerms(gf, mf, cache), { seconds, joules });
        tick(`${device.name} bfs on ${name}`);
        for (const count of msbfsCounts) {
          opts.signal?.throwIfAborted();
          const many = spreadSources(a, count);
          add('msbfs', msbfsTerms(gf, mf, many.length, cache), await observe(device, repeats, () => device.run({ kind: 'msbfs', sources: many }, { graph: a })));
          tick(`${device.name} msbfs ${count} sources on ${name}`);
        }
      } else {
        done += 1 + msbfsCounts.length;
      }
    }
  }
  return samples;
}

/** `count` distinct vertices spread over the id range (deterministic). */
export function spreadSources(g: CsrMatrix, count: number): Int32Array {
  const n = Math.min(count, g.rows);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor((i * g.rows) / n);
  return out;
}

/** Fit one (device, operator) from its samples. */
export function fitOperator(op: ModelOperator, samples: readonly Sample[], prior?: Coefficients): OperatorFit | undefined {
  const cols = TERMS[op];
  const usable = samples.filter((s) => s.seconds > 0 && s.joules > 0);
  if (usable.length < cols) return undefined;
  const terms = new Float64Array(usable.length * cols);
  usable.forEach((s, i) => terms.set(s.terms, i * cols));
  const w = PRIOR_WEIGHT;
  const time = fitRelative(terms, usable.length, cols, Float64Array.from(usable, (s) => s.seconds), prior && w > 0 ? { prior: { coefficients: prior.time, weight: w } } : {});
  const energy = fitRelative(terms, usable.length, cols, Float64Array.from(usable, (s) => s.joules), prior && w > 0 ? { prior: { coefficients: prior.energy, weight: w } } : {});
  return {
    time: Array.from(time.coefficients),
    energy: Array.from(energy.coefficients),
    timeMape: time.mape,
    energyMape: energy.mape,
    timeSpread: time.residualSpread.p90,
    energySpread: energy.residualSpread.p90,
    samples: usable.length,
  };
}

/** Fit every (device, operator) of the system from samples. */
export function fitCalibration(system: System, samples: readonly Sample[], meta: { quick: boolean; seconds: number }): CalibrationPayload {
  const devices: DeviceCalibration[] = system.devices.map((device) => {
    const operators: Partial<Record<ModelOperator, OperatorFit>> = {};
    for (const op of Object.keys(TERMS) as ModelOperator[]) {
      const fit = fitOperator(op, samples.filter((s) => s.device === device.name && s.operator === op), defaultCoefficients(device)[op]);
      if (fit) operators[op] = fit;
    }
    return { key: deviceKey(device), backend: device.backend, profile: device.spec.name, operators };
  });
  return { modelVersion: MODEL_VERSION, createdAt: new Date().toISOString(), quick: meta.quick, seconds: meta.seconds, devices };
}

/**
 * Calibrate the cost model for every device of `system`: measure, fit, and return the payload
 * (store it with `saveCalibration`).
 * @example
 * const payload = await calibrate(system, { quick: true, onProgress: (d, t) => console.log(d, t) });
 */
export async function calibrate(system: System, options?: CalibrateOptions): Promise<CalibrationPayload> {
  checkSystem('calibrate', system);
  const t0 = performance.now();
  const samples = await collectSamples(system, options);
  return fitCalibration(system, samples, { quick: options?.quick === true, seconds: (performance.now() - t0) / 1e3 });
}

// Calibration: run every device on generated inputs that span the feature space (sizes, skew,
// locality, diameter, reach; calibration-set.ts), observed as the executor meets each device
// (measure.ts), record the basis terms and the observed time and energy, and fit
// (fit-calibration.ts). Fitted on generated data only, so accuracy measured on real datasets is
// accuracy on unseen inputs.

import type { CsrMatrix } from '../data/csr.js';
import type { System } from '../devices/system.js';
import { denseFeatures, generate, type GeneratorSpec } from '../generators/index.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkSystem } from '../devices/system.js';
import { checkOptions } from '../validate.js';
import type { CalibrationPayload } from './calibration.js';
import { FULL_SET, QUICK_SET } from './calibration-set.js';
import { termDevice } from './defaults.js';
import { graphFeatures, matrixFeatures } from './features.js';
import { fitCalibration, type Sample } from './fit-calibration.js';
import { observeDevice } from './measure.js';
import { SpeedSentinel } from './speed-drift.js';
import { bfsTerms, msbfsTerms, packGraph, packMatrix, ResidentFeatures, spmmTerms, type ModelOperator } from './packed.js';

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

/** Label of a generated input, as used in samples and reports. */
function label(spec: GeneratorSpec): string {
  return Object.entries(spec)
    .map(([k, v]) => (k === 'kind' ? String(v) : `${k}=${String(v)}`))
    .join(',');
}

/**
 * Measure every device of `system` on the calibration inputs and return the raw samples.
 * @throws {AbortError} when `signal` aborts.
 */
export async function collectSamples(system: System, options?: CalibrateOptions, sentinel?: SpeedSentinel): Promise<Sample[]> {
  const opts = checkOptions('calibrate', options, ['quick', 'onProgress', 'signal', 'inputs']);
  const quick = opts.quick === true;
  const set = quick ? QUICK_SET : FULL_SET;
  const inputs = opts.inputs ?? set.inputs;
  if (!Array.isArray(inputs) || inputs.length === 0) {
    throw new InvalidArgumentError(`calibrate: inputs must be a non-empty array of generator specs, got ${describe(inputs)}`);
  }
  const { spmm: spmmConfigs, spmmRanges, msbfsSources: msbfsCounts, repeats } = set;
  const perInput = spmmConfigs.length + spmmRanges.length + 2 + 1 + msbfsCounts.length;
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
      const cache = termDevice(device);
      const add = (operator: ModelOperator, terms: Float64Array, o: { seconds: number; joules: number }): void => {
        samples.push({ device: device.name, operator, input: name, terms, ...o });
      };
      for (const [k, precision] of spmmConfigs) {
        opts.signal?.throwIfAborted();
        const x = denseFeatures({ rows: a.cols, cols: k, precision, seed: k });
        add(
          'spmm',
          spmmTerms(mf, k, precision === 'f32' ? 4 : 8, a.rows, a.nnz, cache),
          await observeDevice(device, repeats, () => device.run({ kind: 'spmm' }, { a, x })),
        );
        tick(`${device.name} spmm k=${k} ${precision} on ${name}`);
      }
      for (const [from, to] of spmmRanges) {
        // Row ranges, as co-execution splits run them.
        const range = [Math.floor(a.rows * from), Math.floor(a.rows * to)] as const;
        const x = denseFeatures({ rows: a.cols, cols: 16, precision: 'f32', seed: 3 });
        const nnzRange = Number(a.rowPtr[range[1]]!) - Number(a.rowPtr[range[0]]!);
        add(
          'spmm',
          spmmTerms(mf, 16, 4, range[1] - range[0], nnzRange, cache),
          await observeDevice(device, repeats, () => device.run({ kind: 'spmm' }, { a, x }, range)),
        );
        tick(`${device.name} spmm rows [${range[0]}, ${range[1]}) on ${name}`);
      }
      for (const precision of ['f32', 'f64'] as const) {
        opts.signal?.throwIfAborted();
        const x = denseFeatures({ rows: a.cols, cols: 1, precision, seed: 1 });
        add(
          'spmv',
          spmmTerms(mf, 1, precision === 'f32' ? 4 : 8, a.rows, a.nnz, cache),
          await observeDevice(device, repeats, () => device.run({ kind: 'spmv' }, { a, x })),
        );
        tick(`${device.name} spmv ${precision} on ${name}`);
      }
      if (a.rows === a.cols) {
        // BFS: the mean over the sources the graph features sampled, so terms and observations agree.
        let seconds = 0;
        let joules = 0;
        for (const source of sources) {
          const o = await observeDevice(device, repeats, () => device.run({ kind: 'bfs', source }, { graph: a }));
          seconds += o.seconds / sources.length;
          joules += o.joules / sources.length;
        }
        add('bfs', bfsTerms(gf, cache), { seconds, joules });
        tick(`${device.name} bfs on ${name}`);
        for (const count of msbfsCounts) {
          opts.signal?.throwIfAborted();
          const many = spreadSources(a, count);
          add(
            'msbfs',
            msbfsTerms(gf, many.length, cache),
            await observeDevice(device, repeats, () => device.run({ kind: 'msbfs', sources: many }, { graph: a })),
          );
          tick(`${device.name} msbfs ${count} sources on ${name}`);
        }
      } else {
        done += 1 + msbfsCounts.length;
      }
      // A reading of the speed sentinel after each input, so the readings span the calibration.
      await sentinel?.sample(device);
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

export { fitCalibration, fitOperator, type Sample } from './fit-calibration.js';

/**
 * Calibrate the cost model for every device of `system`: measure, fit, and return the payload
 * (store it with `saveCalibration`).
 * @example
 * const payload = await calibrate(system, { quick: true, onProgress: (d, t) => console.log(d, t) });
 */
export async function calibrate(system: System, options?: CalibrateOptions): Promise<CalibrationPayload> {
  checkSystem('calibrate', system);
  const t0 = performance.now();
  const sentinel = new SpeedSentinel();
  const samples = await collectSamples(system, options, sentinel);
  return fitCalibration(system, samples, {
    quick: options?.quick === true,
    seconds: (performance.now() - t0) / 1e3,
    speedDrift: (device) => sentinel.drift(device),
  });
}

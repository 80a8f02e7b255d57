// `dype calibrate --op NAME`: time a user operator's CPU code on inputs of growing size, through
// the executor's own piece path, and fit its time as launch + a * flops + b * bytes (non-negative
// least squares over the operator's own cost terms). The fit replaces the roofline's constant
// rates for that operator on that device (scheduler/costs.ts), where planning does not probe.

import { leastSquaresFitError, type OperatorCostFit } from '../cost/operator-fits.js';
import { nnls } from '../cost/nnls.js';
import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix } from '../data/dense.js';
import type { Device } from '../devices/device.js';
import type { System } from '../devices/system.js';
import { deviceKey } from '../cost/calibration.js';
import { InvalidArgumentError, OperatorError } from '../errors.js';
import { executePiece } from '../executor/piece.js';
import { repeatInRounds } from '../executor/repeats.js';
import { onHostCores } from '../executor/cache-turnover.js';
import { hostTimingFor } from '../executor/host-timing.js';
import { denseFeatures, kroneckerGraph } from '../generators/index.js';
import { median } from '../stats.js';
import { type BoundWorkload, bindWorkload } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';
import { WorkloadBuilder } from '../workloads/builder.js';
import type { OperatorKind } from './kind.js';
import { operatorKind, operatorKinds } from './registry.js';

export interface CalibrateOperatorOptions {
  /** Fewer, smaller inputs and repeats. @default false */
  readonly quick?: boolean;
  /** Called after each input is timed. */
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

type Operands = readonly (CsrMatrix | DenseMatrix)[];

/** Generated inputs: power-law graphs for sparse operands, 16 columns of features with their rows for dense ones. */
function generatedInputs(kind: OperatorKind, quick: boolean): Operands[] {
  const scales = quick ? [10, 12, 14] : [10, 11, 12, 13, 14, 15, 16];
  return scales.map((scale, k) => {
    const graph = kroneckerGraph({ scale, seed: k + 1 });
    return kind.operands.map((o, i) => (o === 'sparse' ? graph : denseFeatures({ rows: graph.rows, cols: 32, seed: 10 * k + i })));
  });
}

/** Devices whose time calibration can measure for `kind`: the host CPU, where the kind has code. */
function measurable(kind: OperatorKind, system: System): Device[] {
  return system.devices.filter((d) => onHostCores(d) && (!kind.runsOn || kind.runsOn(d)));
}

/**
 * Fit the CPU time of user operator `name` on this system's host devices.
 * @throws {InvalidArgumentError} for a built-in or unknown operator, or a system with no host
 *   device the operator has code for.
 * @throws {OperatorError} when the operator refuses its calibration inputs or its code fails.
 */
export async function calibrateOperator(name: string, system: System, options: CalibrateOperatorOptions = {}): Promise<OperatorCostFit[]> {
  const fn = 'calibrateOperator';
  const kind = operatorKind(name, fn);
  if (kind.builtin && !(kind.execution.on === 'host' && kind.calibration))
    throw new InvalidArgumentError(`${fn}: ${name} is a built-in device kernel; \`dype calibrate\` fits it`);
  const devices = measurable(kind, system);
  if (devices.length === 0)
    throw new InvalidArgumentError(
      `${fn}: ${name} has no code for a real host device of this system (${system.devices.map((d) => d.name).join(', ')}); only measured devices are calibrated`,
    );
  const quick = options.quick === true;
  const inputs = kind.calibration ? kind.calibration(quick) : generatedInputs(kind, quick);
  const repeats = quick ? 5 : 9;
  const fits: OperatorCostFit[] = [];
  const total = inputs.length * devices.length;
  let done = 0;
  const bound = inputs.map((operands, k) => bindInput(name, kind, operands, k));
  for (const device of devices) {
    // Every input runs twice untimed first: a JavaScript kernel is interpreted until the JIT has
    // seen it, and the first sizes timed would carry that (700 us for what later took 40).
    for (const b of bound) for (let w = 0; w < 2; w++) await executePiece(b, b.ops[0]!, device, valuesOf(b), 0, b.ops[0]!.units);
    // One fit per precision of the output (a GEMM in f64 runs at half the f32 rate).
    const rows = { f32: [] as Sample[], f64: [] as Sample[] };
    for (const [k, b] of bound.entries()) {
      rows[b.values[b.ops[0]!.output]!.precision].push(await timeInput(b, device, repeats));
      options.onProgress?.(++done, total, `${name} on ${device.name}: input ${k + 1} of ${inputs.length}`);
    }
    for (const precision of ['f32', 'f64'] as const) {
      if (rows[precision].length === 0) continue;
      // Inputs whose work grows many times over must take longer: where they did not, a busy
      // spell of the machine set the times (a loaded CI machine timed a quick ReLU calibration's
      // 4k and 128k rows alike, and the fit put all of it in the launch). Taken again, twice at most.
      const own = bound.filter((b) => b.values[b.ops[0]!.output]!.precision === precision);
      for (let retake = 0; retake < MAX_FLAT_RETAKES && looksFlat(rows[precision]); retake++) {
        rows[precision] = [];
        for (const b of own) rows[precision].push(await timeInput(b, device, repeats));
      }
      fits.push(fitRows(name, deviceKey(device), precision, rows[precision], quick));
    }
  }
  return fits;
}

/** Times a calibration's samples of one precision are taken again when they do not grow with the work. */
const MAX_FLAT_RETAKES = 2;

/** One input's median time on `device`, timed as the probes and the oracle time pieces: in rounds, after a turnover of the host's caches. */
async function timeInput(b: BoundWorkload, device: Device, repeats: number): Promise<Sample> {
  const op = b.ops[0]!;
  const x = valuesOf(b);
  const [samples] = await repeatInRounds(
    [() => executePiece(b, op, device, x, 0, op.units)],
    repeats,
    hostTimingFor(() => device),
  );
  return { flops: op.flops, bytes: op.bytes, seconds: median(samples!.map((s) => s.seconds)) };
}

/**
 * Whether samples whose largest input has at least 8x the work (flops + bytes) of the smallest
 * took no more than 1.5x its time: a machine busy while the small ones were timed does that; an
 * operator whose time truly stays flat only costs two more rounds of timing.
 */
export function looksFlat(rows: readonly Sample[]): boolean {
  if (rows.length < 2) return false;
  const work = (r: Sample): number => r.flops + r.bytes;
  const sorted = [...rows].sort((a, b) => work(a) - work(b));
  const small = sorted[0]!;
  const large = sorted[sorted.length - 1]!;
  return work(large) >= 8 * work(small) && large.seconds <= 1.5 * small.seconds;
}

/** A one-operator workload of `name` over `operands`. */
function bindInput(name: string, kind: OperatorKind, operands: Operands, k: number): BoundWorkload {
  const builder = new WorkloadBuilder(`calibrate-${name}`);
  const data: Record<string, CsrMatrix | DenseMatrix> = {};
  operands.forEach((x, i) => {
    data[`in${i}`] = x;
    if (kind.operands[i] === 'sparse') builder.sparse(`in${i}`);
    else builder.dense(`in${i}`, { rows: x.rows, cols: x.cols });
  });
  try {
    const dense = operands.find((x): x is DenseMatrix => !('rowPtr' in x));
    return bindWorkload(
      builder
        .op(
          'y',
          name,
          operands.map((_, i) => `in${i}`),
        )
        .output('y')
        .build(),
      data,
      dense ? { precision: dense.precision } : {},
    );
  } catch (cause) {
    const shapes = operands.map((x) => `${x.rows}x${x.cols}`).join(', ');
    throw new OperatorError(
      name,
      `calibrateOperator: ${name} refuses calibration input ${k} (${shapes}): ${cause instanceof Error ? cause.message : String(cause)}; give the operator \`calibration\` inputs it accepts`,
      { cause },
    );
  }
}

const valuesOf = (b: BoundWorkload): Value[] => b.ops[0]!.operands.map((v) => b.values[v]!.data!);

export interface Sample {
  readonly flops: number;
  readonly bytes: number;
  readonly seconds: number;
}

/** seconds ~ launch + a * flops + b * bytes, all non-negative, weighted to relative error. */
function fitRows(kind: string, device: string, precision: 'f32' | 'f64', rows: readonly Sample[], quick: boolean): OperatorCostFit {
  const n = rows.length;
  const a = new Float64Array(n * 3);
  const b = new Float64Array(n);
  rows.forEach((r, i) => {
    // Each row divided by its time: the fit minimises relative, not absolute, error.
    const w = 1 / r.seconds;
    a.set([w, r.flops * w, r.bytes * w], 3 * i);
    b[i] = 1;
  });
  const [launchSeconds, secondsPerFlop, secondsPerByte] = nnls(a, n, 3, b);
  const fit = {
    kind,
    device,
    precision,
    launchSeconds: launchSeconds!,
    secondsPerFlop: secondsPerFlop!,
    secondsPerByte: secondsPerByte!,
    samples: n,
    quick,
    createdAt: new Date().toISOString(),
  };
  return { ...fit, timeMape: leastSquaresFitError(fit, rows) };
}

/**
 * Fit every built-in operator the host computes (GEMM, the element-wise maps, reductions, SDDMM)
 * on this system's real host devices: their time per machine, in place of the spec's constant
 * dense rates (`dype calibrate` runs it after the device kernels).
 */
export async function calibrateHostOperators(system: System, options: CalibrateOperatorOptions = {}): Promise<OperatorCostFit[]> {
  const kinds = operatorKinds().filter((k) => k.builtin && k.execution.on === 'host' && k.calibration && measurable(k, system).length > 0);
  const fits: OperatorCostFit[] = [];
  for (const [i, k] of kinds.entries()) {
    fits.push(
      ...(await calibrateOperator(k.name, system, { ...options, onProgress: (d, t, label) => options.onProgress?.(i * t + d, kinds.length * t, label) })),
    );
  }
  return fits;
}

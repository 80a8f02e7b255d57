// One piece of work: an operator's units [begin, end) on one device, computed for real, with its
// cost and how the cost was obtained. Native kernels run on the device (measured on real
// hardware, simulated on a simulator); the dense operators are computed on the host by its
// native dense kernels: timed when the device is the host's own CPU, priced by the device's
// roofline when it is a simulator.
// Shared by the oracle (which keeps the costs) and the executor (which keeps the results).

import type { Device, EnergySource } from '../devices/device.js';
import { operatorKind } from '../operators/registry.js';
import type { OwnKernel } from '../operators/kind.js';
import { UnsupportedError } from '../errors.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { computeHostDense } from '../workloads/host-dense.js';
import type { Value } from '../workloads/reference.js';
import { rangeFraction } from '../scheduler/costs.js';
import { denseCost, denseRates } from '../cost/dense-cost.js';
import { onHost } from '../devices/host-gate.js';
import type { KeepOutputs } from '../devices/kept-outputs.js';

/** How a piece's time was obtained. */
export type PieceSource = 'measured' | 'simulated' | 'roofline';

export interface PieceResult {
  /** The piece's output: its rows (dense or sparse), its sources' depths, or a reduction's partial accumulator. */
  readonly output: Value;
  readonly seconds: number;
  readonly joules: number;
  readonly source: PieceSource;
  readonly energySource: EnergySource;
  /** On a device with memory of its own: the bytes the call copied in and out. */
  readonly copies?: PieceCopies;
}

/** The bytes one device call copied between the host and the device's memory. */
export interface PieceCopies {
  readonly toDeviceBytes: number;
  readonly toHostBytes: number;
}

/** A GPU call's copies from its counters (absent where the device works on host memory). */
function copiesOf(c: { readonly [k: string]: number } | undefined): { copies: PieceCopies } | Record<string, never> {
  const h2d = c?.['h2dBytes'];
  const d2h = c?.['d2hBytes'];
  return h2d === undefined || d2h === undefined ? {} : { copies: { toDeviceBytes: h2d, toHostBytes: d2h } };
}

/** Whether `op` runs as a device kernel on `device` (else it is computed on the host). */
export function isNative(op: BoundOp, device: Device): boolean {
  return operatorKind(op.kind, 'isNative').execution.on === 'device' && (device.capabilities.operators as readonly string[]).includes(op.kind);
}

/**
 * The kernel of its own that `device` runs host-computed `op` with (a CUDA GPU's GEMM, say), or
 * undefined where it has none and the host computes it.
 */
export function ownKernel(op: BoundOp, device: Device): OwnKernel | undefined {
  if (!device.capabilities.denseKernels?.includes(op.kind)) return undefined;
  const exec = operatorKind(op.kind, 'ownKernel').execution;
  return exec.on === 'host' ? exec.onDevice?.[device.backend] : undefined;
}

/**
 * Run units `[begin, end)` of `op` on `device` with operand values `x`, holding the host's cores
 * as the device uses them (see host-gate.ts). A reduction returns its partial accumulator (see
 * `reducePartial`), so parts combine exactly.
 */
export async function runPiece(
  bound: BoundWorkload,
  op: BoundOp,
  device: Device,
  x: readonly Value[],
  begin: number,
  end: number,
  signal?: AbortSignal,
  keep?: KeepOutputs,
): Promise<PieceResult> {
  return onHost(device, () => executePiece(bound, op, device, x, begin, end, signal, keep));
}

/**
 * {@link runPiece} without taking the host gate, for a caller that holds it already (the
 * planner's probes run pieces exactly as the executor does, through this).
 */
export async function executePiece(
  bound: BoundWorkload,
  op: BoundOp,
  device: Device,
  x: readonly Value[],
  begin: number,
  end: number,
  signal?: AbortSignal,
  keep?: KeepOutputs,
): Promise<PieceResult> {
  const full = begin === 0 && end >= op.units;
  const range = [begin, end] as const;
  const exec = operatorKind(op.kind, 'runPiece').execution;
  if (exec.on === 'device' && isNative(op, device)) {
    const options = { ...(signal ? { signal } : {}), ...(keep ? { keepOutputs: keep } : {}) };
    const { output, result: r } = await exec.run(device, op, x, full ? undefined : range, options);
    return { output, seconds: r.seconds, joules: r.joules, source: r.source, energySource: r.energySource, ...copiesOf(r.counters) };
  }
  const own = exec.on === 'host' ? ownKernel(op, device) : undefined;
  if (own) {
    signal?.throwIfAborted();
    const r = await own.run(op, x, range, keep);
    // The kernels' own time (copies are priced on the links, as for the sparse operators); NVML's
    // board power over it where it was read, else the device's busy power (modelled).
    const seconds = r.run?.kernelSeconds ?? r.seconds;
    const measuredPower = r.run?.energyMeasured === true;
    const joules = (measuredPower ? r.run!.watts : device.power.activeWatts) * seconds;
    const copies = r.run ? { copies: { toDeviceBytes: r.run.h2dBytes, toHostBytes: r.run.d2hBytes } } : {};
    return { output: r.output, seconds, joules, source: 'measured', energySource: measuredPower ? 'measured' : 'modelled', ...copies };
  }
  if (!device.simulated && device.memorySpace !== 'host') {
    // Host code timed as another device's work would be a lie: the planner never offers this.
    throw new UnsupportedError(`runPiece: ${op.kind} has no kernel on ${device.name} (${device.backend}); it cannot run there`);
  }
  signal?.throwIfAborted();
  // The host's own CPU runs its native kernels and is timed by them; a simulator's true result
  // comes from the same native kernels (the reference loops took 10-20x as long: 0.6 ms of host
  // time for a ReLU over 8,192 x 16 floats, most of a simulated batch's wait) and its time from
  // its roofline below.
  if (!device.simulated) return { ...(await hostDense(op, device, x, range)), source: 'measured', energySource: 'modelled' };
  const { output } = await computeHostDense(op, x, range, 'native', device);
  const rates = denseRates(device);
  const frac = full ? 1 : rangeFraction(op, bound, begin, end);
  const out = bound.values[op.output]!;
  const c = denseCost(rates, op.flops * frac, op.bytes * frac, out.kind === 'depths' ? 'f32' : out.precision);
  return { output, seconds: c.seconds, joules: c.joules, source: 'roofline', energySource: 'modelled' };
}

/**
 * Host dense work on the host CPU as the executor times it: the native kernel's wall time plus
 * the call's launch, energy at the CPU's busy power. The planner's probes time host work by this
 * same path (executePiece), so a probe and a run agree on what a small pass costs (without the launch, a
 * 2,708-element pass was probed at a third of what it took and put on the CPU).
 */
async function hostDense(
  op: BoundOp,
  device: Device,
  x: readonly unknown[],
  range: readonly [number, number],
): Promise<{ output: Value; seconds: number; joules: number }> {
  const { output, seconds: wall } = await computeHostDense(op, x as readonly Value[], range, 'native', device);
  const rates = denseRates(device);
  const seconds = wall + rates.launchSeconds;
  return { output, seconds, joules: seconds * rates.busyWatts };
}

// Timing a host CPU piece with the caches as a run leaves them. In a run the executor's own work
// and the operator before pass through the cores' caches between two kernels, so a piece starts
// with its operands out of L1 and L2. Timed back to back, or in rounds of a few ranges of small
// operators, it found them there: on cora, a GCN's ReLU was probed at 9-11 us, ran 15-19 us among
// the oracle's pieces and 23-25 us in runPlan, its aggregations 1.2-1.9x their probes; the
// planner priced the CPU low against the simulated devices, whose figures no cache moves, and the
// picks' executed time over predicted was 1.22 (GCN) and 1.19 (GraphSAGE) at the median.
//
// So before each timed run of a host CPU piece (the planner's probes, the oracle's pieces, a user
// operator's calibration) the pool streams a buffer through every core: one L2 of traffic per core
// (a ReLU over L2 x threads / 8 floats, read and written: about 160 us on the 2-vCPU VM), ahead
// of each timed run, not the warm-up. The operands stay in the last-level cache, as in a run.
//
// Then the operands an earlier operator of the workload made are handed over: in a run they were
// just written by that operator's kernel, part of each one's lines dirty in another core's cache,
// and on the 2-vCPU Zen 5 VM (whose two vCPUs sat 220 ns apart, one way, in its slow spells)
// reading them cost far more than reading lines nobody wrote lately. A GCN on wing, all on the
// CPU: its second aggregation took 419-605 us on an operand last written long before, 955-1,231 us
// on one handed over (`handOver`, native/src/addon.cc: every line written on the JS thread),
// 1,004-1,174 us on one the pool's threads had just written, and 972-1,478 us in runPlan. The
// probes and the oracle priced a chain of CPU operators at 0.6-0.8 of its run.

import { DenseMatrix } from '../data/dense.js';
import type { Device } from '../devices/device.js';
import { nativeRelu } from '../kernels/dense.js';
import { recycleOutput } from '../kernels/output-pool.js';
import { optionalAddon } from '../native/addon.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';

/** L2 bytes per core assumed where the machine does not say. */
const DEFAULT_L2_BYTES = 2 << 20;
/** Floats per row of the turnover buffer (any shape works: the ReLU is element-wise). */
const COLUMNS = 256;

let buffer: DenseMatrix | undefined;

/** Bytes of traffic a turnover streams through each core: its L2. */
export function turnoverBytesPerCore(): number {
  const reported = optionalAddon()?.l2CacheBytes() ?? 0;
  return Number.isFinite(reported) && reported > 0 ? reported : DEFAULT_L2_BYTES;
}

function turnoverBuffer(): DenseMatrix {
  if (buffer) return buffer;
  const addon = optionalAddon();
  const l2 = turnoverBytesPerCore();
  // Half an L2 of FP32 elements per thread, each read and written once: an L2 of traffic.
  const rows = Math.max(1, Math.ceil((l2 * (addon?.threads() ?? 1)) / 8 / COLUMNS));
  buffer = new DenseMatrix(rows, COLUMNS, new Float32Array(rows * COLUMNS).fill(0.25), { allowNonFinite: true });
  return buffer;
}

/** Whether `device`'s timed pieces run on this host's cores (the real CPU, not a simulator or a GPU). */
export function onHostCores(device: Device): boolean {
  return !device.simulated && device.memorySpace === 'host';
}

/** Stream one L2 of traffic through every core of the host's pool, leaving the caches as a run leaves them. */
export async function turnOverCaches(): Promise<void> {
  if (optionalAddon() === null) return; // no native kernels: nothing of the host's is timed natively either
  const r = await nativeRelu(turnoverBuffer());
  recycleOutput(r.output.data);
}

/** The dense data among operands `x` of `op` that an earlier operator of the workload made (what a turnover hands over). */
export function madeEarlier(bound: BoundWorkload, op: BoundOp, x: readonly unknown[]): ArrayBufferView[] {
  const out: ArrayBufferView[] = [];
  op.operands.forEach((v, j) => {
    const value = x[j];
    if (bound.values[v]!.producer >= 0 && value instanceof DenseMatrix) out.push(value.data);
  });
  return out;
}

/** Leave `arrays` as another thread leaves what it has just written: every cache line written (contents unchanged). */
export function handOver(arrays: readonly ArrayBufferView[]): void {
  const addon = optionalAddon();
  if (addon === null) return;
  for (const a of arrays) if (a.byteLength > 0) addon.handOver(a);
}

/**
 * For `repeatInRounds`' `before`: ahead of each timed run of the runs whose device
 * (`deviceOf(k)`) computes on the host's cores, a turnover, then the run's operands that an
 * earlier operator made (`madeEarlier(k)`) handed over; nothing for the others.
 */
export function turnoverFor(
  deviceOf: (k: number) => Device,
  madeEarlier?: (k: number) => readonly ArrayBufferView[],
): (k: number) => Promise<void> | undefined {
  return (k) => {
    if (!onHostCores(deviceOf(k))) return undefined;
    const arrays = madeEarlier?.(k) ?? [];
    return arrays.length === 0 ? turnOverCaches() : turnOverCaches().then(() => handOver(arrays));
  };
}

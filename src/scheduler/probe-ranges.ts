// Which ranges of an operator a probe runs: chunks covering it or a sample spread over it for a
// row profile, a sample of a large operator, or the whole of one a real device runs quickly.

import type { Device } from '../devices/device.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { workOf } from './probed-costs.js';

/** Chunks of rows for an operator's profile: `k` covering it when it is small, else `k` samples spread over it. */
export function profileChunks(op: BoundOp, bound: BoundWorkload, maxEntries: number, k = 8): [number, number][] {
  const work = workOf(op, bound);
  const units = op.units;
  const out: [number, number][] = [];
  if (work(0, units) <= maxEntries) {
    // Covering chunks of equal work.
    const total = work(0, units);
    let b = 0;
    for (let j = 1; j <= k && b < units; j++) {
      let e = j === k ? units : b + 1;
      while (e < units && work(0, e) < (total * j) / k) e++;
      if (e > b) out.push([b, e]);
      b = e;
    }
    return out;
  }
  return probeRanges(op, bound, 0, units, maxEntries, k);
}

/** Ranges of units to run for a probe of `[begin, end)`: all of it when small, else a few chunks spread over it. */
export function probeRanges(op: BoundOp, bound: BoundWorkload, begin: number, end: number, maxEntries: number, chunks = 4): [number, number][] {
  const work = workOf(op, bound);
  if (op.split === 'none' || work(begin, end) <= maxEntries) return [[begin, end]];
  const per = maxEntries / chunks;
  const out: [number, number][] = [];
  for (let k = 0; k < chunks; k++) {
    let b = begin + Math.floor(((k + 0.5) / chunks) * (end - begin) - 0.5);
    b = Math.max(begin, Math.min(end - 1, b));
    let e = b + 1;
    while (e < end && work(b, e + 1) <= per) e++;
    if (out.length && b < out[out.length - 1]![1]) b = out[out.length - 1]![1];
    if (b < e) out.push([b, e]);
  }
  return out.length ? out : [[begin, end]];
}

/** Predicted seconds up to which a real device's probe runs an operator whole, not a sample of it. */
export const WHOLE_PROBE_SECONDS = 0.025;

/**
 * The ranges a probe of `[begin, end)` runs: the whole of it on a real device when it is
 * predicted to take at most `WHOLE_PROBE_SECONDS`, else `probeRanges`' sample. A sample of a
 * streaming pass stays in cache where the whole does not: GCN's ReLU and second GEMM on
 * email-Enron were priced at 156 and 319 us from samples and took 400-530 and 690-780 us whole.
 */
export function measuredRanges(
  op: BoundOp,
  bound: BoundWorkload,
  device: Device,
  predictedSeconds: number,
  begin: number,
  end: number,
  maxEntries: number,
): [number, number][] {
  if (!device.simulated && predictedSeconds <= WHOLE_PROBE_SECONDS) return [[begin, end]];
  return probeRanges(op, bound, begin, end, maxEntries);
}

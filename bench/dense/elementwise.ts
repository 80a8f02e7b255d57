// The dense suite's element-wise part: relu, affine, add and a column-sum partial through the
// addon's bindings into preallocated outputs, on arrays larger than the process's cache share,
// against the STREAM-style triad measured in the same run and thread count. Helpers of dense.ts.

import type { Precision } from '../../src/data/dense.js';
import { nativeAddon } from '../../src/native/addon.js';
import { measurePaired, median, type PairedSettings } from '../common/measure.js';
import { progress } from '../common/report.js';

export interface ElementwiseRow {
  readonly op: string;
  readonly precision: Precision;
  readonly elements: number;
  /** Median wall time of the awaited call (ms). */
  readonly ms: number;
  /** Median of the kernel's own reported time (ms): the pass without the call around it. */
  readonly kernelMs: number;
  /** Bytes the pass must move (each operand read once, the output written once) per second. */
  readonly gbs: number;
  /** gbs / the triad's GB/s measured in this run. */
  readonly boundShare: number;
  /** The same for the kernel's own time. */
  readonly kernelBoundShare: number;
}

/** Every pass over `elements` values of each precision (rows of 64), paired against each other round by round. */
export async function measureElementwise(elements: number, triadGBs: number, settings: PairedSettings): Promise<ElementwiseRow[]> {
  const addon = nativeAddon();
  const out: ElementwiseRow[] = [];
  for (const precision of ['f32', 'f64'] as const) {
    const cols = 64;
    const rows = Math.floor(elements / cols);
    const n = rows * cols;
    const make = (): Float32Array | Float64Array => (precision === 'f32' ? new Float32Array(n) : new Float64Array(n));
    const x = make().map((_, i) => ((i * 2654435761) % 1000) / 500 - 1);
    const y = make().fill(0.5);
    const z = make().fill(1);
    const acc = new Float64Array(cols);
    const el = precision === 'f32' ? 4 : 8;
    const passes: [string, number, () => Promise<{ seconds: number }>][] = [
      ['relu', 2 * el * n, () => addon.relu(rows, cols, x, z, 0, rows)],
      ['affine', 2 * el * n, () => addon.affine(rows, cols, x, 0.85, 0.1, z, 0, rows)],
      ['add', 3 * el * n, () => addon.add(rows, cols, x, y, z, 0, rows)],
      ['reduce sum (partial)', el * n, () => addon.reducePartial(rows, cols, x, 0, acc, 0, rows)],
    ];
    const kernelMs = passes.map((): number[] => []);
    const { samples } = await measurePaired(
      passes.map(([name, , call], i) => ({ name, async: true, fn: async () => void kernelMs[i]!.push((await call()).seconds * 1e3) })),
      settings,
    );
    passes.forEach(([op, bytes], i) => {
      const ms = median(samples[i]!);
      // The kernel times of the timed rounds (the first ones were the warm-up's).
      const kms = median(kernelMs[i]!.slice(-samples[i]!.length));
      const gbs = bytes / (ms * 1e6);
      out.push({ op, precision, elements: n, ms, kernelMs: kms, gbs, boundShare: gbs / triadGBs, kernelBoundShare: bytes / (kms * 1e6) / triadGBs });
      progress(`dense ${op} ${precision} x${n}: ${ms.toFixed(2)} ms, ${gbs.toFixed(1)} GB/s (${((100 * gbs) / triadGBs).toFixed(0)}% of triad)`);
    });
  }
  return out;
}

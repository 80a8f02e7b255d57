// Dense arrays dype allocates (kernel outputs, zero matrices, generated features) start their data
// on a 64-byte boundary. A JavaScript typed array's data is only as aligned as the allocator
// behind it (16 bytes past a page for the large ones here), so every 64-byte X row an SpMM gathers
// spanned two cache lines and every 512-bit load was split in two. Measured in one C++ process on
// the Zen 5 VM, the same SpMM with X and Y 64-byte aligned against 16 bytes past it: 1.0-1.8x
// faster, median about 1.2x, over the CI inputs at k = 32 and 128 (Kronecker 14 FP64 k = 128
// 10.2 -> 5.7 ms). Arrays a user passes in are used where they are; only dype's own are placed.

import { type NativeAddon, optionalAddon } from '../native/addon.js';
import type { DenseArray, Precision } from './dense.js';

/** The boundary dense data starts on: a cache line, and a 512-bit vector. */
export const DENSE_ALIGN_BYTES = 64;
/** Below this many bytes an array is allocated as usual: a row or two, nothing to gain. */
const ALIGN_FROM_BYTES = 256;

/** The addon, or null where it does not load (asked once: a failed load is not retried per array). */
let addon: NativeAddon | null | undefined;

/**
 * A zeroed array of `n` elements of `precision` whose data starts on a 64-byte boundary where the
 * native addon can say where that is (else a plain typed array: nothing reads it natively). `n`
 * must already be checked against the typed-array and memory limits (`denseElements`).
 */
export function newDenseArray(precision: Precision, n: number): DenseArray {
  const bytes = n * (precision === 'f32' ? 4 : 8);
  const plain = (): DenseArray => (precision === 'f32' ? new Float32Array(n) : new Float64Array(n));
  if (bytes < ALIGN_FROM_BYTES) return plain();
  addon ??= optionalAddon();
  if (!addon) return plain();
  let buffer: ArrayBuffer;
  try {
    buffer = new ArrayBuffer(bytes + DENSE_ALIGN_BYTES);
  } catch {
    return plain(); // at the engine's largest buffer the pad does not fit: as before, unaligned
  }
  const pad = addon.alignmentPad(buffer);
  return precision === 'f32' ? new Float32Array(buffer, pad, n) : new Float64Array(buffer, pad, n);
}

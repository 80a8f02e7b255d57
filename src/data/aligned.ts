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
/** A transparent huge page: large arrays start on one, so their pages can be huge. */
export const HUGE_PAGE_BYTES = 2 << 20;
/**
 * From this many bytes an array starts on a huge page and is mapped when allocated, whole 2 MiB
 * blocks as huge pages where the system offers them; a last part block of at least this much is
 * mapped whole too (at most a quarter of it unused).
 */
export const HUGE_FROM_BYTES = 3 << 19;

/** The addon, or null where it does not load (asked once: a failed load is not retried per array). */
let addon: NativeAddon | null | undefined;

/**
 * A zeroed array of `n` elements of `precision` whose data starts on a 64-byte boundary where the
 * native addon can say where that is (else a plain typed array: nothing reads it natively). `n`
 * must already be checked against the typed-array and memory limits (`denseElements`).
 *
 * Arrays of 1.5 MiB and more start on a 2 MiB boundary and have their pages mapped here, whole
 * 2 MiB blocks as huge pages. A fresh page's first write is the costly part of a new output: on
 * the 2-vCPU Zen 5 VM 6-12 us a 4 KiB page (the guest's fault, then the hypervisor's: the host
 * backs freed guest memory again only when it is written), so a 4 MiB output took 5-6 ms to
 * provision in 4 KiB pages and 0.25 ms in huge ones (`bench/kernels/fresh-output.ts`).
 */
export function newDenseArray(precision: Precision, n: number): DenseArray {
  const bytes = n * (precision === 'f32' ? 4 : 8);
  const plain = (): DenseArray => (precision === 'f32' ? new Float32Array(n) : new Float64Array(n));
  if (bytes < ALIGN_FROM_BYTES) return plain();
  addon ??= optionalAddon();
  if (!addon) return plain();
  const huge = bytes >= HUGE_FROM_BYTES;
  const tail = bytes % HUGE_PAGE_BYTES;
  // The extent mapped: the data, its last part block whole where that block is mostly data.
  const extent = huge && tail >= HUGE_FROM_BYTES ? bytes - tail + HUGE_PAGE_BYTES : bytes;
  const boundary = huge ? HUGE_PAGE_BYTES : DENSE_ALIGN_BYTES;
  let buffer: ArrayBuffer;
  try {
    buffer = new ArrayBuffer(extent + boundary);
  } catch {
    return plain(); // at the engine's largest buffer the pad does not fit: as before, unaligned
  }
  const pad = addon.alignmentPad(buffer, boundary);
  if (huge) addon.provisionPages(buffer, pad, extent);
  return precision === 'f32' ? new Float32Array(buffer, pad, n) : new Float64Array(buffer, pad, n);
}

// Whether a product is small enough to run on the calling thread (see KERNEL_INLINE_WORK).

import type { CsrMatrix } from '../data/csr.js';
import { KERNEL_INLINE_WORK } from '../native/addon.js';

export function inlineWork(a: CsrMatrix, begin: number, end: number, k: number): boolean {
  const rows = end - begin;
  if (rows * k >= KERNEL_INLINE_WORK) return false;
  const nnz = a.rowStart(end) - a.rowStart(begin);
  return nnz * k + rows < KERNEL_INLINE_WORK;
}

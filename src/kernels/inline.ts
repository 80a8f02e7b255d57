// Whether a product is small enough to run on the calling thread (see INLINE_WORK).

import type { CsrMatrix } from '../data/csr.js';
import { INLINE_WORK } from '../native/addon.js';

export function inlineWork(a: CsrMatrix, begin: number, end: number, k: number): boolean {
  const rows = end - begin;
  if (rows * k >= INLINE_WORK) return false;
  const nnz = a.rowStart(end) - a.rowStart(begin);
  return nnz * k + rows < INLINE_WORK;
}

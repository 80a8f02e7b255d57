// Where a sparse product runs: on the calling thread or the addon's host lane (see InlineMode).

import type { CsrMatrix } from '../data/csr.js';
import { type InlineMode, inlineMode, KERNEL_INLINE_WORK } from '../native/addon.js';

export function inlineWork(a: CsrMatrix, begin: number, end: number, k: number): InlineMode {
  const rows = end - begin;
  if (rows * k >= KERNEL_INLINE_WORK) return 0;
  return inlineMode((a.rowStart(end) - a.rowStart(begin)) * k + rows);
}

// Skew-symmetric storage for the `max` and `min` duplicate policies: cooToCsr mirrors before it
// resolves duplicates, and negation swaps max and min, so the stored entries are resolved first
// (folded onto one triangle) and mirrored after.

import { cooToCsr, type DuplicatePolicy } from '../data/coo.js';
import type { CsrMatrix, ValueArray } from '../data/csr.js';

export interface Coo {
  readonly rows: number;
  readonly cols: number;
  readonly rowIdx: Int32Array;
  readonly colIdx: Int32Array;
  readonly values: ValueArray | undefined;
}

/** Move upper-triangle entries of a skew-symmetric matrix to the lower one, negated (in place). */
function foldSkew(coo: Coo): Coo {
  const { rowIdx, colIdx, values } = coo;
  for (let e = 0; e < rowIdx.length; e++) {
    const r = rowIdx[e]!;
    const col = colIdx[e]!;
    if (r < col) {
      rowIdx[e] = col;
      colIdx[e] = r;
      if (values !== undefined) values[e] = -values[e]!;
    }
  }
  return coo;
}

/** The CSR of a skew-symmetric matrix from its entries, duplicates resolved before mirroring. */
export function skewCsr(fn: string, coo: Coo, duplicates: DuplicatePolicy): CsrMatrix {
  return mirrorSkew(fn, foldSkew(coo), duplicates);
}

function mirrorSkew(fn: string, coo: Coo, duplicates: DuplicatePolicy): CsrMatrix {
  const lower = cooToCsr(coo, { duplicates, caller: fn });
  const rowIdx = new Int32Array(lower.nnz);
  for (let r = 0; r < lower.rows; r++) rowIdx.fill(r, lower.rowStart(r), lower.rowStart(r + 1));
  return cooToCsr({ rows: lower.rows, cols: lower.cols, rowIdx, colIdx: lower.colIdx, values: lower.values }, { mirror: 'skew', caller: fn });
}

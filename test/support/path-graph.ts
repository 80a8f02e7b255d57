// A path 0 - 1 - ... - (n-1) with edges both ways: the graph whose partitions' exchanges are
// easy to count by hand (a row block talks to its two neighbours, one row each way).

import { CsrMatrix } from '../../src/data/csr.js';

export function pathGraph(n: number): CsrMatrix {
  const rowPtr = new Int32Array(n + 1);
  const cols: number[] = [];
  for (let r = 0; r < n; r++) {
    if (r > 0) cols.push(r - 1);
    if (r < n - 1) cols.push(r + 1);
    rowPtr[r + 1] = cols.length;
  }
  return new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx: Int32Array.from(cols) });
}

// What the CUDA tests share: a system of the host CPU and the card, and a long path graph.

import { CsrMatrix } from '../../../src/data/csr.js';
import { buildSystem, type System } from '../../../src/devices/system.js';

/** The host's CPU and the CUDA card, over a link of `profile`. */
export function cpuAndCard(profile = 'pcie-gen5-x16'): System {
  return buildSystem({
    name: 'cpu-cuda',
    devices: [
      { name: 'cpu', backend: 'cpu' },
      { name: 'gpu', backend: 'gpu' },
    ],
    links: [{ between: ['host', 'gpu'], profile }],
  });
}

/** An undirected path of n vertices: n - 1 levels of one vertex each from an end. */
export function path(n: number): CsrMatrix {
  const rowPtr = new Int32Array(n + 1);
  const colIdx: number[] = [];
  for (let v = 0; v < n; v++) {
    if (v > 0) colIdx.push(v - 1);
    if (v + 1 < n) colIdx.push(v + 1);
    rowPtr[v + 1] = colIdx.length;
  }
  return new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx: Int32Array.from(colIdx) });
}

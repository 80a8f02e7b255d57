// The graphs the distributed benches run on, named on their command lines: `kron:S` (Kronecker,
// scale S), `grid:RxC`, a shared dataset's name, or a .mtx path. Every rank loads the same graph.

import { join } from 'node:path';
import type { CsrMatrix } from '../../src/data/csr.js';
import { generate } from '../../src/generators/index.js';
import { loadMatrixMarket } from '../../src/io/index.js';

export async function loadGraph(spec: string): Promise<CsrMatrix> {
  const [kind, size] = spec.split(':');
  if (kind === 'kron') return generate({ kind: 'kronecker', scale: Number(size), seed: 7 }) as CsrMatrix;
  if (kind === 'grid') {
    const [r, c] = size!.split('x').map(Number);
    return generate({ kind: 'grid', rows: r!, cols: c!, seed: 7 }) as CsrMatrix;
  }
  const path = spec.endsWith('.mtx') ? spec : join(import.meta.dirname, '..', '..', '..', 'shared', 'datasets', `${spec}.mtx`);
  return (await loadMatrixMarket(path, { format: 'coordinate' })) as CsrMatrix;
}

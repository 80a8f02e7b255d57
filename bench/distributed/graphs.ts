// The graphs the distributed benches run on, named on their command lines: `kron:S` (Kronecker,
// scale S), `grid:RxC`, a shared dataset's name, or a .mtx path. Every rank loads the same graph.

import { join } from 'node:path';
import type { CsrMatrix } from '../../src/data/csr.js';
import { metisAvailable, partitionMetis, partitionRows, type RowPartition } from '../../src/data/partition.js';
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

/** `count` BFS sources: non-isolated vertices spread over the ids by a fixed hash, the same on every rank. */
export function spreadSources(a: CsrMatrix, count: number): number[] {
  const sources: number[] = [];
  for (let i = 0; sources.length < count && i < a.rows; i++) {
    const v = Math.floor(((i * 2654435761) >>> 0) % a.rows);
    if (a.rowLength(v) > 0 && !sources.includes(v)) sources.push(v);
  }
  return sources;
}

/** The row partitions `--partitioners` names (`rows`, `metis`), each into `parts`; METIS left out where the build lacks it. */
export function partitionsOf(names: string, a: CsrMatrix, parts: number): [string, RowPartition][] {
  return names
    .split(',')
    .filter((m) => m === 'rows' || (m === 'metis' && metisAvailable().available))
    .map((m) => [m, m === 'metis' ? partitionMetis(a, parts) : partitionRows(a, parts)]);
}

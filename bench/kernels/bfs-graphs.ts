// The BFS suite's graphs: which inputs, their classes and sizes, and how each is prepared for a
// search (bench/kernels/bfs.ts).

import type { CsrMatrix } from '../../src/data/csr.js';
import { dropSelfLoops, symmetrize } from '../../src/data/convert.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { loadDataset } from '../common/datasets.js';

export type Size = 'full' | 'ci' | 'quick';
/** Graph classes, as the issue and the summary group them. */
export type GraphClass = 'kronecker' | 'social' | 'road' | 'mesh' | 'fem';
export interface GraphSpec {
  readonly name: string;
  readonly graphClass: GraphClass;
  readonly sizes: readonly Size[];
  readonly make: () => Promise<CsrMatrix | string>;
}

const kron = (scale: number, sizes: readonly Size[]): GraphSpec => ({
  name: `kronecker-${scale}`,
  graphClass: 'kronecker',
  sizes,
  make: async () => kroneckerGraph({ scale, edgeFactor: 16, seed: 1 }),
});
const dataset = (name: string, graphClass: GraphClass, sizes: readonly Size[]): GraphSpec => ({
  name,
  graphClass,
  sizes,
  make: async () => {
    const r = await loadDataset(name, 'f32');
    return r.matrix ?? r.reason;
  },
});

export const GRAPHS: readonly GraphSpec[] = [
  kron(16, ['full', 'ci']),
  kron(17, ['full']),
  kron(18, ['full', 'quick']),
  kron(19, ['full']),
  kron(20, ['full']),
  dataset('soc-Slashdot0902', 'social', ['full']),
  dataset('email-Enron', 'social', ['full', 'ci', 'quick']),
  dataset('facebook_combined', 'social', ['full', 'ci', 'quick']),
  dataset('wiki-Vote', 'social', ['full', 'ci']),
  dataset('bio-pathways', 'social', ['full']),
  dataset('pubmed', 'social', ['full']),
  dataset('luxembourg_osm', 'road', ['full', 'ci', 'quick']),
  dataset('delaunay_n16', 'mesh', ['full', 'ci']),
  dataset('mdual', 'mesh', ['full']),
  dataset('4elt', 'mesh', ['full']),
  dataset('wing', 'mesh', ['full']),
  dataset('bcsstk16', 'fem', ['full']),
  dataset('bcsstk25', 'fem', ['full', 'ci']),
];

/**
 * Graph500 and GAP search undirected graphs, so directed inputs are symmetrized unless asked
 * otherwise; self-loops are dropped everywhere since no search ever follows one.
 */
export function prepare(g: CsrMatrix, directed: boolean): { graph: CsrMatrix; treatment: string } {
  if (g.symmetric) return { graph: dropSelfLoops(g), treatment: 'undirected' };
  if (directed) return { graph: dropSelfLoops(g), treatment: 'directed' };
  return { graph: dropSelfLoops(symmetrize(g)), treatment: 'symmetrized' };
}

/** Edges in the reached component (Graph500 TEPS numerator): undirected edges counted once. */
export function componentEdges(g: CsrMatrix, depth: Int32Array): number {
  let sum = 0;
  for (let v = 0; v < g.rows; v++) if (depth[v]! >= 0) sum += g.rowLength(v);
  return g.symmetric ? sum / 2 : sum;
}

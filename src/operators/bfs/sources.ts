// Choosing BFS sources at bind time: the vertex of largest out-degree, or a seeded sample.

import type { CsrMatrix } from '../../data/csr.js';
import { Rng } from '../../generators/rng.js';

/** The vertex of largest out-degree (the first on ties). */
export function maxDegreeVertex(a: CsrMatrix): number {
  let best = 0;
  let bestDeg = -1;
  for (let i = 0; i < a.rows; i++) {
    const d = Number(a.rowPtr[i + 1]!) - Number(a.rowPtr[i]!);
    if (d > bestDeg) {
      bestDeg = d;
      best = i;
    }
  }
  return best;
}

/** `count` distinct sources, seeded, preferring vertices with out-edges (sorted, for locality). */
export function pickSources(a: CsrMatrix, count: number, seed: number): Int32Array {
  const withEdges: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < a.rows; i++) (Number(a.rowPtr[i + 1]!) > Number(a.rowPtr[i]!) ? withEdges : without).push(i);
  const rng = new Rng(seed, 7);
  const pool = [...withEdges];
  const chosen: number[] = [];
  while (chosen.length < count && pool.length) {
    const j = rng.nextInt(pool.length);
    chosen.push(pool[j]!);
    pool[j] = pool[pool.length - 1]!;
    pool.pop();
  }
  for (let i = 0; chosen.length < count; i++) chosen.push(without[i]!);
  return Int32Array.from(chosen.sort((x, y) => x - y));
}

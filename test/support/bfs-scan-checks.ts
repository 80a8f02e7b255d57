// The bottom-up scan's checks (test/kernels/bfs-bottom-up-scan.test.ts), in a module a child
// process can run with DYPE_BFS_GATHER set: the addon reads it once per process, so each of the
// two scans (one edge at a time; the first few, then 16 at a time with gathers) is checked in a
// process of its own. Run: node --import tsx test/support/bfs-scan-checks.ts (prints "ok").

import { CsrMatrix } from '../../src/data/csr.js';
import { bfs } from '../../src/kernels/bfs.js';
import { bfsReference, checkBfsParents } from '../../src/kernels/reference.js';
import { firstDifference } from './compare.js';

/**
 * Vertex 0 is the source and reaches the hubs 1..H directly; fillers H+1..F are reached only
 * through vertex F+1, at depth 3. Each target t (after them) has `rowLength` in-edges, all from
 * fillers except those at `hubAt(t)`, which come from hubs: a bottom-up step from the hubs' level
 * must find a parent at exactly that position of the row.
 */
export function layered(rowLength: number, hubPositions: readonly (readonly number[])[]): { g: CsrMatrix; targets: number[] } {
  const hubs = 8;
  const fillers = 64;
  const firstFiller = 1 + hubs;
  const bridge = firstFiller + fillers;
  const firstTarget = bridge + 1;
  const n = firstTarget + hubPositions.length;
  // Adjacency lists in the order they are stored: the targets' rows exactly as designed.
  const adjacency: number[][] = Array.from({ length: n }, () => []);
  const edge = (a: number, b: number): void => {
    adjacency[a]!.push(b);
    adjacency[b]!.push(a);
  };
  for (let h = 1; h <= hubs; h++) edge(0, h);
  edge(0, bridge);
  for (let f = 0; f < fillers; f++) edge(bridge, firstFiller + f);
  const targets: number[] = [];
  hubPositions.forEach((positions, i) => {
    const t = firstTarget + i;
    targets.push(t);
    for (let p = 0; p < rowLength; p++) {
      // 7 and 64 are coprime: the fillers of one row are distinct.
      edge(t, positions.includes(p) ? 1 + (p % hubs) : firstFiller + ((p * 7 + i) % fillers));
    }
  });
  const rowPtr = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) rowPtr[v + 1] = rowPtr[v]! + adjacency[v]!.length;
  const g = new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx: Int32Array.from(adjacency.flat()), symmetric: true });
  return { g, targets };
}

/** Parents at every position of a 40-edge row and the first of several; corrupted indices past the first few edges reported where they are. Throws on a failure. */
export async function scanChecks(): Promise<void> {
  const positions = [[0], [3], [4], [5], [15], [19], [20], [21], [35], [39], [6, 30], [25, 26, 27]];
  const { g } = layered(40, positions);
  for (const direction of ['bottom-up', 'auto'] as const) {
    const r = await bfs(g, 0, { direction, parents: true });
    const d = firstDifference(r.depth, bfsReference(g, 0));
    if (d !== -1) throw new Error(`${direction}: depth differs from the reference at vertex ${d}`);
    const p = checkBfsParents(g, 0, r.depth, r.parent!);
    if (p !== -1) throw new Error(`${direction}: vertex ${p} has a wrong parent`);
  }
  // Every target's hub sits at position 30; the index at position 10 of the first target's row
  // (row order as stored) is corrupted after validation, past the edges read one by one.
  const bad = layered(40, [[30], [30]]);
  const at = bad.g.rowStart(bad.targets[0]!) + 10;
  for (const value of [1 << 29, -3]) {
    bad.g.colIdx[at] = value;
    const message = await bfs(bad.g, 0, { direction: 'bottom-up' }).then(
      () => 'no error',
      (e: Error) => e.message,
    );
    if (!message.startsWith(`bfs: colIdx[${at}] = ${value}`)) throw new Error(`corrupted colIdx[${at}] = ${value}: got "${message}"`);
  }
}

if (process.argv[1]?.endsWith('bfs-scan-checks.ts')) {
  await scanChecks();
  console.log('ok');
}

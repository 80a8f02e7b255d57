// The BFS bench's sources and checks, and its multi-source comparison: 64 sources in one msbfs
// call against 64 bfs calls, depths checked against the plain BFS first.

import type { CsrMatrix } from '../../src/data/csr.js';
import { Rng } from '../../src/generators/index.js';
import { bfs } from '../../src/kernels/bfs.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import type { ReferenceAddon } from '../references/load.js';
import { type BenchSettings, measure } from '../common/measure.js';

export interface MultiResult {
  readonly sources: number;
  readonly msbfsMs: number;
  readonly singlesMs: number;
}

export /** Distinct seeded vertices with at least one edge (Graph500 skips isolated roots). */
function pickSources(g: CsrMatrix, count: number, seed: number): Int32Array {
  const rng = new Rng(seed);
  const chosen = new Set<number>();
  for (let tries = 0; chosen.size < count && tries < 100 * count; tries++) {
    const v = rng.nextInt(g.rows);
    if (g.rowLength(v) > 0) chosen.add(v);
  }
  if (chosen.size < count) throw new Error(`${g.toString()}: found only ${chosen.size} sources with edges`);
  return Int32Array.from(chosen);
}

export function sameDepths(what: string, a: Int32Array, b: Int32Array, offset = 0): void {
  for (let v = 0; v < b.length; v++) {
    if (a[offset + v] !== b[v]) throw new Error(`${what}: depth of vertex ${v} is ${a[offset + v]}, the plain BFS says ${b[v]}`);
  }
}

export async function multiSource(g: CsrMatrix, ref: ReferenceAddon, settings: BenchSettings, count: number): Promise<MultiResult | undefined> {
  if (g.rows * count > 2 ** 28) return undefined;
  const sources = pickSources(g, Math.min(count, g.rows), 2);
  const first = await msbfs(g, sources);
  const plainDepth = new Int32Array(g.rows);
  for (const j of [0, sources.length - 1]) {
    ref.plainBfs(g.rows, g.rowPtr as Int32Array, g.colIdx, sources[j]!, plainDepth);
    sameDepths(`msbfs source ${sources[j]}`, first.depths, plainDepth, j * g.rows);
  }
  const depth = new Int32Array(g.rows);
  // Both reuse their outputs, as a repeated caller would: 64 fresh depth rows cost their page
  // faults on every call, the singles' one reused row none.
  const depths = new Int32Array(sources.length * g.rows);
  const [multi, singles] = await measure(
    [
      { name: 'msbfs', fn: () => msbfs(g, sources, { out: depths }), async: true },
      {
        name: 'singles',
        fn: async () => {
          for (const s of sources) await bfs(g, s, { out: { depth } });
        },
        async: true,
      },
    ],
    settings,
  );
  return { sources: sources.length, msbfsMs: multi!.median, singlesMs: singles!.median };
}

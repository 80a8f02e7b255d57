// The GAP-style BFS reference's helpers for the BFS bench: checking its parent tree against the
// plain BFS's depths, and timing it in a process of its own.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsrMatrix } from '../../src/data/csr.js';
import { gapBfsProgram } from '../references/load.js';
import { progress } from '../common/report.js';

/** A BFS tree is right when it reaches what the plain BFS reaches, each parent one level up. */
export function checkParents(what: string, g: CsrMatrix, source: number, parent: Int32Array, depth: Int32Array): void {
  for (let v = 0; v < g.rows; v++) {
    const p = parent[v]!;
    if (p >= 0 !== depth[v]! >= 0) throw new Error(`${what}: vertex ${v} has parent ${p}, the plain BFS depth ${depth[v]}`);
    if (p >= 0 && v !== source && depth[p] !== depth[v]! - 1) throw new Error(`${what}: parent ${p} of vertex ${v} is not one level up`);
  }
}

/**
 * The GAP-style reference in a process of its own (bench/references/gap_bfs_main.cc): ms per
 * search for each source (median over `rounds`), or undefined with the reason on stderr.
 */
export function gapOwnProcess(g: CsrMatrix, sources: Int32Array, threads: number, rounds: number): number[] | undefined {
  const program = gapBfsProgram();
  if (program.path === undefined) {
    progress(`bfs: ${program.reason}`);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'dype-gap-'));
  try {
    const file = join(dir, 'graph.bin');
    const head = new BigInt64Array([BigInt(g.rows), BigInt(g.nnz), BigInt(sources.length)]);
    const rp = g.rowPtr as Int32Array;
    writeFileSync(file, Buffer.concat([head, rp, g.colIdx, sources].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))));
    // OpenMP's default (spinning) waits: nothing else runs in that process to lose a core to them.
    const env = { ...process.env };
    delete env['OMP_WAIT_POLICY'];
    const out = execFileSync(program.path, [file, String(threads), String(rounds)], { encoding: 'utf8', env });
    return out
      .trim()
      .split('\n')
      .map((line) => Number(line.split(' ')[2]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Structural checks and fingerprints shared by the generator tests.

import { createHash } from 'node:crypto';
import { transpose } from '../../src/data/convert.js';
import type { CsrMatrix } from '../../src/data/csr.js';

/**
 * SHA-256 of the matrix's shape and arrays' bytes. Typed arrays are in the platform's byte
 * order; every machine dype targets (x86-64, arm64) is little-endian.
 */
export function fingerprint(a: CsrMatrix): string {
  const h = createHash('sha256');
  h.update(`${a.rows}x${a.cols}:${a.symmetric}:${a.values === undefined ? 'pattern' : a.values.constructor.name};`);
  for (const arr of [a.rowPtr, a.colIdx, a.values]) {
    if (arr !== undefined) h.update(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
  }
  return h.digest('hex');
}

/** Whether A equals its transpose, structure and values. */
export function equalsTranspose(a: CsrMatrix): boolean {
  const t = transpose(a);
  const same = (x: ArrayLike<number | bigint> | undefined, y: ArrayLike<number | bigint> | undefined) =>
    x === undefined ? y === undefined : y !== undefined && x.length === y.length && Array.prototype.every.call(x, (v, i) => v === y[i]);
  return same(a.rowPtr, t.rowPtr) && same(a.colIdx, t.colIdx) && same(a.values, t.values);
}

export function selfLoops(a: CsrMatrix): number {
  let count = 0;
  for (let i = 0; i < a.rows; i++) for (let p = a.rowStart(i); p < a.rowStart(i + 1); p++) if (a.colIdx[p] === i) count++;
  return count;
}

export function degrees(a: CsrMatrix): number[] {
  return Array.from({ length: a.rows }, (_, i) => a.rowLength(i));
}

/** Largest BFS depth reached from `source` (its eccentricity within its component). */
export function bfsDepth(a: CsrMatrix, source: number): { depth: number; reached: number } {
  const dist = new Int32Array(a.rows).fill(-1);
  const queue = new Int32Array(a.rows);
  let head = 0;
  let tail = 0;
  dist[source] = 0;
  queue[tail++] = source;
  let depth = 0;
  while (head < tail) {
    const v = queue[head++]!;
    for (let p = a.rowStart(v); p < a.rowStart(v + 1); p++) {
      const w = a.colIdx[p]!;
      if (dist[w] === -1) {
        dist[w] = dist[v]! + 1;
        depth = Math.max(depth, dist[w]!);
        queue[tail++] = w;
      }
    }
  }
  return { depth, reached: tail };
}

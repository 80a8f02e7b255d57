// Uploads are named by a hash over per-MiB SHA-256 digests of each array, the digests computed in
// parallel by the addon off the JS thread: the name must equal the definition computed plainly here (at piece
// edges, for views inside larger buffers), move with any byte, and the native call must refuse a
// wrongly sized output naming itself.

import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { nativeAddon } from '../../src/native/addon.js';
import { contentHash, contentHashOffThread } from '../../src/service/wire-values.js';

const MiB = 2 ** 20;

/** The definition, plainly: kind and shape, then per array its type, byte length and each MiB's digest. */
function reference(m: DenseMatrix | CsrMatrix): string {
  const h = createHash('sha256');
  const array = (a: ArrayBufferView | undefined): void => {
    if (!a) return void h.update('none;');
    h.update(`${a.constructor.name}:${a.byteLength};`);
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let at = 0; at < bytes.length; at += MiB)
      h.update(
        createHash('sha256')
          .update(bytes.subarray(at, at + MiB))
          .digest(),
      );
  };
  if (m instanceof CsrMatrix) {
    h.update(`csr;${m.rows};${m.cols};${m.symmetric ? 1 : 0};`);
    array(m.rowPtr);
    array(m.colIdx);
    array(m.values);
  } else {
    h.update(`dense;${m.rows};${m.cols};`);
    array(m.data);
  }
  return h.digest('hex');
}

it.each([1, MiB / 4, MiB / 4 + 1, MiB / 2, (7 * MiB) / 8 + 3])('a dense matrix of %i floats has the hash of the definition', async (n) => {
  const data = new Float32Array(n + 8).map((_, i) => (i * 2654435761) % 1000);
  const view = data.subarray(5, 5 + n); // starts inside its buffer
  const m = new DenseMatrix(1, n, view);
  expect(contentHash(m)).toBe(reference(m));
  expect(await contentHashOffThread(m)).toBe(reference(m));
  const moved = view.slice();
  moved[n - 1]! += 1;
  expect(contentHash(new DenseMatrix(1, n, moved))).not.toBe(contentHash(m));
  expect(contentHash(new DenseMatrix(1, n, view.slice()))).toBe(contentHash(m));
});

it('a sparse matrix with values has the hash of the definition', async () => {
  const rows = 300_000;
  const rowPtr = Int32Array.from({ length: rows + 1 }, (_, i) => i);
  const colIdx = Int32Array.from({ length: rows }, (_, i) => (i * 7) % rows);
  const m = new CsrMatrix({ rows, cols: rows, rowPtr, colIdx, values: new Float64Array(rows).fill(0.5) });
  expect(contentHash(m)).toBe(reference(m));
  expect(await contentHashOffThread(m)).toBe(reference(m));
});

it('the native digests refuse an output of the wrong size, naming the call', () => {
  expect(() => nativeAddon().sha256Chunks(new Uint8Array(3 * MiB), MiB, new Uint8Array(64))).toThrow(
    /sha256Chunks: out must hold 32 bytes for each of the 3 pieces/,
  );
});

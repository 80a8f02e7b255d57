// Gzipped input is recognised by its magic bytes, for files and for in-memory bytes alike.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEdgeList, loadMatrixMarket, loadMetis, parseMatrixMarket } from '../../src/io/index.js';
import { expectFormatError, expectFormatErrorAsync, tempDir, toDense } from './helpers.js';

const MTX = '%%MatrixMarket matrix coordinate real general\n2 3 2\n1 3 1.5\n2 1 -2\n';

describe('gzip transparency', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('loads a gzipped Matrix Market file whatever its extension', async () => {
    for (const name of ['a.mtx.gz', 'a-without-extension.mtx']) {
      const path = join(dir, name);
      writeFileSync(path, gzipSync(MTX));
      const a = await loadMatrixMarket(path, { format: 'coordinate' });
      expect(toDense(a)).toEqual([
        [0, 0, 1.5],
        [-2, 0, 0],
      ]);
    }
  });

  it('parses gzipped bytes', () => {
    expect(parseMatrixMarket(gzipSync(MTX)).rows).toBe(2);
  });

  it('loads gzipped edge lists and METIS graphs', async () => {
    const snap = join(dir, 'edges.txt.gz');
    writeFileSync(snap, gzipSync('# c\n5\t9\n9\t7\n'));
    const { matrix, ids } = await loadEdgeList(snap);
    expect([matrix.nnz, Array.from(ids)]).toEqual([2, [5, 7, 9]]);
    const metis = join(dir, 'g.graph.gz');
    writeFileSync(metis, gzipSync('2 1\n2\n1\n'));
    expect((await loadMetis(metis)).nnz).toBe(2);
  });

  it('keeps line numbers through decompression', async () => {
    const path = join(dir, 'bad.mtx.gz');
    writeFileSync(path, gzipSync(MTX.replace('2 1 -2', '2 1 oops')));
    await expectFormatErrorAsync(() => loadMatrixMarket(path), 4, path);
  });

  it('reports corrupt gzip data as a FormatError', async () => {
    const z = gzipSync(MTX.repeat(50));
    const path = join(dir, 'truncated.mtx.gz');
    writeFileSync(path, z.subarray(0, z.length >> 1));
    const e = await expectFormatErrorAsync(() => loadMatrixMarket(path), 0, path);
    expect(e.message).toContain('corrupt gzip data');
    expectFormatError(() => parseMatrixMarket(z.subarray(0, 20)), 0);
  });
});

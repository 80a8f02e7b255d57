// scipy's sparse .npz files (scipy.sparse.save_npz): CSR, CSC and COO, compressed or stored, the
// dtypes scipy saves values and indices in, duplicates summed and columns sorted as scipy's
// canonical form, pattern: true, and 64-bit integer values past 2^53 with a warning.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNpz, parseNpz } from '../../src/io/index.js';
import { tempFolder } from '../support/temp.js';
import { toDense } from './helpers.js';
import { csrNpz, npy, zip } from './npz-fixtures.js';

describe('scipy sparse .npz files', () => {
  it('reads a compressed CSR matrix', async () => {
    const file = join(tempFolder('dype-npz-'), 'a.npz');
    writeFileSync(file, csrNpz([3, 4], [0, 2, 2, 3], [3, 0, 1], [1.5, -2, 4]));
    const a = await loadNpz(file);
    expect([a.rows, a.cols, a.nnz]).toEqual([3, 4, 3]);
    expect(a.values).toBeInstanceOf(Float64Array);
    expect(toDense(a)).toEqual([
      [-2, 0, 0, 1.5],
      [0, 0, 0, 0],
      [0, 4, 0, 0],
    ]);
  });

  it('reads CSC with int64 indices and int64 values, stored without compression', () => {
    const bytes = zip(
      {
        'indices.npy': npy('<i8', [3], [1, 0, 1]),
        'indptr.npy': npy('<i8', [3], [0, 1, 3]),
        'format.npy': npy('<U3', [], 'csc'),
        'shape.npy': npy('<i8', [2], [2, 2]),
        'data.npy': npy('<i8', [3], [7, 8, 9]),
      },
      true,
    );
    expect(toDense(parseNpz(bytes))).toEqual([
      [0, 8],
      [7, 9],
    ]);
  });

  it('reads COO with boolean data, sums duplicates and sorts columns', () => {
    const bytes = zip({
      'row.npy': npy('<i4', [4], [1, 0, 0, 0]),
      'col.npy': npy('<i4', [4], [0, 2, 1, 2]),
      'format.npy': npy('|S3', [], 'coo'),
      'shape.npy': npy('<i8', [2], [2, 3]),
      'data.npy': npy('|b1', [4], [1, 1, 1, 1]),
      '_is_array.npy': npy('|b1', [], [1]),
    });
    const a = parseNpz(bytes, { precision: 'f32' });
    expect(a.values).toBeInstanceOf(Float32Array);
    expect(toDense(a)).toEqual([
      [0, 1, 2],
      [1, 0, 0],
    ]);
  });

  it('keeps the pattern alone with pattern: true, and big-endian and float32 data read as written', () => {
    const bytes = csrNpz([2, 2], [0, 1, 2], [1, 0], [0.25, 3], '<f4');
    const p = parseNpz(bytes, { pattern: true });
    expect(p.values).toBeUndefined();
    expect(p.nnz).toBe(2);
    const big = zip({
      'indices.npy': npy('>i4', [1], [0]),
      'indptr.npy': npy('>i4', [2], [0, 1]),
      'format.npy': npy('|S3', [], 'csr'),
      'shape.npy': npy('<i8', [2], [1, 1]),
      'data.npy': npy('<f4', [1], [0.1]),
    });
    expect(Array.from(parseNpz(big).values!)).toEqual([Math.fround(0.1)]);
  });

  it('reads 64-bit integer values past 2^53 as the nearest double with a warning', () => {
    const bytes = zip({
      'row.npy': npy('<i4', [1], [0]),
      'col.npy': npy('<i4', [1], [0]),
      'format.npy': npy('|S3', [], 'coo'),
      'shape.npy': npy('<i8', [2], [1, 1]),
      'data.npy': npy('<i8', [1], [2n ** 53n + 1n]),
    });
    const warnings: string[] = [];
    expect(Array.from(parseNpz(bytes, { onWarning: (m) => warnings.push(m) }).values!)).toEqual([2 ** 53]);
    expect(warnings).toEqual([
      'parseNpz: <buffer>: 1 integer value beyond 2^53 rounded to the nearest double; the pattern alone (pattern: true) loses nothing',
    ]);
  });
});

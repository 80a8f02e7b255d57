// Damaged and unsupported .npz files are refused with a typed error naming the file and what is
// wrong, before anything is allocated past what the archive declares: not a zip, truncated,
// checksum mismatch, an entry that inflates past its declared size, a missing array, an index
// outside the shape, BSR and DIA, complex values, pickled objects, and limits.

import { describe, expect, it } from 'vitest';
import { FormatError, InvalidArgumentError, LimitError, UnsupportedError } from '../../src/errors.js';
import { loadNpz, parseNpz } from '../../src/io/index.js';
import { csrNpz, npy, zip } from './npz-fixtures.js';

const good = csrNpz([2, 2], [0, 1, 2], [1, 0], [1, 2]);

function refusal(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a refusal');
}

function withArray(name: string, content: Buffer): Buffer {
  return zip({
    'indices.npy': npy('<i4', [2], [1, 0]),
    'indptr.npy': npy('<i4', [3], [0, 1, 2]),
    'format.npy': npy('|S3', [], 'csr'),
    'shape.npy': npy('<i8', [2], [2, 2]),
    'data.npy': npy('<f8', [2], [1, 2]),
    [name]: content,
  });
}

describe('.npz files that are refused', () => {
  it('refuses what is not a zip, or a truncated one', () => {
    expect(refusal(() => parseNpz(Buffer.from('%%MatrixMarket matrix coordinate real general\n'), { label: 'a.npz' })).message).toBe(
      'parseNpz: a.npz: not a zip archive (an .npz file is one)',
    );
    const cut = refusal(() => parseNpz(good.subarray(0, good.length - 30)));
    expect(cut).toBeInstanceOf(FormatError);
    expect(cut.message).toMatch(/^parseNpz: <buffer>: .*(central directory|truncated)/);
  });

  it('refuses a damaged entry by its checksum and one that inflates past its declared size', () => {
    const damaged = Buffer.from(good);
    damaged[50] = damaged[50]! ^ 0xff; // inside the first entry's deflated data
    expect(refusal(() => parseNpz(damaged))).toBeInstanceOf(FormatError);
    const bomb = Buffer.from(good);
    // Declare 4 bytes for the first entry in the central directory: inflating must stop there.
    const central = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(4, central + 24);
    const e = refusal(() => parseNpz(bomb));
    expect(e).toBeInstanceOf(FormatError);
    expect(e.message).toMatch(/indices\.npy: (cannot be inflated|inflates to)/);
  });

  it('names a missing array and an index outside the shape', () => {
    const noFormat = zip({ 'data.npy': npy('<f8', [1], [1]) });
    expect(refusal(() => parseNpz(noFormat)).message).toBe(
      'parseNpz: <buffer>: no format.npy in the archive (is it from scipy.sparse.save_npz? it holds data.npy)',
    );
    const outside = withArray('indices.npy', npy('<i4', [2], [1, 5]));
    expect(refusal(() => parseNpz(outside)).message).toBe('parseNpz: <buffer>: indices.npy: column indices[1] = 5 is outside [0, 2)');
    const pointers = withArray('indptr.npy', npy('<i4', [3], [0, 2, 1]));
    expect(refusal(() => parseNpz(pointers)).message).toMatch(/indptr (decreases|must run from 0 to 2)/);
    const short = withArray('data.npy', Buffer.concat([npy('<f8', [2], [1, 2]).subarray(0, 130)]));
    expect(refusal(() => parseNpz(short)).message).toMatch(/data\.npy: holds \d+ bytes of data, but its shape \(2,\) of <f8 needs 16/);
  });

  it('refuses BSR, DIA, complex values and pickled objects as unsupported', () => {
    expect(refusal(() => parseNpz(withArray('format.npy', npy('|S3', [], 'bsr'))))).toBeInstanceOf(UnsupportedError);
    expect(refusal(() => parseNpz(withArray('format.npy', npy('|S3', [], 'dia')))).message).toContain('DIA matrices are not supported (save a .tocsr() copy)');
    expect(refusal(() => parseNpz(withArray('data.npy', npy('<c16', [2], [0, 0]))))).toBeInstanceOf(UnsupportedError);
    const pickled = withArray('data.npy', npy('|O8', [0], []));
    const e = refusal(() => parseNpz(pickled));
    expect(e).toBeInstanceOf(UnsupportedError);
    expect(e.message).toContain('object arrays (pickled Python objects) are not read');
  });

  it('refuses sizes past the limits and bad arguments', async () => {
    expect(refusal(() => parseNpz(good, { maxEntries: 1 }))).toBeInstanceOf(LimitError);
    expect(refusal(() => parseNpz(withArray('shape.npy', npy('<i8', [2], [2 ** 31, 2]))))).toBeInstanceOf(LimitError);
    expect(refusal(() => parseNpz('good' as never))).toBeInstanceOf(InvalidArgumentError);
    expect(refusal(() => parseNpz(good, { precison: 'f32' } as never)).message).toMatch(/parseNpz: unknown option "precison" \(did you mean "precision"\?\)/);
    await expect(loadNpz('/no/such/file.npz')).rejects.toThrow(/^loadNpz: cannot access "\/no\/such\/file\.npz"/);
  });
});

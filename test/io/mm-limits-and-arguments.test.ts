// Unsupported content, size budgets refused before allocating, bad arguments and missing files.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, IoError, LimitError, UnsupportedError } from '../../src/errors.js';
import { loadMatrixMarket, parseMatrixMarket } from '../../src/io/index.js';
import { expectFormatError, tempDir } from './helpers.js';

describe('Matrix Market limits and arguments', () => {
  it('refuses complex and hermitian matrices as unsupported', () => {
    expect(() => parseMatrixMarket('%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n')).toThrow(UnsupportedError);
    expect(() => parseMatrixMarket('%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n')).toThrow(/<buffer>:1: hermitian/);
  });

  it('refuses an entry count above maxEntries before allocating', () => {
    const text = '%%MatrixMarket matrix coordinate pattern general\n10 10 5\n';
    expect(() => parseMatrixMarket(text, { maxEntries: 4 })).toThrow(LimitError);
    expect(() => parseMatrixMarket(text, { maxEntries: 4 })).toThrow(/<buffer>:2: .*more than maxEntries = 4/);
  });

  it('refuses the default budget of 2^31 - 1 entries', () => {
    expect(() => parseMatrixMarket('%%MatrixMarket matrix coordinate pattern general\n10 10 2147483648\n')).toThrow(LimitError);
  });

  it('refuses dimensions beyond 2^31 - 1', () => {
    expect(() => parseMatrixMarket('%%MatrixMarket matrix coordinate pattern general\n2147483648 1 0\n')).toThrow(LimitError);
    expect(() => parseMatrixMarket('%%MatrixMarket matrix array real general\n100000 100000\n')).toThrow(LimitError);
  });

  it('does not trust a lying header in a short input: it reports truncation without a huge allocation', () => {
    const before = process.memoryUsage().arrayBuffers;
    const e = expectFormatError(() => parseMatrixMarket('%%MatrixMarket matrix coordinate real general\n1000 1000 2000000000\n1 1 1\n'), 4);
    expect(e.message).toContain('ends after 1 of the 2000000000 entries');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
    expectFormatError(() => parseMatrixMarket('%%MatrixMarket matrix array real general\n40000 40000\n1\n'), 4);
  });

  it('rejects unknown and misspelled options', () => {
    expect(() => parseMatrixMarket('', { precison: 'f32' } as never)).toThrow(/unknown option "precison" \(did you mean "precision"\?\)/);
    expect(() => parseMatrixMarket('', { precision: 'f16' } as never)).toThrow(InvalidArgumentError);
    expect(() => parseMatrixMarket('', { duplicates: 'keep' } as never)).toThrow(InvalidArgumentError);
    expect(() => parseMatrixMarket('', { maxEntries: -1 })).toThrow(InvalidArgumentError);
    expect(() => parseMatrixMarket('', { dropSelfLoops: 1 } as never)).toThrow(InvalidArgumentError);
    expect(() => parseMatrixMarket(42 as never)).toThrow(InvalidArgumentError);
  });

  it('turns a missing file into an IoError and a bad path into an InvalidArgumentError', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const path = join(dir, 'nope.mtx');
      const e = await loadMatrixMarket(path).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(IoError);
      expect((e as IoError).path).toBe(path);
      expect((e as IoError).code).toBe('ERR_IO');
      await expect(loadMatrixMarket(dir)).rejects.toBeInstanceOf(IoError);
      await expect(loadMatrixMarket('' as string)).rejects.toBeInstanceOf(InvalidArgumentError);
    } finally {
      cleanup();
    }
  });
});

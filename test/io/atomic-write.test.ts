// writeFileAtomic (src/io/atomic-write.ts): the file appears whole or not at all, is flushed to
// disk before the rename whichever way it was written (the two copies this replaced differed:
// the matrix writer never flushed), and no temporary file survives a failure.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, IoError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/io/atomic-write.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dype-atomic-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** Counts fsync calls on file handles while `body` runs. */
async function syncsDuring(body: () => Promise<void>): Promise<number> {
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  rmSync(join(dir, 'probe'));
  const spy = vi.spyOn(proto, 'sync');
  await body();
  return spy.mock.calls.length;
}

describe('writeFileAtomic', () => {
  it('writes text and bytes, replacing an old file', async () => {
    const path = join(dir, 'a.txt');
    writeFileSync(path, 'old');
    await writeFileAtomic('t', path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    await writeFileAtomic('t', path, Uint8Array.of(1, 2, 3));
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(['a.txt']);
  });

  it('flushes the file before the rename, for content and for a writer function alike', async () => {
    const path = join(dir, 'b.txt');
    expect(await syncsDuring(() => writeFileAtomic('t', path, 'x'))).toBeGreaterThanOrEqual(1);
    expect(await syncsDuring(() => writeFileAtomic('t', path, (tmp) => writeFile(tmp, 'y')))).toBeGreaterThanOrEqual(1);
    expect(readFileSync(path, 'utf8')).toBe('y');
  });

  it('leaves no temporary file when the rename fails, and says where', async () => {
    const path = join(dir, 'c');
    mkdirSync(join(path, 'sub'), { recursive: true });
    await expect(writeFileAtomic('saveIt', path, 'x')).rejects.toThrow(IoError);
    await expect(writeFileAtomic('saveIt', path, 'x')).rejects.toThrow(/^saveIt: cannot access /);
    expect(readdirSync(dir)).toEqual(['c']);
  });

  it('passes a typed error from the writer through and removes its partial file', async () => {
    const path = join(dir, 'd');
    const failing = async (tmp: string): Promise<void> => {
      await writeFile(tmp, 'partial');
      throw new InvalidArgumentError('writer: bad matrix');
    };
    await expect(writeFileAtomic('t', path, failing)).rejects.toThrow(/^writer: bad matrix$/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

// Writing a file all at once or not at all: the content goes to a temporary name in the same
// folder, is flushed to disk, and is renamed over the target, so a reader (or a crash) sees the
// old file or the whole new one, never a part. The one helper for every file dype writes in place.

import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DypeError, IoError } from '../errors.js';

export interface AtomicWriteOptions {
  /** Permissions of a new file (before the umask). @default 0o666 */
  readonly mode?: number;
}

/**
 * Write `content` to `path` atomically. `content` is text, bytes, or a function that writes the
 * temporary file itself (a stream pipeline through gzip, say); either way the file is flushed
 * (fsync) before the rename, since without the flush a crash just after the rename can leave an
 * empty file under the final name, and the folder is flushed after it where the platform allows.
 *
 * @throws {IoError} naming `fn` and `path` when the file cannot be written or renamed; a
 *   DypeError thrown by a writer function passes through unchanged. The temporary file is removed
 *   either way.
 * @example
 * await writeFileAtomic('saveReport', 'report.json', JSON.stringify(report));
 */
export async function writeFileAtomic(
  fn: string,
  path: string,
  content: string | Uint8Array | ((tmp: string) => Promise<void>),
  options?: AtomicWriteOptions,
): Promise<void> {
  const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    if (typeof content === 'function') {
      await content(tmp);
      await flush(tmp, 'r+');
    } else {
      const handle = await open(tmp, 'wx', options?.mode ?? 0o666);
      try {
        await handle.writeFile(content);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    if (e instanceof DypeError) throw e;
    throw new IoError(fn, path, e);
  }
  // The rename itself is durable only once the folder is flushed; some platforms (Windows)
  // cannot open a folder for that, and the file is complete either way.
  await flush(dirname(path), 'r').catch(() => undefined);
}

async function flush(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

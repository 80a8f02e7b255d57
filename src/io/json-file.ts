// Reading a JSON description file (system, workload): an unreadable file is an IoError, text
// that is not JSON a FormatError naming the file. The content is data, parsed, never run.

import { readFile } from 'node:fs/promises';
import { FormatError, IoError } from '../errors.js';

/** The parsed content of the JSON file at `path`, for function `fn`'s messages. */
export async function readJsonFile(fn: string, path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new IoError(fn, path, cause);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new FormatError(fn, path, 0, `not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

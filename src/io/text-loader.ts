// The two ways into a line parser, shared by the text loaders (Matrix Market, edge lists, METIS):
// a file read in chunks, or text or bytes held in memory. Both check their arguments in the same
// order, with the same messages, before a byte is read. Also the one place where the 'error'
// duplicate policy's complaint becomes a FormatError that names the input.

import { FormatError, InvalidArgumentError } from '../errors.js';
import type { DuplicatePolicy } from '../data/coo.js';
import { checkOptions } from '../validate.js';
import { readBufferLines, readFileLines, type LineSink } from './byte-lines.js';
import { checkInput, checkLabel, checkPath } from './options.js';

/** A line parser that gives its result once the input has ended. */
export interface LineParser<R> extends LineSink {
  finish(): R;
}

/**
 * Check `path`, build the parser (`make` checks the options), stream the file through it and
 * return what it read.
 */
export async function loadLines<R>(fn: string, path: string, make: (file: string) => LineParser<R>): Promise<R> {
  checkPath(fn, path);
  const parser = make(path);
  await readFileLines(fn, path, parser);
  return parser.finish();
}

/**
 * Check `input` and the option names (`label` among them), build the parser for the input's
 * label and feed it the input.
 */
export function parseLines<O extends { readonly label?: string }, R>(
  fn: string,
  input: string | Uint8Array,
  options: O | undefined,
  keys: readonly (keyof O & string)[],
  make: (label: string, options: Partial<O>) => LineParser<R>,
): R {
  checkInput(fn, input);
  const raw = checkOptions(fn, options, keys);
  const label = checkLabel(fn, raw.label);
  const parser = make(label, raw);
  readBufferLines(fn, label, input, parser);
  return parser.finish();
}

/**
 * Run `build` (a cooToCsr over what was parsed); the InvalidArgumentError it throws for the
 * `error` duplicate policy becomes a FormatError naming the input. Indices and values were
 * checked while parsing, so no other InvalidArgumentError can come from it.
 */
export function duplicatesAsFormatError<T>(fn: string, file: string, what: string, duplicates: DuplicatePolicy, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof InvalidArgumentError) {
      throw new FormatError(fn, file, 0, `duplicate ${what} (duplicates: "${duplicates}"): ${e.message}`, { cause: e });
    }
    throw e;
  }
}

// The first line of a Matrix Market file, `%%MatrixMarket matrix <format> <field> <symmetry>`:
// read, checked against what the reader supports and against the caller's expected format.

import { UnsupportedError } from '../errors.js';
import type { LineCursor } from './line-cursor.js';
import type { MatrixMarketFormat, ResolvedMatrixMarketOptions } from './matrix-market-options.js';

export type Field = 'pattern' | 'real' | 'integer';
export type Symmetry = 'general' | 'symmetric' | 'skew-symmetric';

/** What the banner says, and whether the values are kept (not with `pattern: true`). */
export interface Banner {
  readonly format: MatrixMarketFormat;
  readonly field: Field;
  readonly symmetry: Symmetry;
  readonly keepValues: boolean;
}

/**
 * Read the banner line at `c` and move past it.
 * @throws {FormatError} for a missing or malformed banner, or a format other than `opts.format`.
 * @throws {UnsupportedError} for `complex` and `hermitian` matrices.
 */
export function readBanner(c: LineCursor, opts: ResolvedMatrixMarketOptions): Banner {
  const text = c.restOfLine().trim();
  const tokens = text.split(/\s+/);
  if (tokens[0]?.toLowerCase() !== '%%matrixmarket') {
    c.fail(`missing the %%MatrixMarket banner: the first line is ${JSON.stringify(text.slice(0, 60))}`);
  }
  if (tokens.length !== 5) {
    c.fail(`the banner must read "%%MatrixMarket matrix <format> <field> <symmetry>", got ${JSON.stringify(text.slice(0, 80))}`);
  }
  const [object, format, field, symmetry] = tokens.slice(1).map((t) => t.toLowerCase()) as [string, string, string, string];
  if (object !== 'matrix') c.fail(`unknown object ${JSON.stringify(object)} in the banner (expected "matrix")`);
  if (format !== 'coordinate' && format !== 'array') {
    c.fail(`unknown format ${JSON.stringify(format)} in the banner (expected "coordinate" or "array")`);
  }
  if (field === 'complex') unsupported(c, 'complex matrices are not supported');
  if (field !== 'real' && field !== 'integer' && field !== 'pattern') {
    c.fail(`unknown field ${JSON.stringify(field)} in the banner (expected "real", "integer" or "pattern")`);
  }
  if (symmetry === 'hermitian') unsupported(c, 'hermitian matrices are not supported');
  if (symmetry !== 'general' && symmetry !== 'symmetric' && symmetry !== 'skew-symmetric') {
    c.fail(`unknown symmetry ${JSON.stringify(symmetry)} in the banner (expected "general", "symmetric" or "skew-symmetric")`);
  }
  if (format === 'array' && field === 'pattern') c.fail('an array matrix cannot have the pattern field');
  if (symmetry === 'skew-symmetric' && field === 'pattern') c.fail('a skew-symmetric matrix cannot have the pattern field');
  // With pattern: true the values are read (and checked) but not kept.
  const keepValues = !(opts.pattern && format === 'coordinate') && field !== 'pattern';
  if (opts.format !== undefined && format !== opts.format) {
    c.fail(`expected a ${opts.format} matrix, but the file holds an ${format} one`);
  }
  c.nextLine();
  return { format, field, symmetry, keepValues };
}

function unsupported(c: LineCursor, detail: string): never {
  throw new UnsupportedError(`${c.fn}: ${c.file}:${c.line}: ${detail}`);
}

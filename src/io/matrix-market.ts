// Matrix Market reader: `coordinate` files become CsrMatrix (through cooToCsr, which owns
// duplicate handling and symmetric expansion), `array` files become row-major DenseMatrix.

import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix } from '../data/dense.js';
import { checkOptions } from '../validate.js';
import {
  MATRIX_MARKET_OPTION_KEYS,
  PARSE_MATRIX_MARKET_OPTION_KEYS,
  resolveMatrixMarketOptions,
  type MatrixMarketOptions,
  type ParseMatrixMarketOptions,
} from './matrix-market-options.js';
import { MatrixMarketParser } from './matrix-market-parser.js';
import { loadLines, parseLines, type LineParser } from './text-loader.js';

export type { MatrixMarketFormat, MatrixMarketOptions, ParseMatrixMarketOptions } from './matrix-market-options.js';

/**
 * Load a Matrix Market file: `coordinate` (pattern, real or integer; general, symmetric or
 * skew-symmetric) as a CsrMatrix with sorted columns, `array` (real or integer) as a row-major
 * DenseMatrix. Symmetric files may store either triangle; the other is filled in and the result
 * is marked `symmetric`. Gzipped files are detected by their magic bytes and read transparently.
 * As scipy does, `integer` values may be 64-bit (beyond 2^53 they become the nearest double,
 * with a warning; `pattern: true` keeps no values), and a skew-symmetric file may store diagonal
 * entries (kept as stored, a warning for nonzero ones).
 *
 * @throws {InvalidArgumentError} for a bad path or option (unknown option names included).
 * @throws {IoError} when the file cannot be opened or read.
 * @throws {FormatError} for malformed content, with `.file` and the 1-based `.line`.
 * @throws {UnsupportedError} for `complex` and `hermitian` matrices.
 * @throws {LimitError} when sizes exceed 2^31 - 1 or the entry count exceeds `maxEntries`.
 * @example
 * const a = await loadMatrixMarket('web.mtx.gz', { format: 'coordinate' });
 * console.log(a.rows, a.nnz);
 */
export function loadMatrixMarket(path: string, options: MatrixMarketOptions & { readonly format: 'coordinate' }): Promise<CsrMatrix>;
export function loadMatrixMarket(path: string, options: MatrixMarketOptions & { readonly format: 'array' }): Promise<DenseMatrix>;
export function loadMatrixMarket(path: string, options?: MatrixMarketOptions): Promise<CsrMatrix | DenseMatrix>;
export function loadMatrixMarket(path: string, options?: MatrixMarketOptions): Promise<CsrMatrix | DenseMatrix> {
  const fn = 'loadMatrixMarket';
  return loadLines(fn, path, (file) => matrixMarketSink(fn, file, options));
}

/**
 * Parse Matrix Market text or bytes held in memory (bytes may be gzipped); see
 * {@link loadMatrixMarket}. Errors name the input `options.label`, by default `<buffer>`.
 *
 * @throws {InvalidArgumentError} for a bad input type or option.
 * @throws {FormatError} for malformed content, with `.file` and the 1-based `.line`.
 * @throws {UnsupportedError} for `complex` and `hermitian` matrices.
 * @throws {LimitError} when sizes exceed 2^31 - 1 or the entry count exceeds `maxEntries`.
 * @example
 * const a = parseMatrixMarket('%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n');
 * // a is a 2x2 CsrMatrix with one entry at (0, 1)
 */
export function parseMatrixMarket(input: string | Uint8Array, options: ParseMatrixMarketOptions & { readonly format: 'coordinate' }): CsrMatrix;
export function parseMatrixMarket(input: string | Uint8Array, options: ParseMatrixMarketOptions & { readonly format: 'array' }): DenseMatrix;
export function parseMatrixMarket(input: string | Uint8Array, options?: ParseMatrixMarketOptions): CsrMatrix | DenseMatrix;
export function parseMatrixMarket(input: string | Uint8Array, options?: ParseMatrixMarketOptions): CsrMatrix | DenseMatrix {
  const fn = 'parseMatrixMarket';
  return parseLines(
    fn,
    input,
    options,
    PARSE_MATRIX_MARKET_OPTION_KEYS,
    (label, raw) => new MatrixMarketParser(fn, label, resolveMatrixMarketOptions(fn, raw)),
  );
}

/**
 * The parser behind both entry points, as a LineSink. Internal (not re-exported): tests feed it
 * through readFileLines with tiny chunks so that every line straddles a chunk boundary.
 */
export function matrixMarketSink(fn: string, file: string, options?: MatrixMarketOptions): LineParser<CsrMatrix | DenseMatrix> {
  return new MatrixMarketParser(fn, file, resolveMatrixMarketOptions(fn, checkOptions(fn, options, MATRIX_MARKET_OPTION_KEYS)));
}

// Options of the Matrix Market reader (matrix-market.ts): what each means, its default, and the
// one place that checks them and fills in the defaults.

import type { DuplicatePolicy } from '../data/coo.js';
import type { Precision } from '../data/dense.js';
import { checkEnum } from '../validate.js';
import { optBoolean, optDuplicates, optMaxEntries, optPrecision, optWarning } from './options.js';

export interface MatrixMarketOptions {
  /** Element type of the values of `real` and `integer` files. @default 'f64' */
  readonly precision?: Precision;
  /**
   * Policy for stored entries at the same position, applied by cooToCsr. In symmetric and
   * skew-symmetric files an entry may sit in either triangle, so (i, j) and (j, i) name the same
   * entry and count as duplicates. Ignored for `array` files.
   * @default 'sum'
   */
  readonly duplicates?: DuplicatePolicy;
  /** Drop diagonal entries (self-loops of a graph). Ignored for `array` files. @default false */
  readonly dropSelfLoops?: boolean;
  /**
   * Refuse (LimitError, before allocating) a file that declares more stored entries than this:
   * the header's entry count for `coordinate` files, the stored elements for `array` files.
   * @default 2 ** 31 - 1
   */
  readonly maxEntries?: number;
  /** Expected format; a file of the other one is a FormatError. @default either */
  readonly format?: MatrixMarketFormat;
  /**
   * Read the sparsity pattern alone: values are checked but not kept (the result has none), so
   * integers too large for a double lose nothing. Ignored for `array` files.
   * @default false
   */
  readonly pattern?: boolean;
  /**
   * Called with a sentence (starting with the function's name) for what was read but not as
   * written: `integer` values beyond 2^53 rounded to the nearest double, nonzero diagonal entries
   * of a skew-symmetric file.
   * @default process.emitWarning
   */
  readonly onWarning?: (message: string) => void;
}

export interface ParseMatrixMarketOptions extends MatrixMarketOptions {
  /** Name used for the input in error messages. @default '<buffer>' */
  readonly label?: string;
}

export type MatrixMarketFormat = 'coordinate' | 'array';

export const MATRIX_MARKET_OPTION_KEYS = ['precision', 'duplicates', 'dropSelfLoops', 'maxEntries', 'format', 'pattern', 'onWarning'] as const;
export const PARSE_MATRIX_MARKET_OPTION_KEYS = [...MATRIX_MARKET_OPTION_KEYS, 'label'] as const;

/** Every option checked, defaults filled in. */
export interface ResolvedMatrixMarketOptions {
  readonly precision: Precision;
  readonly duplicates: DuplicatePolicy;
  readonly dropSelfLoops: boolean;
  readonly maxEntries: number;
  readonly format: MatrixMarketFormat | undefined;
  readonly pattern: boolean;
  readonly onWarning: (message: string) => void;
}

/** @throws {InvalidArgumentError} for an option of the wrong type or value. */
export function resolveMatrixMarketOptions(fn: string, opts: Partial<ParseMatrixMarketOptions>): ResolvedMatrixMarketOptions {
  return {
    precision: optPrecision(fn, opts.precision),
    duplicates: optDuplicates(fn, opts.duplicates),
    dropSelfLoops: optBoolean(fn, 'dropSelfLoops', opts.dropSelfLoops),
    maxEntries: optMaxEntries(fn, opts.maxEntries),
    format: opts.format === undefined ? undefined : checkEnum<MatrixMarketFormat>(fn, 'format', opts.format, ['coordinate', 'array']),
    pattern: optBoolean(fn, 'pattern', opts.pattern),
    onWarning: optWarning(fn, opts.onWarning),
  };
}

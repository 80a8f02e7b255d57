// Seeded dense matrices: SpMM right-hand sides and GNN feature matrices.

import { newDenseArray } from '../data/aligned.js';
import { denseElements, DenseMatrix, type Precision } from '../data/dense.js';
import { checkEnum, checkOptions } from '../validate.js';
import { checkSeed, checkSpecObject, PRECISIONS } from './common.js';
import { Rng, type Seed } from './rng.js';

export interface DenseFeaturesOptions {
  /** Number of rows (one per vertex for GNN features). Required. */
  readonly rows: number;
  /** Number of columns (features). Required. */
  readonly cols: number;
  /** Seed of the random stream (see GraphOptions.seed). @default 0 */
  readonly seed?: Seed;
  /** Element precision. @default 'f32' */
  readonly precision?: Precision;
}

const KEYS = ['rows', 'cols', 'seed', 'precision'] as const;

/**
 * A rows x cols row-major matrix with elements uniform in [-1, 1), filled in row-major order:
 * f32 elements take one 32-bit draw each (24 random bits, exactly representable), f64 elements
 * two (53 random bits). No rounding anywhere, so the bytes are the same on every machine.
 *
 * @throws {InvalidArgumentError} on a missing, non-integer or negative size, a bad seed or
 *   precision, or an unknown option.
 * @throws {LimitError} when rows * cols exceeds what a typed array can hold.
 * @example
 * const x = denseFeatures({ rows: 1024, cols: 64, seed: 5 }); // DenseMatrix(1024x64, f32)
 */
export function denseFeatures(options: DenseFeaturesOptions): DenseMatrix {
  const fn = 'denseFeatures';
  checkSpecObject(fn, options);
  const opts = checkOptions(fn, options, KEYS);
  const rows = opts.rows;
  const cols = opts.cols;
  const count = denseElements(fn, rows as number, cols as number);
  const precision = opts.precision === undefined ? 'f32' : checkEnum(fn, 'precision', opts.precision, PRECISIONS);
  const rng = new Rng(checkSeed(fn, opts.seed));
  if (precision === 'f32') {
    const data = newDenseArray('f32', count);
    for (let i = 0; i < count; i++) data[i] = ((rng.nextU32() >>> 8) - 8388608) / 8388608;
    return new DenseMatrix(rows as number, cols as number, data);
  }
  const data = newDenseArray('f64', count);
  for (let i = 0; i < count; i++) {
    const hi = rng.nextU32() >>> 5; // 27 bits
    const lo = rng.nextU32() >>> 6; // 26 bits
    data[i] = (hi * 67108864 + lo - 4503599627370496) / 4503599627370496;
  }
  return new DenseMatrix(rows as number, cols as number, data);
}

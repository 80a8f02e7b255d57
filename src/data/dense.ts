// Dense row-major matrices: SpMM's right-hand side and output, and GNN feature matrices.

import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import { newDenseArray } from './aligned.js';
import { checkMemory } from '../limits.js';
import { checkInt, firstNonFinite, MAX_INDEX } from '../validate.js';

export type DenseArray = Float32Array | Float64Array;
export type Precision = 'f32' | 'f64';

/** Largest element count dense buffers may have (typed arrays in V8 stop near 2^32 bytes / 2^32 elements). */
export const MAX_DENSE_ELEMENTS = 2 ** 32 - 1;

/**
 * A dense matrix stored row-major: element (i, j) is `data[i * cols + j]`.
 *
 * @throws {InvalidArgumentError} when `data.length !== rows * cols`, a size is negative or not an
 *   integer, or an element is NaN or infinite.
 * @example
 * const x = new DenseMatrix(2, 3, new Float32Array(6));
 * x.get(1, 2); // 0
 */
export class DenseMatrix<T extends DenseArray = DenseArray> {
  readonly rows: number;
  readonly cols: number;
  readonly data: T;

  constructor(rows: number, cols: number, data: T, options?: { readonly allowNonFinite?: boolean }) {
    checkInt('DenseMatrix', 'rows', rows, 0, MAX_INDEX);
    checkInt('DenseMatrix', 'cols', cols, 0, MAX_INDEX);
    if (!(data instanceof Float32Array) && !(data instanceof Float64Array)) {
      throw new InvalidArgumentError(`DenseMatrix: data must be a Float32Array or Float64Array, got ${describe(data)}`);
    }
    if (data.length !== rows * cols) {
      throw new InvalidArgumentError(`DenseMatrix: data has length ${data.length}, expected rows * cols = ${rows} * ${cols} = ${rows * cols}`);
    }
    if (options?.allowNonFinite !== true) {
      const bad = firstNonFinite(data);
      if (bad >= 0) {
        throw new InvalidArgumentError(`DenseMatrix: element (${Math.floor(bad / cols)}, ${bad % cols}) = ${data[bad]} is not finite`);
      }
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }

  /** A zero matrix of the given precision. */
  static zeros(rows: number, cols: number, precision: Precision = 'f32'): DenseMatrix {
    const n = denseElements('DenseMatrix.zeros', rows, cols);
    // Zero-filled, so finite by construction: nothing to scan.
    return new DenseMatrix(rows, cols, newDenseArray(precision, n), { allowNonFinite: true });
  }

  get precision(): Precision {
    return this.data instanceof Float32Array ? 'f32' : 'f64';
  }

  get(i: number, j: number): number {
    return this.data[i * this.cols + j]!;
  }

  /** A view (no copy) of row `i`. */
  row(i: number): T {
    return this.data.subarray(i * this.cols, (i + 1) * this.cols) as T;
  }

  toString(): string {
    return `DenseMatrix(${this.rows}x${this.cols}, ${this.precision})`;
  }
}

/** rows * cols, refusing sizes that cannot be allocated before anything is allocated. */
export function denseElements(fn: string, rows: number, cols: number): number {
  checkInt(fn, 'rows', rows, 0, MAX_INDEX);
  checkInt(fn, 'cols', cols, 0, MAX_INDEX);
  const n = rows * cols;
  if (n > MAX_DENSE_ELEMENTS) {
    throw new LimitError(`${fn}: a ${rows}x${cols} dense matrix has ${n} elements, more than the ${MAX_DENSE_ELEMENTS} a typed array can hold`);
  }
  // Priced at 8 bytes an element: the wider precision, so the check holds for both.
  checkMemory(fn, `a ${rows}x${cols} dense matrix`, n * 8);
  return n;
}

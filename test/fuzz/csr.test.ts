// CSR validation under hostile arrays: CsrMatrix accepts exactly what an independent oracle calls
// valid, refuses everything else with an InvalidArgumentError naming CsrMatrix, and cooToCsr and
// DenseMatrix refuse bad shapes, indices and values the same way.

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { CsrMatrix, type CsrInit } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { hostileCsr, isValidCsr } from './csr-arbitraries.js';
import { attempt, fuzz, hostileInt, nonFinite, notANumber } from './harness.js';

describe('CsrMatrix', () => {
  fuzz('CsrMatrix accepts exactly the valid arrays', hostileCsr, 400, (m) => {
    const got = attempt('CsrMatrix', () => new CsrMatrix(m as unknown as CsrInit));
    expect(got.ok, `${m.corruption}: ${got.ok ? 'accepted' : got.error.message}`).toBe(isValidCsr(m));
    if (!got.ok) {
      expect(got.error).toBeInstanceOf(InvalidArgumentError);
      return 'refused';
    }
    const a = got.value;
    expect(a.nnz).toBe((m.colIdx as Int32Array).length);
    // sortedColumns is true exactly when every row's columns strictly increase.
    let sorted = true;
    for (let r = 0; r < a.rows; r++) for (let p = a.rowStart(r) + 1; p < a.rowStart(r + 1); p++) if (a.colIdx[p]! <= a.colIdx[p - 1]!) sorted = false;
    expect(a.sortedColumns).toBe(sorted);
    return 'result';
  });
});

/** Mostly a plausible value, sometimes a hostile one: so that both outcomes keep coming up. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 });

const cooArb = fc.record({
  rows: mostly(fc.integer({ min: 6, max: 8 }), hostileInt),
  cols: mostly(fc.integer({ min: 6, max: 8 }), hostileInt),
  rowIdx: fc.array(mostly(fc.integer({ min: 0, max: 5 }), fc.oneof(hostileInt, fc.constant(8))), { maxLength: 12 }),
  colIdx: fc.array(mostly(fc.integer({ min: 0, max: 5 }), fc.oneof(hostileInt, fc.constant(8))), { maxLength: 12 }),
  values: fc.option(fc.array(mostly(fc.double({ min: -3, max: 3, noNaN: true }), nonFinite), { maxLength: 12 }), { nil: undefined }),
  duplicates: mostly(fc.constantFrom('sum', 'max', 'min', 'first', 'last', 'error'), fc.constantFrom('summ', 3)),
  mirror: mostly(fc.constantFrom('none', 'symmetric', 'skew', undefined), fc.constant('mirror')),
  dropSelfLoops: mostly(fc.constantFrom(true, false, undefined), fc.constant('no')),
});

describe('cooToCsr', () => {
  fuzz('cooToCsr builds a valid CSR or refuses with a typed error', cooArb, 300, (c) => {
    // Index arrays of equal length (a mismatch is one more refusal the arbitrary would otherwise make almost always).
    const n = c.rowIdx.length % 7 === 0 ? c.rowIdx.length : Math.min(c.rowIdx.length, c.colIdx.length);
    const values = c.values && c.values.length >= n && c.rowIdx.length % 5 !== 0 ? c.values.slice(0, n) : c.values;
    const got = attempt('cooToCsr', () =>
      cooToCsr(
        {
          rows: c.rows,
          cols: c.cols,
          rowIdx: Int32Array.from(c.rowIdx.slice(0, n)),
          colIdx: Int32Array.from(c.colIdx.slice(0, n)),
          values: values && Float64Array.from(values),
        },
        { duplicates: c.duplicates as never, mirror: c.mirror as never, dropSelfLoops: c.dropSelfLoops as never },
      ),
    );
    if (!got.ok) return 'refused';
    const a = got.value;
    // The result must itself pass full validation, and keep no more entries than were given (twice, mirrored).
    expect(() => new CsrMatrix({ rows: a.rows, cols: a.cols, rowPtr: a.rowPtr, colIdx: a.colIdx, values: a.values })).not.toThrow();
    expect(a.nnz).toBeLessThanOrEqual(2 * c.rowIdx.length);
    expect(a.sortedColumns).toBe(true);
    return 'result';
  });
});

const denseArb = fc.record({
  rows: fc.oneof(fc.integer({ min: 0, max: 5 }), hostileInt, notANumber),
  cols: fc.oneof(fc.integer({ min: 0, max: 5 }), hostileInt, notANumber),
  length: fc.integer({ min: 0, max: 30 }),
  poison: fc.option(nonFinite, { nil: undefined }),
  kind: fc.constantFrom('f32', 'f64', 'i32', 'array'),
});

describe('DenseMatrix', () => {
  fuzz('DenseMatrix checks its shape, element type and values', denseArb, 300, (d) => {
    const data =
      d.kind === 'f32'
        ? new Float32Array(d.length)
        : d.kind === 'f64'
          ? new Float64Array(d.length)
          : d.kind === 'i32'
            ? new Int32Array(d.length)
            : new Array<number>(d.length).fill(0);
    if (d.poison !== undefined && d.length > 0) (data as Float64Array)[d.length - 1] = d.poison;
    const got = attempt('DenseMatrix', () => new DenseMatrix(d.rows as number, d.cols as number, data as Float64Array));
    const valid =
      typeof d.rows === 'number' &&
      Number.isInteger(d.rows) &&
      d.rows >= 0 &&
      d.rows < 2 ** 31 &&
      typeof d.cols === 'number' &&
      Number.isInteger(d.cols) &&
      d.cols >= 0 &&
      d.cols < 2 ** 31 &&
      (d.kind === 'f32' || d.kind === 'f64') &&
      d.rows * d.cols === d.length &&
      (d.poison === undefined || d.length === 0);
    expect(got.ok).toBe(valid);
    return got.ok ? 'result' : 'refused';
  });
});

// Coordinate (triplet) input and its conversion to CSR: every loader and generator funnels its
// entries through cooToCsr, so duplicate handling and symmetric expansion are decided once, here.

import { describe, InvalidArgumentError } from '../errors.js';
import { checkMemory } from '../limits.js';
import { checkEnum, checkInt, checkOptions, firstNonFinite, MAX_INDEX } from '../validate.js';
import { allocRowPtr, CsrMatrix, type RowPtrArray, type ValueArray } from './csr.js';

/** What to do with several entries at the same (row, column). */
export type DuplicatePolicy = 'sum' | 'max' | 'min' | 'first' | 'last' | 'error';
export const DUPLICATE_POLICIES: readonly DuplicatePolicy[] = ['sum', 'max', 'min', 'first', 'last', 'error'];

/** How stored entries expand: Matrix Market stores one triangle of symmetric matrices. */
export type MirrorMode = 'none' | 'symmetric' | 'skew';

export interface CooInit {
  readonly rows: number;
  readonly cols: number;
  readonly rowIdx: Int32Array;
  readonly colIdx: Int32Array;
  readonly values?: ValueArray | undefined;
}

export interface CooToCsrOptions {
  /**
   * Policy for entries that share a (row, column). For pattern matrices every policy but
   * `'error'` keeps one entry.
   * @default 'sum'
   */
  readonly duplicates?: DuplicatePolicy;
  /**
   * `'symmetric'` adds (j, i) for every stored (i, j) with i != j; `'skew'` adds (j, i) with the
   * negated value.
   * @default 'none'
   */
  readonly mirror?: MirrorMode;
  /** Drop diagonal entries (self-loops in a graph). @default false */
  readonly dropSelfLoops?: boolean;
  /** Mark the result as structurally symmetric (implied by `mirror: 'symmetric' | 'skew'`). @default false */
  readonly symmetric?: boolean;
  /** Function name used in error messages. @default 'cooToCsr' */
  readonly caller?: string;
}

const OPTION_KEYS = ['duplicates', 'mirror', 'dropSelfLoops', 'symmetric', 'caller'] as const;

/**
 * Build a CSR matrix from coordinate entries: columns sorted within each row, duplicates
 * resolved by `options.duplicates` (entries are taken in input order for `'first'`/`'last'`).
 * Extra memory is one row-length array plus the output; the input arrays are not modified.
 *
 * @throws {InvalidArgumentError} on mismatched lengths, indices outside the shape, non-finite
 *   values, unknown options, or a duplicate under the `'error'` policy.
 * @example
 * const a = cooToCsr({ rows: 2, cols: 2, rowIdx: Int32Array.of(1, 0, 1),
 *   colIdx: Int32Array.of(0, 1, 0), values: Float64Array.of(1, 2, 3) });
 * // row 1 holds one entry (0, value 4) under the default 'sum' policy
 */
export function cooToCsr(coo: CooInit, options?: CooToCsrOptions): CsrMatrix {
  // Read only from an object (a function's own `caller` throws in strict mode); checkOptions refuses the rest.
  const caller = options !== null && typeof options === 'object' ? (options as { caller?: unknown }).caller : undefined;
  if (caller !== undefined && (typeof caller !== 'string' || caller.length === 0)) {
    // Checked first: every later message starts with it.
    throw new InvalidArgumentError(`cooToCsr: caller must be a non-empty string, got ${describe(caller)}`);
  }
  const opts = checkOptions(caller ?? 'cooToCsr', options, OPTION_KEYS);
  const fn = opts.caller ?? 'cooToCsr';
  const duplicates = opts.duplicates === undefined ? 'sum' : checkEnum(fn, 'duplicates', opts.duplicates, DUPLICATE_POLICIES);
  const mirror = opts.mirror === undefined ? 'none' : checkEnum<MirrorMode>(fn, 'mirror', opts.mirror, ['none', 'symmetric', 'skew']);
  const dropLoops = opts.dropSelfLoops === true;

  if (coo === null || typeof coo !== 'object') throw new InvalidArgumentError(`${fn}: expected COO arrays, got ${describe(coo)}`);
  const rows = checkInt(fn, 'rows', coo.rows, 0, MAX_INDEX);
  const cols = checkInt(fn, 'cols', coo.cols, 0, MAX_INDEX);
  const { rowIdx, colIdx, values } = coo;
  if (!(rowIdx instanceof Int32Array)) throw new InvalidArgumentError(`${fn}: rowIdx must be an Int32Array, got ${describe(rowIdx)}`);
  if (!(colIdx instanceof Int32Array)) throw new InvalidArgumentError(`${fn}: colIdx must be an Int32Array, got ${describe(colIdx)}`);
  if (colIdx.length !== rowIdx.length) {
    throw new InvalidArgumentError(`${fn}: rowIdx has ${rowIdx.length} entries but colIdx has ${colIdx.length}`);
  }
  if (values !== undefined) {
    if (!(values instanceof Float32Array) && !(values instanceof Float64Array)) {
      throw new InvalidArgumentError(`${fn}: values must be a Float32Array or Float64Array, got ${describe(values)}`);
    }
    if (values.length !== rowIdx.length) {
      throw new InvalidArgumentError(`${fn}: values has ${values.length} entries but rowIdx has ${rowIdx.length}`);
    }
    const bad = firstNonFinite(values);
    if (bad >= 0) throw new InvalidArgumentError(`${fn}: values[${bad}] = ${values[bad]} is not finite`);
  }
  if (mirror !== 'none' && rows !== cols) {
    throw new InvalidArgumentError(`${fn}: mirror = ${JSON.stringify(mirror)} needs a square matrix, got ${rows}x${cols}`);
  }

  const m = rowIdx.length;
  // Per-row counters and row pointers, then the column indices and values: priced before any is
  // allocated, so a huge row count with a handful of entries is refused at once instead of
  // allocating and sweeping gigabytes.
  const valueBytes = values === undefined ? 0 : values instanceof Float32Array ? 4 : 8;
  checkMemory(fn, `a ${rows}x${cols} matrix of ${m} entries`, (rows + 1) * 16 + (mirror === 'none' ? m : 2 * m) * (4 + valueBytes));
  // Pass 1: count entries per row (including mirrored ones), validating indices on the way.
  // 32-bit counters whenever the total provably fits: they are a third of the peak memory
  // otherwise spent on bookkeeping when loading large files.
  const bound = mirror === 'none' ? m : 2 * m;
  const counts: Int32Array | Float64Array = bound <= MAX_INDEX ? new Int32Array(rows + 1) : new Float64Array(rows + 1);
  for (let e = 0; e < m; e++) {
    const r = rowIdx[e]!;
    const c = colIdx[e]!;
    if (r >>> 0 >= rows) throw new InvalidArgumentError(`${fn}: entry ${e} has row index ${r} outside [0, ${rows})`);
    if (c >>> 0 >= cols) throw new InvalidArgumentError(`${fn}: entry ${e} has column index ${c} outside [0, ${cols})`);
    if (r === c) {
      if (!dropLoops) counts[r + 1]!++;
    } else {
      counts[r + 1]!++;
      if (mirror !== 'none') counts[c + 1]!++;
    }
  }
  for (let r = 0; r < rows; r++) counts[r + 1]! += counts[r]!;
  const total = counts[rows]!;

  // Pass 2: scatter into row order. counts[r] is row r's insertion cursor; afterwards it holds
  // the end of row r, which is also where row r + 1 starts.
  const outCols = new Int32Array(total);
  const outVals: ValueArray | undefined = values === undefined ? undefined : values instanceof Float32Array ? new Float32Array(total) : new Float64Array(total);
  for (let e = 0; e < m; e++) {
    const r = rowIdx[e]!;
    const c = colIdx[e]!;
    if (r === c && dropLoops) continue;
    let p = counts[r]!++;
    outCols[p] = c;
    if (outVals !== undefined) outVals[p] = values![e]!;
    if (mirror !== 'none' && r !== c) {
      p = counts[c]!++;
      outCols[p] = r;
      if (outVals !== undefined) outVals[p] = mirror === 'skew' ? -values![e]! : values![e]!;
    }
  }

  // Pass 3: sort each row by column (stable) and resolve duplicates, compacting in place.
  const rowPtr = allocRowPtr(rows, total);
  let write = 0;
  for (let r = 0; r < rows; r++) {
    const a = r === 0 ? 0 : counts[r - 1]!;
    const b = counts[r]!;
    sortRow(outCols, outVals, a, b);
    const rowBegin = write;
    for (let p = a; p < b; p++) {
      const c = outCols[p]!;
      if (write > rowBegin && outCols[write - 1] === c) {
        if (duplicates === 'error') {
          throw new InvalidArgumentError(`${fn}: duplicate entry at (${r}, ${c}) with duplicates = "error"`);
        }
        if (outVals !== undefined) outVals[write - 1] = combine(duplicates, outVals[write - 1]!, outVals[p]!);
        continue;
      }
      outCols[write] = c;
      if (outVals !== undefined) outVals[write] = outVals[p]!;
      write++;
    }
    setRowPtr(rowPtr, r + 1, write);
  }

  const finalCols = write === total ? outCols : outCols.slice(0, write);
  const finalVals = outVals === undefined || write === total ? outVals : outVals.slice(0, write);
  const finalPtr: RowPtrArray = rowPtr instanceof BigInt64Array && write <= MAX_INDEX ? Int32Array.from(rowPtr, Number) : rowPtr;
  // Built and checked here entry by entry, so the O(nnz) validation pass is skipped.
  return CsrMatrix.trusted({
    rows,
    cols,
    rowPtr: finalPtr,
    colIdx: finalCols,
    values: finalVals,
    symmetric: mirror !== 'none' || opts.symmetric === true,
    sortedColumns: true,
  });
}

function setRowPtr(rowPtr: RowPtrArray, i: number, v: number): void {
  if (rowPtr instanceof BigInt64Array) rowPtr[i] = BigInt(v);
  else rowPtr[i] = v;
}

function combine(policy: DuplicatePolicy, kept: number, next: number): number {
  switch (policy) {
    case 'sum':
      return kept + next;
    case 'max':
      return Math.max(kept, next);
    case 'min':
      return Math.min(kept, next);
    case 'first':
      return kept;
    default:
      return next; // 'last'
  }
}

/**
 * Stable sort of cols[a, b) (and vals alongside) by column: cooToCsr's 'first' and 'last'
 * policies rely on equal columns keeping their order. Also sorts rows for the METIS reader and
 * the Matrix Market writer (io/csr-rows.ts).
 * @internal
 */
export function sortRow(cols: Int32Array, vals: ValueArray | undefined, a: number, b: number): void {
  let sorted = true;
  for (let p = a + 1; p < b; p++) {
    if (cols[p]! < cols[p - 1]!) {
      sorted = false;
      break;
    }
  }
  if (sorted) return;
  const len = b - a;
  if (len <= 32) {
    for (let i = a + 1; i < b; i++) {
      const c = cols[i]!;
      const v = vals === undefined ? 0 : vals[i]!;
      let j = i - 1;
      while (j >= a && cols[j]! > c) {
        cols[j + 1] = cols[j]!;
        if (vals !== undefined) vals[j + 1] = vals[j]!;
        j--;
      }
      cols[j + 1] = c;
      if (vals !== undefined) vals[j + 1] = v;
    }
    return;
  }
  if (vals === undefined) {
    // Equal pattern entries are indistinguishable, so an unstable native sort is fine.
    cols.subarray(a, b).sort();
    return;
  }
  if (len > 2 ** 22) {
    // Too long to pack exactly into a double; fall back to a comparator sort (stable in V8).
    const order = Array.from({ length: len }, (_, i) => i);
    order.sort((x, y) => cols[a + x]! - cols[a + y]! || x - y);
    const tmpCols = cols.slice(a, b);
    const tmpV = vals.slice(a, b);
    for (let i = 0; i < len; i++) {
      cols[a + i] = tmpCols[order[i]!]!;
      vals[a + i] = tmpV[order[i]!]!;
    }
    return;
  }
  // Pack (column, original position) into one exactly representable double and sort natively:
  // ties keep input order, which 'first' and 'last' rely on.
  const keys = new Float64Array(len);
  for (let i = 0; i < len; i++) keys[i] = cols[a + i]! * len + i;
  keys.sort();
  const tmpVals = vals.slice(a, b);
  for (let i = 0; i < len; i++) {
    const k = keys[i]!;
    const src = k % len;
    cols[a + i] = (k - src) / len;
    vals[a + i] = tmpVals[src]!;
  }
}

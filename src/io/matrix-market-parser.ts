// The Matrix Market parser behind loadMatrixMarket and parseMatrixMarket (matrix-market.ts), as a
// LineSink: the banner, the size line (and the allocations it asks for), then the data lines of a
// coordinate file (a fast path for the usual line, a checked path for the rest) or an array file.

import { LimitError } from '../errors.js';
import { cooToCsr, type MirrorMode } from '../data/coo.js';
import type { CsrMatrix, ValueArray } from '../data/csr.js';
import { DenseMatrix, denseElements, MAX_DENSE_ELEMENTS, type DenseArray } from '../data/dense.js';
import { checkMemory } from '../limits.js';
import { MAX_INDEX } from '../validate.js';
import type { LineSink } from './byte-lines.js';
import { LineCursor } from './line-cursor.js';
import { readBanner, type Field, type Symmetry } from './matrix-market-banner.js';
import type { MatrixMarketFormat, ResolvedMatrixMarketOptions } from './matrix-market-options.js';
import { allocate, capacityFor, fitsF32 } from './options.js';
import { skewCsr } from './skew-symmetric.js';
import { duplicatesAsFormatError } from './text-loader.js';

// Where the parser is: before the banner, before the size line, in the data lines.
const BANNER = 0;
const SIZE = 1;
const DATA = 2;

/** Shortest line each kind of data line can be, newline included: bounds allocations. */
const MIN_BYTES = { pattern: 4, real: 6, integer: 6, array: 2 } as const;

export class MatrixMarketParser implements LineSink {
  private readonly cursor: LineCursor;
  private phase = BANNER;
  private maxBytes = 0;

  private format: MatrixMarketFormat = 'coordinate';
  private keepValues = true;
  /** Nonzero diagonal entries of a skew-symmetric coordinate file (kept as stored). */
  private skewDiagonal = 0;
  private skewDiagonalLine = 0;
  private field: Field = 'real';
  private symmetry: Symmetry = 'general';

  private rows = 0;
  private cols = 0;
  /** Entries (coordinate) or stored elements (array) the size line declares. */
  private declared = 0;
  private sizeLine = 0;
  /** Entries read so far. */
  private count = 0;

  // Coordinate storage.
  private rowIdx = new Int32Array(0);
  private colIdx = new Int32Array(0);
  private values: ValueArray | undefined;

  // Array storage: `data` stays undefined when the input is too short to hold what the size line
  // declares, since then the file is certainly truncated and the error comes at its end.
  private data: DenseArray | undefined;
  private nextRow = 0;
  private nextCol = 0;

  constructor(
    private readonly fn: string,
    private readonly file: string,
    private readonly opts: ResolvedMatrixMarketOptions,
  ) {
    this.cursor = new LineCursor(fn, file);
  }

  begin(maxBytes: number): void {
    this.maxBytes = maxBytes;
  }

  lines(buf: Uint8Array, start: number, end: number): void {
    const c = this.cursor;
    c.reset(buf, start, end);
    while (c.pos < end) {
      if (this.phase === DATA) {
        if (this.format === 'coordinate') this.coordinateLines(c);
        else this.arrayLines(c);
        return;
      }
      if (this.phase === BANNER) this.banner(c);
      else this.sizeLineOrComment(c);
    }
  }

  private banner(c: LineCursor): void {
    ({ format: this.format, field: this.field, symmetry: this.symmetry, keepValues: this.keepValues } = readBanner(c, this.opts));
    this.phase = SIZE;
  }

  private sizeLineOrComment(c: LineCursor): void {
    if (c.skipEmptyLine()) return;
    this.sizeLine = c.line;
    const rows = c.readUint('row count');
    const cols = c.readUint('column count');
    const coordinate = this.format === 'coordinate';
    const entries = coordinate ? c.readUint('entry count') : 0;
    c.endLine('the size line');
    if (rows > MAX_INDEX || cols > MAX_INDEX) {
      this.limit(`a ${rows}x${cols} matrix exceeds the largest supported dimension ${MAX_INDEX}`);
    }
    if (this.symmetry !== 'general' && rows !== cols) c.fail(`a ${this.symmetry} matrix must be square, got ${rows}x${cols}`, this.sizeLine);
    this.rows = rows;
    this.cols = cols;
    this.phase = DATA;
    const { maxEntries, precision } = this.opts;
    const makeValues = (n: number): Float32Array | Float64Array => (precision === 'f32' ? new Float32Array(n) : new Float64Array(n));

    if (coordinate) {
      if (entries > maxEntries) this.limit(`the file declares ${entries} entries, more than maxEntries = ${maxEntries}`);
      this.declared = entries;
      const capacity = capacityFor(entries, this.maxBytes, MIN_BYTES[this.field]);
      // What will be allocated (the header's count, capped by what the input can hold, so a lying
      // header in a short input is reported as truncated): the coordinates as read, the CSR built
      // from them (twice for a mirrored file) and its row pointers.
      const vb = !this.keepValues ? 0 : precision === 'f32' ? 4 : 8;
      const stored = this.symmetry === 'general' ? capacity : 2 * capacity;
      checkMemory(this.fn, `${this.file}: a ${rows}x${cols} matrix of ${capacity} entries`, capacity * (8 + vb) + stored * (4 + vb) + (rows + 1) * 8);
      this.rowIdx = allocate(this.fn, 'row indices', capacity, (n) => new Int32Array(n));
      this.colIdx = allocate(this.fn, 'column indices', capacity, (n) => new Int32Array(n));
      if (this.keepValues) this.values = allocate(this.fn, 'values', capacity, makeValues);
      return;
    }
    const n = rows;
    const stored = this.symmetry === 'general' ? rows * cols : this.symmetry === 'symmetric' ? (n * (n + 1)) / 2 : (n * (n - 1)) / 2;
    if (stored > maxEntries) this.limit(`the file declares ${stored} elements, more than maxEntries = ${maxEntries}`);
    if (rows * cols > MAX_DENSE_ELEMENTS) {
      this.limit(`a ${rows}x${cols} dense matrix has ${rows * cols} elements, more than the ${MAX_DENSE_ELEMENTS} a typed array can hold`);
    }
    this.declared = stored;
    // Allocated only when the input can hold every element; otherwise it ends as truncated.
    if (capacityFor(stored, this.maxBytes, MIN_BYTES.array) === stored) {
      checkMemory(this.fn, `${this.file}: a ${rows}x${cols} dense matrix`, rows * cols * (precision === 'f32' ? 4 : 8));
      const total = denseElements(this.fn, rows, cols);
      this.data = allocate(this.fn, 'the dense matrix', total, makeValues);
    }
    this.nextCol = 0;
    this.nextRow = this.symmetry === 'skew-symmetric' ? 1 : 0;
  }

  // The hot loop. Lines of the usual shape ("i j" or "i j value", single blanks, '\n' or
  // "\r\n") take the cursor's fast path (scanPair, scanLineEnd); any other line (comments, extra
  // blanks, every kind of error) is re-read from its start by checkedLine, so the checks and
  // messages live in one place.
  private coordinateLines(c: LineCursor): void {
    const end = c.end;
    const rows = this.rows;
    const cols = this.cols;
    const rowIdx = this.rowIdx;
    const colIdx = this.colIdx;
    const values = this.values;
    const value = this.field === 'pattern' ? 'none' : this.field === 'integer' ? 'int64' : 'real';
    const f32 = values instanceof Float32Array;
    // Diagonal entries of a skew-symmetric file take the checked path, which counts nonzero ones.
    const skew = this.symmetry === 'skew-symmetric';
    const capacity = rowIdx.length;
    let n = this.count;
    let p = c.pos;
    let line = c.line;
    while (p < end) {
      // biome-ignore lint/suspicious/noConfusingLabels: `break fast` hands the line to the general parser below
      fast: {
        if (n >= capacity) break fast;
        let q = c.scanPair(p);
        if (q < 0) break fast;
        const i = c.first;
        const j = c.second;
        if (i < 1 || i > rows || j < 1 || j > cols || (skew && i === j)) break fast;
        q = c.scanLineEnd(q, line, value, 'value');
        if (q < 0) break fast;
        if (values !== undefined) {
          const v = c.value;
          if (f32 && !fitsF32(v)) break fast;
          values[n] = v;
        }
        rowIdx[n] = i - 1;
        colIdx[n] = j - 1;
        n++;
        p = q;
        line++;
        continue;
      }
      c.pos = p;
      c.line = line;
      n = this.checkedLine(c, n);
      p = c.pos;
      line = c.line;
    }
    c.pos = p;
    c.line = line;
    this.count = n;
  }

  /** Read one coordinate line at `c` with every check; returns the new entry count. */
  private checkedLine(c: LineCursor, n: number): number {
    if (c.skipEmptyLine()) return n;
    const declared = this.declared;
    if (n >= this.rowIdx.length) {
      c.fail(
        n === declared
          ? `more entries than the ${declared} declared on line ${this.sizeLine}`
          : `the input is too short to hold the ${declared} entries declared on line ${this.sizeLine}`,
      );
    }
    const { rows, cols, values } = this;
    const i = c.readUint('row index');
    const j = c.readUint('column index');
    if (i < 1 || i > rows) c.fail(`row index ${i} is outside [1, ${rows}]`);
    if (j < 1 || j > cols) c.fail(`column index ${j} is outside [1, ${cols}]`);
    this.rowIdx[n] = i - 1;
    this.colIdx[n] = j - 1;
    if (this.field !== 'pattern') {
      const v = this.field === 'integer' ? c.readInt64('value') : c.readReal('value');
      if (values instanceof Float32Array && !fitsF32(v)) c.fail(`value ${v} overflows single precision (precision: "f32")`);
      if (values !== undefined) values[n] = v;
      // A skew-symmetric matrix has a zero diagonal; scipy keeps stored diagonal entries as they are.
      if (i === j && v !== 0 && this.symmetry === 'skew-symmetric' && this.skewDiagonal++ === 0) this.skewDiagonalLine = c.line;
    }
    c.endLine(this.field === 'pattern' ? 'the row and column indices' : 'the value');
    return n + 1;
  }

  private arrayLines(c: LineCursor): void {
    const end = c.end;
    const data = this.data;
    const integer = this.field === 'integer';
    const f32 = this.opts.precision === 'f32';
    const { rows, cols, declared } = this;
    const symmetric = this.symmetry === 'symmetric';
    const skew = this.symmetry === 'skew-symmetric';
    let n = this.count;
    let i = this.nextRow;
    let j = this.nextCol;
    while (c.pos < end) {
      if (c.skipEmptyLine()) continue;
      if (n === declared) c.fail(`more elements than the ${declared} declared by the size line ${this.sizeLine}`);
      const v = integer ? c.readInt64('value') : c.readReal('value');
      if (f32 && !fitsF32(v)) c.fail(`value ${v} overflows single precision (precision: "f32")`);
      c.endLine('the value');
      n++;
      if (data !== undefined) {
        // The file is column-major; the matrix is row-major.
        data[i * cols + j] = v;
        if (symmetric) data[j * cols + i] = v;
        else if (skew) data[j * cols + i] = -v;
      }
      if (++i === rows) {
        j++;
        i = symmetric ? j : skew ? j + 1 : 0;
      }
    }
    this.count = n;
    this.nextRow = i;
    this.nextCol = j;
  }

  finish(): CsrMatrix | DenseMatrix {
    const c = this.cursor;
    if (this.phase === BANNER) c.fail('empty input: missing the %%MatrixMarket banner');
    if (this.phase === SIZE) c.fail('missing the size line');
    if (this.count < this.declared) {
      const what = this.format === 'coordinate' ? 'entries' : 'elements';
      c.fail(`the input ends after ${this.count} of the ${this.declared} ${what} declared on line ${this.sizeLine}`);
    }
    this.warn();
    if (this.format === 'array') return new DenseMatrix(this.rows, this.cols, this.data!);
    return this.toCsr();
  }

  /** What was read but not as written, told once per kind. */
  private warn(): void {
    const c = this.cursor;
    const { onWarning } = this.opts;
    if (c.inexact > 0 && (this.keepValues || this.format === 'array')) {
      const first = c.inexactText;
      onWarning(
        `${this.fn}: ${this.file}: ${c.inexact} integer value${c.inexact === 1 ? '' : 's'} beyond 2^53 rounded to the nearest double ` +
          `(first on line ${c.inexactLine}: ${first} read as ${BigInt(Number(first))}); the pattern alone (pattern: true) loses nothing`,
      );
    }
    if (this.skewDiagonal > 0) {
      onWarning(
        `${this.fn}: ${this.file}: ${this.skewDiagonal} nonzero diagonal entr${this.skewDiagonal === 1 ? 'y' : 'ies'} in a skew-symmetric matrix (first on line ${this.skewDiagonalLine}), kept as stored`,
      );
    }
  }

  private toCsr(): CsrMatrix {
    const n = this.count;
    const coo = {
      rows: this.rows,
      cols: this.cols,
      rowIdx: this.rowIdx.length === n ? this.rowIdx : this.rowIdx.subarray(0, n),
      colIdx: this.colIdx.length === n ? this.colIdx : this.colIdx.subarray(0, n),
      values: this.values === undefined || this.values.length === n ? this.values : this.values.subarray(0, n),
    };
    const { duplicates, dropSelfLoops } = this.opts;
    const mirror: MirrorMode = this.symmetry === 'symmetric' ? 'symmetric' : this.symmetry === 'skew-symmetric' ? 'skew' : 'none';
    // cooToCsr mirrors before it resolves duplicates, and negation swaps max and min.
    return duplicatesAsFormatError(this.fn, this.file, 'entries', duplicates, () =>
      mirror === 'skew' && (duplicates === 'max' || duplicates === 'min')
        ? skewCsr(this.fn, coo, duplicates)
        : cooToCsr(coo, { duplicates, mirror, dropSelfLoops, caller: this.fn }),
    );
  }

  private limit(detail: string): never {
    throw new LimitError(`${this.fn}: ${this.file}:${this.sizeLine}: ${detail}`);
  }
}

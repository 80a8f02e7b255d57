// METIS graph reader: the file is already an adjacency list in vertex order, so it is parsed
// straight into CSR arrays (no coordinate detour) and then checked to be a simple undirected graph.

import { FormatError, LimitError } from '../errors.js';
import { checkMemory } from '../limits.js';
import { CsrMatrix, type ValueArray } from '../data/csr.js';
import type { Precision } from '../data/dense.js';
import { checkOptions, MAX_INDEX } from '../validate.js';
import type { LineSink } from './byte-lines.js';
import { findAsymmetry, findDuplicate, sortRows } from './csr-rows.js';
import { LineCursor } from './line-cursor.js';
import { allocate, capacityFor, fitsF32, optMaxEntries, optPrecision } from './options.js';
import { loadLines, parseLines, type LineParser } from './text-loader.js';

export interface MetisOptions {
  /** Element type of the edge weights (when the file has them). @default 'f64' */
  readonly precision?: Precision;
  /**
   * Refuse (LimitError, before allocating) a header whose 2m adjacency entries exceed this.
   * @default 2 ** 31 - 1
   */
  readonly maxEntries?: number;
}

export interface ParseMetisOptions extends MetisOptions {
  /** Name used for the input in error messages. @default '<buffer>' */
  readonly label?: string;
}

const OPTION_KEYS = ['precision', 'maxEntries'] as const;
const PARSE_OPTION_KEYS = [...OPTION_KEYS, 'label'] as const;

/**
 * Load a graph in METIS format: a header `n m [fmt [ncon]]`, then one line per vertex listing its
 * 1-based neighbours (each followed by its edge weight when `fmt` says so, after the vertex size
 * and weights, which are checked and skipped); `%` lines are comments. The graph must be
 * undirected: every edge listed from both ends, with equal weights, no self-loops, no repeats.
 * Returns a symmetric CsrMatrix with sorted columns, valued when the file has edge weights.
 * Gzipped files are detected by their magic bytes.
 *
 * @throws {InvalidArgumentError} for a bad path or option (unknown option names included).
 * @throws {IoError} when the file cannot be opened or read.
 * @throws {FormatError} for malformed content, with `.file` and the 1-based `.line` of the
 *   offending vertex (or of the header for a wrong edge count).
 * @throws {LimitError} when n exceeds 2^31 - 1 or 2m exceeds `maxEntries`.
 * @example
 * const g = await loadMetis('4elt.graph');
 * console.log(g.rows, g.nnz / 2, 'edges');
 */
export function loadMetis(path: string, options?: MetisOptions): Promise<CsrMatrix> {
  const fn = 'loadMetis';
  return loadLines(fn, path, (file) => metisSink(fn, file, options));
}

/**
 * Parse a METIS graph held in memory (bytes may be gzipped); see {@link loadMetis}.
 *
 * @throws {InvalidArgumentError} for a bad input type or option.
 * @throws {FormatError} for malformed content, with `.file` (`options.label`) and `.line`.
 * @throws {LimitError} when n exceeds 2^31 - 1 or 2m exceeds `maxEntries`.
 * @example
 * const g = parseMetis('3 2\n2\n1 3\n2\n'); // the path 1 - 2 - 3
 * g.nnz; // 4
 */
export function parseMetis(input: string | Uint8Array, options?: ParseMetisOptions): CsrMatrix {
  const fn = 'parseMetis';
  return parseLines(
    fn,
    input,
    options,
    PARSE_OPTION_KEYS,
    (label, opts) => new MetisParser(fn, label, optPrecision(fn, opts.precision), optMaxEntries(fn, opts.maxEntries)),
  );
}

/** The parser behind both entry points, as a LineSink; internal, for chunk-boundary tests. */
export function metisSink(fn: string, file: string, options?: MetisOptions): LineParser<CsrMatrix> {
  const opts = checkOptions(fn, options, OPTION_KEYS);
  return new MetisParser(fn, file, optPrecision(fn, opts.precision), optMaxEntries(fn, opts.maxEntries));
}

const NEWLINE = 10;
const PERCENT = 37;

class MetisParser implements LineSink {
  private readonly cursor: LineCursor;
  private maxBytes = 0;
  private headerLine = 0;
  private n = 0;
  private m = 0;
  private hasSizes = false;
  private vertexWeights = 0;
  private edgeWeights = false;

  private rowPtr = new Int32Array(1);
  private colIdx = new Int32Array(0);
  private values: ValueArray | undefined;
  /** Vertex lines read so far. */
  private vertex = 0;
  /** Adjacency entries read so far. */
  private count = 0;
  /**
   * For each comment line after the header, the vertex whose line follows it: enough to recover
   * any vertex's line number for an error message without storing one number per vertex.
   */
  private readonly commentsBefore: number[] = [];

  constructor(
    private readonly fn: string,
    private readonly file: string,
    private readonly precision: Precision,
    private readonly maxEntries: number,
  ) {
    this.cursor = new LineCursor(fn, file);
  }

  begin(maxBytes: number): void {
    this.maxBytes = maxBytes;
  }

  lines(buf: Uint8Array, start: number, end: number): void {
    const c = this.cursor;
    c.reset(buf, start, end);
    while (c.pos < end && this.headerLine === 0) this.headerOrComment(c);
    if (this.headerLine !== 0) this.vertexLines(c);
  }

  private headerOrComment(c: LineCursor): void {
    if (c.skipEmptyLine()) return;
    const line = c.line;
    const n = c.readUint('vertex count');
    const m = c.readUint('edge count');
    let fmt = 0;
    let ncon = 0;
    if (c.skipBlanks() !== NEWLINE) {
      const start = c.pos;
      fmt = c.readUint('fmt');
      if (fmt > 111 || fmt % 10 > 1 || Math.floor(fmt / 10) % 10 > 1) {
        c.fail(`fmt must be up to three binary digits (vertex sizes, vertex weights, edge weights), got ${c.describeToken(start)}`);
      }
      if (c.skipBlanks() !== NEWLINE) ncon = c.readUint('ncon');
    }
    c.endLine('the header');
    const vertexWeights = Math.floor(fmt / 10) % 10 === 1;
    if (ncon !== 0 && !vertexWeights) c.fail(`ncon = ${ncon} but fmt = ${fmt} declares no vertex weights`, line);
    this.headerLine = line;
    this.n = n;
    this.m = m;
    this.hasSizes = fmt >= 100;
    this.vertexWeights = vertexWeights ? Math.max(ncon, 1) : 0;
    this.edgeWeights = fmt % 10 === 1;
    if (n > MAX_INDEX) this.limit(`n = ${n} vertices exceed the supported ${MAX_INDEX}`);
    const budget = Math.min(this.maxEntries, MAX_INDEX);
    if (2 * m > budget) this.limit(`2m = ${2 * m} adjacency entries exceed the budget of ${budget} (maxEntries)`);
    // Each vertex line takes at least its newline and each entry 2 bytes ("7 " or "7\n"), so a
    // header that promises more than the input can hold gets small arrays and a truncation error.
    const vertices = capacityFor(n, this.maxBytes, 1);
    const capacity = capacityFor(2 * m, this.maxBytes, 2);
    // Priced on what will be allocated: the header's sizes capped by what the input can hold.
    const vb = this.edgeWeights ? (this.precision === 'f32' ? 4 : 8) : 0;
    checkMemory(this.fn, `${this.file}: a graph of ${vertices} vertices and ${capacity} adjacency entries`, capacity * (4 + vb) + (vertices + 1) * 8);
    this.rowPtr = allocate(this.fn, 'row pointers', vertices + 1, (k) => new Int32Array(k));
    this.colIdx = allocate(this.fn, 'adjacency', capacity, (k) => new Int32Array(k));
    if (this.edgeWeights) {
      this.values = allocate(this.fn, 'edge weights', capacity, (k) => (this.precision === 'f32' ? new Float32Array(k) : new Float64Array(k)));
    }
  }

  private vertexLines(c: LineCursor): void {
    const end = c.end;
    const { n, rowPtr, colIdx, values, hasSizes, vertexWeights } = this;
    const f32 = values instanceof Float32Array;
    const capacity = colIdx.length;
    let v = this.vertex;
    let k = this.count;
    while (c.pos < end) {
      let b = c.skipBlanks();
      if (b === PERCENT) {
        this.commentsBefore.push(v);
        c.skipLine();
        continue;
      }
      if (v === n) {
        if (b !== NEWLINE) c.fail(`more vertex lines than the ${n} declared on line ${this.headerLine}`);
        c.nextLine();
        continue;
      }
      if (v === rowPtr.length - 1) c.fail(`the input is too short to hold the ${n} vertex lines declared on line ${this.headerLine}`);
      if (hasSizes) c.readUint('vertex size');
      for (let w = 0; w < vertexWeights; w++) c.readUint('vertex weight');
      for (;;) {
        b = c.skipBlanks();
        if (b === NEWLINE) break;
        const j = c.readUint('neighbour');
        if (j < 1 || j > n) c.fail(`neighbour ${j} of vertex ${v + 1} is outside [1, ${n}]`);
        if (j === v + 1) c.fail(`vertex ${j} lists itself (METIS graphs have no self-loops)`);
        if (k === capacity) {
          c.fail(
            k === 2 * this.m
              ? `more than 2m = ${2 * this.m} adjacency entries (m = ${this.m} on line ${this.headerLine})`
              : `the input is too short to hold the 2m = ${2 * this.m} adjacency entries declared on line ${this.headerLine}`,
          );
        }
        colIdx[k] = j - 1;
        if (values !== undefined) {
          const w = c.readInt('edge weight');
          if (f32 && !fitsF32(w)) c.fail(`edge weight ${w} overflows single precision (precision: "f32")`);
          values[k] = w;
        }
        k++;
      }
      c.nextLine();
      rowPtr[++v] = k;
    }
    this.vertex = v;
    this.count = k;
  }

  /** Line number of vertex `v` (0-based), from the header line and the comments before it. */
  private lineOf(v: number): number {
    let comments = 0;
    for (const before of this.commentsBefore) if (before <= v) comments++;
    return this.headerLine + 1 + v + comments;
  }

  finish(): CsrMatrix {
    const c = this.cursor;
    if (this.headerLine === 0) c.fail('missing the header line "n m [fmt [ncon]]"');
    const { n, m, vertex, count } = this;
    if (vertex < n) c.fail(`the input ends after ${vertex} of the ${n} vertex lines declared on line ${this.headerLine}`);
    const rowPtr = this.rowPtr;
    const colIdx = this.colIdx.length === count ? this.colIdx : this.colIdx.subarray(0, count);
    const values = this.values === undefined || this.values.length === count ? this.values : this.values.subarray(0, count);
    sortRows(rowPtr, colIdx, values);
    const dup = findDuplicate(rowPtr, colIdx);
    if (dup !== undefined) this.fail(dup.row, `vertex ${dup.row + 1} lists neighbour ${dup.col + 1} more than once`);
    const asym = findAsymmetry(rowPtr, colIdx, values);
    if (asym !== undefined) {
      const { row, col } = asym;
      if (asym.kind === 'missing') {
        this.fail(row, `vertex ${row + 1} lists neighbour ${col + 1}, but vertex ${col + 1} (line ${this.lineOf(col)}) does not list ${row + 1}`);
      }
      this.fail(
        row,
        `edge ${row + 1} - ${col + 1} has weight ${asym.value} here but ${asym.mirrorValue} on the line of vertex ${col + 1} (line ${this.lineOf(col)})`,
      );
    }
    if (count !== 2 * m) {
      c.fail(`the adjacency lists hold ${count / 2} edges but the header declares m = ${m}`, this.headerLine);
    }
    return new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx, values, symmetric: true, sortedColumns: true });
  }

  private fail(vertex: number, detail: string): never {
    throw new FormatError(this.fn, this.file, this.lineOf(vertex), detail);
  }

  private limit(detail: string): never {
    throw new LimitError(`${this.fn}: ${this.file}:${this.headerLine}: ${detail}`);
  }
}

// The edge-list parser behind loadEdgeList and parseEdgeList (snap.ts), as a LineSink: a fast path
// for the usual "u v [w]" line, a checked path for every other line, vertex names or numeric ids,
// and the CSR the edges become.

import { LimitError } from '../errors.js';
import { cooToCsr } from '../data/coo.js';
import type { CsrMatrix, ValueArray } from '../data/csr.js';
import { checkMemory } from '../limits.js';
import { MAX_INDEX } from '../validate.js';
import type { LineSink } from './byte-lines.js';
import { HEADER_FIELD, NUMBER_LIKE, quote, splitFields } from './edge-list-fields.js';
import type { EdgeListDelimiter, ResolvedEdgeListOptions } from './edge-list-options.js';
import { LineCursor } from './line-cursor.js';
import { allocate, fitsF32 } from './options.js';
import { duplicatesAsFormatError } from './text-loader.js';
import { renumber } from './vertex-ids.js';

/** A graph read from an edge list, with the map back to the file's vertices. */
export interface EdgeList {
  /** Adjacency matrix over the renumbered vertices 0 .. n-1. */
  readonly matrix: CsrMatrix;
  /**
   * `ids[v]` is the id vertex `v` had in the file; strictly increasing. For named vertices it is
   * `v` itself (see `names`).
   */
  readonly ids: Float64Array;
  /** For a file that names its vertices: `names[v]` is vertex `v`'s name, in order of first appearance. */
  readonly names?: readonly string[];
}

/** The edge count is unknown up front, so the arrays start at this and double. */
const INITIAL_CAPACITY = 1 << 16;

/** Where numeric ids stop being numbers: past this they are kept exactly, as names. */
const MAX_NUMERIC_ID = Number.MAX_SAFE_INTEGER;

export class EdgeListParser implements LineSink {
  private readonly cursor: LineCursor;
  // Ids live in 32-bit arrays until one exceeds 2^31 - 1; then both switch to doubles. Once the
  // vertices are names, both hold name numbers (order of first appearance) in 32 bits.
  private src: Int32Array | Float64Array = new Int32Array(0);
  private dst: Int32Array | Float64Array = new Int32Array(0);
  private weights: ValueArray | undefined;
  private count = 0;
  private maxId = -1;
  private named = false;
  private readonly nameIndex = new Map<string, number>();
  private readonly names: string[] = [];
  /** The delimiter, once the first data line has settled `auto`. */
  private delimiter: EdgeListDelimiter;
  private headerPending = true;

  constructor(
    private readonly fn: string,
    private readonly file: string,
    private readonly opts: ResolvedEdgeListOptions,
  ) {
    this.cursor = new LineCursor(fn, file);
    this.delimiter = opts.delimiter;
    if (opts.header === false) this.headerPending = false;
    if (opts.vertices === 'names') this.named = true;
  }

  begin(maxBytes: number): void {
    // Every edge line takes at least 4 bytes ("0 0\n"), which caps the arrays for short inputs.
    const capacity = Math.min(INITIAL_CAPACITY, Math.floor((maxBytes + 1) / 4), this.opts.maxEntries);
    this.src = new Int32Array(capacity);
    this.dst = new Int32Array(capacity);
    if (this.opts.weights) this.weights = this.opts.precision === 'f32' ? new Float32Array(capacity) : new Float64Array(capacity);
  }

  /** Numeric ids on blank-separated lines, past any header: what the inline fast path reads. */
  private get plain(): boolean {
    return !this.named && this.delimiter === 'blanks' && !this.headerPending;
  }

  // Lines of the usual shape ("u v" or "u v w", single blanks, numeric ids) take the cursor's
  // fast path (scanPair, scanLineEnd); any other line is re-read from its start by checkedLine,
  // which holds every check and message.
  lines(buf: Uint8Array, start: number, end: number): void {
    const c = this.cursor;
    c.reset(buf, start, end);
    let { src, dst, weights } = this;
    const value = weights === undefined ? 'none' : 'real';
    const f32 = weights instanceof Float32Array;
    let plain = this.plain;
    // Ids above this leave the inline path: past 2^31 - 1 the arrays must switch to doubles.
    let idLimit = src instanceof Float64Array ? MAX_NUMERIC_ID : MAX_INDEX;
    let n = this.count;
    let maxId = this.maxId;
    let p = start;
    let line = c.line;
    while (p < end) {
      // biome-ignore lint/suspicious/noConfusingLabels: `break fast` hands the line to the general parser below
      fast: {
        if (n === src.length || !plain) break fast;
        let q = c.scanPair(p);
        if (q < 0) break fast;
        const u = c.first;
        const v = c.second;
        if (u > idLimit || v > idLimit) break fast;
        q = c.scanLineEnd(q, line, value, 'edge weight');
        if (q < 0) break fast;
        if (weights !== undefined) {
          const w = c.value;
          if (f32 && !fitsF32(w)) break fast;
          weights[n] = w;
        }
        src[n] = u;
        dst[n] = v;
        n++;
        if (u > maxId) maxId = u;
        if (v > maxId) maxId = v;
        p = q;
        line++;
        continue;
      }
      c.pos = p;
      c.line = line;
      this.count = n;
      this.maxId = maxId;
      this.checkedLine(c);
      ({ src, dst, weights } = this);
      plain = this.plain;
      idLimit = src instanceof Float64Array ? MAX_NUMERIC_ID : MAX_INDEX;
      n = this.count;
      maxId = this.maxId;
      p = c.pos;
      line = c.line;
    }
    c.line = line;
    this.count = n;
    this.maxId = maxId;
  }

  private checkedLine(c: LineCursor): void {
    if (c.skipEmptyLine(true)) return;
    const text = c.restOfLine().replace(/\r$/, '');
    if (this.delimiter === 'auto') this.delimiter = text.includes(',') ? ',' : 'blanks';
    const fields = this.fields(text);
    if (this.headerPending) {
      this.headerPending = false;
      if (this.opts.header === true || fields.every((f) => HEADER_FIELD.test(f))) {
        c.nextLine();
        return;
      }
    }
    if (fields.length < 2) c.fail(`missing ${fields.length === 0 ? 'source' : 'target'} vertex id`);
    const weights = this.weights;
    let w = 0;
    if (weights !== undefined) {
      if (fields.length < 3) c.fail('missing edge weight (expected a number)');
      w = this.number(c, fields[2]!, 'edge weight');
      if (weights instanceof Float32Array && !fitsF32(w)) c.fail(`edge weight ${w} overflows single precision (precision: "f32")`);
      if (fields.length > 3) c.fail(`unexpected extra field ${quote(fields[3]!)} after the edge weight`);
    } else if (fields.length > 2) {
      c.fail(`unexpected third field ${quote(fields[2]!)} (pass weights: true to read it as the edge weight)`);
    }
    let u = this.vertex(c, fields[0]!, 'source vertex id');
    const v = this.vertex(c, fields[1]!, 'target vertex id');
    // The target may have turned the vertices into names: the source's id becomes a name too.
    if (this.named && typeof u === 'number') u = String(u);
    const n = this.count;
    if (n === this.src.length) this.grow();
    const su = typeof u === 'string' ? this.nameOf(u) : u;
    const sv = typeof v === 'string' ? this.nameOf(v) : v;
    if (!this.named && (su > MAX_INDEX || sv > MAX_INDEX) && this.src instanceof Int32Array) {
      this.src = Float64Array.from(this.src);
      this.dst = Float64Array.from(this.dst);
    }
    this.src[n] = su;
    this.dst[n] = sv;
    if (weights !== undefined) this.weights![n] = w;
    this.count = n + 1;
    if (!this.named) {
      if (su > this.maxId) this.maxId = su;
      if (sv > this.maxId) this.maxId = sv;
    }
    c.nextLine();
  }

  /** The line's fields, split by the delimiter, blanks trimmed and double quotes removed. */
  private fields(text: string): string[] {
    return splitFields(text, this.delimiter === 'auto' ? 'blanks' : this.delimiter);
  }

  private number(c: LineCursor, field: string, what: string): number {
    if (!NUMBER_LIKE.test(field)) c.fail(`${what} must be a number, got ${quote(field)}`);
    const v = Number(field);
    if (!Number.isFinite(v)) c.fail(`${what} ${quote(field)} is out of the range of a double`);
    return v;
  }

  /**
   * A vertex field: its numeric id while the vertices are numbers, else its name (returned as a
   * string, numbered by the caller). The first name turns every vertex read so far into a name.
   */
  private vertex(c: LineCursor, field: string, what: string): number | string {
    if (field === '') c.fail(`missing ${what}`);
    if (this.named) return field;
    const vertices = this.opts.vertices;
    if (/^\d+$/.test(field)) {
      const id = Number(field);
      if (id <= MAX_NUMERIC_ID) return id;
      if (vertices === 'numeric') c.fail(`${what} ${quote(field)} exceeds 2^53 - 1`);
    } else if (NUMBER_LIKE.test(field) || vertices === 'numeric') {
      c.fail(`${what} must be a non-negative integer, got ${quote(field)}${vertices === 'numeric' ? ' (vertices: "numeric")' : ''}`);
    }
    this.becomeNamed();
    return field;
  }

  /** From numeric ids to names: every id read so far becomes its decimal name, in order of appearance. */
  private becomeNamed(): void {
    const n = this.count;
    const src = new Int32Array(this.src.length);
    const dst = new Int32Array(this.dst.length);
    this.named = true;
    for (let e = 0; e < n; e++) {
      src[e] = this.nameOf(String(this.src[e]));
      dst[e] = this.nameOf(String(this.dst[e]));
    }
    this.src = src;
    this.dst = dst;
  }

  private nameOf(name: string): number {
    let k = this.nameIndex.get(name);
    if (k === undefined) {
      k = this.names.length;
      if (k >= MAX_INDEX) throw new LimitError(`${this.fn}: ${this.file}:${this.cursor.line}: more than ${MAX_INDEX} distinct vertex names`);
      this.nameIndex.set(name, k);
      this.names.push(name);
    }
    return k;
  }

  private grow(): void {
    const { maxEntries } = this.opts;
    const n = this.count;
    if (n >= maxEntries) {
      throw new LimitError(`${this.fn}: ${this.file}:${this.cursor.line}: more than maxEntries = ${maxEntries} edges`);
    }
    const capacity = Math.min(Math.max(2 * n, 1024), maxEntries);
    // The grown edge arrays beside the current ones, and the CSR they become (twice when undirected).
    const vb = this.opts.weights ? (this.opts.precision === 'f32' ? 4 : 8) : 0;
    checkMemory(
      this.fn,
      `${this.file}:${this.cursor.line}: an edge list of ${capacity} edges`,
      (capacity + n) * (8 + vb) + capacity * (this.opts.undirected ? 2 : 1) * (4 + vb),
    );
    const enlarge = <T extends Int32Array | Float64Array | Float32Array>(a: T): T => {
      const grown = allocate(this.fn, 'the edge arrays', capacity, (k) => new (a.constructor as new (k: number) => T)(k));
      grown.set(a as never);
      return grown;
    };
    this.src = enlarge(this.src);
    this.dst = enlarge(this.dst);
    if (this.weights !== undefined) this.weights = enlarge(this.weights);
  }

  finish(): EdgeList {
    const n = this.count;
    const src = this.src.subarray(0, n);
    const dst = this.dst.subarray(0, n);
    const { ids, rowIdx, colIdx } = this.named
      ? { ids: Float64Array.from(this.names, (_, k) => k), rowIdx: src as Int32Array, colIdx: dst as Int32Array }
      : renumber(this.fn, this.file, src, dst, this.maxId);
    const k = ids.length;
    const { undirected, duplicates, dropSelfLoops } = this.opts;
    const matrix = duplicatesAsFormatError(this.fn, this.file, 'edges', duplicates, () =>
      cooToCsr(
        { rows: k, cols: k, rowIdx, colIdx, values: this.weights?.subarray(0, n) },
        { duplicates, dropSelfLoops, mirror: undirected ? 'symmetric' : 'none', caller: this.fn },
      ),
    );
    return this.named ? { matrix, ids, names: this.names } : { matrix, ids };
  }
}

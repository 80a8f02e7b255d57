// Edge-list reader: "u v [w]" lines (SNAP's text format, CSV and TSV) into a CsrMatrix. Numeric
// vertex ids are renumbered by rank (so the file's id order, and with it its locality, survives);
// vertex names (gene symbols, page titles, ids past 2^53) are numbered in order of first
// appearance and kept exactly.

import { FormatError, InvalidArgumentError, LimitError } from '../errors.js';
import { cooToCsr, type DuplicatePolicy } from '../data/coo.js';
import { CsrMatrix, type ValueArray } from '../data/csr.js';
import type { Precision } from '../data/dense.js';
import { checkMemory } from '../limits.js';
import { checkBoolean, checkEnum, checkOptions, MAX_INDEX } from '../validate.js';
import { readBufferLines, readFileLines, type LineSink } from './byte-lines.js';
import { LineCursor } from './line-cursor.js';
import {
  allocate,
  checkInput,
  checkLabel,
  checkPath,
  fitsF32,
  optBoolean,
  optDuplicates,
  optMaxEntries,
  optPrecision,
} from './options.js';

export interface EdgeListOptions {
  /** Add the reverse of every edge; the result is marked `symmetric`. @default false */
  readonly undirected?: boolean;
  /** Read a third column as the edge weight (values); without it a third column is an error. @default false */
  readonly weights?: boolean;
  /** Element type of the weights. @default 'f64' */
  readonly precision?: Precision;
  /**
   * Policy for repeated edges, applied by cooToCsr. With `undirected`, "u v" and "v u" are the
   * same edge and count as duplicates.
   * @default 'sum'
   */
  readonly duplicates?: DuplicatePolicy;
  /** Drop edges from a vertex to itself (the vertex keeps its id). @default false */
  readonly dropSelfLoops?: boolean;
  /** Refuse (LimitError) inputs with more edge lines than this. @default 2 ** 31 - 1 */
  readonly maxEntries?: number;
  /**
   * How vertices are written: `numeric` ids (non-negative integers up to 2^53 - 1), `names` (any
   * text without the delimiter: gene symbols, page titles), or `auto`: numeric until a vertex that
   * is not a number appears (or an id past 2^53 - 1, which is then kept exactly as a name), names
   * from then on. A number that is not a non-negative integer (`-3`, `2.5`) is refused as an id
   * unless the vertices are names.
   * @default 'auto'
   */
  readonly vertices?: EdgeListVertices;
  /**
   * What separates the fields: runs of `blanks` (spaces and tabs, SNAP's format), `,` (CSV),
   * `\t` (TSV: names may hold spaces), `;`, or `auto`: a comma when the first data line has one,
   * else blanks. Fields may be quoted with double quotes.
   * @default 'auto'
   */
  readonly delimiter?: EdgeListDelimiter;
  /**
   * Whether the first line that is not a comment names the columns: `auto` skips it when every
   * field is a usual column name (`source`, `target`, `weight`, `from`, `to`, `node1`,
   * `protein1`, `gene_a`, ...).
   * @default 'auto'
   */
  readonly header?: boolean | 'auto';
}

export type EdgeListVertices = 'auto' | 'numeric' | 'names';
export type EdgeListDelimiter = 'auto' | 'blanks' | ',' | '\t' | ';';

export interface ParseEdgeListOptions extends EdgeListOptions {
  /** Name used for the input in error messages. @default '<buffer>' */
  readonly label?: string;
}

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

const OPTION_KEYS = ['undirected', 'weights', 'precision', 'duplicates', 'dropSelfLoops', 'maxEntries', 'vertices', 'delimiter', 'header'] as const;
const PARSE_OPTION_KEYS = [...OPTION_KEYS, 'label'] as const;

interface Resolved {
  readonly undirected: boolean;
  readonly weights: boolean;
  readonly precision: Precision;
  readonly duplicates: DuplicatePolicy;
  readonly dropSelfLoops: boolean;
  readonly maxEntries: number;
  readonly vertices: EdgeListVertices;
  readonly delimiter: EdgeListDelimiter;
  readonly header: boolean | 'auto';
}

const DELIMITERS: readonly EdgeListDelimiter[] = ['auto', 'blanks', ',', '\t', ';'];

function resolve(fn: string, opts: Partial<ParseEdgeListOptions>): Resolved {
  return {
    vertices: opts.vertices === undefined ? 'auto' : checkEnum<EdgeListVertices>(fn, 'vertices', opts.vertices, ['auto', 'numeric', 'names']),
    delimiter: opts.delimiter === undefined ? 'auto' : checkEnum(fn, 'delimiter', opts.delimiter, DELIMITERS),
    header: opts.header === undefined || opts.header === 'auto' ? 'auto' : checkBoolean(fn, 'header', opts.header),
    undirected: optBoolean(fn, 'undirected', opts.undirected),
    weights: optBoolean(fn, 'weights', opts.weights),
    precision: optPrecision(fn, opts.precision),
    duplicates: optDuplicates(fn, opts.duplicates),
    dropSelfLoops: optBoolean(fn, 'dropSelfLoops', opts.dropSelfLoops),
    maxEntries: optMaxEntries(fn, opts.maxEntries),
  };
}

/**
 * Load an edge list: one "u v" (or "u v w" with `weights`) per line, separated by tabs or spaces
 * (SNAP), commas (CSV) or another `delimiter`; lines starting with `#` or `%` are comments, and a
 * first line of column names is skipped. Numeric vertex ids (non-negative integers up to
 * 2^53 - 1) need not be contiguous and are renumbered by rank; named vertices are numbered in
 * order of first appearance and listed in `names`. Gzipped files are detected by their magic
 * bytes.
 *
 * @throws {InvalidArgumentError} for a bad path or option (unknown option names included).
 * @throws {IoError} when the file cannot be opened or read.
 * @throws {FormatError} for malformed lines, with `.file` and the 1-based `.line`.
 * @throws {LimitError} when there are more than `maxEntries` edges or 2^31 - 1 distinct vertices.
 * @example
 * const { matrix, ids } = await loadEdgeList('com-dblp.ungraph.txt', { undirected: true });
 * console.log(matrix.rows, 'vertices; vertex 0 was', ids[0]);
 * const genes = await loadEdgeList('interactions.tsv', { undirected: true });
 * console.log(genes.names?.[0]); // e.g. 'TP53'
 */
export async function loadEdgeList(path: string, options?: EdgeListOptions): Promise<EdgeList> {
  const fn = 'loadEdgeList';
  checkPath(fn, path);
  const parser = new EdgeListParser(fn, path, resolve(fn, checkOptions(fn, options, OPTION_KEYS)));
  await readFileLines(fn, path, parser);
  return parser.finish();
}

/**
 * Parse an edge list held in memory (bytes may be gzipped); see {@link loadEdgeList}.
 *
 * @throws {InvalidArgumentError} for a bad input type or option.
 * @throws {FormatError} for malformed lines, with `.file` (`options.label`) and `.line`.
 * @throws {LimitError} when there are more than `maxEntries` edges or 2^31 - 1 distinct vertices.
 * @example
 * const { matrix, ids } = parseEdgeList('# tiny\n10 20\n20 30\n');
 * // matrix is 3x3 with edges 0->1 and 1->2; ids is [10, 20, 30]
 */
export function parseEdgeList(input: string | Uint8Array, options?: ParseEdgeListOptions): EdgeList {
  const fn = 'parseEdgeList';
  checkInput(fn, input);
  const raw = checkOptions(fn, options, PARSE_OPTION_KEYS);
  const label = checkLabel(fn, raw.label);
  const parser = new EdgeListParser(fn, label, resolve(fn, raw));
  readBufferLines(fn, label, input, parser);
  return parser.finish();
}

/** The parser behind both entry points, as a LineSink; internal, for chunk-boundary tests. */
export function edgeListSink(fn: string, file: string, options?: EdgeListOptions): LineSink & { finish(): EdgeList } {
  return new EdgeListParser(fn, file, resolve(fn, checkOptions(fn, options, OPTION_KEYS)));
}


/** The edge count is unknown up front, so the arrays start at this and double. */
const INITIAL_CAPACITY = 1 << 16;

/** Column names that mark a first line as a header (with `header: 'auto'`). */
const HEADER_FIELD =
  /^(source|target|src|dst|dest|destination|from|to|u|v|w|weight|weights|value|score|combined_score|(node|vertex|protein|gene|interactor|id|name)_?[12ab]?|(from|to|source|target)_?(id|node|name))$/i;

/** A number written in decimal that is not a plain non-negative integer: refused as a numeric id. */
const NUMBER_LIKE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Where numeric ids stop being numbers: past this they are kept exactly, as names. */
const MAX_NUMERIC_ID = Number.MAX_SAFE_INTEGER;

class EdgeListParser implements LineSink {
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
    private readonly opts: Resolved,
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
    const d = this.delimiter === 'auto' ? 'blanks' : this.delimiter;
    const fields = text.includes('"') ? splitQuoted(text, d) : d === 'blanks' ? text.trim().split(/[ \t]+/) : text.split(d).map((f) => f.trim());
    // A trailing delimiter leaves an empty field at the end; empty ones elsewhere are errors.
    while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
    return fields;
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
    checkMemory(this.fn, `${this.file}:${this.cursor.line}: an edge list of ${capacity} edges`, (capacity + n) * (8 + vb) + capacity * (this.opts.undirected ? 2 : 1) * (4 + vb));
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
    try {
      const matrix = cooToCsr(
        { rows: k, cols: k, rowIdx, colIdx, values: this.weights?.subarray(0, n) },
        { duplicates, dropSelfLoops, mirror: undirected ? 'symmetric' : 'none', caller: this.fn },
      );
      return this.named ? { matrix, ids, names: this.names } : { matrix, ids };
    } catch (e) {
      // Ids and weights were checked while parsing, so only the 'error' policy gets here.
      if (e instanceof InvalidArgumentError) {
        throw new FormatError(this.fn, this.file, 0, `duplicate edges (duplicates: "${duplicates}"): ${e.message}`, { cause: e });
      }
      throw e;
    }
  }
}

/**
 * Fields of a line that holds double quotes, as CSV writes them: a delimiter inside quotes is
 * text, and a doubled quote inside quotes is one quote.
 */
function splitQuoted(text: string, d: Exclude<EdgeListDelimiter, 'auto'>): string[] {
  const fields: string[] = [];
  const isDelimiter = (ch: string): boolean => (d === 'blanks' ? ch === ' ' || ch === '\t' : ch === d);
  let field = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field.trim() === '') {
      quoted = true;
      started = true;
      field = '';
    } else if (isDelimiter(ch)) {
      if (d !== 'blanks' || started || field !== '') fields.push(started ? field : field.trim());
      field = '';
      started = false;
    } else {
      field += ch;
    }
  }
  if (d !== 'blanks' || started || field.trim() !== '') fields.push(started ? field : field.trim());
  return fields;
}

/** A field as it appears in a message: quoted and shortened. */
function quote(field: string): string {
  return JSON.stringify(field.length > 40 ? `${field.slice(0, 40)}...` : field);
}

/**
 * Replace ids by their rank among the distinct ids. A lookup table indexed by id when ids are
 * dense enough (the common case: SNAP files mostly number vertices 0..n), else a sorted copy
 * and binary search. 32-bit inputs are renumbered in place.
 */
function renumber(
  fn: string,
  file: string,
  src: Int32Array | Float64Array,
  dst: Int32Array | Float64Array,
  maxId: number,
): { ids: Float64Array; rowIdx: Int32Array; colIdx: Int32Array } {
  const m = src.length;
  if (src instanceof Int32Array && dst instanceof Int32Array && maxId < 4 * m + (1 << 16)) {
    const rank = new Int32Array(maxId + 1);
    for (let e = 0; e < m; e++) {
      rank[src[e]!] = 1;
      rank[dst[e]!] = 1;
    }
    let k = 0;
    for (let id = 0; id <= maxId; id++) k += rank[id]!;
    const ids = new Float64Array(k);
    k = 0;
    for (let id = 0; id <= maxId; id++) {
      if (rank[id] !== 0) {
        ids[k] = id;
        rank[id] = k++;
      }
    }
    for (let e = 0; e < m; e++) {
      src[e] = rank[src[e]!]!;
      dst[e] = rank[dst[e]!]!;
    }
    return { ids, rowIdx: src, colIdx: dst };
  }
  const all = new Float64Array(2 * m);
  all.set(src);
  all.set(dst, m);
  all.sort();
  let k = 0;
  for (let e = 0; e < all.length; e++) {
    if (k === 0 || all[e] !== all[k - 1]) all[k++] = all[e]!;
  }
  if (k > MAX_INDEX) throw new LimitError(`${fn}: ${file}: ${k} distinct vertex ids exceed the supported ${MAX_INDEX}`);
  const ids = all.slice(0, k);
  const rowIdx = src instanceof Int32Array ? src : new Int32Array(m);
  const colIdx = dst instanceof Int32Array ? dst : new Int32Array(m);
  for (let e = 0; e < m; e++) {
    rowIdx[e] = rankOf(ids, src[e]!);
    colIdx[e] = rankOf(ids, dst[e]!);
  }
  return { ids, rowIdx, colIdx };
}

/** Index of `id` in the sorted, duplicate-free `ids` (which holds it). */
function rankOf(ids: Float64Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

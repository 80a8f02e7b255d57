// SNAP edge-list reader: "u v [w]" lines with arbitrary non-negative vertex ids, renumbered by
// rank (so the file's id order, and with it its locality, survives) into a CsrMatrix.

import { FormatError, InvalidArgumentError, LimitError } from '../errors.js';
import { cooToCsr, type DuplicatePolicy } from '../data/coo.js';
import { CsrMatrix, type ValueArray } from '../data/csr.js';
import type { Precision } from '../data/dense.js';
import { checkMemory } from '../limits.js';
import { checkOptions, MAX_INDEX } from '../validate.js';
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
}

export interface ParseEdgeListOptions extends EdgeListOptions {
  /** Name used for the input in error messages. @default '<buffer>' */
  readonly label?: string;
}

/** A graph read from an edge list, with the map back to the file's vertex ids. */
export interface EdgeList {
  /** Adjacency matrix over the renumbered vertices 0 .. n-1. */
  readonly matrix: CsrMatrix;
  /** `ids[v]` is the id vertex `v` had in the file; strictly increasing. */
  readonly ids: Float64Array;
}

const OPTION_KEYS = ['undirected', 'weights', 'precision', 'duplicates', 'dropSelfLoops', 'maxEntries'] as const;
const PARSE_OPTION_KEYS = [...OPTION_KEYS, 'label'] as const;

interface Resolved {
  readonly undirected: boolean;
  readonly weights: boolean;
  readonly precision: Precision;
  readonly duplicates: DuplicatePolicy;
  readonly dropSelfLoops: boolean;
  readonly maxEntries: number;
}

function resolve(fn: string, opts: Partial<ParseEdgeListOptions>): Resolved {
  return {
    undirected: optBoolean(fn, 'undirected', opts.undirected),
    weights: optBoolean(fn, 'weights', opts.weights),
    precision: optPrecision(fn, opts.precision),
    duplicates: optDuplicates(fn, opts.duplicates),
    dropSelfLoops: optBoolean(fn, 'dropSelfLoops', opts.dropSelfLoops),
    maxEntries: optMaxEntries(fn, opts.maxEntries),
  };
}

/**
 * Load a SNAP-style edge list: one "u v" (or "u v w" with `weights`) per line, separated by tabs
 * or spaces; lines starting with `#` or `%` are comments. Vertex ids are non-negative integers up
 * to 2^53 - 1, need not be contiguous, and are renumbered by rank. Gzipped files are detected by
 * their magic bytes.
 *
 * @throws {InvalidArgumentError} for a bad path or option (unknown option names included).
 * @throws {IoError} when the file cannot be opened or read.
 * @throws {FormatError} for malformed lines, with `.file` and the 1-based `.line`.
 * @throws {LimitError} when there are more than `maxEntries` edges or 2^31 - 1 distinct vertices.
 * @example
 * const { matrix, ids } = await loadEdgeList('com-dblp.ungraph.txt', { undirected: true });
 * console.log(matrix.rows, 'vertices; vertex 0 was', ids[0]);
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

const NEWLINE = 10;

/** The edge count is unknown up front, so the arrays start at this and double. */
const INITIAL_CAPACITY = 1 << 16;

class EdgeListParser implements LineSink {
  private readonly cursor: LineCursor;
  // Ids live in 32-bit arrays until one exceeds 2^31 - 1; then both switch to doubles.
  private src: Int32Array | Float64Array = new Int32Array(0);
  private dst: Int32Array | Float64Array = new Int32Array(0);
  private weights: ValueArray | undefined;
  private count = 0;
  private maxId = -1;

  constructor(
    private readonly fn: string,
    private readonly file: string,
    private readonly opts: Resolved,
  ) {
    this.cursor = new LineCursor(fn, file);
  }

  begin(maxBytes: number): void {
    // Every edge line takes at least 4 bytes ("0 0\n"), which caps the arrays for short inputs.
    const capacity = Math.min(INITIAL_CAPACITY, Math.floor((maxBytes + 1) / 4), this.opts.maxEntries);
    this.src = new Int32Array(capacity);
    this.dst = new Int32Array(capacity);
    if (this.opts.weights) this.weights = this.opts.precision === 'f32' ? new Float32Array(capacity) : new Float64Array(capacity);
  }

  // Lines of the usual shape ("u v" or "u v w", single blanks) take the cursor's fast path
  // (scanPair, scanLineEnd); any other line is re-read from its start by checkedLine, which holds
  // every check and message.
  lines(buf: Uint8Array, start: number, end: number): void {
    const c = this.cursor;
    c.reset(buf, start, end);
    let { src, dst, weights } = this;
    const value = weights === undefined ? 'none' : 'real';
    const f32 = weights instanceof Float32Array;
    // Ids above this leave the inline path: past 2^31 - 1 the arrays must switch to doubles.
    let idLimit = src instanceof Float64Array ? Number.MAX_SAFE_INTEGER : MAX_INDEX;
    let n = this.count;
    let maxId = this.maxId;
    let p = start;
    let line = c.line;
    while (p < end) {
      fast: {
        if (n === src.length) break fast;
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
      idLimit = src instanceof Float64Array ? Number.MAX_SAFE_INTEGER : MAX_INDEX;
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
    const u = c.readUint('source vertex id');
    const v = c.readUint('target vertex id');
    let w = 0;
    const weights = this.weights;
    if (weights !== undefined) {
      w = c.readReal('edge weight');
      if (weights instanceof Float32Array && !fitsF32(w)) c.fail(`edge weight ${w} overflows single precision (precision: "f32")`);
    }
    if (c.skipBlanks() !== NEWLINE) {
      c.fail(
        weights === undefined
          ? `unexpected third field ${c.describeToken(c.pos)} (pass weights: true to read it as the edge weight)`
          : `unexpected extra field ${c.describeToken(c.pos)} after the edge weight`,
      );
    }
    const n = this.count;
    if (n === this.src.length) this.grow();
    if ((u > MAX_INDEX || v > MAX_INDEX) && this.src instanceof Int32Array) {
      this.src = Float64Array.from(this.src);
      this.dst = Float64Array.from(this.dst);
    }
    this.src[n] = u;
    this.dst[n] = v;
    if (weights !== undefined) this.weights![n] = w;
    this.count = n + 1;
    if (u > this.maxId) this.maxId = u;
    if (v > this.maxId) this.maxId = v;
    c.nextLine();
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
    const { ids, rowIdx, colIdx } = renumber(this.fn, this.file, src, dst, this.maxId);
    const k = ids.length;
    const { undirected, duplicates, dropSelfLoops } = this.opts;
    try {
      const matrix = cooToCsr(
        { rows: k, cols: k, rowIdx, colIdx, values: this.weights?.subarray(0, n) },
        { duplicates, dropSelfLoops, mirror: undirected ? 'symmetric' : 'none', caller: this.fn },
      );
      return { matrix, ids };
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

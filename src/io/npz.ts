// scipy's sparse .npz files (`scipy.sparse.save_npz`: a zip of .npy arrays; `format` says csr, csc
// or coo, `shape` the size, `data` the values, and `indices`/`indptr` or `row`/`col` the
// positions), the usual hand-off of a sparse matrix from Python, into a CsrMatrix. Everything is
// checked before use: the archive's offsets and sizes, each array's header, dtype and length,
// every index against the shape, the memory the result needs against the budget.

import { readFile } from 'node:fs/promises';
import { describe, FormatError, InvalidArgumentError, IoError, LimitError, UnsupportedError } from '../errors.js';
import { cooToCsr, type DuplicatePolicy } from '../data/coo.js';
import type { CsrMatrix } from '../data/csr.js';
import type { Precision } from '../data/dense.js';
import { checkMemory } from '../limits.js';
import { checkOptions, MAX_INDEX } from '../validate.js';
import { type NpyArray, npyIndices, npyNumbers, npyText, parseNpy } from './npy.js';
import { checkLabel, checkPath, fitsF32, optBoolean, optDuplicates, optMaxEntries, optPrecision, optWarning } from './options.js';
import { zipEntries, zipEntryBytes } from './zip.js';

export interface NpzOptions {
  /** Element type of the values. @default 'f64' */
  readonly precision?: Precision;
  /** Keep the sparsity pattern alone (no values). @default false */
  readonly pattern?: boolean;
  /** Policy for entries stored twice (scipy sums them). @default 'sum' */
  readonly duplicates?: DuplicatePolicy;
  /** Drop diagonal entries (self-loops of a graph). @default false */
  readonly dropSelfLoops?: boolean;
  /** Refuse (LimitError) a matrix of more stored entries than this. @default 2 ** 31 - 1 */
  readonly maxEntries?: number;
  /** Called with a sentence for values read but not as stored (64-bit integers past 2^53). @default process.emitWarning */
  readonly onWarning?: (message: string) => void;
}

export interface ParseNpzOptions extends NpzOptions {
  /** Name used for the input in error messages. @default '<buffer>' */
  readonly label?: string;
}

const OPTION_KEYS = ['precision', 'pattern', 'duplicates', 'dropSelfLoops', 'maxEntries', 'onWarning'] as const;
const PARSE_OPTION_KEYS = [...OPTION_KEYS, 'label'] as const;
/** The largest .npz read whole: the arrays of a 2^31-entry matrix and then some. */
const MAX_FILE_BYTES = 2 ** 31 - 1;

/**
 * Load a sparse matrix saved by `scipy.sparse.save_npz` (CSR, CSC or COO; compressed or not).
 * Duplicate entries are summed and columns sorted, as scipy's canonical form has them.
 *
 * @throws {InvalidArgumentError} for a bad path or option (unknown option names included).
 * @throws {IoError} when the file cannot be read.
 * @throws {FormatError} for a damaged archive, a missing or malformed array, an index outside the shape.
 * @throws {UnsupportedError} for BSR, DIA and n-dimensional arrays, complex values, pickled objects.
 * @throws {LimitError} when the matrix exceeds 2^31 - 1 rows, columns or `maxEntries`, or the memory budget.
 * @example
 * // Python: scipy.sparse.save_npz('graph.npz', A.tocsr())
 * const a = await loadNpz('graph.npz');
 * console.log(a.rows, a.nnz);
 */
export async function loadNpz(path: string, options?: NpzOptions): Promise<CsrMatrix> {
  const fn = 'loadNpz';
  checkPath(fn, path);
  const opts = checkOptions(fn, options, OPTION_KEYS);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ERR_FS_FILE_TOO_LARGE')
      throw new LimitError(`${fn}: ${path} is larger than the ${MAX_FILE_BYTES} bytes an .npz may be`);
    throw new IoError(fn, path, cause);
  }
  return npzToCsr(fn, path, bytes, opts);
}

/**
 * Parse the bytes of an .npz written by `scipy.sparse.save_npz`; see {@link loadNpz}.
 * @throws {InvalidArgumentError} for a bad input type or option.
 * @throws {FormatError} / {UnsupportedError} / {LimitError} as {@link loadNpz}.
 * @example
 * const a = parseNpz(await readFile('graph.npz'), { label: 'graph.npz' });
 */
export function parseNpz(input: Uint8Array, options?: ParseNpzOptions): CsrMatrix {
  const fn = 'parseNpz';
  if (!(input instanceof Uint8Array)) throw new InvalidArgumentError(`${fn}: input must be the bytes of an .npz file (a Uint8Array), got ${describe(input)}`);
  const raw = checkOptions(fn, options, PARSE_OPTION_KEYS);
  const label = checkLabel(fn, raw.label);
  return npzToCsr(fn, label, input, raw);
}

function npzToCsr(fn: string, file: string, bytes: Uint8Array, raw: Partial<ParseNpzOptions>): CsrMatrix {
  const precision = optPrecision(fn, raw.precision);
  const pattern = optBoolean(fn, 'pattern', raw.pattern);
  const duplicates = optDuplicates(fn, raw.duplicates);
  const dropSelfLoops = optBoolean(fn, 'dropSelfLoops', raw.dropSelfLoops);
  const maxEntries = optMaxEntries(fn, raw.maxEntries);
  const onWarning = optWarning(fn, raw.onWarning);
  const fail = (detail: string): never => {
    throw new FormatError(fn, file, 0, detail);
  };

  const entries = zipEntries(fn, file, bytes);
  // Everything inflated at once must fit the budget before any of it is.
  checkMemory(
    fn,
    `${file}: arrays of ${entries.reduce((s, e) => s + e.size, 0)} bytes`,
    entries.reduce((s, e) => s + e.size, 0),
  );
  const arrays = new Map<string, NpyArray>();
  for (const e of entries) {
    if (!e.name.endsWith('.npy')) continue;
    const key = e.name.slice(0, -4);
    arrays.set(key, parseNpy(fn, file, e.name, zipEntryBytes(fn, file, bytes, e)));
  }
  const need = (key: string): NpyArray =>
    arrays.get(key) ??
    fail(`no ${key}.npy in the archive (is it from scipy.sparse.save_npz? it holds ${[...arrays.keys()].map((k) => `${k}.npy`).join(', ') || 'no arrays'})`);

  const format = npyText(fn, file, need('format'));
  if (format === 'bsr' || format === 'dia')
    throw new UnsupportedError(`${fn}: ${file}: ${format.toUpperCase()} matrices are not supported (save a .tocsr() copy)`);
  if (format !== 'csr' && format !== 'csc' && format !== 'coo') fail(`format ${JSON.stringify(format)} is not a sparse format (csr, csc or coo)`);
  const shapeArray = need('shape');
  const shape = npyNumbers(fn, file, shapeArray).values;
  if (shape.length !== 2) {
    if (shape.length > 2) throw new UnsupportedError(`${fn}: ${file}: ${shape.length}-dimensional sparse arrays are not supported`);
    fail(`shape must hold two sizes, got ${shape.length}`);
  }
  const [rows, cols] = [shape[0]!, shape[1]!];
  for (const [what, v] of [
    ['rows', rows],
    ['columns', cols],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) fail(`shape: ${what} must be a non-negative integer, got ${v}`);
    if (v > MAX_INDEX) throw new LimitError(`${fn}: ${file}: a ${rows}x${cols} matrix exceeds the largest supported dimension ${MAX_INDEX}`);
  }

  const data = need('data');
  const nnz = data.length;
  if (data.shape.length !== 1) fail(`data must be one-dimensional, got shape (${data.shape.join(', ')})`);
  if (nnz > maxEntries) throw new LimitError(`${fn}: ${file}: ${nnz} stored entries, more than maxEntries = ${maxEntries}`);
  const valueBytes = pattern ? 0 : precision === 'f32' ? 4 : 8;
  checkMemory(fn, `${file}: a ${rows}x${cols} matrix of ${nnz} entries`, nnz * (8 + 8 + 2 * (4 + valueBytes)) + (rows + 1) * 8);

  let rowIdx: Int32Array;
  let colIdx: Int32Array;
  if (format === 'coo') {
    const coords = arrays.get('coords');
    if (!arrays.has('row') && coords !== undefined) {
      if (coords.shape.length !== 2 || coords.shape[0] !== 2 || coords.shape[1] !== nnz)
        fail(`coords must have shape (2, ${nnz}), got (${coords.shape.join(', ')})`);
      const half = (coords.data.byteLength / 2) | 0;
      const part = (k: number): NpyArray => ({ ...coords, shape: [nnz], length: nnz, data: coords.data.subarray(k * half, (k + 1) * half) });
      rowIdx = npyIndices(fn, file, part(0), rows, 'row');
      colIdx = npyIndices(fn, file, part(1), cols, 'column');
    } else {
      const row = need('row');
      const col = need('col');
      if (row.length !== nnz || col.length !== nnz) fail(`row, col and data must have one length, got ${row.length}, ${col.length} and ${nnz}`);
      rowIdx = npyIndices(fn, file, row, rows, 'row');
      colIdx = npyIndices(fn, file, col, cols, 'column');
    }
  } else {
    // CSR keeps row pointers and column indices; CSC the other way round.
    const major = format === 'csr' ? rows : cols;
    const minor = format === 'csr' ? cols : rows;
    const indptr = need('indptr');
    const indices = need('indices');
    if (indptr.length !== major + 1) fail(`indptr must hold ${major + 1} entries for ${major} ${format === 'csr' ? 'rows' : 'columns'}, got ${indptr.length}`);
    if (indices.length !== nnz) fail(`indices and data must have one length, got ${indices.length} and ${nnz}`);
    const ptr = npyIndices(fn, file, indptr, nnz + 1, 'pointer');
    if (ptr[0] !== 0 || ptr[major] !== nnz) fail(`indptr must run from 0 to ${nnz}, got ${ptr[0]} to ${ptr[major]}`);
    const expanded = new Int32Array(nnz);
    for (let r = 0; r < major; r++) {
      if (ptr[r + 1]! < ptr[r]!) fail(`indptr decreases at ${r}: ${ptr[r]} then ${ptr[r + 1]}`);
      expanded.fill(r, ptr[r]!, ptr[r + 1]!);
    }
    const other = npyIndices(fn, file, indices, minor, format === 'csr' ? 'column' : 'row');
    rowIdx = format === 'csr' ? expanded : other;
    colIdx = format === 'csr' ? other : expanded;
  }

  let values: Float32Array | Float64Array | undefined;
  if (!pattern) {
    const { values: v, inexact } = npyNumbers(fn, file, data);
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i]!)) fail(`data[${i}] = ${v[i]} is not finite`);
      if (precision === 'f32' && !fitsF32(v[i]!)) fail(`data[${i}] = ${v[i]} overflows single precision (precision: "f32")`);
    }
    values = precision === 'f32' ? Float32Array.from(v) : v;
    if (inexact > 0)
      onWarning(
        `${fn}: ${file}: ${inexact} integer value${inexact === 1 ? '' : 's'} beyond 2^53 rounded to the nearest double; the pattern alone (pattern: true) loses nothing`,
      );
  }
  try {
    return cooToCsr({ rows, cols, rowIdx, colIdx, ...(values ? { values } : {}) }, { duplicates, dropSelfLoops, caller: fn });
  } catch (e) {
    // Indices and values were checked above, so only the 'error' policy gets here.
    if (e instanceof InvalidArgumentError) throw new FormatError(fn, file, 0, `duplicate entries (duplicates: "${duplicates}"): ${e.message}`, { cause: e });
    throw e;
  }
}

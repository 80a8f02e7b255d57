// Where a command's matrix comes from: a file (format chosen by extension, .gz allowed) or a
// seeded generator spec such as `kronecker:scale=16`, with the flags every command that reads a
// graph shares (--undirected, --weighted, --pattern) and the vertex names an edge list carries.

import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { symmetrize } from '../data/convert.js';
import { CsrMatrix } from '../data/csr.js';
import { FormatError, InvalidArgumentError, LimitError } from '../errors.js';
import { generate, parseGeneratorSpec } from '../generators/index.js';
import { loadEdgeList, loadMatrixMarket, loadMetis, loadNpz } from '../io/index.js';
import type { EdgeListDelimiter } from '../io/snap.js';
import { packageRoot } from '../native/addon.js';
import { suggest } from '../validate.js';
import type { FlagValues, Options } from './parse.js';
import { UsageError } from './usage-error.js';

export interface LoadedInput {
  readonly matrix: CsrMatrix;
  /** Short name for titles and tables: the file name or the generator spec. */
  readonly label: string;
  readonly origin: 'file' | 'generated';
  /** Wall time to load or generate, in milliseconds. */
  readonly ms: number;
  /** For an edge list: the vertices' ids in the file (numeric ids) or their names. */
  readonly vertices?: { readonly ids: Float64Array; readonly names?: readonly string[] };
}

export const DEFAULT_GENERATOR = 'kronecker:scale=16,edgeFactor=16,seed=1';

/** The flags of every command that reads a graph. */
export const INPUT_FLAGS = {
  data: { type: 'string' },
  generate: { type: 'string' },
  undirected: { type: 'boolean' },
  weighted: { type: 'boolean' },
  pattern: { type: 'boolean' },
} as const satisfies Options;

/** Named generator specs from datasets/presets.json (for example `kron18`, `road`). */
export function presets(): Record<string, { spec: string; about: string }> {
  return JSON.parse(readFileSync(join(packageRoot, 'datasets', 'presets.json'), 'utf8')) as Record<string, { spec: string; about: string }>;
}

/** The help text of INPUT_FLAGS, with the presets as datasets/presets.json lists them. */
export function inputFlagsHelp(extra = ''): string {
  return `Input (default: --generate ${DEFAULT_GENERATOR}, a power-law graph of 2^16 vertices):
  --data FILE          Matrix Market (.mtx), scipy sparse (.npz from save_npz), METIS (.graph), or an
                       edge list: SNAP text (.txt, .el, .edges), CSV (.csv) or TSV (.tsv), whose
                       vertices may be numbers or names; .gz allowed except for .npz
  --generate SPEC      a preset (${Object.keys(presets()).join(', ')}) or a generator spec:
                       kronecker:scale=S[,edgeFactor=E][,seed=N][,tail=T] | erdos-renyi:n=N,m=M |
                       grid:rows=R,cols=C[,deleteFraction=F] | banded:n=N,halfBandwidth=B
  --undirected         each edge goes both ways (an edge list that lists each edge once; a general
                       Matrix Market or .npz file is made symmetric)
  --weighted           read an edge list's third column as the edge weight
  --pattern            use the input's sparsity pattern alone, as an unweighted graph (for a
                       matrix whose values do not suit the workload, e.g. a FEM stiffness matrix)${extra}`;
}

const FORMATS = [
  { test: /\.mtx(\.gz)?$/i, name: 'Matrix Market' },
  { test: /\.npz$/i, name: 'npz' },
  { test: /\.(graph|metis)(\.gz)?$/i, name: 'METIS' },
  { test: /\.(txt|el|edges|tsv|csv)(\.gz)?$/i, name: 'edge list' },
] as const;

/** How an input is read: the flags above, checked, with the command's name for messages. */
export interface InputRequest {
  readonly data?: string | undefined;
  readonly generate?: string | undefined;
  readonly undirected?: boolean;
  readonly weighted?: boolean;
  readonly pattern?: boolean;
  /** Where loaders' warnings go (values rounded, diagonal kept). @default stderr, as `dype: warning: ...` */
  readonly warn?: (message: string) => void;
}

/** INPUT_FLAGS' values as an InputRequest. */
export function inputRequest(values: FlagValues): InputRequest {
  const str = (v: FlagValues[string]): string | undefined => (typeof v === 'string' ? v : undefined);
  return {
    data: str(values['data']),
    generate: str(values['generate']),
    undirected: values['undirected'] === true,
    weighted: values['weighted'] === true,
    pattern: values['pattern'] === true,
  };
}

const stderrWarning = (message: string): void => void process.stderr.write(`dype: warning: ${message}\n`);

export async function loadInput(command: string, request: InputRequest): Promise<LoadedInput> {
  const { data, generate: spec, undirected = false, weighted = false, pattern = false, warn = stderrWarning } = request;
  if (data !== undefined && spec !== undefined) throw new UsageError(`${command}: give --data or --generate, not both`);
  const t0 = performance.now();
  if (data === undefined) {
    if (weighted) throw new UsageError(`${command}: --weighted reads an edge list's third column; give it with --data FILE`);
    const matrix = generated(command, spec);
    return finish({ matrix: matrix.matrix, label: matrix.label, origin: 'generated', ms: performance.now() - t0 }, { undirected, pattern });
  }
  const format = FORMATS.find((f) => f.test.test(data))?.name;
  if (format === undefined) {
    throw new UsageError(
      `${command}: cannot tell the format of ${JSON.stringify(data)}: use .mtx, .npz, .graph/.metis, or an edge list .txt/.el/.edges/.csv/.tsv (optionally .gz)`,
    );
  }
  if (weighted && format !== 'edge list')
    throw new UsageError(
      `${command}: --weighted reads an edge list's third column; ${basename(data)} is ${format === 'npz' ? 'an' : 'a'} ${format} file, whose values are read anyway`,
    );
  const label = basename(data);
  if (format === 'edge list') {
    const delimiter: EdgeListDelimiter = /\.csv(\.gz)?$/i.test(data) ? ',' : /\.tsv(\.gz)?$/i.test(data) ? '\t' : 'auto';
    try {
      const list = await loadEdgeList(data, { undirected, weights: weighted, delimiter });
      const loaded: LoadedInput = {
        matrix: list.matrix,
        label,
        origin: 'file',
        ms: performance.now() - t0,
        vertices: { ids: list.ids, ...(list.names ? { names: list.names } : {}) },
      };
      if (!undirected) noteOneWayEdges(loaded, warn);
      return finish(loaded, { undirected: false, pattern });
    } catch (e) {
      // The loader names its library option; on the command line it is a flag.
      if (e instanceof FormatError && e.message.includes('pass weights: true')) {
        throw new FormatError(
          'loadEdgeList',
          e.file,
          e.line,
          e.message.replace(/^loadEdgeList: [^:]+(:\d+)?: /, '').replace('pass weights: true', 'pass --weighted'),
          { cause: e },
        );
      }
      throw e;
    }
  }
  let matrix: CsrMatrix;
  if (format === 'Matrix Market') {
    const m = await loadMatrixMarket(data, { pattern, onWarning: warn });
    if (!('colIdx' in m)) throw new UsageError(`${command}: ${data} holds a dense (array) matrix; a sparse (coordinate) one is needed`);
    matrix = m;
  } else if (format === 'npz') {
    matrix = await loadNpz(data, { pattern, onWarning: warn });
  } else {
    matrix = await loadMetis(data);
  }
  return finish({ matrix, label, origin: 'file', ms: performance.now() - t0 }, { undirected, pattern });
}

/** A preset or generator spec, refused with the presets listed when it is neither. */
function generated(command: string, spec: string | undefined): { matrix: CsrMatrix; label: string } {
  const all = presets();
  if (spec !== undefined && !spec.includes(':') && !all[spec]) {
    const hint = suggest(spec, Object.keys(all));
    throw new UsageError(
      `${command}: --generate ${JSON.stringify(spec)} is neither a preset nor a generator spec${hint ? ` (did you mean ${hint}?)` : ''}; ` +
        `presets: ${Object.keys(all).join(', ')}; specs look like kronecker:scale=14 or grid:rows=100,cols=100`,
    );
  }
  const named = spec !== undefined ? all[spec] : undefined;
  const text = named?.spec ?? spec ?? DEFAULT_GENERATOR;
  let matrix: CsrMatrix;
  try {
    matrix = generate(parseGeneratorSpec(text));
  } catch (e) {
    // A value the generator refuses (a bad parameter, a size past its limits) is a bad flag value.
    if (!(e instanceof InvalidArgumentError || e instanceof LimitError)) throw e;
    throw new UsageError(`${command}: --generate ${JSON.stringify(text)}: ${e.message}`, { cause: e });
  }
  return { matrix, label: spec !== undefined && named ? `${spec} (${text})` : text };
}

/** --undirected (where the loader did not do it) and --pattern, on a loaded matrix. */
function finish(input: LoadedInput, flags: { undirected: boolean; pattern: boolean }): LoadedInput {
  let { matrix, label } = input;
  if (flags.undirected && !matrix.symmetric) {
    if (matrix.rows !== matrix.cols) throw new UsageError(`--undirected needs a square matrix (a graph), got ${matrix.rows} x ${matrix.cols}`);
    matrix = symmetrize(matrix);
    label = `${label} (undirected)`;
  }
  if (flags.pattern && matrix.values !== undefined) {
    matrix = new CsrMatrix({
      rows: matrix.rows,
      cols: matrix.cols,
      rowPtr: matrix.rowPtr,
      colIdx: matrix.colIdx,
      symmetric: matrix.symmetric,
      sortedColumns: matrix.sortedColumns,
    });
  }
  if (flags.pattern) label = `${label} (pattern)`;
  return { ...input, matrix, label };
}

/**
 * An edge list read as directed in which no edge comes back: most likely an undirected graph that
 * lists each edge once, which --undirected reads as such. Said once, on stderr.
 */
function noteOneWayEdges(input: LoadedInput, warn: (message: string) => void): void {
  const a = input.matrix;
  if (a.nnz < 2 || a.symmetric) return;
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.rowStart(r); p < a.rowStart(r + 1); p++) {
      const c = a.colIdx[p]!;
      if (c === r) continue;
      // Is (c, r) stored? Columns are sorted within a row.
      let lo = a.rowStart(c);
      let hi = a.rowStart(c + 1);
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (a.colIdx[mid]! < r) lo = mid + 1;
        else hi = mid;
      }
      if (lo < a.rowStart(c + 1) && a.colIdx[lo] === r) return;
    }
  }
  warn(`${input.label}: no edge is listed in both directions, so it is read as a directed graph; if each undirected edge is listed once, pass --undirected`);
}

/**
 * A vertex given on the command line (`--source`): its name or id as written in an edge list, else
 * a 0-based index; `max-degree` is the vertex of largest degree.
 */
export function vertexArg(command: string, flag: string, raw: string, input: LoadedInput): number | 'max-degree' {
  if (raw === 'max-degree') return raw;
  const n = input.matrix.rows;
  const names = input.vertices?.names;
  if (names) {
    const v = names.indexOf(raw);
    if (v < 0) {
      const hint = suggest(raw, names.length <= 100_000 ? names : names.slice(0, 100_000));
      throw new UsageError(
        `${command}: --${flag} ${JSON.stringify(raw)} is not a vertex of ${input.label}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
      );
    }
    return v;
  }
  const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
  const ids = input.vertices?.ids;
  if (ids) {
    const v = Number.isSafeInteger(id) ? lowerBound(ids, id) : -1;
    if (v < 0 || ids[v] !== id)
      throw new UsageError(`${command}: --${flag} must be a vertex id of ${input.label} (as written in the file) or max-degree, got ${JSON.stringify(raw)}`);
    return v;
  }
  if (!(Number.isSafeInteger(id) && id < n))
    throw new UsageError(`${command}: --${flag} must be a vertex in [0, ${n - 1}] (0-based) or max-degree, got ${JSON.stringify(raw)}`);
  return id;
}

function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? lo : -1;
}

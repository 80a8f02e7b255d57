// Options of the edge-list reader (snap.ts): what each means, its default, and the one place
// that checks them and fills in the defaults.

import type { DuplicatePolicy } from '../data/coo.js';
import type { Precision } from '../data/dense.js';
import { checkBoolean, checkEnum } from '../validate.js';
import { optBoolean, optDuplicates, optMaxEntries, optPrecision } from './options.js';

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

export const EDGE_LIST_OPTION_KEYS = [
  'undirected',
  'weights',
  'precision',
  'duplicates',
  'dropSelfLoops',
  'maxEntries',
  'vertices',
  'delimiter',
  'header',
] as const;
export const PARSE_EDGE_LIST_OPTION_KEYS = [...EDGE_LIST_OPTION_KEYS, 'label'] as const;

/** Every option checked, defaults filled in. */
export interface ResolvedEdgeListOptions {
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

/** @throws {InvalidArgumentError} for an option of the wrong type or value. */
export function resolveEdgeListOptions(fn: string, opts: Partial<ParseEdgeListOptions>): ResolvedEdgeListOptions {
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

// Edge-list reader: "u v [w]" lines (SNAP's text format, CSV and TSV) into a CsrMatrix. Numeric
// vertex ids are renumbered by rank (so the file's id order, and with it its locality, survives);
// vertex names (gene symbols, page titles, ids past 2^53) are numbered in order of first
// appearance and kept exactly.

import { checkOptions } from '../validate.js';
import {
  EDGE_LIST_OPTION_KEYS,
  PARSE_EDGE_LIST_OPTION_KEYS,
  resolveEdgeListOptions,
  type EdgeListOptions,
  type ParseEdgeListOptions,
} from './edge-list-options.js';
import { EdgeListParser, type EdgeList } from './edge-list-parser.js';
import { loadLines, parseLines, type LineParser } from './text-loader.js';

export type { EdgeListDelimiter, EdgeListOptions, EdgeListVertices, ParseEdgeListOptions } from './edge-list-options.js';
export type { EdgeList } from './edge-list-parser.js';

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
export function loadEdgeList(path: string, options?: EdgeListOptions): Promise<EdgeList> {
  const fn = 'loadEdgeList';
  return loadLines(fn, path, (file) => edgeListSink(fn, file, options));
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
  return parseLines(fn, input, options, PARSE_EDGE_LIST_OPTION_KEYS, (label, raw) => new EdgeListParser(fn, label, resolveEdgeListOptions(fn, raw)));
}

/** The parser behind both entry points, as a LineSink; internal, for chunk-boundary tests. */
export function edgeListSink(fn: string, file: string, options?: EdgeListOptions): LineParser<EdgeList> {
  return new EdgeListParser(fn, file, resolveEdgeListOptions(fn, checkOptions(fn, options, EDGE_LIST_OPTION_KEYS)));
}

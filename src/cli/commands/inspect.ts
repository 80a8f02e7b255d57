// `dype inspect`: the structural features the cost model reads from an input (row lengths,
// locality, power-law fit) and, with --graph, what BFS would see (levels, frontiers, diameter).

import { graphFeatures, matrixFeatures } from '../../cost/features.js';
import type { GraphFeatures, MatrixFeatures } from '../../cost/feature-types.js';
import { INPUT_FLAGS, inputFlagsHelp, inputRequest, loadInput } from '../input.js';
import { intFlag, parseFlags } from '../parse.js';
import { formatCount, formatJoules, formatMs, formatTable } from '../table.js';
import type { CsrMatrix } from '../../data/csr.js';
import { type PartitionStats, partitionMetis, partitionRows, partitionStats } from '../../data/partition.js';
import { loadCostModel } from '../../cost/store.js';
import type { Prediction } from '../../cost/model.js';
import { detectSystem, loadSystem } from '../../devices/system.js';
import { UsageError } from '../usage-error.js';
import { degreeChart } from '../charts/degrees.js';
import { chartFormat, writeChart } from '../charts/render.js';
import { sizeFlag } from './explore.js';

export const INSPECT_HELP = `Usage: dype inspect [FILE | --data FILE | --generate SPEC] [--graph] [--predict] [--parts N [--partitioner NAME]] [--k N] [--system FILE] [--out FILE] [--json]

Print the structural features dype's cost model reads from a sparse matrix or graph: shape,
row-length distribution (with a log2 histogram and a power-law fit), distance from the diagonal,
and how often consecutive columns of a row share a cache line or page.

${inputFlagsHelp()}
  FILE                 the same as --data FILE

Options:
  --graph              also run BFS from 4 sampled sources: levels, frontier sizes, diameter
  --predict            also predict SpMM (width --k, FP32), SpMV and BFS on every device of the
                       system (detected, or --system FILE), from the stored calibration or, until
                       \`dype calibrate\` has run, from spec defaults (marked uncalibrated)
  --parts N            also partition the rows into N parts balanced by work (entries plus rows),
                       as distributed operators would, and show each part's rows, entries, cut
                       entries and halo (remote rows it must receive), the edge cut and the
                       imbalance (square matrices only)
  --partitioner NAME   rows (default): contiguous blocks; metis: METIS k-way, fewer edges cut
                       (where the build found METIS: Debian's libmetis-dev)
  --k N                SpMM width for --predict (default 16)
  --system FILE        the system --predict uses
  --out FILE           also draw the degree distribution (rows per row length, log-log, with
                       the fitted power-law tail): .png, .svg or .html
  --size WxH           chart size in pixels (default 960x600)
  --json               print one JSON object (arrays as plain arrays; schema in docs/cli-json.md)
  -h, --help           show this help

Above 2^24 stored entries the gap and locality figures come from a row sample; the output
states the sampled fraction and the error bound.

Examples:
  dype inspect --generate kron16
  dype inspect graph.mtx --graph
  dype inspect --generate road --graph --json
  dype inspect ../shared/datasets/email-Enron.mtx --predict --k 64
  dype inspect ../shared/datasets/luxembourg_osm.mtx --parts 4 --partitioner metis
  dype inspect ../shared/datasets/soc-Slashdot0902.mtx --out degrees.png`;

const FLAGS = {
  ...INPUT_FLAGS,
  graph: { type: 'boolean' },
  predict: { type: 'boolean' },
  parts: { type: 'string' },
  partitioner: { type: 'string' },
  k: { type: 'string' },
  system: { type: 'string' },
  out: { type: 'string' },
  size: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const num = (x: number): string => (Number.isInteger(x) ? formatCount(x) : x.toPrecision(4));

/** Plain arrays in place of typed arrays, for JSON. */
function plain(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** One bar per non-empty log2 bucket, scaled to the largest. */
function histogramChart(histogram: Float64Array, width = 40): string {
  let last = histogram.length - 1;
  while (last >= 0 && histogram[last] === 0) last--;
  const peak = Math.max(1, ...histogram);
  const lines: string[] = [];
  for (let b = 0; b <= last; b++) {
    const c = histogram[b]!;
    const label = b === 0 ? '0' : b === 1 ? '1' : `${2 ** (b - 1)}-${2 ** b - 1}`;
    const bar = '#'.repeat(Math.round((c / peak) * width)) || (c > 0 ? '.' : '');
    lines.push(`  ${label.padStart(13)} | ${bar} ${formatCount(c)}`);
  }
  return lines.join('\n');
}

function matrixTable(f: MatrixFeatures): string {
  const pl = f.powerLaw;
  const cov = f.coverage;
  const rows: [string, string][] = [
    ['rows x cols', `${formatCount(f.rows)} x ${formatCount(f.cols)}`],
    ['stored entries', formatCount(f.nnz)],
    ['density', f.density.toExponential(3)],
    ['row length mean', num(f.rowLength.mean)],
    ['row length cv', num(f.rowLength.cv)],
    ['row length max', num(f.rowLength.max)],
    ['row length Gini', num(f.rowLength.gini)],
    ['empty rows', formatCount(f.rowLength.empty)],
    ['bandwidth', formatCount(f.bandwidth)],
    ['mean |col - row|', num(f.meanDistance)],
    ['same 64 B line', num(f.sameLine)],
    ['same 4 KiB page', num(f.samePage)],
    ['power law', pl.state === 'fitted' ? `alpha ${pl.alpha.toFixed(3)} above ${pl.xmin} (${formatCount(pl.tailRows)} rows)` : `not fitted: ${pl.reason}`],
    [
      'coverage',
      cov.state === 'exact'
        ? 'exact (every row)'
        : `sampled ${formatCount(cov.rows)} rows (${(cov.fraction * 100).toFixed(1)}%), error <= ${cov.errorBound.toFixed(4)} at 99%`,
    ],
  ];
  return formatTable(['feature', 'value'], rows);
}

function graphTable(f: GraphFeatures): string {
  const rows: [string, string][] = [
    ['sources', Array.from(f.sources).join(' ')],
    ['levels (deepest sample)', formatCount(f.levels)],
    ['levels (mean of samples)', f.meanLevels.toFixed(1)],
    ['diameter estimate', formatCount(f.diameterEstimate)],
    // A fraction with no unit read "reached 1": what of the graph a search from a sample reaches.
    ['reached (mean of samples)', `${(100 * f.reached).toFixed(1)}% of vertices`],
  ];
  const levels = Array.from(f.frontier, (x, l) => [String(l), x.toPrecision(3), f.frontierEdges[l]!.toPrecision(3)]);
  const shown = levels.length > 24 ? [...levels.slice(0, 12), ['...', '', ''], ...levels.slice(-6)] : levels;
  return `${formatTable(['feature', 'value'], rows)}\n\n${formatTable(['level', 'vertices', 'edges'], shown)}`;
}

export async function inspectCommand(argv: readonly string[], out: (s: string) => void): Promise<void> {
  const { values, positionals } = parseFlags('inspect', argv, FLAGS, true);
  if (values['help']) {
    out(INSPECT_HELP);
    return;
  }
  if (positionals.length > 1) throw new UsageError(`inspect: expected at most one FILE, got ${positionals.length}; see dype inspect --help`);
  const flagData = typeof values['data'] === 'string' ? values['data'] : undefined;
  if (positionals[0] !== undefined && flagData !== undefined) throw new UsageError('inspect: give FILE or --data, not both');
  const data = positionals[0] ?? flagData;
  const k = intFlag('inspect', 'k', values['k'], 16, 1, 4096);
  const plot = typeof values['out'] === 'string' ? values['out'] : undefined;
  const format = plot !== undefined ? chartFormat('inspect', 'out', plot) : undefined;
  if (values['size'] !== undefined && plot === undefined) throw new UsageError('inspect: --size needs --out');
  const size = sizeFlag('inspect', values['size']);
  const input = await loadInput('inspect', { ...inputRequest(values), data });
  const features = matrixFeatures(input.matrix);
  const graph = values['graph'] ? graphFeatures(input.matrix) : undefined;
  const predictions = values['predict'] ? await predict(input.matrix, k, typeof values['system'] === 'string' ? values['system'] : undefined) : undefined;
  if (values['partitioner'] !== undefined && values['parts'] === undefined) throw new UsageError('inspect: --partitioner needs --parts');
  const method = values['partitioner'] ?? 'rows';
  if (method !== 'rows' && method !== 'metis') throw new UsageError(`inspect: --partitioner must be rows or metis, got ${JSON.stringify(method)}`);
  const partition = values['parts'] !== undefined ? partitionOf(input.matrix, intFlag('inspect', 'parts', values['parts'], 2, 1, 1 << 20), method) : undefined;
  if (plot !== undefined && format !== undefined) {
    const title = `dype inspect: degree distribution of ${input.label}`;
    const pl = features.powerLaw;
    const spec = degreeChart({
      title,
      subtitle: [
        `${formatCount(features.rows)} rows, ${formatCount(features.nnz)} stored entries; row length mean ${num(features.rowLength.mean)}, max ${formatCount(features.rowLength.max)}, Gini ${num(features.rowLength.gini)}`,
        pl.state === 'fitted'
          ? `power-law tail: alpha ${pl.alpha.toFixed(3)} above length ${pl.xmin} (${formatCount(pl.tailRows)} rows)`
          : `no power-law fit: ${pl.reason}`,
      ],
      matrix: input.matrix,
      powerLaw: pl,
      ...size,
    });
    await writeChart('inspect', spec, plot, format, title);
  }
  if (values['json']) {
    out(
      JSON.stringify(
        plain({
          command: 'inspect',
          input: input.label,
          matrix: features,
          ...(graph ? { graph } : {}),
          ...(predictions ? { predictions } : {}),
          ...(partition ? { partition } : {}),
          plot: plot ?? null,
        }),
        null,
        2,
      ),
    );
    return;
  }
  out(`Input: ${input.label} (${input.matrix})\n`);
  out(matrixTable(features));
  out('\nRow lengths (log2 buckets)');
  out(histogramChart(features.rowLength.histogram));
  if (graph) {
    out('\nBFS from sampled sources (fractions of vertices and stored entries per level, averaged)');
    out(graphTable(graph));
  }
  if (predictions) {
    out(`\nPredicted cost (cost model, not measured; SpMM k=${k} FP32, SpMV FP32, BFS from a typical source)`);
    out(
      formatTable(
        ['device', 'operator', 'time', 'energy', 'uncertainty', 'model'],
        predictions.map((p) => [p.device, p.operator, formatMs(p.seconds * 1e3), formatJoules(p.joules), `+-${Math.round(p.uncertainty * 100)}%`, p.state]),
      ),
    );
  }
  if (partition) out(`\n${partitionText(partition, input.matrix.nnz)}`);
  if (plot !== undefined) out(`\nChart: ${plot} (rows per row length, log-log, with the fitted power-law tail)`);
}

type ShownPartition = PartitionStats & { method: 'rows' | 'metis'; bounds?: Int32Array };

/** `--parts N`: the row partition and what it costs. */
function partitionOf(a: CsrMatrix, parts: number, method: 'rows' | 'metis'): ShownPartition {
  if (a.rows !== a.cols) throw new UsageError(`inspect: --parts needs a square matrix (a graph), got ${a.rows}x${a.cols}`);
  const p = method === 'metis' ? partitionMetis(a, parts) : partitionRows(a, parts);
  return { method, ...(p.bounds ? { bounds: p.bounds } : {}), ...partitionStats(a, p) };
}

function partitionText(p: ShownPartition, nnz: number): string {
  const how = p.method === 'metis' ? 'METIS k-way parts' : 'contiguous parts';
  const head = `Row partition into ${p.parts.length} ${how} balanced by work (entries + rows): edge cut ${formatCount(p.edgeCut)} entries (${((100 * p.edgeCut) / Math.max(1, nnz)).toFixed(2)}%), halo ${formatCount(p.haloTotal)} rows in all, imbalance ${p.imbalance.toFixed(3)}`;
  const rows = p.parts.map((q, i) => [
    String(i),
    p.bounds ? `${formatCount(p.bounds[i]!)}-${formatCount(p.bounds[i + 1]!)}` : formatCount(q.rows),
    formatCount(q.entries),
    formatCount(q.cutEntries),
    formatCount(q.halo),
  ]);
  return `${head}\n${formatTable(['part', 'rows', 'entries', 'cut entries', 'halo (remote rows)'], rows)}`;
}

/** Predictions for every device of the system (the model never runs a kernel to predict). */
async function predict(a: CsrMatrix, k: number, systemFile: string | undefined): Promise<Prediction[]> {
  const system = systemFile !== undefined ? await loadSystem(systemFile) : await detectSystem();
  try {
    const model = await loadCostModel(system);
    const out: Prediction[] = [];
    for (const d of system.devices) {
      out.push(model.predictShape(d, { kind: 'spmm', a, k, precision: 'f32' }));
      out.push(model.predictShape(d, { kind: 'spmv', a, k: 1, precision: 'f32' }));
      if (a.rows === a.cols) out.push(model.predictShape(d, { kind: 'bfs', graph: a }));
    }
    return out;
  } finally {
    await system.dispose();
  }
}

// Regenerates the README's performance section (between <!-- bench:begin --> and
// <!-- bench:end -->) from bench/results/latest.json: SpMM against Eigen and GraphBLAS, BFS
// against the GAP-style reference, a plain BFS and GraphBLAS (both at every thread count run), decision quality against DyPe's published figures, and the
// machine, date and profile of the run. Nothing in the section is typed by hand.
// Run: node --import tsx bench/gate/readme.ts [--latest FILE] [--readme FILE] [--check]
// --check exits 1 when the README's section differs from what the latest results give.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../common/datasets.js';
import { fixed, ms, tableMarkdown } from '../common/report.js';
import { latestPath, type Latest, readLatest } from './files.js';

const BEGIN = '<!-- bench:begin -->';
const END = '<!-- bench:end -->';

/** DyPe's figures as the paper reports them (see ../seeds/): constants, labelled as such below. */
const DYPE_PAPER = { optimal: 77, cases: 86, meanLoss: 0.0395, overStatic: 1.53, overGpuTime: 1.44, overGpuEnergy: 1.66 };

const { values: args } = parseArgs({
  options: {
    latest: { type: 'string', default: latestPath },
    readme: { type: 'string', default: join(repoRoot, 'README.md') },
    check: { type: 'boolean', default: false },
  },
  strict: true,
});

interface Timing {
  median: number;
}
interface SpmmRow {
  input: string;
  required: boolean;
  nnz: number;
  dype: Timing;
  eigen: Timing;
  graphblas?: Timing;
  ratio: number;
  plainRatio: number;
  graphblasRatio?: number;
}
interface SpmmConfig {
  precision: string;
  k: number;
  rows: SpmmRow[];
  summary: { medianRatioAll: number; medianGraphblasRatioAll: number; medianPlainRatioAll: number };
}
interface SpmmSummary {
  medianEigenRatio: number;
  minEigenRatio?: number;
  medianGraphblasRatio: number;
  medianPlainRatio: number;
  measured: number;
  medianBoundShareLarge?: number;
  minBoundShareLarge?: number;
  largeMeasured?: number;
  medianCallRatio?: number;
  worstCallRatio?: number;
}
interface SpmmData {
  configs: SpmmConfig[];
  summary: SpmmSummary;
  byThreads?: Record<string, { summary: SpmmSummary }>;
}
interface BfsGraph {
  graph: string;
  treatment: string;
  storedEntries: number;
  warmMs: number;
  plainMs: number;
  graphblasMs?: number;
  plainRatio: number;
  graphblasRatio?: number;
  mteps: number;
  gapInProcessMs?: number;
  gapOwnProcessMs?: number;
  gapRatio?: number;
  multi?: { msbfsMs: number; singlesMs: number };
}
interface BfsSummary {
  medianPlainRatio: number;
  medianGraphblasRatio: number;
  medianGapRatio?: number;
  gapRatioByClass?: Record<string, { graphs: number; gapRatio: number }>;
  msbfsMinSpeedup?: number;
}
interface BfsData {
  graphs: BfsGraph[];
  summary: BfsSummary;
  byThreads?: Record<string, { graphs: BfsGraph[]; summary: BfsSummary }>;
}
interface DecisionSummary {
  cases: number;
  optimal: number;
  optimalRate: number;
  meanLoss: number;
  worstLoss: number;
  speedupOverStatic: number;
  speedupOverGpu: number;
  energyEfficiencyOverGpu: number;
}

function suite<T>(latest: Latest, name: string): { data: T; settings: Readonly<Record<string, unknown>> } | undefined {
  const s = latest.suites.find((x) => x.suite === name);
  return s === undefined ? undefined : { data: s.data as T, settings: s.settings };
}

const opt = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? 'n/a' : fixed(x));
const pct = (x: number, digits = 1): string => `${fixed(100 * x, digits)}%`;
/** A report table one heading level down, without its trailing newline. */
const table = (t: Parameters<typeof tableMarkdown>[0]): string => tableMarkdown(t).replace(/^### /, '#### ').trimEnd();

function spmmSection(s: { data: SpmmData; settings: Readonly<Record<string, unknown>> }): string[] {
  const { configs, summary } = s.data;
  const inputs: { name: string; nnz: number; generated: boolean }[] = [];
  for (const c of configs)
    for (const r of c.rows) if (!inputs.some((i) => i.name === r.input)) inputs.push({ name: r.input, nnz: r.nnz, generated: !r.required });
  const label = (c: SpmmConfig): string => `${c.precision.toUpperCase()} k=${c.k}`;
  const perInput = {
    title: 'Eigen/dype and GraphBLAS/dype per input (time ratios, paired rounds; > 1: dype faster)',
    columns: ['input', 'nnz', ...configs.map(label)],
    rows: [
      ...inputs.map((i) => [
        i.generated ? `${i.name} (generated)` : i.name,
        String(i.nnz),
        ...configs.map((c) => {
          const r = c.rows.find((x) => x.input === i.name);
          return r === undefined ? 'skipped' : `${fixed(r.ratio)} / ${opt(r.graphblasRatio)}`;
        }),
      ]),
      ['**median**', '', ...configs.map((c) => `**${fixed(c.summary.medianRatioAll)} / ${opt(c.summary.medianGraphblasRatioAll)}**`)],
    ],
  };
  const times = {
    title: 'Milliseconds per product (medians): dype / Eigen / GraphBLAS',
    columns: ['input', ...configs.map(label)],
    rows: inputs.map((i) => [
      i.name,
      ...configs.map((c) => {
        const r = c.rows.find((x) => x.input === i.name);
        return r === undefined ? 'skipped' : `${ms(r.dype.median)} / ${ms(r.eigen.median)} / ${r.graphblas ? ms(r.graphblas.median) : 'n/a'}`;
      }),
    ]),
  };
  const perCount = Object.entries(s.data.byThreads ?? {}).map(([t, d]) => ({ t, summary: d.summary }));
  const byThreads = {
    title: 'SpMM at each thread count (medians over the inputs, precisions and k; > 1: dype faster)',
    columns: [
      'threads',
      'Eigen/dype',
      'lowest Eigen/dype',
      'plain loop/dype',
      '% of the gather-aware bound, inputs > cache (median, lowest)',
      'call / kernel, 10k-100k entries (median, worst)',
    ],
    rows: perCount.map(({ t, summary: x }) => {
      const bound = x.largeMeasured
        ? `${pct(x.medianBoundShareLarge ?? NaN, 0)}, ${pct(x.minBoundShareLarge ?? NaN, 0)} (${x.largeMeasured} cases)`
        : 'none larger than the cache';
      return [t, fixed(x.medianEigenRatio), opt(x.minEigenRatio), fixed(x.medianPlainRatio), bound, `${opt(x.medianCallRatio)}, ${opt(x.worstCallRatio)}`];
    }),
  };
  return [
    `**SpMM** (\`bench/kernels/spmm.ts\`; ${String(s.settings['threads'])} thread(s) for dype and every reference; Eigen ${String(s.settings['eigen'])}, SuiteSparse:GraphBLAS ${String(s.settings['graphblas'] ?? 'not built')}). ` +
      `Over all ${summary.measured} (input, precision, k) measurements the median Eigen/dype is **${fixed(summary.medianEigenRatio)}**, GraphBLAS/dype **${opt(summary.medianGraphblasRatio)}**, plain OpenMP loop/dype **${fixed(summary.medianPlainRatio)}**.`,
    ...(perCount.length > 0 ? [table(byThreads)] : []),
    table(perInput),
    table(times),
  ];
}

/** The GAP-style reference's time for a graph: the faster of its in-process and own-process runs. */
function gapMs(g: BfsGraph): number | undefined {
  const t = [g.gapInProcessMs, g.gapOwnProcessMs].filter((x): x is number => x !== undefined && Number.isFinite(x));
  return t.length > 0 ? Math.min(...t) : undefined;
}

function bfsSection(s: { data: BfsData; settings: Readonly<Record<string, unknown>> }): string[] {
  const { graphs, summary } = s.data;
  const perGraph = {
    title: `BFS per search (median over ${String(s.settings['sources'])} sources; ratios: paired rounds, > 1: dype faster)`,
    columns: ['graph', 'stored entries', 'dype ms', 'MTEPS', 'GAP-style ms', 'GAP-style/dype', 'plain ms', 'plain/dype', 'GraphBLAS ms', 'GraphBLAS/dype'],
    rows: [
      ...graphs.map((g) => {
        const gap = gapMs(g);
        return [
          `${g.graph} (${g.treatment})`,
          String(g.storedEntries),
          ms(g.warmMs),
          fixed(g.mteps, 0),
          gap === undefined ? 'n/a' : ms(gap),
          opt(g.gapRatio),
          ms(g.plainMs),
          fixed(g.plainRatio),
          g.graphblasMs === undefined ? 'n/a' : ms(g.graphblasMs),
          opt(g.graphblasRatio),
        ];
      }),
      [
        '**median**',
        '',
        '',
        '',
        '',
        `**${opt(summary.medianGapRatio)}**`,
        '',
        `**${fixed(summary.medianPlainRatio)}**`,
        '',
        `**${opt(summary.medianGraphblasRatio)}**`,
      ],
    ],
  };
  const perCount = Object.entries(s.data.byThreads ?? {}).map(([t, d]) => ({ t, summary: d.summary }));
  const classes = [...new Set(perCount.flatMap(({ summary }) => Object.keys(summary.gapRatioByClass ?? {})))];
  const byClass = {
    title:
      "BFS against the GAP-style reference per graph class, at each thread count (median over the class's graphs of the per-source ratio; > 1: dype faster)",
    columns: ['class', ...perCount.map(({ t }) => `GAP-style/dype, ${t} thread${t === '1' ? '' : 's'}`)],
    rows: [
      ...classes.map((c) => [c, ...perCount.map(({ summary }) => opt(summary.gapRatioByClass?.[c]?.gapRatio))]),
      ['**all graphs**', ...perCount.map(({ summary }) => `**${opt(summary.medianGapRatio)}**`)],
      ['multi-source BFS / 64 single searches, lowest input', ...perCount.map(({ summary }) => opt(summary.msbfsMinSpeedup))],
    ],
  };
  return [
    `**BFS** (\`bench/kernels/bfs.ts\`; ${String(s.settings['threads'])} thread(s) in the per-graph table): dype's direction-optimising \`bfs\` against the GAP-style direction-optimising reference (\`bench/references/gap_bfs.h\`, written from Beamer et al. and the GAP suite's description, timed in this process and in one of its own, the faster counted), a serial queue BFS in C++ and GraphBLAS's level-synchronous BFS (\`GrB_vxm\` over ANY_PAIR with a complemented mask).`,
    ...(perCount.length > 0 ? [table(byClass)] : []),
    table(perGraph),
  ];
}

function decisionSection(s: { data: { summary: DecisionSummary } }): string[] {
  const d = s.data.summary;
  const p = DYPE_PAPER;
  const quality = {
    title: 'Decision quality against the model-independent oracle (within 1%, or within the measured spread where the CPU is timed)',
    columns: ['', 'dype (measured in this run)', 'DyPe (published)'],
    rows: [
      ['optimal picks', `${d.optimal}/${d.cases} (${pct(d.optimalRate)})`, `${p.optimal}/${p.cases} (${pct(p.optimal / p.cases)})`],
      ['mean loss when not optimal', pct(d.meanLoss, 2), pct(p.meanLoss, 2)],
      ['worst loss', pct(d.worstLoss, 2), 'not published'],
      ['speed-up over a static mapping', `${fixed(d.speedupOverStatic)}x`, `${fixed(p.overStatic)}x`],
      ['speed-up over the GPU alone', `${fixed(d.speedupOverGpu)}x`, `${fixed(p.overGpuTime)}x`],
      ['energy efficiency over the GPU alone', `${fixed(d.energyEfficiencyOverGpu)}x`, `${fixed(p.overGpuEnergy)}x`],
    ],
  };
  return [
    "**Decision quality** (`bench/scheduler/decision-quality.ts`): `schedule()`'s pick against the oracle that runs every mapping and knows nothing of the model, on four systems: two all simulated (gpu-sim H100 or A100 + two cgra-sim), two with this machine's real CPU (cpu + gpu-sim + cgra-sim; cpu + cgra-sim); per system and how it works in [decisions.md](decisions.md). The DyPe column is the paper's figures, on its own cases and hardware: a yardstick, not a like-for-like comparison.",
    table(quality),
  ];
}

export function section(latest: Latest): string {
  const m = latest.machine;
  const sizeText = {
    full: 'full size',
    quick: 'quick size (smoke run: few inputs, short runs)',
    ci: "CI size (the regression gate's inputs: smaller than the full run)",
  }[latest.profile];
  const loads = latest.suites.map((s) => s.machine.loadAverage);
  const parts: string[] = [
    BEGIN,
    '<!-- Generated by `npm run bench:report` from bench/results/latest.json; edit bench/gate/readme.ts, not this block. -->',
    `Measured ${latest.date.slice(0, 10)} at ${sizeText} on ${m.cpu} (${m.logicalCpus} logical CPUs, ${m.memoryGiB} GiB), Node ${m.node}, ${m.platform}; ` +
      `one-minute load average ${fixed(Math.min(...loads), 1)}-${fixed(Math.max(...loads), 1)} at the suites' starts. ` +
      "Every reference is called in the same process and run as dype, on the same inputs and thread count; ratios are medians over paired rounds (one call of each per round), which cancel most of a shared machine's changing load, but this VM is shared and noisy: expect ±15% between runs.",
  ];
  const spmm = suite<SpmmData>(latest, 'spmm');
  const bfs = suite<BfsData>(latest, 'bfs');
  const decisions = suite<{ summary: DecisionSummary }>(latest, 'decisions');
  parts.push(...(spmm ? spmmSection(spmm) : ['**SpMM**: not in this run.']));
  parts.push(...(bfs ? bfsSection(bfs) : ['**BFS**: not in this run.']));
  parts.push(...(decisions ? decisionSection(decisions) : ['**Decision quality**: not in this run.']));
  parts.push(END);
  return parts.join('\n\n');
}

function main(): number {
  const latest = readLatest(args.latest);
  const readme = readFileSync(args.readme, 'utf8');
  const a = readme.indexOf(BEGIN);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${args.readme}: no ${BEGIN} ... ${END} block to fill`);
  const next = `${readme.slice(0, a)}${section(latest)}${readme.slice(b + END.length)}`;
  if (args.check) {
    if (next !== readme) {
      console.error(`bench:report: ${args.readme}'s performance section is not what ${args.latest} gives (npm run bench:report)`);
      return 1;
    }
    return 0;
  }
  writeFileSync(args.readme, next);
  console.log(`bench:report: ${args.readme} performance section regenerated from ${args.latest} (${latest.profile} run of ${latest.date})`);
  return 0;
}

process.exitCode = main();

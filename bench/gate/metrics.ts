// The regression gate's view of a benchmark run: each suite's report reduced to a flat list of
// named metrics, each saying how it may be compared (a same-run ratio, a deterministic figure,
// or information only). The extraction is explicit per suite, so a renamed field in a report
// surfaces as a missing metric, which fails the gate, rather than as a silent pass.

import type { SuiteName, SuiteReport } from '../common/report.js';

/**
 * - `ratio`: ours against a reference timed in the same run (>= 1: ours at least as fast), so
 *   the machine's speed cancels; compared with a tolerance for noise (default 15%).
 * - `deterministic`: a figure that depends only on code and parameters (decision quality,
 *   simulated cycles); must match within 1%.
 * - `info`: recorded and shown, never gated (absolute times, which do not transfer between runs).
 */
export type MetricKind = 'ratio' | 'deterministic' | 'info';

export interface Metric {
  readonly name: string;
  readonly kind: MetricKind;
  readonly value: number;
  readonly higherIsBetter: boolean;
  /** Overrides the default tolerance of its kind (a fraction: 0.15 is 15%). */
  readonly tolerance?: number;
}

type Extractor = (data: unknown) => Metric[];

const ratio = (name: string, value: number): Metric => ({ name, kind: 'ratio', value, higherIsBetter: true });
const det = (name: string, value: number, higherIsBetter: boolean): Metric => ({ name, kind: 'deterministic', value, higherIsBetter });
const info = (name: string, value: number, higherIsBetter: boolean): Metric => ({ name, kind: 'info', value, higherIsBetter });

/** A field the extractor relies on; a report without it is a bug in the suite, said loudly. */
function field<T>(obj: unknown, path: string): T {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(key in cur)) throw new Error(`metrics: the report has no ${path}`);
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur as T;
}

interface SpmmRow {
  input: string;
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

/** A number the report may lack (a field newer than the report): undefined then, never a throw. */
function optional(obj: unknown, path: string): number | undefined {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(key in cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return typeof cur === 'number' && Number.isFinite(cur) ? cur : undefined;
}

const gated = (name: string, value: number | undefined, higherIsBetter: boolean, tolerance: number): Metric[] =>
  value === undefined ? [] : [{ name, kind: 'ratio', value, higherIsBetter, tolerance }];

/**
 * A kernel suite run at several thread counts (bench/kernels/threads.ts) keeps each count's data
 * under byThreads; the first count's metrics keep their plain names (the gate's history is
 * single-threaded), every other count's go under `<suite>.<n>t.`.
 */
function perThreadCount(suite: string, extract: (data: unknown, prefix: string) => Metric[]): Extractor {
  return (data) => {
    const by = data !== null && typeof data === 'object' && 'byThreads' in data ? (data as { byThreads: Record<string, unknown> }).byThreads : undefined;
    if (by === undefined) return extract(data, suite);
    return Object.keys(by).flatMap((t, i) => extract(by[t], i === 0 ? suite : `${suite}.${t}t`));
  };
}

const spmm = perThreadCount('spmm', (data, p) => {
  const out: Metric[] = [
    ratio(`${p}.eigen/dype`, field<number>(data, 'summary.medianEigenRatio')),
    ratio(`${p}.graphblas/dype`, field<number>(data, 'summary.medianGraphblasRatio')),
    ratio(`${p}.plain/dype`, field<number>(data, 'summary.medianPlainRatio')),
    // Against a bound and a kernel timed in the same run: gated, with room for a shared machine.
    // The bound share moves most: its triad and its SpMM runs are timed at different moments,
    // and two clean-clone CI runs of the same kernel code gave 0.45 and 0.31 on this machine.
    ...gated(`${p}.bound-share`, optional(data, 'summary.medianBoundShareLarge'), true, 0.4),
    ...gated(`${p}.call/kernel`, optional(data, 'summary.medianCallRatio'), false, 0.25),
  ];
  const lowest = optional(data, 'summary.minEigenRatio');
  if (lowest !== undefined) out.push(info(`${p}.eigen/dype.lowest`, lowest, true));
  const worstCall = optional(data, 'summary.worstCallRatio');
  if (worstCall !== undefined) out.push(info(`${p}.call/kernel.worst`, worstCall, false));
  for (const c of field<SpmmConfig[]>(data, 'configs')) {
    const tag = `${p}.${c.precision}.k${c.k}`;
    out.push(
      info(`${tag}.eigen/dype`, c.summary.medianRatioAll, true),
      info(`${tag}.graphblas/dype`, c.summary.medianGraphblasRatioAll, true),
      info(`${tag}.plain/dype`, c.summary.medianPlainRatioAll, true),
    );
  }
  return out;
});

interface BfsGraph {
  graph: string;
  plainRatio: number;
  graphblasRatio?: number;
  gapRatio?: number;
  warmMs: number;
}

const bfs = perThreadCount('bfs', (data, p) => {
  const out: Metric[] = [
    ratio(`${p}.plain/dype`, field<number>(data, 'summary.medianPlainRatio')),
    ratio(`${p}.graphblas/dype`, field<number>(data, 'summary.medianGraphblasRatio')),
    ...gated(`${p}.gap/dype`, optional(data, 'summary.medianGapRatio'), true, 0.25),
    ...gated(`${p}.msbfs/singles.lowest`, optional(data, 'summary.msbfsMinSpeedup'), true, 0.25),
  ];
  const byClass =
    data !== null && typeof data === 'object' && 'summary' in data
      ? (data as { summary: { gapRatioByClass?: Record<string, { gapRatio: number }> } }).summary.gapRatioByClass
      : undefined;
  // Per class: one or two graphs each at CI size, too few for a gate on a shared machine; shown.
  for (const [c, v] of Object.entries(byClass ?? {})) if (Number.isFinite(v.gapRatio)) out.push(info(`${p}.${c}.gap/dype`, v.gapRatio, true));
  for (const g of field<BfsGraph[]>(data, 'graphs')) {
    out.push(info(`${p}.${g.graph}.plain/dype`, g.plainRatio, true));
    if (g.graphblasRatio !== undefined) out.push(info(`${p}.${g.graph}.graphblas/dype`, g.graphblasRatio, true));
    if (g.gapRatio !== undefined) out.push(info(`${p}.${g.graph}.gap/dype`, g.gapRatio, true));
  }
  return out;
});

interface DenseGemm {
  m: number;
  k: number;
  n: number;
  precision: string;
  blasRatio: number | null;
  numpyRatio: number | null;
}
interface DenseForward {
  workload: string;
  ratio: number;
}

// GEMM against OpenBLAS and numpy timed in the same run; element-wise passes against the triad of
// the same run; the executor's forward against its kernels. All ratios, the latter two with room
// for a shared machine's bandwidth swings. Lower is better for run/kernels.
const dense = perThreadCount('dense', (data, p) => {
  const out: Metric[] = [
    // At 2 threads on a 2-core shared machine the ratio moved 17% between two clean runs.
    ...gated(`${p}.openblas/dype`, optional(data, 'summary.medianBlasRatio'), true, 0.25),
    // numpy runs in a child process on its own clock, not paired with dype round by round in one
    // process like the other references: its ratio swung 0.59-0.83 between two CI runs here.
    ...gated(`${p}.numpy/dype`, optional(data, 'summary.medianNumpyRatio'), true, 0.45),
    ...gated(`${p}.elementwise/triad`, optional(data, 'summary.medianBoundShare'), true, 0.25),
    ...gated(`${p}.forward/kernels`, optional(data, 'summary.worstForwardRatio'), false, 0.15),
  ];
  for (const g of field<DenseGemm[]>(data, 'gemm')) {
    if (g.blasRatio !== null) out.push(info(`${p}.${g.precision}.${g.m}x${g.k}x${g.n}.openblas/dype`, g.blasRatio, true));
  }
  for (const f of field<DenseForward[]>(data, 'forward')) out.push(info(`${p}.${f.workload}.run/kernels`, f.ratio, false));
  return out;
});

interface SystemRates {
  cases: number;
  optimal: number;
  optimalRate: number;
  meanLoss: number;
  worstLoss: number;
}

/**
 * Decision quality per system. On an all-simulated system planner and oracle are deterministic,
 * so its counts must not move; where the real CPU takes part both time it, so its optimal rate is
 * a ratio with the tolerance of a timing, and its losses are information.
 */
const decisions: Extractor = (data) => {
  const bySystem = field<Record<string, SystemRates>>(data, 'summary.bySystem');
  const results = field<{ system: string; measured: boolean }[]>(data, 'results');
  const out: Metric[] = [];
  for (const [name, s] of Object.entries(bySystem)) {
    const tag = `decisions.${name}`;
    if (results.some((r) => r.system === name && r.measured)) {
      out.push(ratio(`${tag}.optimalRate`, s.optimalRate), info(`${tag}.meanLoss`, s.meanLoss, false), info(`${tag}.worstLoss`, s.worstLoss, false));
    } else {
      out.push(det(`${tag}.cases`, s.cases, true), det(`${tag}.optimal`, s.optimal, true), det(`${tag}.meanLoss`, s.meanLoss, false));
    }
  }
  const s = (key: string): number => field<number>(data, `summary.${key}`);
  out.push(
    info('decisions.speedupOverStatic', s('speedupOverStatic'), true),
    info('decisions.speedupOverGpu', s('speedupOverGpu'), true),
    info('decisions.energyEfficiencyOverGpu', s('energyEfficiencyOverGpu'), true),
  );
  return out;
};

interface DeviceEntry {
  dataset: string;
  operator: string;
  device: string;
  seconds: number;
  joules: number;
  source?: string;
  source_?: string;
  counters: Record<string, number>;
}
interface SpeedEntry {
  input: string;
  backend: string;
  spmmNnzPerSecond: number;
  bfsEdgesPerSecond: number;
}

const devices: Extractor = (data) => {
  const out: Metric[] = [];
  for (const e of field<DeviceEntry[]>(data, 'datasets')) {
    // The BFS entries keep the result's source under source_ (source is the start vertex there).
    const source = e.operator === 'bfs' ? e.source_ : e.source;
    if (source === 'measured') continue;
    const tag = `devices.${e.dataset}.${e.operator}.${e.device}`;
    const cycles = e.counters['cycles'];
    if (cycles !== undefined) out.push(det(`${tag}.cycles`, cycles, false));
    out.push(det(`${tag}.seconds`, e.seconds, false), det(`${tag}.joules`, e.joules, false));
  }
  for (const s of field<SpeedEntry[]>(data, 'speed')) {
    out.push(
      info(`devices.${s.input}.${s.backend}.spmm-nnz-per-s`, s.spmmNnzPerSecond, true),
      info(`devices.${s.input}.${s.backend}.bfs-edges-per-s`, s.bfsEdgesPerSecond, true),
    );
  }
  return out;
};

/** Suites whose reports the gate understands; the others contribute no metrics. */
const EXTRACTORS: Partial<Record<SuiteName, Extractor>> = { spmm, bfs, dense, decisions, devices };

export function metricsOf(report: SuiteReport): Metric[] {
  const extract = EXTRACTORS[report.suite];
  if (extract === undefined) return [];
  try {
    return extract(report.data);
  } catch (e) {
    throw new Error(`${report.suite}: ${(e as Error).message}`, { cause: e });
  }
}

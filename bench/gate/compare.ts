// The regression gate's verdicts: every gated metric of the baseline against the same metric now.
// Pure (no files, no clock), so the rules below are unit-tested (test/bench/compare.test.ts).

import { median } from '../../src/stats.js';
import type { Metric, MetricKind } from './metrics.js';

export interface Tolerances {
  /** Largest allowed drop of a ratio metric, as a fraction of its baseline. @default 0.15 */
  readonly ratio: number;
  /** Largest allowed change, either way, of a deterministic metric, as a fraction. @default 0.01 */
  readonly deterministic: number;
}

export const DEFAULT_TOLERANCES: Tolerances = { ratio: 0.15, deterministic: 0.01 };

export type Status = 'pass' | 'fail' | 'new' | 'info';

export interface Verdict {
  readonly name: string;
  readonly kind: MetricKind;
  readonly baseline: number | undefined;
  readonly current: number | undefined;
  /** current / baseline - 1, when both exist and the baseline is not 0. */
  readonly change: number | undefined;
  readonly tolerance: number | undefined;
  readonly status: Status;
  readonly reason: string;
  /** The confirmation run's value, where a timed failure was measured again (confirmFailures). */
  readonly rerun?: number;
}

export interface Comparison {
  readonly ok: boolean;
  readonly verdicts: readonly Verdict[];
  readonly failures: number;
}

/** Deterministic metrics whose baseline is 0 compare absolutely, within this. */
const ZERO_SLACK = 1e-12;

function judge(base: Metric, cur: Metric | undefined, tol: Tolerances): Verdict {
  const tolerance = base.tolerance ?? (base.kind === 'ratio' ? tol.ratio : base.kind === 'deterministic' ? tol.deterministic : undefined);
  const common = { name: base.name, kind: base.kind, baseline: base.value, tolerance };
  if (cur === undefined) {
    return { ...common, current: undefined, change: undefined, status: base.kind === 'info' ? 'info' : 'fail', reason: 'missing from this run' };
  }
  const change = base.value !== 0 ? cur.value / base.value - 1 : undefined;
  const at = { ...common, current: cur.value, change };
  if (base.kind === 'info') return { ...at, status: 'info', reason: 'not gated' };
  if (cur.kind !== base.kind) return { ...at, status: 'fail', reason: `kind changed from ${base.kind} to ${cur.kind}` };
  if (!Number.isFinite(cur.value)) return { ...at, status: 'fail', reason: `not a finite number (${cur.value})` };
  if (!Number.isFinite(base.value)) return { ...at, status: 'fail', reason: `the baseline is not a finite number (${base.value}): update the baseline` };
  const t = tolerance!;
  if (base.kind === 'ratio') {
    if (base.value <= 0) return { ...at, status: 'fail', reason: 'a ratio baseline must be positive' };
    // A drop in the direction that is worse for us; improvements always pass.
    const worse = base.higherIsBetter ? cur.value < base.value * (1 - t) : cur.value > base.value * (1 + t);
    if (worse) return { ...at, status: 'fail', reason: `${base.higherIsBetter ? 'dropped' : 'rose'} more than ${pct(t)}` };
    const better = base.higherIsBetter ? cur.value > base.value * (1 + t) : cur.value < base.value * (1 - t);
    return { ...at, status: 'pass', reason: better ? `improved more than ${pct(t)} (bench:update to keep it)` : `within ${pct(t)}` };
  }
  const off = base.value === 0 ? Math.abs(cur.value) > ZERO_SLACK : Math.abs(cur.value - base.value) > t * Math.abs(base.value);
  if (off) return { ...at, status: 'fail', reason: `changed by more than ${pct(t)} (deterministic)` };
  return { ...at, status: 'pass', reason: `within ${pct(t)}` };
}

/**
 * Compare a run's metrics with the baseline's. Fails on: a gated metric of the baseline that the
 * run lacks; a ratio that dropped more than its tolerance; a deterministic metric that moved more
 * than its tolerance either way; a gated value that is not a finite number. Metrics new in the
 * run are reported, not gated, until the baseline is updated.
 * @throws Error when a list names the same metric twice.
 */
export function compareMetrics(baseline: readonly Metric[], current: readonly Metric[], tolerances: Tolerances = DEFAULT_TOLERANCES): Comparison {
  const now = indexByName(current, 'this run');
  const before = indexByName(baseline, 'the baseline');
  const verdicts: Verdict[] = baseline.map((b) => judge(b, now.get(b.name), tolerances));
  for (const c of current) {
    if (!before.has(c.name)) {
      verdicts.push({
        name: c.name,
        kind: c.kind,
        baseline: undefined,
        current: c.value,
        change: undefined,
        tolerance: undefined,
        status: c.kind === 'info' ? 'info' : 'new',
        reason: 'not in the baseline',
      });
    }
  }
  const failures = verdicts.filter((v) => v.status === 'fail').length;
  return { ok: failures === 0, verdicts, failures };
}

/**
 * The suites whose timed failures a confirmation run can judge: a ratio metric that failed with a
 * value (not one that went missing) names its suite before its first dot (`bfs.2t.gap/dype`: bfs).
 */
export function suitesToConfirm(c: Comparison): string[] {
  const failed = c.verdicts.filter((v) => v.status === 'fail' && v.kind === 'ratio' && v.current !== undefined);
  return [...new Set(failed.map((v) => v.name.split('.')[0]!))];
}

/**
 * The gate's second look at timed failures. A ratio is timed on a shared machine whose speed
 * moves, so a ratio that failed in the first run stands only when it fails again in a
 * confirmation run of its suite; it then fails with both values named. One that passes the second
 * time passes, and says so. A real regression fails both times; noise seldom does twice. Every
 * other verdict (deterministic metrics, missing metrics, kinds changed) stands as judged first.
 */
export function confirmFailures(first: Comparison, rerun: Comparison): Comparison {
  const again = new Map(rerun.verdicts.map((v) => [v.name, v]));
  const verdicts = first.verdicts.map((v): Verdict => {
    if (v.status !== 'fail' || v.kind !== 'ratio' || v.current === undefined) return v;
    const second = again.get(v.name);
    const before = `${num(v.current)} (${signedPct(v.change)})`;
    if (second === undefined || second.current === undefined) return { ...v, reason: `${v.reason}; missing from the confirmation run` };
    const after = `${num(second.current)} (${signedPct(second.change)})`;
    if (second.status === 'fail') return { ...v, rerun: second.current, reason: `${v.reason}, twice: ${before}, then ${after} on the confirmation run` };
    return { ...v, status: 'pass', rerun: second.current, reason: `noise: failed at ${before}, passed on the confirmation run at ${after}` };
  });
  const failures = verdicts.filter((v) => v.status === 'fail').length;
  return { ok: failures === 0, verdicts, failures };
}

/**
 * A baseline's metrics with wider (or narrower) tolerances for named timed ratios, for a ratio
 * whose spread on one machine class is wider than its default (bench:update --tolerance
 * NAME=FRACTION; the note says why). Only ratios can take one, as a fraction in (0, 1).
 * @throws Error naming the metric when it is missing, not a ratio, or the fraction is out of range.
 */
export function withTolerances(metrics: readonly Metric[], tolerances: Readonly<Record<string, number>>): Metric[] {
  const byName = new Map(metrics.map((m) => [m.name, m]));
  for (const [name, t] of Object.entries(tolerances)) {
    const m = byName.get(name);
    if (m === undefined) throw new Error(`withTolerances: no metric ${JSON.stringify(name)} in the baseline`);
    if (m.kind !== 'ratio') throw new Error(`withTolerances: ${name} is ${m.kind}; only timed ratios take a tolerance of their own`);
    if (!(t > 0 && t < 1)) throw new Error(`withTolerances: the tolerance of ${name} must be a fraction in (0, 1), got ${t}`);
  }
  return metrics.map((m) => {
    const t = tolerances[m.name];
    return t === undefined ? m : { ...m, tolerance: t };
  });
}

/**
 * A baseline in which only the metrics whose names start with one of `prefixes` are retaken from
 * `run` (bench:update --only): every other metric stays as `current` has it, so a run of the one
 * suite a change touched is enough. A retaken ratio keeps the tolerance `current` gave it unless
 * the run's metric carries one of its own; metrics new to the baseline under those prefixes are
 * added.
 * @throws Error naming the metric when a metric of `current` under the prefixes is not in the run,
 *   or when no metric matches a prefix.
 */
export function retakeOnly(current: readonly Metric[], run: readonly Metric[], prefixes: readonly string[]): Metric[] {
  const taken = (name: string): boolean => prefixes.some((p) => name.startsWith(p));
  for (const p of prefixes) {
    if (!current.some((m) => m.name.startsWith(p)) && !run.some((m) => m.name.startsWith(p)))
      throw new Error(`retakeOnly: no metric starts with ${JSON.stringify(p)}`);
  }
  const fromRun = new Map(run.map((m) => [m.name, m]));
  const kept = current.map((m) => {
    if (!taken(m.name)) return m;
    const now = fromRun.get(m.name);
    if (now === undefined) throw new Error(`retakeOnly: ${m.name} is in the baseline but not in the run; run its suite`);
    return now.tolerance === undefined && m.tolerance !== undefined ? { ...now, tolerance: m.tolerance } : now;
  });
  const known = new Set(current.map((m) => m.name));
  return [...kept, ...run.filter((m) => taken(m.name) && !known.has(m.name))];
}

/**
 * A baseline from another machine class, for a machine that has none of its own: its
 * deterministic metrics (modelled figures, the same on every machine) stay gated, its timed
 * ratios become information only, since they were measured against references that run
 * differently there (bench/common/machine-class.ts).
 */
export function deterministicOnly(metrics: readonly Metric[]): Metric[] {
  return metrics.map((m) => (m.kind === 'ratio' ? { ...m, kind: 'info' } : m));
}

/**
 * A baseline's metrics from several runs of the same profile: each timed ratio the median of its
 * values over the runs that have it, so that one lucky or unlucky run does not set the bar every
 * later run is held to; every other metric as the first run has it (deterministic metrics are
 * the same in every run, and information-only ones are not gated).
 * @throws Error when a later run gives a metric of the first run another kind.
 */
export function medianOfRuns(runs: readonly (readonly Metric[])[]): Metric[] {
  const [first, ...rest] = runs;
  if (first === undefined) return [];
  const later = rest.map((r) => indexByName(r, 'a later run'));
  return first.map((m) => {
    const values = [m.value];
    for (const run of later) {
      const o = run.get(m.name);
      if (o === undefined) continue;
      if (o.kind !== m.kind) throw new Error(`medianOfRuns: ${m.name} is ${m.kind} in the first run and ${o.kind} in another`);
      values.push(o.value);
    }
    if (m.kind !== 'ratio' || values.length === 1) return m;
    const finite = values.filter(Number.isFinite);
    return finite.length === 0 ? m : { ...m, value: median(finite, 'medianOfRuns') };
  });
}

function indexByName(metrics: readonly Metric[], what: string): Map<string, Metric> {
  const map = new Map<string, Metric>();
  for (const m of metrics) {
    if (map.has(m.name)) throw new Error(`compareMetrics: ${what} names metric ${JSON.stringify(m.name)} twice`);
    map.set(m.name, m);
  }
  return map;
}

function num(x: number | undefined): string {
  return x === undefined ? '-' : Math.abs(x) >= 1e4 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(4) : x.toFixed(4);
}

function signedPct(x: number | undefined): string {
  return x === undefined ? '-' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
}

function pct(x: number): string {
  return `${+(100 * x).toFixed(2)}%`;
}

/** The verdicts as a Markdown table: gated metrics first (failures on top, then those passed on a second look), then the others. */
export function verdictTable(c: Comparison, opts: { includeInfo: boolean } = { includeInfo: false }): string {
  const order: Record<Status, number> = { fail: 0, pass: 1, new: 2, info: 3 };
  // Failures first, then the timed failures that passed their confirmation run, then the rest.
  const rank = (v: Verdict): number => order[v.status] - (v.status === 'pass' && v.rerun !== undefined ? 0.5 : 0);
  const rows = [...c.verdicts].filter((v) => opts.includeInfo || v.status !== 'info').sort((a, b) => rank(a) - rank(b));
  const lines = ['| metric | kind | baseline | now | change | tolerance | verdict |', '|---|---|---|---|---|---|---|'];
  for (const v of rows) {
    const change = signedPct(v.change);
    const verdict = v.status === 'fail' ? `**FAIL**: ${v.reason}` : `${v.status}: ${v.reason}`;
    lines.push(
      `| ${v.name} | ${v.kind} | ${num(v.baseline)} | ${num(v.current)} | ${change} | ${v.tolerance === undefined ? '-' : pct(v.tolerance)} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}

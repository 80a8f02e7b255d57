// Timing through tinybench with the suites' conventions: medians and quartiles from retained
// samples, and competing implementations measured in alternating order so neither always
// runs first (on a warm cache, after the other's page faults, ...).

import { Bench, type Task } from 'tinybench';
import { quantileSorted } from '../../src/stats.js';

export interface BenchSettings {
  /** Time budget per task and round (ms); iterations still reach the minimum below. */
  readonly time: number;
  readonly warmupTime: number;
  readonly iterations: number;
  readonly warmupIterations: number;
}

/** One implementation to time: a synchronous or asynchronous call of the work. */
export interface Candidate {
  readonly name: string;
  readonly fn: () => unknown;
  readonly async: boolean;
}

/** Wall-time statistics of one candidate, in milliseconds. */
export interface Timing {
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
  /** Median absolute deviation from the median (unscaled). */
  readonly mad: number;
  readonly samples: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Collect garbage when the process allows it (run with --expose-gc), so one input's garbage is not billed to the next. */
export function collectGarbage(): void {
  gc?.();
}

/** Quantile q of ascending data (src/stats.ts's definition), NaN when there is none. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  return sorted.length === 0 ? NaN : quantileSorted(sorted, q);
}

export function median(xs: readonly number[]): number {
  return quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const m = quantile(sorted, 0.5);
  const dev = sorted.map((x) => Math.abs(x - m)).sort((a, b) => a - b);
  return { median: m, p25: quantile(sorted, 0.25), p75: quantile(sorted, 0.75), mad: quantile(dev, 0.5), samples: sorted.length };
}

function samplesOf(task: Task): number[] {
  const r = task.result;
  if (r.state === 'errored') throw new Error(`${task.name} failed: ${r.error.message}`, { cause: r.error });
  if (r.state !== 'completed') throw new Error(`${task.name} did not complete (state ${r.state})`);
  const s = r.latency.samples;
  if (s === undefined || s.length === 0) throw new Error(`${task.name}: tinybench kept no samples`);
  return Array.from(s);
}

/**
 * Time each candidate; with `rounds` > 1 the order alternates between as given and reversed
 * (A B C, then C B A) and the samples of all rounds are pooled. Returns timings in candidate order.
 */
export async function measure(candidates: readonly Candidate[], settings: BenchSettings, rounds = 2): Promise<Timing[]> {
  const pooled = candidates.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ ...settings, retainSamples: true, setup: collectGarbage });
    const order = candidates.map((_, i) => (round % 2 === 0 ? i : candidates.length - 1 - i));
    for (const i of order) {
      const c = candidates[i]!;
      bench.add(c.name, c.fn as () => unknown, { async: c.async });
    }
    await bench.run();
    candidates.forEach((c, i) => {
      const task = bench.getTask(c.name);
      if (task === undefined) throw new Error(`tinybench lost task ${c.name}`);
      const into = pooled[i]!;
      for (const x of samplesOf(task)) into.push(x);
    });
  }
  return pooled.map(summarize);
}

export interface PairedSettings {
  /** Untimed calls of each candidate first. */
  readonly warmup: number;
  /** At least this many rounds, and more until `time` ms have passed, at most `maxRounds`. */
  readonly minRounds: number;
  readonly maxRounds: number;
  readonly time: number;
}

export interface PairedTimings {
  /** Per candidate, in candidate order. */
  readonly timings: Timing[];
  /** samples[c][r]: candidate c's time in round r (ms). */
  readonly samples: number[][];
}

/**
 * Time the candidates one call at a time, every candidate once per round, the order rotating
 * and reversing from round to round. On a shared machine the load changes within seconds; here
 * every round sees nearly the same load for all candidates, so per-round ratios between two of
 * them (pairedRatio) cancel most of it, where timing each for a block of its own cannot.
 *
 * Each timed call follows an untimed call of the same candidate, so every candidate is timed on
 * the cache it leaves itself, as repeated calls of it find it (gapbs times its trials back to
 * back the same way). A rotating order alone keeps the same neighbour before a candidate in most
 * rounds, and on an input that fits in cache the candidate after one with a large footprint pays
 * for that one's misses: on facebook_combined, dype's BFS always ran after GraphBLAS and took
 * 0.45 ms a search where the same call timed after itself took 0.17-0.25 ms.
 */
export async function measurePaired(candidates: readonly Candidate[], settings: PairedSettings): Promise<PairedTimings> {
  const n = candidates.length;
  for (const c of candidates) {
    for (let i = 0; i < settings.warmup; i++) await c.fn();
  }
  const samples = candidates.map((): number[] => []);
  const start = performance.now();
  for (let round = 0; round < settings.maxRounds; round++) {
    if (round >= settings.minRounds && performance.now() - start >= settings.time) break;
    collectGarbage();
    const shift = round % n;
    const order = candidates.map((_, i) => (i + shift) % n);
    if (Math.floor(round / n) % 2 === 1) order.reverse();
    for (const i of order) {
      const c = candidates[i]!;
      // Primed: an untimed call of the same candidate first (see above).
      if (c.async) await c.fn();
      else c.fn();
      const t = performance.now();
      if (c.async) await c.fn();
      else c.fn();
      samples[i]!.push(performance.now() - t);
    }
  }
  return { timings: samples.map(summarize), samples };
}

/** Median over rounds of reference time / candidate time (both from one measurePaired call). */
export function pairedRatio(reference: readonly number[], candidate: readonly number[]): number {
  if (reference.length !== candidate.length || reference.length === 0) throw new Error('pairedRatio: needs two equally long, non-empty sample lists');
  return median(reference.map((r, i) => r / candidate[i]!));
}

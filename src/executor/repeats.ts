// How often a real device's run is repeated to time it. A fixed count serves long runs, but a
// 20 us piece timed five times on a shared machine is noise (one preemption moves its median by
// half), and planner and oracle then disagree by that noise about which split is best. Short
// runs are repeated until their total reaches a few milliseconds, which costs little.

/** At least this much measured time in total, for runs short enough to afford it. */
export const MIN_TOTAL_SECONDS = 0.005;
/** Never more repeats than this. */
export const MAX_REPEATS = 40;

/** Whether runs so far (`count` of them, `seconds` in total) call for another: fewer than `min`, or short ones under the total. */
export function wantsMore(count: number, seconds: number, min: number): boolean {
  return count < min || (seconds < MIN_TOTAL_SECONDS && count < MAX_REPEATS);
}

/** Run `run` at least `min` times, and more while the runs' own seconds total under `MIN_TOTAL_SECONDS` (up to `MAX_REPEATS`). */
export async function repeatRuns<T extends { readonly seconds: number }>(run: () => Promise<T>, min: number): Promise<T[]> {
  const out: T[] = [];
  let total = 0;
  while (wantsMore(out.length, total, min)) {
    const r = await run();
    out.push(r);
    total += r.seconds;
  }
  return out;
}

/** Times at most that one timed run is taken again because the pool ran it short of its workers or its thread was switched out (host-timing.ts). */
export const MAX_RETAKES = 3;
/**
 * Milliseconds to wait before the first retake, tripled before each further one. Whatever held a
 * worker's core (a V8 compilation job, a collector's marking) most often still holds it a retake
 * later: taken again at once, a third of the short runs of a first plan were short three times.
 */
const RETAKE_PAUSE_MS = 1;
/** A run's unaided jobs may exceed its fewest so far by this share before it is taken again (a search on a mesh runs most of its narrow levels unaided, by a few per cent more or less). */
const UNAIDED_SLACK = 0.05;
/**
 * Runs longer than this are not taken again: a worker's core held for a time slice, or a thread
 * switched out, moves such a run by a few per cent, which the median of its rounds absorbs,
 * while retakes had made most of a plan's time. A multi-source BFS of mdual on the CPU (130 ms a
 * run, its unaided jobs above their fewest in 58% of runs) spent 11.9 of 33 s planning on retakes.
 */
export const RETAKE_LONGEST_SECONDS = 0.02;

/**
 * Time several runs together, as the oracle and the probes both do: each run once to warm up
 * (first touch of its output, the pool's wake-up), then rounds in which every run that still
 * wants more (`wantsMore`) runs once, so that a busy spell on the machine falls on all of them
 * alike and each is timed amid the others, as it will run, not hot from its own last run;
 * `before(k)` runs ahead of each timed run of run k (a turnover of the host's caches), and
 * `unaided(k)`, called just before run k, returns what counts the pool's jobs it ran without
 * its workers and its calls switched out: a run with more than run k's fewest so far is taken again, at most
 * `MAX_RETAKES` times, the last take kept (so each round still holds one sample of every run).
 * `onDone(k, runs)` is called as run k's timing completes. Returns every run's timed results.
 */
export async function repeatInRounds<T extends { readonly seconds: number }>(
  runs: readonly (() => Promise<T>)[],
  min: number,
  options: {
    readonly signal?: AbortSignal;
    readonly onDone?: (k: number, results: readonly T[]) => void;
    /** Run before each timed run of run k (not its warm-up; its time counts toward the run's total): host-timing.ts's `hostTimingFor`. */
    readonly before?: (k: number) => Promise<void> | undefined;
    /** Called just before each run of run k; what it returns, called after, gives the run's unaided pool jobs (host-timing.ts). */
    readonly unaided?: (k: number) => (() => number) | undefined;
  } = {},
): Promise<T[][]> {
  const fewest = runs.map(() => Infinity);
  // Each run's shortest take so far (its warm-up included): how long the run is, where a take
  // the pool ran short of its workers may itself have taken far longer.
  const shortest = runs.map(() => Infinity);
  /** Run k once, its unaided jobs counted; whether it ran with more of them than its fewest so far. */
  const take = async (k: number): Promise<{ r: T; short: boolean }> => {
    const counted = options.unaided?.(k);
    let r: T;
    try {
      r = await runs[k]!();
    } catch (e) {
      counted?.(); // the watch ends with the run, however it ends
      throw e;
    }
    const u = counted?.() ?? 0;
    fewest[k] = Math.min(fewest[k]!, u);
    shortest[k] = Math.min(shortest[k]!, r.seconds);
    return { r, short: u > fewest[k]! * (1 + UNAIDED_SLACK) && shortest[k]! <= RETAKE_LONGEST_SECONDS };
  };
  for (let k = 0; k < runs.length; k++) {
    options.signal?.throwIfAborted();
    await take(k);
  }
  const samples: T[][] = runs.map(() => []);
  const totals = runs.map(() => 0);
  let pending = runs.map((_, k) => k);
  while (pending.length > 0) {
    for (const k of pending) {
      for (let attempt = 0; ; attempt++) {
        options.signal?.throwIfAborted();
        const t0 = performance.now();
        const prepared = options.before?.(k);
        // What preparing a run costs counts toward its total: a 20 us piece behind a 160 us
        // turnover is timed about 25 times, not 40, and each of those is the steadier for it.
        if (prepared) {
          await prepared;
          totals[k]! += (performance.now() - t0) / 1000;
        }
        const { r, short } = await take(k);
        if (short && attempt < MAX_RETAKES) {
          await new Promise((resolve) => setTimeout(resolve, RETAKE_PAUSE_MS * 3 ** attempt));
          continue;
        }
        samples[k]!.push(r);
        totals[k]! += r.seconds;
        break;
      }
    }
    pending = pending.filter((k) => {
      if (wantsMore(samples[k]!.length, totals[k]!, min)) return true;
      options.onDone?.(k, samples[k]!);
      return false;
    });
  }
  return samples;
}

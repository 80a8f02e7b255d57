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

/**
 * Time several runs together, as the oracle and the probes both do: each run once to warm up
 * (first touch of its output, the pool's wake-up), then rounds in which every run that still
 * wants more (`wantsMore`) runs once, so that a busy spell on the machine falls on all of them
 * alike and each is timed amid the others, as it will run, not hot from its own last run;
 * `before(k)` runs ahead of each timed run of run k (a turnover of the host's caches).
 * `onDone(k, runs)` is called as run k's timing completes. Returns every run's timed results.
 */
export async function repeatInRounds<T extends { readonly seconds: number }>(
  runs: readonly (() => Promise<T>)[],
  min: number,
  options: {
    readonly signal?: AbortSignal;
    readonly onDone?: (k: number, results: readonly T[]) => void;
    /** Run before each timed run of run k (not its warm-up; its time counts toward the run's total): cache-turnover.ts's `turnoverFor`. */
    readonly before?: (k: number) => Promise<void> | undefined;
  } = {},
): Promise<T[][]> {
  for (const run of runs) {
    options.signal?.throwIfAborted();
    await run();
  }
  const samples: T[][] = runs.map(() => []);
  const totals = runs.map(() => 0);
  let pending = runs.map((_, k) => k);
  while (pending.length > 0) {
    for (const k of pending) {
      options.signal?.throwIfAborted();
      const t0 = performance.now();
      const prepared = options.before?.(k);
      // What preparing a run costs counts toward its total: a 20 us piece behind a 160 us
      // turnover is timed about 25 times, not 40, and each of those is the steadier for it.
      if (prepared) {
        await prepared;
        totals[k]! += (performance.now() - t0) / 1000;
      }
      const r = await runs[k]!();
      samples[k]!.push(r);
      totals[k]! += r.seconds;
    }
    pending = pending.filter((k) => {
      if (wantsMore(samples[k]!.length, totals[k]!, min)) return true;
      options.onDone?.(k, samples[k]!);
      return false;
    });
  }
  return samples;
}

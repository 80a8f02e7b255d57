// The oracle's verdict checked the way a user meets it: two mappings run whole with `runPlan`,
// alternately, and compared round by round. The oracle composes a mapping from pieces timed
// apart (each after a cache turnover, its operands handed over), which is what makes its search
// affordable, but a run's pieces follow one another: on the 2-vCPU VM a GCN's aggregations on
// wing ran 1.4-1.6x and its ReLU 1.3-1.6x the oracle's figures in `runPlan` within the same
// process and minutes (its GEMMs 1.0x). Where the CPU takes part, this says whether the pick the
// oracle judged is also the better mapping when it runs.
//
// Each round runs both plans, in the order pick-best then best-pick on alternate rounds (so what
// ran just before falls on both alike), with re-planning, learning and level-by-level BFS off:
// each run is its mapping and nothing else. The time compared is the run's composed makespan (its
// pieces' observed costs by the plan's list schedule, whether or not simulators take part), and
// the energy on that same timeline: a run wholly on real devices reads its makespan off the host's
// clock, with the executor's own work between pieces in it, and bills idle power over it, which a
// run with a simulator in it is spared; the two would not be compared like for like.

import { InvalidArgumentError } from '../errors.js';
import { runPlan } from '../executor/run.js';
import type { RunResult } from '../executor/records.js';
import { objectiveValue, type ScalarObjective } from '../scheduler/branch-and-bound.js';
import type { Plan } from '../scheduler/schedule.js';
import { checkInt } from '../validate.js';
import { ratioQuartiles } from './oracle.js';

/** The pick's value over the best's in paired runs: median and quartiles over the rounds. */
export interface RunsComparison {
  readonly median: number;
  readonly lo: number;
  readonly hi: number;
  readonly rounds: number;
}

const RUN_AS_MAPPED = { replan: false, learn: false, bfsLevels: false } as const;

/** A run's figure for `objective`, on its composed timeline (makespan and energy). */
export function runValue(objective: ScalarObjective, r: RunResult): number {
  return objectiveValue(objective, r.composedMakespan, r.composedEnergy);
}

/**
 * Run `pick` and `best` whole, alternately, for `rounds` rounds after one warm-up run each, and
 * compare them round by round (`pick`'s value over `best`'s for `objective`).
 * @throws {InvalidArgumentError} on a bad round count; the signal's reason when aborted.
 * @example
 * const r = await compareInRuns(plan, bestPlan, 'min-time');
 * r.median <= 1.01; // the pick holds up in runs
 */
export async function compareInRuns(
  pick: Plan,
  best: Plan,
  objective: ScalarObjective,
  options: { readonly rounds?: number; readonly signal?: AbortSignal } = {},
): Promise<RunsComparison> {
  const fn = 'compareInRuns';
  if (pick === best) throw new InvalidArgumentError(`${fn}: pick and best must be two plans (the same plan compares equal)`);
  const rounds = options.rounds === undefined ? 15 : checkInt(fn, 'rounds', options.rounds, 1, 1000);
  const run = (plan: Plan): Promise<RunResult> => runPlan(plan, { ...RUN_AS_MAPPED, ...(options.signal ? { signal: options.signal } : {}) });
  await run(pick);
  await run(best);
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    options.signal?.throwIfAborted();
    let p: RunResult;
    let b: RunResult;
    if (r % 2 === 0) {
      p = await run(pick);
      b = await run(best);
    } else {
      b = await run(best);
      p = await run(pick);
    }
    ratios.push(runValue(objective, p) / runValue(objective, b));
  }
  return { ...ratioQuartiles(ratios), rounds };
}

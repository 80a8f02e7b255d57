// What one case of the decision suite records, and the summary of many: the share of picks
// within 1% of the oracle's best, the loss of the others (mean, median and worst), broken down by
// system and calibration, and the same rate against the old, model-dependent yardstick (the best
// of the planner's own candidates) so the change of yardstick shows.

import type { Oracle } from '../../src/oracle/oracle.js';
import type { ScalarObjective } from '../../src/scheduler/branch-and-bound.js';
import type { Plan } from '../../src/scheduler/schedule.js';

export interface CaseResult {
  readonly workload: string;
  readonly dataset: string;
  /** A generated input no one tuned on. */
  readonly heldOut: boolean;
  readonly system: string;
  /** Whether the system has a real (measured) device. */
  readonly measured: boolean;
  readonly calibration: string;
  readonly objective: ScalarObjective;
  /** The objective's executed value of the pick, of the oracle's best, of the static mapping and of the GPU alone. */
  readonly pick: number;
  readonly best: number;
  readonly static: number;
  readonly gpu: number;
  readonly pickTime: number;
  readonly pickEnergy: number;
  /** The oracle's best as executed beside the pick (the paired rounds' medians). */
  readonly bestTime?: number;
  readonly bestEnergy?: number;
  /**
   * What the planner predicted: for its pick, and for the oracle's best where the planner's space
   * holds that mapping (its shares are among the planner's choices). A loss is then diagnosable
   * from the record: which side the model mispriced, in time or in energy.
   */
  readonly predicted?: {
    readonly pick: { readonly time: number; readonly energy: number };
    readonly best?: { readonly time: number; readonly energy: number };
  };
  readonly staticTime: number;
  readonly gpuTime: number;
  readonly gpuEnergy: number;
  /** Within 1% of the best (or, with a measured device, not distinguishable from it by the measured spread). */
  readonly optimal: boolean;
  /** The pick's value over the best's, median over paired rounds, - 1, at least 0. */
  readonly loss: number;
  /** The verdict by the rule before rounds were paired (piece-by-piece medians and quartiles), beside for one run. */
  readonly unpaired?: { readonly optimal: boolean; readonly loss: number };
  /** Rounds the paired comparison composed (0: every piece simulated, the ratio exact). */
  readonly pairedRounds?: number;
  /** The best of the planner's own candidates by the same executed costs (the old yardstick), and the verdict against it. */
  readonly oldBest: number;
  readonly oldOptimal: boolean;
  readonly pickLabel: string;
  readonly bestLabel: string;
  /** Whether the oracle's search finished (its best is the best of its whole space). */
  readonly oracleExact: boolean;
  /** Seconds `schedule()` took to make the pick (probes, refinement and verification included). */
  readonly planSeconds?: number;
  /** With `rival`: a second oracle's best, judged as the pick is (the yardstick's own repeatability). */
  readonly rival?: { readonly optimal: boolean; readonly loss: number; readonly label: string };
  /**
   * With `inRuns`, on systems with a real device: the pick and the oracle's best (the nearest
   * mapping the planner's space holds, `label`) run whole with `runPlan`, alternately; the pick's
   * value over the best's (src/oracle/in-runs.ts). Absent where the two are one mapping.
   */
  readonly inRuns?: { readonly median: number; readonly lo: number; readonly hi: number; readonly rounds: number; readonly label: string };
}

/** Whether a paired ratio says the pick is as good as the best: its median within 1%, or its first quartile (as the oracle's rule). */
export const withinOnePercent = (r: { readonly median: number; readonly lo: number }): boolean => r.median <= 1.01 || r.lo <= 1.01;

export interface RateSummary {
  readonly cases: number;
  readonly optimal: number;
  readonly optimalRate: number;
  /** Over the cases that are not optimal (0 when all are). */
  readonly meanLoss: number;
  readonly medianLoss: number;
  readonly worstLoss: number;
}

export interface SuiteSummary extends RateSummary {
  /** Against the old yardstick: the best of the planner's own candidates. */
  readonly oldOptimalRate: number;
  /** Geometric means over min-time cases of time ratios (static / pick, gpu / pick). */
  readonly speedupOverStatic: number;
  readonly speedupOverGpu: number;
  /** Geometric mean over min-energy cases of gpu energy / pick energy. */
  readonly energyEfficiencyOverGpu: number;
  readonly oracleInexact: number;
  readonly bySystem: Readonly<Record<string, RateSummary>>;
  readonly byCalibration: Readonly<Record<string, RateSummary>>;
  readonly byWorkload: Readonly<Record<string, RateSummary>>;
  /** The held-out inputs alone (absent when none ran). */
  readonly heldOut?: RateSummary;
  /** The same picks by the rule before rounds were paired, by system. */
  readonly unpairedBySystem?: Readonly<Record<string, RateSummary>>;
  /** A second oracle's best judged as the picks are, by system (absent unless the suite ran with `rival`). */
  readonly rivalBySystem?: Readonly<Record<string, RateSummary>>;
  /** The picks judged in whole runs against the oracle's best (absent unless the suite ran with `inRuns`), by system. */
  readonly inRunsBySystem?: Readonly<Record<string, RateSummary & { readonly agree: number }>>;
}

const geomean = (xs: number[]): number => {
  const ok = xs.filter((x) => Number.isFinite(x) && x > 0);
  return ok.length ? Math.exp(ok.reduce((s, x) => s + Math.log(x), 0) / ok.length) : NaN;
};

function rates(results: readonly { readonly optimal: boolean; readonly loss: number }[]): RateSummary {
  const optimal = results.filter((r) => r.optimal).length;
  const losses = results
    .filter((r) => !r.optimal)
    .map((r) => r.loss)
    .sort((a, b) => a - b);
  return {
    cases: results.length,
    optimal,
    optimalRate: results.length ? optimal / results.length : NaN,
    meanLoss: losses.length ? losses.reduce((s, x) => s + x, 0) / losses.length : 0,
    medianLoss: losses.length ? losses[losses.length >> 1]! : 0,
    worstLoss: losses.length ? losses[losses.length - 1]! : 0,
  };
}

function by<T extends { readonly optimal: boolean; readonly loss: number }>(results: readonly T[], key: (r: T) => string): Record<string, RateSummary> {
  const groups = new Map<string, T[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries([...groups].map(([k, v]) => [k, rates(v)]));
}

export function summarise(results: readonly CaseResult[]): SuiteSummary {
  const time = results.filter((r) => r.objective === 'min-time');
  const energy = results.filter((r) => r.objective === 'min-energy');
  const held = results.filter((r) => r.heldOut);
  const rivals = results.flatMap((r) => (r.rival ? [{ ...r.rival, system: r.system }] : []));
  const unpaired = results.flatMap((r) => (r.unpaired ? [{ ...r.unpaired, system: r.system }] : []));
  return {
    ...rates(results),
    oldOptimalRate: results.length ? results.filter((r) => r.oldOptimal).length / results.length : NaN,
    speedupOverStatic: geomean(time.map((r) => r.staticTime / r.pickTime)),
    speedupOverGpu: geomean(time.map((r) => r.gpuTime / r.pickTime)),
    energyEfficiencyOverGpu: geomean(energy.map((r) => r.gpuEnergy / r.pickEnergy)),
    oracleInexact: results.filter((r) => !r.oracleExact).length,
    bySystem: by(results, (r) => r.system),
    byCalibration: by(results, (r) => r.calibration),
    byWorkload: by(results, (r) => r.workload),
    ...(held.length ? { heldOut: rates(held) } : {}),
    ...(unpaired.length ? { unpairedBySystem: by(unpaired, (r) => r.system) } : {}),
    ...(rivals.length ? { rivalBySystem: by(rivals, (r) => r.system) } : {}),
    ...(results.some((r) => r.measured && r.inRuns) ? { inRunsBySystem: inRunsBySystem(results) } : {}),
  };
}

/** The verdicts in whole runs, by system: rates as the oracle's, and how many agree with the oracle's verdict. */
function inRunsBySystem(results: readonly CaseResult[]): Record<string, RateSummary & { readonly agree: number }> {
  // A case whose pick is the best's mapping ran nothing: it is optimal in runs as in the oracle.
  const judged = results
    .filter((r) => r.measured)
    .map((r) => {
      const optimal = r.inRuns ? withinOnePercent(r.inRuns) : true;
      return { system: r.system, optimal, loss: r.inRuns ? Math.max(0, r.inRuns.median - 1) : 0, agree: optimal === r.optimal };
    });
  const out: Record<string, RateSummary & { readonly agree: number }> = {};
  for (const [system, rate] of Object.entries(by(judged, (r) => r.system)))
    out[system] = { ...rate, agree: judged.filter((r) => r.system === system && r.agree).length };
  return out;
}

/** The old yardstick: the best of the planner's own candidate mappings, by the oracle's executed costs. */
export async function plannerOptimum(oracle: Oracle, plan: Plan, objective: ScalarObjective): Promise<number> {
  return (await oracle.bestOf(plan.problem.choices, objective)).value;
}

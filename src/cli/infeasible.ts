// When no plan satisfies the user's constraints: the front without them, the nearest miss, and by
// how much each constraint must move for a plan to exist. `dype explore` shows this and exits 0
// (its --json carries `empty.reason`); `dype run` has nothing to run and fails with the same advice.

import { explore, type Exploration, type MappingPoint } from '../scheduler/schedule.js';
import { formatJoules, formatSeconds } from '../units.js';
import type { PlanArgs } from './plan-args.js';

export interface Infeasible {
  /** Why no plan fits, with the nearest miss: the library's `empty.reason` (in readable units already). */
  readonly reason: string;
  /** The search under the user's constraints (empty front, baselines with their reasons). */
  readonly constrained: Exploration;
  /** The front with the deadline and energy budget dropped; empty when those were not the cause. */
  readonly unconstrained: Exploration;
  /** The smallest value each given constraint needs for some plan to meet it (alone). */
  readonly relax: { readonly deadline?: number; readonly energyBudget?: number };
}

/** The picture when the constrained front is empty (options as the failed schedule() had them). */
export async function infeasible(args: PlanArgs, maxPoints: number): Promise<Infeasible> {
  const base = { ...args.options, system: args.system, model: args.model, maxPoints };
  delete (base as { policy?: unknown }).policy;
  const constrained = await explore(args.workload, args.input.matrix, base);
  const { deadline, energyBudget, ...rest } = base;
  const loose = deadline !== undefined || energyBudget !== undefined;
  const unconstrained = loose ? await explore(args.workload, args.input.matrix, rest) : constrained;
  const front = unconstrained.front;
  const relax: { deadline?: number; energyBudget?: number } = {};
  if (front.length > 0) {
    if (deadline !== undefined) relax.deadline = Math.min(...front.map((p) => p.time));
    if (energyBudget !== undefined) relax.energyBudget = Math.min(...front.map((p) => p.energy));
  }
  return { reason: constrained.empty?.reason ?? 'no mapping satisfies the constraints', constrained, unconstrained, relax };
}

/** `x` rounded up to three significant digits, so the value shown is enough when typed back. */
function up3(x: number): number {
  if (!(x > 0)) return x;
  const step = 10 ** (Math.floor(Math.log10(x)) - 2);
  return Number((Math.ceil(x / step - 1e-9) * step).toPrecision(3));
}

/** A flag value as it is typed: `70.7us`, `23.2mJ`. */
const typed = (text: string): string => text.replace(' ', '');

/** Sentences saying what to relax, with the flags and values that would find plans. */
export function relaxAdvice(x: Infeasible, args: PlanArgs): string[] {
  const c = args.options;
  const lines: string[] = [];
  if (x.relax.deadline !== undefined && c.deadline !== undefined && x.relax.deadline > c.deadline) {
    lines.push(
      `--deadline ${typed(formatSeconds(up3(x.relax.deadline)))} or more (the fastest plan found takes ${formatSeconds(x.relax.deadline)}; asked ${formatSeconds(c.deadline)})`,
    );
  }
  if (x.relax.energyBudget !== undefined && c.energyBudget !== undefined && x.relax.energyBudget > c.energyBudget) {
    lines.push(
      `--energy-budget ${typed(formatJoules(up3(x.relax.energyBudget)))} or more (the most frugal plan found uses ${formatJoules(x.relax.energyBudget)}; asked ${formatJoules(c.energyBudget)})`,
    );
  }
  if (c.deadline !== undefined && c.energyBudget !== undefined) {
    const both = x.unconstrained.front.find((p) => p.time <= c.deadline! && p.energy <= c.energyBudget!);
    if (!both && lines.length === 0) lines.push('the deadline and the energy budget together: no plan found meets both; relax one of them');
  }
  if (c.exclude && c.exclude.length > 0) lines.push(`--exclude ${c.exclude.join(',')}: fewer devices left out`);
  if (lines.length === 0) lines.push('the devices: no mapping fits their memory (see the reason above); a --system with more memory, or a smaller input');
  return lines;
}

/** The point of the unconstrained front nearest to meeting the constraints (fastest for a deadline). */
export function nearestMiss(x: Infeasible, args: PlanArgs): MappingPoint | undefined {
  const front = x.unconstrained.front;
  if (front.length === 0) return undefined;
  const key = args.options.deadline === undefined && args.options.energyBudget !== undefined ? (p: MappingPoint) => p.energy : (p: MappingPoint) => p.time;
  return front.reduce((a, b) => (key(b) < key(a) ? b : a));
}

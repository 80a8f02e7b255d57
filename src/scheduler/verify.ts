// Verifying a pick against its near alternatives. However good the probes' profiles, a part not
// run exactly is priced by interpolation, and where the pick and an alternative are within a few
// percent of each other, an interpolation error decides between them: a multi-source BFS's two
// sources at the end of the list cost a simulated CGRA 523 us, but the profile, read off the
// first sources, said 795 us, and the GPU alone was kept where giving the CGRA those two was
// faster. So before a pick is final, every operator's alternatives that come within reach of it
// (the rest of the mapping held) have their parts run exactly where they would run, those on a
// real device timed together with the pick's own in rounds (a paired comparison), and the
// policy picks again. What was run exactly is priced as it ran, so a second round only runs
// what the new pick brings into reach.
//
// A real device the pick leaves out of an operator is timed again too, once, running the
// operator alone, however far it was priced: its price came from one probe window, and on a
// shared machine one slow window (a CPU part probed at twice its usual time) put it beyond any
// near window, so the pick moved to the simulators and nothing ever ran the CPU beside it again.
// Its exact price may be that slow window itself, so it is timed again even where it has one.

import { type ScalarObjective, objectiveValue } from './branch-and-bound.js';
import { Evaluator } from './evaluate.js';
import { type PickResult, pickMapping } from './pick.js';
import type { PlanningProblem } from './problem.js';
import { type Choice, CostTable } from './space.js';

/** Alternatives predicted within this share of the pick are run exactly (in time or energy; EDP, their product, squares an error in time). */
const NEAR = 0.15;
const nearOf = (objective: ScalarObjective): number => (objective === 'min-edp' ? (1 + NEAR) ** 2 - 1 : NEAR);
/** At most this many alternatives per operator, the nearest first (those apart from the pick and each other before the rest). */
const PER_OPERATOR = 4;
/**
 * Alternatives whose every device's share is within this of the pick's (or of one already taken)
 * tell little the pick's own run does not, so the verification takes the nearest ones that differ
 * by more first. On SpMM of email-Enron the four nearest were slivers of the pick (the GPU with
 * 99.5-99.9%, the CGRAs the rest), and the GPU with 96% and a CGRA 4%, priced by interpolation 2.6%
 * behind the pick, ran 2.2% ahead of it and was never run.
 */
const APART = 0.01;

/** The largest difference between two choices' shares of any device (a device one leaves out counts as 0). */
function shareDistance(a: Choice, b: Choice): number {
  const share = (ch: Choice, d: number): number => ch.parts.reduce((s, p) => (p.device === d ? s + p.fraction : s), 0);
  let most = 0;
  for (const p of [...a.parts, ...b.parts]) most = Math.max(most, Math.abs(share(a, p.device) - share(b, p.device)));
  return most;
}

/** Up to `PER_OPERATOR` of `near` (sorted nearest first): those apart from the pick and each other first, then the nearest of the rest. */
function diverseNearest(near: readonly number[], picked: number, options: readonly Choice[]): number[] {
  const taken: number[] = [];
  for (const c of near) {
    if (taken.length === PER_OPERATOR) break;
    if ([picked, ...taken].every((t) => shareDistance(options[c]!, options[t]!) > APART)) taken.push(c);
  }
  for (const c of near) if (taken.length < PER_OPERATOR && !taken.includes(c)) taken.push(c);
  return taken;
}
/** Rounds of running alternatives and picking again. */
const ROUNDS = 2;

/**
 * For each real (measured) device that the pick's choice for operator `i` leaves out, the choice
 * that runs the operator on it alone (re-timing its whole level; the splits near a new pick are
 * then run in the next round), else the one using it that is predicted best, the rest held. Where
 * the pick splits the operator, each real device of the split is also run alone: the simpler
 * mapping's price came from one window too, and a multi-source BFS of 4elt went 91% CPU + 9% CGRA
 * because the CPU alone was probed at 11.96 ms where it ran 4.25.
 */
function realDeviceRetimes(i: number, genome: Int32Array, evaluator: Evaluator, objective: ScalarObjective, problem: PlanningProblem): number[] {
  const { choices, system } = problem;
  const pickParts = choices[i]![genome[i]!]!.parts;
  const used = new Set(pickParts.map((p) => p.device));
  const out: number[] = [];
  const g = Int32Array.from(genome);
  const v = new Float64Array(2);
  system.devices.forEach((device, d) => {
    if (device.simulated || (used.has(d) && pickParts.length === 1)) return;
    const alone = choices[i]!.findIndex((ch) => ch.parts.length === 1 && ch.parts[0]!.device === d);
    if (alone >= 0) {
      out.push(alone);
      return;
    }
    if (used.has(d)) return;
    let best = -1;
    let bestValue = Infinity;
    for (let c = 0; c < choices[i]!.length; c++) {
      if (!choices[i]![c]!.parts.some((p) => p.device === d)) continue;
      g[i] = c;
      if (!evaluator.evaluate(g, v)) continue;
      const value = objectiveValue(objective, v[0]!, v[1]!);
      if (value < bestValue) [best, bestValue] = [c, value];
    }
    if (best >= 0) out.push(best);
  });
  return out;
}

export async function verifyNear(
  problem: PlanningProblem,
  picked: PickResult,
  objective: ScalarObjective,
): Promise<{ problem: PlanningProblem; picked: PickResult }> {
  const prober = problem.prober;
  if (!prober) return { problem, picked };
  const { bound, system, costs, choices, constraints } = problem;
  let current = problem;
  let pick = picked;
  const out = new Float64Array(2);
  // Operators whose left-out real devices were timed again beside the pick.
  const retimed = new Set<number>();
  for (let round = 0; round < ROUNDS; round++) {
    const evaluator = new Evaluator(bound, system, current.table, ['time', 'energy'], constraints);
    if (!evaluator.evaluate(pick.genome, out)) break;
    const base = objectiveValue(objective, out[0]!, out[1]!);
    let ran = false;
    for (let i = 0; i < bound.ops.length; i++) {
      const near: { c: number; v: number }[] = [];
      const g = Int32Array.from(pick.genome);
      for (let c = 0; c < choices[i]!.length; c++) {
        if (c === pick.genome[i]) continue;
        g[i] = c;
        if (!evaluator.evaluate(g, out)) continue;
        const v = objectiveValue(objective, out[0]!, out[1]!);
        if (v <= base * (1 + nearOf(objective))) near.push({ c, v });
      }
      near.sort((a, b) => a.v - b.v);
      const alternatives = diverseNearest(
        near.map((n) => n.c),
        pick.genome[i]!,
        choices[i]!,
      );
      const retimes = retimed.has(i) ? [] : realDeviceRetimes(i, pick.genome, evaluator, objective, problem);
      for (const c of retimes) if (!alternatives.includes(c)) alternatives.push(c);
      const compared = [pick.genome[i]!, ...alternatives].map((c) => choices[i]![c]!);
      const parts = compared.flatMap((ch) => ch.parts);
      // Nothing new to run: every part was run exactly already (a real part is timed again only
      // when something new is compared with it), unless a left-out real device is compared: its
      // exact price may be the slow window itself, so it is timed again beside the pick, once
      // (and so is a real device of a split pick, alone).
      if (retimes.length === 0 && parts.every((p) => prober.costs.hasPart(i, p.device, p.begin, p.end))) continue;
      if (retimes.length > 0) retimed.add(i);
      await prober.probePartsTogether(i, parts);
      ran = true;
    }
    if (!ran) break;
    const table = new CostTable(choices, bound.ops, costs);
    current = { ...current, table, evaluator: new Evaluator(bound, system, table, current.objectives, constraints) };
    const again = pickMapping(current, objective, { costs, model: costs });
    if (!again) break;
    const unchanged = again.genome.every((c, i) => c === pick.genome[i]);
    pick = again;
    if (unchanged) break;
  }
  return { problem: current, picked: pick };
}

// Refining a chosen split: its parts are probed where they are, their shares re-balanced from
// what the devices did (shares inversely proportional to each part's observed time per unit of
// work, so the parts finish together), the re-balanced split is added to the operator's choices
// and probed too, as are the neighbouring two-way shares on the grid (a part's time is not
// always proportional to its share: fixed costs, bit-parallel search batches), and the policy
// picks again. A split's best share depends on how the work is
// spread over the rows (hub rows, dense bands) in a way a whole-operator probe cannot show: a
// 92/8 split predicted balanced that was really 96/4 ran 19% slower.

import { balancedShares } from './share-grid.js';
import type { ScalarObjective } from './branch-and-bound.js';
import { Evaluator } from './evaluate.js';
import { type PickResult, pickMapping } from './pick.js';
import type { PlanningProblem } from './problem.js';
import { type Choice, choiceKey, CostTable, splitChoice } from './space.js';

/** Rounds of probing and re-balancing a pick's splits. */
const ROUNDS = 2;

/**
 * Probe the splits of `picked` and pick again with them re-balanced. Returns the problem with the
 * re-balanced choices added (earlier choices keep their indices) and the new pick.
 */
export interface Refinement {
  readonly op: string;
  /** The split as first picked, and as re-balanced from its probed parts. */
  readonly from: string;
  readonly to: string;
}

export async function refineSplits(
  problem: PlanningProblem,
  picked: PickResult,
  objective: ScalarObjective,
): Promise<{ problem: PlanningProblem; picked: PickResult; refined: Refinement[] }> {
  const prober = problem.prober;
  const refined: Refinement[] = [];
  if (!prober) return { problem, picked, refined };
  const { bound, system, costs } = problem;
  const names = system.devices.map((d) => d.name);
  let current = problem;
  let pick = picked;
  for (let round = 0; round < ROUNDS; round++) {
    const splits = bound.ops.flatMap((_, i) => (current.choices[i]![pick.genome[i]!]!.parts.length > 1 ? [i] : []));
    if (splits.length === 0) break;
    const choices: Choice[][] = current.choices.map((c) => [...c]);
    let added = false;
    for (const i of splits) {
      const op = bound.ops[i]!;
      const ch = choices[i]![pick.genome[i]!]!;
      await prober.probeParts(i, ch.parts);
      const devs = ch.parts.map((p) => p.device);
      const partSeconds = (c: Choice, k: number): number => costs.cost(op, c.parts[k]!.device, c.parts[k]!.begin, c.parts[k]!.end).seconds;
      let next: Choice | null = null;
      if (devs.length === 2) {
        // Bisect the grid for the share where the two parts' probed times cross (the first
        // part's time rises with its share, the second's falls), then take the crossing itself.
        const same = choices[i]!.filter((c) => c.parts.length === 2 && c.parts[0]!.device === devs[0] && c.parts[1]!.device === devs[1]).sort(
          (a, b) => a.parts[0]!.fraction - b.parts[0]!.fraction,
        );
        const gap = async (c: Choice): Promise<number> => {
          await prober.probeParts(i, c.parts);
          return partSeconds(c, 0) - partSeconds(c, 1);
        };
        let lo = 0;
        let hi = same.length - 1;
        const flo = await gap(same[lo]!);
        const fhi = await gap(same[hi]!);
        if (flo < 0 && fhi > 0) {
          let gLo = flo;
          let gHi = fhi;
          while (hi - lo > 1) {
            const mid = (lo + hi) >> 1;
            const g = await gap(same[mid]!);
            if (g < 0) {
              lo = mid;
              gLo = g;
            } else {
              hi = mid;
              gHi = g;
            }
          }
          const a = same[lo]!.parts[0]!.fraction;
          const b = same[hi]!.parts[0]!.fraction;
          const share = a + ((b - a) * -gLo) / (gHi - gLo);
          next = splitChoice(op, bound, names, devs, [share, 1 - share]);
          // Where a real device takes part, the shares around the crossing and each device
          // alone are timed again together, so the pick between them is a paired comparison
          // and not one of figures taken at different moments of a shared machine.
          if (devs.some((d) => !system.devices[d]!.simulated)) {
            const near = same.slice(Math.max(0, lo - 1), Math.min(same.length, hi + 2));
            const alone = choices[i]!.filter((c) => c.parts.length === 1 && devs.includes(c.parts[0]!.device));
            const together = [...near, ...alone, ...(next ? [next] : [])];
            await prober.probePartsTogether(
              i,
              together.flatMap((c) => c.parts),
            );
          }
        }
      } else {
        const rates = ch.parts.map((p, k) => partSeconds(ch, k) / Math.max(p.fraction, 1e-12));
        next = splitChoice(op, bound, names, devs, balancedShares(rates));
      }
      if (!next || choices[i]!.some((c) => choiceKey(c) === choiceKey(next))) continue;
      await prober.probeParts(i, next.parts);
      choices[i]!.push(next);
      refined.push({ op: op.id, from: ch.label, to: next.label });
      added = true;
    }
    const table = new CostTable(choices, bound.ops, costs);
    current = { ...current, choices, table, evaluator: new Evaluator(bound, system, table, current.objectives, current.constraints) };
    const again = pickMapping(current, objective, { costs, model: costs });
    if (!again) break;
    const unchanged = again.genome.every((c, i) => c === pick.genome[i]);
    pick = again;
    if (unchanged && !added) break;
  }
  return { problem: current, picked: pick, refined };
}

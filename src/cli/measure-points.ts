// `dype explore --measure`: execute some mappings of an exploration for real (real devices
// timed, the simulators simulating) through the oracle, restricted to the choices those mappings use,
// so only their pieces of work run and not the whole space.

import type { Metrics } from '../scheduler/evaluate.js';
import { Oracle } from '../oracle/oracle.js';
import type { Exploration } from '../scheduler/schedule.js';
import type { Choice } from '../scheduler/space.js';

export interface MeasuredPoints {
  /** One per genome given, in order: the executed makespan, energy and timeline. */
  readonly metrics: readonly Metrics[];
  /** Distinct pieces executed, by how their cost was obtained. */
  readonly pieces: { readonly measured: number; readonly simulated: number; readonly roofline: number };
}

/**
 * Execute the pieces of work that `genomes` need, once each (real devices `repeats` times,
 * keeping the median), and compose each mapping's time and energy from them.
 */
export async function measurePoints(
  ex: Exploration,
  genomes: readonly Int32Array[],
  repeats: number,
  onProgress?: (done: number, total: number, label: string) => void,
): Promise<MeasuredPoints> {
  // For each operator, the choices the genomes use, renumbered densely.
  const used = ex.problem.choices.map(() => new Map<number, number>());
  for (const g of genomes) g.forEach((c, i) => void (used[i]!.has(c) || used[i]!.set(c, used[i]!.size)));
  const choices: Choice[][] = ex.problem.choices.map((all, i) => [...used[i]!.keys()].map((c) => all[c]!));
  const oracle = await Oracle.measure({ bound: ex.problem.bound, choices, constraints: ex.constraints }, ex.problem.system, {
    repeats,
    ...(onProgress ? { onProgress } : {}),
  });
  const metrics = genomes.map((g) => oracle.metrics(Int32Array.from(g, (c, i) => used[i]!.get(c)!)));
  const pieces = { measured: 0, simulated: 0, roofline: 0 };
  for (const basis of oracle.source.basis.values()) pieces[basis]++;
  return { metrics, pieces };
}

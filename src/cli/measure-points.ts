// `dype explore --measure`: execute some mappings of an exploration for real (real devices
// timed, the simulators simulating) through the oracle's measurement, running only the pieces of
// work those mappings use, not the whole space.

import type { Metrics } from '../scheduler/evaluate.js';
import { measureMappings } from '../oracle/oracle.js';
import type { Exploration } from '../scheduler/schedule.js';

export interface MeasuredPoints {
  /** One per genome given, in order: the executed makespan, energy and timeline. */
  readonly metrics: readonly Metrics[];
  /** Distinct pieces executed, by how their cost was obtained. */
  readonly pieces: { readonly measured: number; readonly simulated: number; readonly roofline: number };
}

/**
 * Execute the pieces of work that `genomes` need, once each (real devices `repeats` times after
 * a warm-up, keeping the median), and compose each mapping's time and energy from them.
 */
export async function measurePoints(
  ex: Exploration,
  genomes: readonly Int32Array[],
  repeats: number,
  onProgress?: (done: number, total: number, label: string) => void,
): Promise<MeasuredPoints> {
  const { choices } = ex.problem;
  const mappings = genomes.map((g) => Array.from(g, (c, i) => choices[i]![c]!));
  const { metrics, tally } = await measureMappings(ex.problem, mappings, { repeats, ...(onProgress ? { onProgress } : {}) });
  return { metrics, pieces: tally };
}

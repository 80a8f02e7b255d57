// `dype explore --measure`: the front's mappings and the baselines executed (real devices timed,
// simulators run), beside the predictions, and how each figure was obtained.

import type { Plan } from '../../scheduler/schedule.js';
import { type MeasuredPoints, measurePoints } from '../measure-points.js';
import { progressReporter } from '../progress.js';

/** Whether two mappings (genomes) are the same. */
export const sameGenome = (a: Int32Array | undefined, b: Int32Array | undefined): boolean =>
  a !== undefined && b !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The mappings --measure executes: the front, the chosen plan and every feasible baseline. The
 * chosen is not always on the front: a split re-balanced after its probe is a mapping of its own,
 * and its row read "-" under time and energy (executed).
 */
export function measuredGenomes(plan: Pick<Plan, 'front' | 'chosen' | 'baselines'>): Int32Array[] {
  const genomes: Int32Array[] = plan.front.map((p) => p.genome);
  if (!genomes.some((g) => sameGenome(g, plan.chosen.genome))) genomes.push(plan.chosen.genome);
  for (const b of plan.baselines) if (b.feasible && b.genome && !genomes.some((g) => sameGenome(g, b.genome))) genomes.push(b.genome);
  return genomes;
}

export async function measure(plan: Plan, repeats: number): Promise<{ result: MeasuredPoints; genomes: Int32Array[]; repeats: number }> {
  const genomes = measuredGenomes(plan);
  const progress = progressReporter('explore --measure');
  const result = await measurePoints(plan, genomes, repeats, (d, t, l) => progress.update(d, t, l));
  progress.done();
  return { result, genomes, repeats };
}

export type Measured = Awaited<ReturnType<typeof measure>>;

export function measuredOf(m: Measured | undefined, genome: Int32Array | undefined): { time: number; energy: number } | undefined {
  if (!m || !genome) return undefined;
  const i = m.genomes.findIndex((g) => sameGenome(g, genome));
  const metrics = i >= 0 ? m.result.metrics[i] : undefined;
  return metrics ? { time: metrics.makespan, energy: metrics.energy } : undefined;
}

/** How the executed figures were obtained, in words. */
export function measuredNote(plan: Plan, m: Measured): string {
  const real = plan.devices.filter((d) => !d.simulated).map((d) => d.name);
  const sim = plan.devices.filter((d) => d.simulated).map((d) => d.name);
  const parts = [];
  if (real.length) parts.push(`${real.join(', ')} measured`);
  if (sim.length) parts.push(`${sim.join(', ')} simulated`);
  if (m.result.pieces.roofline > 0) parts.push('dense operators on simulated devices modelled (roofline)');
  return parts.join('; ');
}

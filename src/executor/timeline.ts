// The timeline composer: a run's observed timeline is the plan's own list schedule over the
// observed costs, so predicted and observed line up part for part.

import { type Backlog, backlogStarts, linkDirectionName } from '../scheduler/backlog.js';
import { Evaluator, type Metrics } from '../scheduler/evaluate.js';
import { mappingLabel } from '../scheduler/front.js';
import type { PieceMap } from '../scheduler/piece-map.js';
import type { Plan } from '../scheduler/schedule.js';
import { type CostSource, CostTable } from '../scheduler/space.js';
import type { PieceResult } from './piece.js';
import type { PieceRecord, TimedPieceRecord } from './records.js';

/**
 * The evaluator that composes a run's observed timeline, kept per plan and mapping: its
 * structure (parts, bytes, routes) depends only on them, so a later run of the same mapping only
 * writes its own costs into the table. Building it is most of what a run costs beyond its
 * kernels on small operators.
 */
const timelines = new WeakMap<Plan, Map<string, { table: CostTable; evaluator: Evaluator; label: string }>>();
function observedTimeline(plan: Plan, genome: Int32Array, source: CostSource): { evaluator: Evaluator; label: string } {
  const { bound, choices, system } = plan.problem;
  let byMapping = timelines.get(plan);
  if (!byMapping) timelines.set(plan, (byMapping = new Map()));
  const key = genome.join(',');
  const cached = byMapping.get(key);
  if (!cached) {
    const table = new CostTable(
      choices.map((c, i) => [c[genome[i]!]!]),
      bound.ops,
      source,
    );
    const entry = { table, evaluator: new Evaluator(bound, system, table, ['time', 'energy']), label: mappingLabel(bound, choices, genome) };
    byMapping.set(key, entry);
    return entry;
  }
  // Same parts in the same order as the table was built with: one choice per operator.
  let p = 0;
  bound.ops.forEach((op, i) => {
    for (const part of choices[i]![genome[i]!]!.parts) {
      const c = source.cost(op, part.device, part.begin, part.end);
      cached.table.partSeconds[p] = c.seconds;
      cached.table.partJoules[p] = c.joules;
      p++;
    }
  });
  return cached;
}

/** When the run leaves each device and link direction, from the list schedule's state after it. */
function busyUntil(plan: Plan, evaluator: Evaluator): Record<string, number> {
  const { system } = plan.problem;
  const { devFree, linkFree } = evaluator.schedule;
  const out: Record<string, number> = {};
  system.devices.forEach((d, i) => (out[d.name] = devFree[i]!));
  for (let l = 0; l < system.links.length; l++) {
    out[linkDirectionName(system, l, 0)] = linkFree[2 * l]!;
    out[linkDirectionName(system, l, 1)] = linkFree[2 * l + 1]!;
  }
  return out;
}

export interface ComposedRun {
  readonly pieces: readonly TimedPieceRecord[];
  /** The composed timeline's figures. */
  readonly metrics: Metrics;
  /** The run's makespan and energy: measured where every piece was, else the composed ones. */
  readonly makespan: number;
  readonly makespanSource: 'measured' | 'composed';
  readonly energy: number;
  /** The mapping that ran, in the plan's short form. */
  readonly mapping: string;
  /** Share of the pieces' seconds read off a clock. */
  readonly measuredShare: number;
  readonly busyUntil: Record<string, number>;
}

/** Compose the run of `genome` from each piece's observed cost and record, each device and link starting after its backlog. */
export function composeRun(
  plan: Plan,
  genome: Int32Array,
  observed: PieceMap<PieceResult>,
  records: PieceMap<PieceRecord>,
  backlog: Backlog | undefined,
  outputsHomeAt?: number,
): ComposedRun {
  const n = plan.problem.bound.ops.length;
  const source: CostSource = {
    cost: (op, d, b, e) => {
      const r = observed.get(op.index, d, b, e);
      return r ? { seconds: r.seconds, joules: r.joules } : { seconds: 0, joules: 0 }; // pieces of choices not taken
    },
  };
  const timeline = observedTimeline(plan, genome, source);
  const starts = backlogStarts(plan.problem.system, backlog);
  timeline.evaluator.schedule.devStart.set(starts.devices);
  timeline.evaluator.schedule.linkStart.set(starts.links);
  const metrics = timeline.evaluator.metrics(new Int32Array(n));
  // On real hardware only, the host's clock is the truth; a simulator's time is not on it.
  const real = metrics.timeline.every((e) => {
    const r = records.get(e.op, e.device, e.begin, e.end)!;
    return r.source === 'measured' && (r.steps ?? []).every((st) => st.source === 'measured');
  });
  const first = real ? Math.min(...metrics.timeline.map((e) => records.get(e.op, e.device, e.begin, e.end)!.wallStart)) : 0;
  const pieces: TimedPieceRecord[] = metrics.timeline.map((e) => {
    const r = records.get(e.op, e.device, e.begin, e.end)!;
    return {
      op: r.op,
      kind: r.kind,
      device: r.device,
      begin: r.begin,
      end: r.end,
      predictedSeconds: r.predictedSeconds,
      observedSeconds: r.observedSeconds,
      predictedJoules: r.predictedJoules,
      observedJoules: r.observedJoules,
      source: r.source,
      energySource: r.energySource,
      wallStart: r.wallStart,
      wallFinish: r.wallFinish,
      ...(r.steps ? { steps: r.steps } : {}),
      ...(r.copies ? { copies: r.copies } : {}),
      start: real ? r.wallStart - first : e.start,
      finish: real ? r.wallFinish - first : e.finish,
    };
  });
  let makespan = metrics.makespan;
  let energy = metrics.energy;
  if (real && pieces.length > 0) {
    makespan = Math.max(...pieces.map((p) => p.finish));
    // Outputs kept on a device until the end are not home until they are fetched.
    if (outputsHomeAt !== undefined) makespan = Math.max(makespan, outputsHomeAt - first);
    // The devices used draw idle power over the measured makespan, not the composed one.
    const system = plan.problem.system;
    energy = metrics.activeEnergy;
    metrics.busy.forEach((b, d) => {
      if (pieces.some((p) => p.device === system.devices[d]!.name)) energy += system.devices[d]!.power.idleWatts * Math.max(0, makespan - b);
    });
  }
  const total = pieces.reduce((s, p) => s + p.observedSeconds, 0);
  // A BFS re-decided level by level counts the steps that ran on a clock.
  const measured = pieces.reduce(
    (s, p) =>
      s + (p.steps ? p.steps.reduce((t, st) => t + (st.source === 'measured' ? st.observedSeconds : 0), 0) : p.source === 'measured' ? p.observedSeconds : 0),
    0,
  );
  return {
    pieces,
    metrics,
    makespan,
    makespanSource: real ? 'measured' : 'composed',
    energy,
    mapping: timeline.label,
    measuredShare: total > 0 ? measured / total : 0,
    busyUntil: busyUntil(plan, timeline.evaluator),
  };
}

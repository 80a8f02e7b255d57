// `dype explore` when no mapping meets the constraints: the front without them, the nearest miss
// and what to relax, as a chart, JSON, text and the HTML page's text (exit 0: a result to show).

import type { MappingPoint } from '../../scheduler/schedule.js';
import type { frontChart, ChartPoint } from '../charts/front.js';
import { type Infeasible, nearestMiss, relaxAdvice } from '../infeasible.js';
import { shortMapping } from '../mapping-text.js';
import type { PlanArgs } from '../plan-args.js';
import { formatCount, formatJoules, formatMs, formatSeconds, formatTable } from '../table.js';
import { describeInput, describeSystem, jsonHead, modelLine } from './plan-text.js';

/** The chart when nothing meets the constraints: the front without them, the nearest miss ringed. */
export function emptyChartInput(args: PlanArgs, x: Infeasible): Omit<Parameters<typeof frontChart>[0], 'width' | 'height'> {
  const ex = x.unconstrained;
  const point = (p: Pick<MappingPoint, 'time' | 'energy' | 'genome'>): ChartPoint => ({
    time: p.time,
    energy: p.energy,
    mapping: shortMapping(ex.operators, p.genome),
  });
  const near = nearestMiss(x, args)!;
  const c = args.options;
  return {
    title: `dype explore: ${args.workloadLabel} on ${args.input.label}: no plan meets the constraints`,
    subtitle: [
      `${describeInput(args.input)}; system ${describeSystem(ex)}`,
      `the front without the constraints (${[c.deadline !== undefined ? `deadline ${formatSeconds(c.deadline)}` : '', c.energyBudget !== undefined ? `energy budget ${formatJoules(c.energyBudget)}` : ''].filter(Boolean).join(', ')}); predictions ${modelLine(ex, true)}`,
    ],
    evaluated: ex.dominated.map(point),
    front: ex.front.map(point),
    baselines: ex.baselines.flatMap((b) => (b.genome && b.time !== undefined && b.energy !== undefined ? [{ ...point(b as MappingPoint), name: b.name }] : [])),
    chosen: { ...point(near), policy: 'nearest miss' },
    chosenLabel: 'nearest miss',
    limits: { ...(c.deadline !== undefined ? { time: c.deadline } : {}), ...(c.energyBudget !== undefined ? { energy: c.energyBudget } : {}) },
  };
}

/** The --json object when nothing meets the constraints: an empty front with `empty.reason`. */
export function emptyJson(args: PlanArgs, x: Infeasible, plot: string | null): Record<string, unknown> {
  const ex = x.constrained;
  const near = nearestMiss(x, args);
  const point = (p: MappingPoint | (typeof ex.baselines)[number]): Record<string, unknown> => ({
    time: p.time,
    energy: p.energy,
    memory: p.memory,
    latency: p.latency,
    mapping: p.label,
    short: p.genome ? shortMapping(ex.operators, p.genome) : undefined,
  });
  return {
    ...jsonHead('explore', args, ex),
    constraints: ex.constraints,
    modelled: true,
    units: { time: 's', energy: 'J', memory: 'B', latency: 's' },
    search: ex.search,
    evaluated: { total: ex.search.evaluated, infeasible: ex.infeasible, drawn: 0 },
    front: [],
    chosen: null,
    empty: {
      reason: x.reason,
      nearestMiss: near ? point(near) : null,
      relax: x.relax,
      frontWithoutConstraints: x.unconstrained === x.constrained ? [] : x.unconstrained.front.map(point),
    },
    baselines: ex.baselines.map((b) => ({ name: b.name, feasible: b.feasible, ...(b.genome ? point(b) : {}), ...(b.reason ? { reason: b.reason } : {}) })),
    measured: null,
    plot: x.unconstrained.front.length > 0 ? plot : null,
  };
}

export function printEmpty(out: (s: string) => void, args: PlanArgs, x: Infeasible, plot: string | undefined): void {
  const ex = x.constrained;
  const c = args.options;
  out(
    `${args.workloadLabel} on ${args.input.label}: ${describeInput(args.input)} (${args.input.origin === 'file' ? 'loaded' : 'generated'} in ${formatMs(args.input.ms)})`,
  );
  out(`System ${describeSystem(ex)}`);
  out(`Cost model: ${modelLine(ex, false)}`);
  out(
    `Search: ${ex.search.strategy}, ${formatCount(ex.search.evaluated)} of ${formatCount(ex.search.spaceSize)} mappings evaluated in ${formatSeconds(ex.search.seconds)}; none satisfies the constraints`,
  );
  out(
    `Constraints: ${[c.deadline !== undefined ? `deadline ${formatSeconds(c.deadline)}` : '', c.energyBudget !== undefined ? `energy budget ${formatJoules(c.energyBudget)}` : '', c.exclude?.length ? `without ${c.exclude.join(', ')}` : ''].filter(Boolean).join(', ') || "the devices' memory"}`,
  );
  out('');
  out(`No plan satisfies the constraints: ${x.reason}.`);
  const near = nearestMiss(x, args);
  const rows: string[][] = [];
  const front = x.unconstrained === ex ? [] : x.unconstrained.front;
  front.forEach((p, i) => {
    const breaks = [
      c.deadline !== undefined && p.time > c.deadline ? 'over the deadline' : '',
      c.energyBudget !== undefined && p.energy > c.energyBudget ? 'over the energy budget' : '',
    ]
      .filter(Boolean)
      .join(', ');
    rows.push([
      `#${i + 1}`,
      formatSeconds(p.time),
      formatJoules(p.energy),
      shortMapping(x.unconstrained.operators, p.genome),
      [p === near ? '<- nearest miss' : '', breaks].filter(Boolean).join('; '),
    ]);
  });
  for (const b of ex.baselines) {
    rows.push([
      b.name,
      b.time !== undefined ? formatSeconds(b.time) : '-',
      b.energy !== undefined ? formatJoules(b.energy) : '-',
      b.genome ? shortMapping(ex.operators, b.genome) : '-',
      `baseline; ${b.feasible ? 'feasible' : `infeasible: ${b.reason ?? ''}`}`,
    ]);
  }
  if (rows.length > 0) {
    out(front.length > 0 ? '\nThe Pareto front without the constraints, and the baselines:\n' : '\nThe baselines:\n');
    out(formatTable(['', 'time (predicted)', 'energy (predicted)', 'mapping', 'note'], rows));
  }
  out('\nTo find plans, relax:');
  for (const line of relaxAdvice(x, args)) out(`  ${line}`);
  if (plot !== undefined) out(`\nChart: ${plot} (the front without the constraints, the constraints as dashed lines, the nearest miss ringed)`);
}

/** What printEmpty prints, as text for the HTML page. */
export function emptyPage(args: PlanArgs, x: Infeasible): string {
  const lines: string[] = [];
  printEmpty((l) => void lines.push(l), args, x, undefined);
  return lines.join('\n');
}

// `dype explore`: compute the input's features, price every way to run the workload with the
// cost model, search the mappings, and show the Pareto front of time against energy as a table
// and a chart, with the baselines and the chosen plan; --measure executes the front's mappings
// and sets what they really cost beside what was predicted.

import { InfeasibleError } from '../../errors.js';
import type { BaselinePoint, MappingPoint, Plan } from '../../scheduler/schedule.js';
import { chartFormat, writeChart } from '../charts/render.js';
import { frontChart, type ChartPoint } from '../charts/front.js';
import { infeasible } from '../infeasible.js';
import { shortMapping } from '../mapping-text.js';
import { intFlag, parseFlags, type FlagValues } from '../parse.js';
import { PLAN_FLAGS, PLAN_FLAGS_HELP, planArgs, type PlanArgs, schedulePlan } from '../plan-args.js';
import { connectFromFlags, SERVER_FLAGS, SERVER_FLAGS_HELP } from '../server-flags.js';
import { formatCount, formatJoules, formatMs, formatSeconds, formatTable } from '../table.js';
import { UsageError } from '../usage-error.js';
import { emptyChartInput, emptyJson, emptyPage, printEmpty } from './explore-empty.js';
import { type Measured, measure, measuredNote, measuredOf, sameGenome } from './explore-measure.js';
import { observeSpeed } from '../../cost/speed-history.js';
import { type RealDeviceSpread, realDeviceSpreads, spreadLines } from './explore-spread.js';
import { describeInput, describeSystem, jsonHead, modelLine } from './plan-text.js';

export const DEFAULT_FRONT_PLOT = 'dype-front.png';

export const EXPLORE_HELP = `Usage: dype explore [WORKLOAD] [--data FILE | --generate SPEC] [options]

Plan WORKLOAD (default gcn) on an input: compute its features, predict every operator on every
device with the cost model, search the mappings (each operator on a device, or split across
devices), and print the Pareto front of time against energy with the baselines (each device
alone, HEFT) and the plan the objective picks. Writes a chart of every evaluated mapping, the
front, the baselines and the chosen plan (default ${DEFAULT_FRONT_PLOT}).

WORKLOAD: spmm, bfs, msbfs, gcn, sage, gat, pagerank (shipped), stream:NAME, or a workload .json file
(format in workloads/README.md).

${PLAN_FLAGS_HELP}

Output:
  --out FILE           the chart: .png, .svg or .html (interactive, works offline)
                       (default ${DEFAULT_FRONT_PLOT}; with --json, only when --out is given)
  --no-plot            write no chart
  --size WxH           chart size in pixels (default 960x600; a PNG has exactly this size)
  --points N           evaluated mappings drawn, a sample when there are more (default 5000)
  --measure            execute the front's mappings, the chosen plan and the baselines and show
                       measured against predicted; the CPU is timed, simulated devices simulate
  --repeats N          timed repetitions of each measured piece, median kept (default 3)
  --json               print one JSON object (schema in docs/cli-json.md)
  -h, --help           show this help

Served:
${SERVER_FLAGS_HELP}
                       (the server plans on its machine with its model; not with --measure
                       or a stream)

Without --measure every time and energy is a prediction of the cost model (modelled), per run.

Examples:
  dype explore
  dype explore sage --generate road --objective energy
  dype explore gcn --data ../shared/datasets/cora.mtx --out front.html
  dype explore pagerank --generate kron18 --deadline 2ms --json
  dype explore spmm --param k=64 --measure --out spmm-front.svg`;

const FLAGS = {
  ...PLAN_FLAGS,
  ...SERVER_FLAGS,
  out: { type: 'string' },
  'no-plot': { type: 'boolean' },
  size: { type: 'string' },
  points: { type: 'string' },
  measure: { type: 'boolean' },
  repeats: { type: 'string' },
} as const;

/** Front rows shown in the table; the JSON has all of them. */
const MAX_ROWS = 24;

/** `--size WxH` in pixels. */
export function sizeFlag(command: string, raw: FlagValues[string]): { width: number; height: number } {
  if (raw === undefined) return { width: 960, height: 600 };
  const m = typeof raw === 'string' ? /^(\d+)x(\d+)$/.exec(raw.trim()) : null;
  const width = m ? Number(m[1]) : NaN;
  const height = m ? Number(m[2]) : NaN;
  if (!(width >= 200 && width <= 8000 && height >= 150 && height <= 8000)) {
    throw new UsageError(`${command}: --size must be WIDTHxHEIGHT in pixels, from 200x150 to 8000x8000, got ${JSON.stringify(raw)}`);
  }
  return { width, height };
}

/** Where the chart goes: `--out`, else the default file unless --json or --no-plot. */
export function plotPath(command: string, values: FlagValues, fallback: string): string | undefined {
  const given = typeof values['out'] === 'string' ? values['out'] : undefined;
  if (given !== undefined && values['no-plot']) throw new UsageError(`${command}: give --out or --no-plot, not both`);
  if (values['no-plot']) return undefined;
  return given ?? (values['json'] ? undefined : fallback);
}

export async function exploreCommand(argv: readonly string[], out: (s: string) => void): Promise<void> {
  const { values, positionals } = parseFlags('explore', argv, FLAGS, true);
  if (values['help']) {
    out(EXPLORE_HELP);
    return;
  }
  // Everything the user typed is checked before any work starts.
  const path = plotPath('explore', values, DEFAULT_FRONT_PLOT);
  const format = path !== undefined ? chartFormat('explore', 'out', path) : undefined;
  const size = sizeFlag('explore', values['size']);
  const points = intFlag('explore', 'points', values['points'], 5000, 0, 100_000);
  const repeats = intFlag('explore', 'repeats', values['repeats'], 3, 1, 1000);
  if (values['repeats'] !== undefined && !values['measure']) throw new UsageError('explore: --repeats needs --measure');
  const served = typeof values['server'] === 'string';
  if (served && values['measure']) throw new UsageError('explore: --measure runs the mappings in this process; it does not go with --server');
  const args = await planArgs('explore', values, positionals);
  try {
    let plan: Plan;
    // The real devices' speed now, kept with the readings of earlier plans (cost/speed-history.ts).
    const history = served ? undefined : await observeSpeed(args.system);
    try {
      plan = served ? await servedPlan(args, points, values) : await schedulePlan(args, { maxPoints: points });
    } catch (e) {
      if (!(e instanceof InfeasibleError) || served) throw e;
      // Nothing meets the constraints: a result to show (exit 0), not a failure.
      const x = await infeasible(args, points);
      if (path !== undefined && format !== undefined && x.unconstrained.front.length > 0) {
        await writeChart(
          'explore',
          frontChart({ ...emptyChartInput(args, x), ...size }),
          path,
          format,
          `dype explore: ${args.workloadLabel} on ${args.input.label}`,
          emptyPage(args, x),
        );
      }
      if (values['json']) out(JSON.stringify(emptyJson(args, x, path ?? null), null, 2));
      else printEmpty(out, args, x, x.unconstrained.front.length > 0 ? path : undefined);
      return;
    }
    const measured = values['measure'] ? await measure(plan, repeats) : undefined;
    const spreads = realDeviceSpreads(plan, history);
    const report = exploreJson(args, plan, measured, spreads, path ?? null);
    if (path !== undefined && format !== undefined) {
      const spec = frontChart({ ...chartInput(args, plan, measured), ...size });
      await writeChart('explore', spec, path, format, `dype explore: ${args.workloadLabel} on ${args.input.label}`, frontPage(args, plan, measured, spreads));
    }
    if (values['json']) {
      out(JSON.stringify(report, null, 2));
      return;
    }
    printReport(out, args, plan, measured, spreads, path);
  } finally {
    await args.system.dispose();
  }
}

/**
 * The plan made by a dype server (`--server`): the same plain data a local plan has, without its
 * live problem, which nothing here reads unless --measure is given.
 */
async function servedPlan(args: PlanArgs, points: number, values: FlagValues): Promise<Plan> {
  const client = await connectFromFlags('explore', values);
  try {
    return (await client.schedule(args.workload, args.input.matrix, { ...args.options, maxPoints: points })) as unknown as Plan;
  } finally {
    await client.close();
  }
}

function chartInput(args: PlanArgs, plan: Plan, m: Measured | undefined): Omit<Parameters<typeof frontChart>[0], 'width' | 'height'> {
  const point = (p: Pick<MappingPoint, 'time' | 'energy' | 'genome'> & { readonly label?: string }): ChartPoint => ({
    time: p.time,
    energy: p.energy,
    mapping: shortMapping(plan.operators, p.genome, p.label),
  });
  const baselines = plan.baselines.flatMap((b) =>
    b.feasible && b.genome && b.time !== undefined && b.energy !== undefined ? [{ ...point(b as MappingPoint), name: b.name }] : [],
  );
  const evaluatedNote =
    plan.dominated.length < plan.search.evaluated - plan.front.length - plan.infeasible
      ? `${formatCount(plan.search.evaluated)} mappings evaluated (${formatCount(plan.dominated.length)} drawn)`
      : `${formatCount(plan.search.evaluated)} mappings evaluated`;
  const measuredPoints = m
    ? [
        ...plan.front.map((p, i) => ({ p, name: `#${i + 1}` })),
        ...plan.baselines.filter((b) => b.feasible && b.genome).map((b) => ({ p: b as MappingPoint, name: b.name })),
      ].flatMap(({ p, name }) => {
        const e = measuredOf(m, p.genome);
        return e
          ? [
              {
                time: e.time,
                energy: e.energy,
                mapping: shortMapping(plan.operators, p.genome, p.label),
                name,
                predictedTime: p.time,
                predictedEnergy: p.energy,
              },
            ]
          : [];
      })
    : undefined;
  return {
    title: `dype explore: ${args.workloadLabel} on ${args.input.label}`,
    subtitle: [
      `${describeInput(args.input)}; system ${describeSystem(plan)}`,
      `${evaluatedNote} by ${plan.search.strategy}; ${plan.front.length} on the front; predictions ${modelLine(plan, true)}`,
    ],
    evaluated: plan.dominated.map(point),
    front: plan.front.map(point),
    baselines,
    chosen: { ...point(plan.chosen), policy: plan.policy },
    ...(measuredPoints ? { measured: measuredPoints, measuredNote: measuredNote(plan, m!) } : {}),
  };
}

function pointJson(plan: Plan, p: MappingPoint | BaselinePoint, m: Measured | undefined): Record<string, unknown> {
  const e = measuredOf(m, p.genome);
  return {
    time: p.time,
    energy: p.energy,
    memory: p.memory,
    latency: p.latency,
    mapping: p.label,
    short: p.genome ? shortMapping(plan.operators, p.genome, p.label) : undefined,
    ...(m ? { measured: e ?? null } : {}),
  };
}

/** The `--json` object (schema in docs/cli-json.md). */
function exploreJson(args: PlanArgs, plan: Plan, m: Measured | undefined, spreads: readonly RealDeviceSpread[], plot: string | null): Record<string, unknown> {
  const chosenIndex = plan.front.findIndex((p) => sameGenome(p.genome, plan.chosen.genome));
  return {
    ...jsonHead('explore', args, plan),
    policy: plan.policy,
    constraints: plan.constraints,
    modelled: true,
    units: { time: 's', energy: 'J', memory: 'B', latency: 's' },
    search: plan.search,
    hypervolume: plan.hypervolume,
    evaluated: { total: plan.search.evaluated, infeasible: plan.infeasible, drawn: plan.dominated.length },
    front: plan.front.map((p, i) => ({ rank: i + 1, chosen: i === chosenIndex, ...pointJson(plan, p, m) })),
    chosen: { rank: chosenIndex >= 0 ? chosenIndex + 1 : null, ...pointJson(plan, plan.chosen, m), explanation: plan.explanation.summary },
    baselines: plan.baselines.map((b) => ({
      name: b.name,
      feasible: b.feasible,
      ...(b.genome ? pointJson(plan, b, m) : {}),
      ...(b.reason ? { reason: b.reason } : {}),
      sameAsFront: b.genome ? plan.front.findIndex((p) => sameGenome(p.genome, b.genome)) + 1 || null : null,
    })),
    measured: m ? { repeats: m.repeats, pieces: m.result.pieces, note: measuredNote(plan, m) } : null,
    realDevices: spreads,
    plot,
  };
}

/** Indices of the front rows the table shows: all of a short front, else an even spread with the chosen. */
function shownRows(n: number, chosen: number): number[] {
  if (n <= MAX_ROWS) return Array.from({ length: n }, (_, i) => i);
  const rows = new Set<number>();
  for (let k = 0; k < MAX_ROWS - 1; k++) rows.add(Math.round((k * (n - 1)) / (MAX_ROWS - 2)));
  if (chosen >= 0) rows.add(chosen);
  return [...rows].sort((a, b) => a - b);
}

function printReport(
  out: (s: string) => void,
  args: PlanArgs,
  plan: Plan,
  m: Measured | undefined,
  spreads: readonly RealDeviceSpread[],
  plot: string | undefined,
): void {
  out(
    `${args.workloadLabel} on ${args.input.label}: ${describeInput(args.input)} (${args.input.origin === 'file' ? 'loaded' : 'generated'} in ${formatMs(args.input.ms)})`,
  );
  out(`System ${describeSystem(plan)}`);
  out(`Cost model: ${modelLine(plan, false)}`);
  out(
    `Search: ${plan.search.strategy}, ${formatCount(plan.search.evaluated)} of ${formatCount(plan.search.spaceSize)} mappings evaluated in ${formatSeconds(plan.search.seconds)}` +
      `${plan.infeasible ? ` (${formatCount(plan.infeasible)} infeasible)` : ''}; ${plan.front.length} on the Pareto front`,
  );
  const c = plan.constraints;
  if (c.deadline !== undefined || c.energyBudget !== undefined) {
    out(
      `Constraints: ${[c.deadline !== undefined ? `deadline ${formatSeconds(c.deadline)}` : '', c.energyBudget !== undefined ? `energy budget ${formatJoules(c.energyBudget)}` : ''].filter(Boolean).join(', ')}`,
    );
  }
  out('');
  const chosenIndex = plan.front.findIndex((p) => sameGenome(p.genome, plan.chosen.genome));
  const header = ['', 'time (predicted)', 'energy (predicted)', ...(m ? ['time (executed)', 'energy (executed)'] : []), 'mapping', 'note'];
  const cells = (p: MappingPoint | BaselinePoint): string[] => {
    const e = measuredOf(m, p.genome);
    return [
      p.time !== undefined ? formatSeconds(p.time) : '-',
      p.energy !== undefined ? formatJoules(p.energy) : '-',
      ...(m ? [e ? formatSeconds(e.time) : '-', e ? formatJoules(e.energy) : '-'] : []),
      p.genome ? shortMapping(plan.operators, p.genome, p.label) : '-',
    ];
  };
  const rows: string[][] = [];
  const shown = shownRows(plan.front.length, chosenIndex);
  for (const i of shown) {
    const p = plan.front[i]!;
    const same = plan.baselines.filter((b) => sameGenome(b.genome, p.genome)).map((b) => b.name);
    const note = [i === chosenIndex ? `<- chosen (${plan.policy})` : '', same.length ? `= ${same.join(', ')}` : ''].filter(Boolean).join(' ');
    rows.push([`#${i + 1}`, ...cells(p), note]);
  }
  if (chosenIndex < 0) rows.push(['chosen', ...cells(plan.chosen), `<- chosen (${plan.policy})`]);
  for (const b of plan.baselines) {
    const at = plan.front.findIndex((p) => sameGenome(p.genome, b.genome));
    rows.push([`${b.name}`, ...cells(b), !b.feasible ? `infeasible: ${b.reason ?? ''}` : at >= 0 ? `baseline (= #${at + 1})` : 'baseline']);
  }
  out(formatTable(header, rows));
  if (shown.length < plan.front.length) out(`(${plan.front.length - shown.length} more front points in --json)`);
  out('');
  out(
    m
      ? `Predicted: the cost model's figures. Executed, ${m.result.pieces.measured + m.result.pieces.simulated + m.result.pieces.roofline} distinct pieces executed: ${measuredNote(plan, m)}.`
      : 'Every time and energy above is predicted by the cost model (modelled), per run; --measure executes the front.',
  );
  for (const line of spreadLines(spreads)) out(line);
  out('\nWhy this plan:');
  for (const line of plan.explanation.summary.slice(1)) out(`  ${line}`);
  if (plot !== undefined) out(`\nChart: ${plot} (every evaluated mapping, the front, the baselines, the chosen plan)`);
}

/** What printReport prints, as text for the HTML page. */
function frontPage(args: PlanArgs, plan: Plan, m: Measured | undefined, spreads: readonly RealDeviceSpread[]): string {
  const lines: string[] = [];
  printReport((l) => void lines.push(l), args, plan, m, spreads, undefined);
  return lines.join('\n');
}

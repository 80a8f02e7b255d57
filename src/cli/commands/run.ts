// `dype run`: plan a workload as `dype explore` does, execute the chosen plan (real devices
// timed, the simulators simulating), re-plan when what is observed drifts from the prediction,
// and report each operator's predicted and observed cost with how it was obtained, a Chrome
// trace and a Gantt chart of the timeline with the re-plans marked.

import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { InfeasibleError, IoError } from '../../errors.js';
import { runPlan, type ExecutionObserver, type RunResult } from '../../executor/run.js';
import { chromeTrace } from '../../executor/trace.js';
import type { Plan } from '../../scheduler/schedule.js';
import { chartFormat, checkFolder, writeChart } from '../charts/render.js';
import { timelineChart, type TimelineBar } from '../charts/timeline.js';
import { infeasible, relaxAdvice } from '../infeasible.js';
import { shortMapping } from '../mapping-text.js';
import { pieceBars, pieceDevice, SOURCE_TEXT } from '../run-pieces.js';
import { parseFlags, type FlagValues } from '../parse.js';
import { PLAN_FLAGS, PLAN_FLAGS_HELP, planArgs, type PlanArgs, schedulePlan } from '../plan-args.js';
import { pieceProgress, progressReporter } from '../progress.js';
import { connectFromFlags, SERVER_FLAGS, SERVER_FLAGS_HELP } from '../server-flags.js';
import { formatCount, formatJoules, formatMs, formatSeconds, formatTable } from '../table.js';
import { UsageError } from '../usage-error.js';
import { plotPath, sizeFlag } from './explore.js';
import { DISTRIBUTED_FLAGS_HELP, distributedRun } from './run-distributed.js';
import { describeInput, describeSystem, jsonHead, modelLine } from './plan-text.js';

export const DEFAULT_TIMELINE_PLOT = 'dype-run.png';
export const DEFAULT_TRACE = 'dype-run.trace.json';

export const RUN_HELP = `Usage: dype run [WORKLOAD] [--data FILE | --generate SPEC] [options]

Plan WORKLOAD (default gcn) on an input as \`dype explore\` does, then execute the chosen plan:
every piece of every operator on its device with the real data (the CPU and a CUDA GPU timed,
simulated devices simulating), operators on different devices at once. When the observed times
drift from the predictions by more than the threshold, the operators not yet started are
re-planned.
Prints each operator's pieces with predicted and observed time and how each was obtained, and
writes a Chrome trace and a Gantt chart of the timeline with the re-plans marked.

WORKLOAD: spmm, bfs, msbfs, gcn, sage, gat, pagerank (shipped), or a workload .json file.

${PLAN_FLAGS_HELP}

Execution:
  --no-replan              run the plan as made, whatever is observed
  --replan-threshold X     relative drift of the remaining work that triggers a re-plan (default 0.25)
  --no-bfs-levels          run each single-source BFS in one call on its planned device, instead of
                           re-deciding its device level by level from the actual frontier

${DISTRIBUTED_FLAGS_HELP}

Server:
${SERVER_FLAGS_HELP}
                       (the server plans and runs on its machine with its model; the report,
                       trace and chart are made here from what it sends back)

Output:
  --trace FILE             Chrome trace JSON, for https://ui.perfetto.dev or chrome://tracing
                           (default ${DEFAULT_TRACE}; with --json, only when given)
  --no-trace               write no trace
  --out FILE               the Gantt chart: .png, .svg or .html (default ${DEFAULT_TIMELINE_PLOT};
                           with --json, only when given)
  --no-plot                write no chart
  --size WxH               chart size in pixels (default 960x600)
  --json                   print one JSON object (schema in docs/cli-json.md)
  -h, --help               show this help

The observed timeline is composed from each piece's observed duration by the planner's list
schedule: CPU and CUDA GPU pieces are measured, simulated devices' pieces simulated, dense operators on
simulated devices modelled by a roofline, copies between memories modelled from the links.

Examples:
  dype run
  dype run sage --generate road --objective energy
  dype run pagerank --data ../shared/datasets/email-Enron.mtx --out run.html
  dype run gcn --generate kron14 --no-replan --json
  dype run bfs --data graph.tsv --undirected --source TP53
  dype run pagerank --generate road --iterations 10
  mpirun -np 4 npx dype run gcn --data big.mtx --distributed --check`;

const FLAGS = {
  ...PLAN_FLAGS,
  ...SERVER_FLAGS,
  'no-replan': { type: 'boolean' },
  'replan-threshold': { type: 'string' },
  'no-bfs-levels': { type: 'boolean' },
  distributed: { type: 'boolean' },
  partitioner: { type: 'string' },
  'rank-device': { type: 'string' },
  check: { type: 'boolean' },
  trace: { type: 'string' },
  'no-trace': { type: 'boolean' },
  out: { type: 'string' },
  'no-plot': { type: 'boolean' },
  size: { type: 'string' },
} as const;

function tracePath(values: FlagValues): string | undefined {
  const given = typeof values['trace'] === 'string' ? values['trace'] : undefined;
  if (given !== undefined && values['no-trace']) throw new UsageError('run: give --trace or --no-trace, not both');
  if (values['no-trace']) return undefined;
  const path = given ?? (values['json'] ? undefined : DEFAULT_TRACE);
  if (path !== undefined && extname(path).toLowerCase() !== '.json') throw new UsageError(`run: --trace must end in .json, got ${JSON.stringify(path)}`);
  return path;
}

function thresholdFlag(raw: FlagValues[string]): number | undefined {
  if (raw === undefined) return undefined;
  const v = typeof raw === 'string' ? Number(raw) : NaN;
  if (!(Number.isFinite(v) && v > 0)) throw new UsageError(`run: --replan-threshold must be a number > 0 (0.25 is 25%), got ${JSON.stringify(raw)}`);
  return v;
}

export async function runCommand(argv: readonly string[], out: (s: string) => void): Promise<void> {
  const { values, positionals } = parseFlags('run', argv, FLAGS, true);
  if (values['help']) {
    out(RUN_HELP);
    return;
  }
  if (values['distributed']) return distributedRun(values, positionals, out);
  for (const flag of ['partitioner', 'check', 'rank-device'])
    if (values[flag] !== undefined) throw new UsageError(`run: --${flag} applies to --distributed runs only`);
  const plot = plotPath('run', values, DEFAULT_TIMELINE_PLOT);
  const format = plot !== undefined ? chartFormat('run', 'out', plot) : undefined;
  const trace = tracePath(values);
  if (trace !== undefined) checkFolder('run', trace);
  const size = sizeFlag('run', values['size']);
  const threshold = thresholdFlag(values['replan-threshold']);
  if (threshold !== undefined && values['no-replan']) throw new UsageError('run: give --replan-threshold or --no-replan, not both');
  const args = await planArgs('run', values, positionals);
  try {
    const replanning: number | false = values['no-replan'] ? false : (threshold ?? 0.25);
    const execution: Execution = {
      replan: values['no-replan'] ? false : threshold !== undefined ? { threshold } : {},
      ...(values['no-bfs-levels'] ? { bfsLevels: false as const } : {}),
    };
    const { plan, result } = typeof values['server'] === 'string' ? await servedRun(args, values, execution) : await localRun(args, execution);
    const title = `dype run: ${args.workloadLabel} on ${args.input.label}`;
    if (trace !== undefined) {
      try {
        await writeFile(trace, JSON.stringify(chromeTrace(result, title)));
      } catch (cause) {
        throw new IoError('run', trace, cause);
      }
    }
    if (plot !== undefined && format !== undefined) {
      const lines: string[] = [];
      printReport((l) => void lines.push(l), args, plan, result, undefined, undefined, replanning);
      await writeChart('run', timelineChart({ ...chartInput(args, plan, result), ...size }), plot, format, title, lines.join('\n'));
    }
    if (values['json']) {
      out(JSON.stringify(runJson(args, plan, result, trace ?? null, plot ?? null), null, 2));
      return;
    }
    printReport(out, args, plan, result, trace, plot, replanning);
  } finally {
    await args.system.dispose();
  }
}

type Execution = { readonly replan: false | { readonly threshold?: number }; readonly bfsLevels?: false };

/** Plan here and run the plan here, with a progress line per piece. */
async function localRun(args: PlanArgs, execution: Execution): Promise<{ plan: Plan; result: RunResult }> {
  let plan: Plan;
  try {
    plan = await schedulePlan(args, { maxPoints: 0 });
  } catch (e) {
    if (!(e instanceof InfeasibleError)) throw e;
    // Nothing to run: a failure (exit 1), with what explore would show in one line.
    const x = await infeasible(args, 0);
    throw new InfeasibleError(`run: ${x.reason}; to find plans, relax ${relaxAdvice(x, args).join('; or ')}`, {
      cause: e,
    });
  }
  const progress = pieceProgress(
    progressReporter('run'),
    plan.chosen.genome.reduce((s, c, i) => s + plan.problem.choices[i]![c]!.parts.length, 0),
  );
  const observer: ExecutionObserver = { onPiece: (p) => progress.piece(`${p.op} on ${p.device}`) };
  const result = await runPlan(plan, { observers: [observer], ...execution });
  progress.finish();
  return { plan, result };
}

/**
 * Plan and run on a dype server (`--server`), in one request: the plan comes back as the plain
 * data a local plan has (without its live problem, which the report does not read) beside the
 * run's result.
 */
async function servedRun(args: PlanArgs, values: FlagValues, execution: Execution): Promise<{ plan: Plan; result: RunResult }> {
  const client = await connectFromFlags('run', values);
  try {
    const { plan, ...result } = await client.run(args.workload, args.input.matrix, { ...args.options, maxPoints: 0, run: execution });
    return { plan: plan as unknown as Plan, result };
  } finally {
    await client.close();
  }
}

/** How the observed figures were obtained, in words. */
function sourcesNote(result: RunResult): string {
  // A BFS re-decided level by level counts by its steps, each on its own device.
  const ran = result.pieces.flatMap((p) =>
    p.steps ? p.steps.map((st) => ({ source: st.source as string, device: st.device })) : [{ source: p.source as string, device: p.device }],
  );
  const by = (s: string): string[] => [...new Set(ran.filter((p) => p.source === s).map((p) => p.device))];
  const parts = [];
  if (by('measured').length) parts.push(`measured on ${by('measured').join(', ')}`);
  if (by('simulated').length) parts.push(`simulated on ${by('simulated').join(', ')}`);
  if (by('roofline').length) parts.push(`modelled (roofline) for dense operators on ${by('roofline').join(', ')}`);
  return parts.join('; ');
}

/** Where a re-plan sits on the composed timeline: when the operator that triggered it finished. */
function replanAt(result: RunResult, after: string): number {
  return Math.max(0, ...result.pieces.filter((p) => p.op === after).map((p) => p.finish));
}

function chartInput(args: PlanArgs, plan: Plan, result: RunResult): Omit<Parameters<typeof timelineChart>[0], 'width' | 'height'> {
  const observed: TimelineBar[] = [
    ...result.pieces.flatMap(pieceBars),
    ...result.transfers.map((t) => ({ track: `${t.from} -> ${t.to}`, op: 'copy', start: t.start, finish: t.finish, source: 'modelled' })),
  ];
  const names = plan.devices.map((d) => d.name);
  const predicted: TimelineBar[] = [
    ...plan.predicted.timeline.map((e) => ({
      track: names[e.device]!,
      op: plan.operators[e.op]!.id,
      start: e.start,
      finish: e.finish,
      source: 'modelled',
    })),
    ...plan.predicted.transfers.map((t) => ({ track: `${t.from} -> ${t.to}`, op: 'copy', start: t.start, finish: t.finish, source: 'modelled' })),
  ];
  const replans = result.replans.map((r) => ({ at: replanAt(result, r.after), label: r.reason }));
  return {
    title: `dype run: ${args.workloadLabel} on ${args.input.label}`,
    subtitle: [
      `${describeInput(args.input)}; system ${describeSystem(plan)}`,
      `observed makespan ${formatSeconds(result.makespan)} (${sourcesNote(result)}); predicted ${formatSeconds(plan.predicted.makespan)} (cost model); ${result.replans.length} re-plan${result.replans.length === 1 ? '' : 's'}`,
    ],
    observed,
    predicted,
    tracks: names,
    replans,
  };
}

function runJson(args: PlanArgs, plan: Plan, result: RunResult, trace: string | null, plot: string | null): Record<string, unknown> {
  return {
    ...jsonHead('run', args, plan),
    policy: plan.policy,
    units: { time: 's', energy: 'J' },
    plan: {
      mapping: plan.chosen.label,
      short: shortMapping(plan.operators, plan.chosen.genome, plan.chosen.label),
      predicted: { makespan: plan.predicted.makespan, energy: plan.predicted.energy },
    },
    mapping: result.mapping,
    observed: {
      makespan: result.makespan,
      makespanSource: result.makespanSource,
      composedMakespan: result.composedMakespan,
      energy: result.energy,
      measuredShare: result.measuredShare,
    },
    wallSeconds: result.wallSeconds,
    pieces: result.pieces,
    transfers: result.transfers.map((t) => ({ from: t.from, to: t.to, bytes: t.bytes, start: t.start, finish: t.finish })),
    replans: result.replans.map((r) => ({ ...r, timelineAt: replanAt(result, r.after) })),
    trace,
    plot,
  };
}

/**
 * Why a run did not re-plan, truthfully: re-planning was off; every piece stayed near its
 * prediction; or some piece drifted but nothing with a choice was left to re-plan after it.
 */
export function noReplanReason(result: RunResult, threshold: number | false): string {
  if (threshold === false) return 'none (re-planning is off: --no-replan)';
  let worst: (typeof result.pieces)[number] | undefined;
  let worstRatio = 1;
  for (const p of result.pieces) {
    if (!(p.predictedSeconds > 0)) continue;
    const r = p.observedSeconds / p.predictedSeconds;
    if (Math.abs(Math.log(r)) > Math.abs(Math.log(worstRatio))) {
      worst = p;
      worstRatio = r;
    }
  }
  if (!worst || Math.abs(worstRatio - 1) <= threshold) return `none (every piece took within ${Math.round(threshold * 100)}% of its prediction)`;
  return `none, though ${worst.op} on ${worst.device} took ${worstRatio.toFixed(2)}x its prediction: the work still to start, re-priced by what the run had observed, never moved ${Math.round(threshold * 100)}% from its prediction while an operator with a choice was left (drift late in a run has nothing left to re-plan)`;
}

function printReport(
  out: (s: string) => void,
  args: PlanArgs,
  plan: Plan,
  result: RunResult,
  trace: string | undefined,
  plot: string | undefined,
  replanning: number | false,
): void {
  out(
    `${args.workloadLabel} on ${args.input.label}: ${describeInput(args.input)} (${args.input.origin === 'file' ? 'loaded' : 'generated'} in ${formatMs(args.input.ms)})`,
  );
  out(`System ${describeSystem(plan)}`);
  out(`Cost model: ${modelLine(plan, false)}`);
  out(
    `Plan (${plan.policy}): ${shortMapping(plan.operators, plan.chosen.genome, plan.chosen.label)}; predicted ${formatSeconds(plan.predicted.makespan)}, ${formatJoules(plan.predicted.energy)}\n`,
  );
  const rows: string[][] = [];
  let last = '';
  for (const p of [...result.pieces].sort(
    (x, y) => plan.operators.findIndex((o) => o.id === x.op) - plan.operators.findIndex((o) => o.id === y.op) || x.begin - y.begin,
  )) {
    const first = p.op !== last;
    last = p.op;
    const where = pieceDevice(p);
    rows.push([
      first ? p.op : '',
      first ? p.kind : '',
      where.device,
      `[${formatCount(p.begin)}, ${formatCount(p.end)})`,
      formatSeconds(p.predictedSeconds),
      formatSeconds(p.observedSeconds),
      where.source,
      formatSeconds(p.start),
      formatSeconds(p.finish),
    ]);
  }
  out(formatTable(['operator', 'kind', 'device', 'units', 'predicted (modelled)', 'observed', 'source', 'start', 'finish'], rows));
  out('');
  for (const p of result.pieces) {
    if (!p.steps) continue;
    out(`${p.op} (${p.kind}) re-decided level by level from the actual frontier, ${p.steps.length} step${p.steps.length === 1 ? '' : 's'}:`);
    for (const st of p.steps) {
      out(
        `  levels ${st.fromLevel}..${st.fromLevel + st.levels} on ${st.device}: ${formatSeconds(st.observedSeconds)} ${SOURCE_TEXT[st.source]} (predicted ${formatSeconds(st.predictedSeconds)}, modelled)${st.moveSeconds > 0 ? `, after a ${formatSeconds(st.moveSeconds)} move (modelled)` : ''}`,
      );
    }
    out('');
  }
  const how =
    result.makespanSource === 'measured'
      ? 'measured on the host clock (every piece ran on real hardware)'
      : `composed from the pieces' observed costs (simulators take part; ${formatSeconds(result.wallSeconds)} of host wall time)`;
  out(
    `Makespan ${formatSeconds(result.makespan)} ${how}, against ${formatSeconds(plan.predicted.makespan)} predicted; energy ${formatJoules(result.energy)} against ${formatJoules(plan.predicted.energy)}.`,
  );
  const overhead = executorTimeNote(result);
  if (overhead) out(overhead);
  out(
    `Observed: ${sourcesNote(result)}; ${Math.round(result.measuredShare * 100)}% of piece time measured. Copies between memories are modelled from the links. Host wall time ${formatSeconds(result.wallSeconds)}.`,
  );
  if (result.replans.length === 0) out(`Re-plans: ${noReplanReason(result, replanning)}.`);
  else {
    out(`Re-plans: ${result.replans.length}`);
    for (const r of result.replans) out(`  ${r.reason}\n    from ${r.from}\n    to   ${r.to}`);
  }
  if (trace !== undefined) out(`\nTrace: ${trace} (open in https://ui.perfetto.dev or chrome://tracing)`);
  if (plot !== undefined)
    out(`${trace !== undefined ? '' : '\n'}Chart: ${plot} (the timeline per device and link, predicted beneath observed, re-plans marked)`);
}

/**
 * Where a makespan read off the host clock exceeds the pieces' own observed costs composed as
 * planned: the executor's work around them (calls, output memory, level-by-level decisions),
 * which no prediction covers. Undefined where it is under a tenth.
 */
export function executorTimeNote(result: Pick<RunResult, 'makespan' | 'makespanSource' | 'composedMakespan'>): string | undefined {
  if (result.makespanSource !== 'measured' || !(result.makespan > 1.1 * result.composedMakespan)) return undefined;
  return (
    `Of that makespan, ${formatSeconds(result.composedMakespan)} is the pieces' own time (their observed costs composed as planned); ` +
    `the other ${formatSeconds(result.makespan - result.composedMakespan)} went to the executor's work around them (calls, output memory, level-by-level decisions), which the prediction does not include.`
  );
}

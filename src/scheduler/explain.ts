// Why a plan is what it is, in words and numbers: the input features that matter, what each
// operator is predicted to cost on each device, and how the chosen mapping compares with the
// fastest single device and the other ends of the front.

import type { CostModel } from '../cost/model.js';
import type { System } from '../devices/system.js';
import type { BoundWorkload } from '../workloads/bind.js';
import type { OperatorEstimate, PlanningCosts } from './costs.js';
import type { Evaluator, Metrics } from './evaluate.js';
import type { PickResult } from './pick.js';
import type { Refinement } from './refine.js';
import { type Policy, policyName } from './policy.js';
import type { Exploration, MappingPoint } from './schedule.js';
import type { CostTable } from './space.js';
import { formatCount, formatJoules, formatRatio, formatSeconds } from '../units.js';

export interface FeatureNote {
  readonly input: string;
  readonly name: string;
  readonly value: number;
  readonly meaning: string;
}

export interface OperatorExplanation {
  readonly id: string;
  readonly kind: string;
  /** The chosen device or split. */
  readonly choice: string;
  /** Predicted seconds and joules of the chosen choice (slowest part; all parts' energy). */
  readonly seconds: number;
  readonly joules: number;
  /** The whole operator on each device that can run it, fastest first. */
  readonly alternatives: readonly OperatorEstimate[];
  readonly reason: string;
}

export interface Explanation {
  /** Sentences, most important first. */
  readonly summary: readonly string[];
  readonly features: readonly FeatureNote[];
  readonly operators: readonly OperatorExplanation[];
}

export interface ExplainInput {
  readonly bound: BoundWorkload;
  readonly system: System;
  readonly model: CostModel;
  readonly costs: PlanningCosts;
  readonly table: CostTable;
  readonly exploration: Exploration;
  readonly chosen: MappingPoint;
  readonly predicted: Metrics;
  /** Prices the whole plan with one operator moved: why a choice other than the operator's fastest device is kept. */
  readonly evaluator: Evaluator;
  readonly policy: Policy;
  /** How a scalar policy's pick was made, when it was. */
  readonly picked?: PickResult;
  /** Whether planning probed this input on the devices (the figures are the model's scaled to what the probes saw). */
  readonly probed?: boolean;
  /** Splits whose parts were probed and re-balanced before the final pick. */
  readonly refined?: readonly Refinement[];
}

const ratio = (a: number, b: number): string => formatRatio(a / b);
const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;
const bytesMoved = (m: Metrics): number => m.transfers.reduce((s, t) => s + t.bytes, 0);

/**
 * What the whole plan gains by `op`'s choice over running it on `device` alone (`other`: the plan
 * so): an operator is not priced alone, since its choice also decides what is copied and what runs
 * beside it. Says so where the choice gains nothing (a tie the planner kept).
 */
function wholePlanEffect(chosen: Metrics, other: Metrics, device: string): string {
  if (!other.feasible) return `with it on ${device} alone the plan would break ${other.violations.join('; ')}`;
  const faster = other.makespan > chosen.makespan * (1 + 1e-9);
  const frugal = other.energy > chosen.energy * (1 + 1e-9);
  const figures = `${formatSeconds(chosen.makespan)} / ${formatJoules(chosen.energy)} against ${formatSeconds(other.makespan)} / ${formatJoules(other.energy)} with it on ${device} alone`;
  const [a, b] = [bytesMoved(chosen), bytesMoved(other)];
  const copies = Math.abs(a - b) > 0.005 * Math.max(a, b) ? `; copies ${(a / 1e6).toFixed(2)} MB against ${(b / 1e6).toFixed(2)} MB` : '';
  const verdict =
    faster && frugal
      ? 'the whole plan is faster and uses less energy as chosen'
      : faster
        ? 'the whole plan is faster as chosen, for more energy'
        : frugal
          ? 'the whole plan uses less energy as chosen, for more time'
          : 'the whole plan gains nothing by it (a tie)';
  return `${verdict}: ${figures}${copies}`;
}

/** Whether `chosen` is one of the front's mappings (a mapping made after the search is not). */
function onFront(exploration: Exploration, chosen: MappingPoint): boolean {
  return exploration.front.some((p) => p.genome.length === chosen.genome.length && p.genome.every((c, i) => c === chosen.genome[i]));
}

export function explain(x: ExplainInput): Explanation {
  const { bound, system, model, costs, table, exploration, chosen, predicted, evaluator, policy, picked, refined } = x;
  const summary: string[] = [];
  const features: FeatureNote[] = [];

  // Features of each sparse input the operators read.
  const seen = new Set<number>();
  for (const op of bound.ops) {
    const v = op.operands[0]!;
    const val = bound.values[v]!;
    if (val.kind !== 'sparse' || !val.pattern || seen.has(v)) continue;
    seen.add(v);
    const f = model.matrixFeatures(val.pattern);
    features.push(
      { input: val.name, name: 'nnz', value: f.nnz, meaning: 'stored entries: the work of SpMM/SpMV and the bytes streamed' },
      { input: val.name, name: 'row-length cv', value: f.rowLength.cv, meaning: 'imbalance between rows: high favours nnz-split GPU kernels and co-execution' },
      {
        input: val.name,
        name: 'max row / mean row',
        value: f.rowLength.max / Math.max(f.rowLength.mean, 1e-12),
        meaning: 'the heaviest row against the average',
      },
      { input: val.name, name: 'mean column distance', value: f.meanDistance, meaning: 'locality of the gathers from the dense operand' },
    );
    let line = `${val.name}: ${formatCount(f.rows)} x ${formatCount(f.cols)}, ${formatCount(f.nnz)} nonzeros, rows of ${f.rowLength.mean.toFixed(1)} on average (cv ${f.rowLength.cv.toFixed(2)}, max ${f.rowLength.max})`;
    if (f.powerLaw.state === 'fitted') line += `, power-law tail alpha ${f.powerLaw.alpha.toFixed(2)}`;
    if (bound.ops.some((o) => (o.kind === 'bfs' || o.kind === 'msbfs') && o.operands[0] === v)) {
      const g = model.graphFeatures(val.pattern);
      features.push({
        input: val.name,
        name: 'bfs levels',
        value: g.meanLevels,
        meaning: 'levels per traversal: each is a launch or a pass, which favours low-latency devices for deep graphs',
      });
      line += `; BFS takes about ${g.meanLevels.toFixed(0)} levels (diameter estimate ${g.diameterEstimate})`;
    }
    summary.push(`${line}.`);
  }

  // Each operator: its choice against every device alone.
  const operators: OperatorExplanation[] = bound.ops.map((op, i) => {
    const c = chosen.genome[i]!;
    const choice = table.choices[i]![c]!;
    const g = table.choiceBase[i]! + c;
    let seconds = 0;
    let joules = 0;
    for (let p = table.partBegin[g]!; p < table.partBegin[g]! + table.partCount[g]!; p++) {
      seconds = Math.max(seconds, table.partSeconds[p]!);
      joules += table.partJoules[p]!;
    }
    const alternatives = system.devices
      .map((_, d) => d)
      .filter((d) => table.choices[i]!.some((ch) => ch.parts.length === 1 && ch.parts[0]!.device === d))
      .map((d) => costs.whole(op, d))
      .sort((a, b) => a.seconds - b.seconds);
    const fastest = alternatives[0];
    /** The whole plan with this operator on the fastest device alone instead. */
    const onFastest = (): string => {
      const d = system.devices.findIndex((dev) => dev.name === fastest!.device);
      const alone = table.choices[i]!.findIndex((ch) => ch.parts.length === 1 && ch.parts[0]!.device === d);
      if (alone < 0) return '';
      const g = Int32Array.from(chosen.genome);
      g[i] = alone;
      return `; ${wholePlanEffect(predicted, evaluator.metrics(g), fastest!.device)}`;
    };
    let reason: string;
    if (!fastest) reason = 'no single device can run it';
    else if (choice.parts.length > 1) {
      reason =
        seconds <= fastest.seconds
          ? `split ${choice.label}: ${formatSeconds(seconds)} against ${formatSeconds(fastest.seconds)} on ${fastest.device} alone (${ratio(fastest.seconds, seconds)} faster)`
          : `split ${choice.label}: ${formatSeconds(seconds)} / ${formatJoules(joules)} for the operator, against ${formatSeconds(fastest.seconds)} / ${formatJoules(fastest.joules)} on ${fastest.device} alone${onFastest()}`;
    } else if (choice.label === fastest.device) {
      const next = alternatives[1];
      reason =
        `on ${fastest.device}, the fastest device for it: ${formatSeconds(fastest.seconds)}` +
        (next ? `, next ${next.device} ${formatSeconds(next.seconds)} (${ratio(next.seconds, fastest.seconds)} slower)` : '');
    } else {
      reason = `${choice.label} at ${formatSeconds(seconds)} / ${formatJoules(joules)} rather than the fastest, ${fastest.device} (${formatSeconds(fastest.seconds)} / ${formatJoules(fastest.joules)})${onFastest()}`;
    }
    return { id: op.id, kind: op.kind, choice: choice.label, seconds, joules, alternatives, reason: `${op.id} (${op.kind}): ${reason}` };
  });

  const timeWord = exploration.stream ? 'per input' : '';
  const found = onFront(exploration, chosen);
  summary.push(
    `Chosen by ${policyName(policy)}: ${formatSeconds(chosen.time)}${timeWord ? ` ${timeWord}` : ''} and ${formatJoules(chosen.energy)} predicted (modelled)${found ? ', one' : ''} of the ${plural(exploration.front.length, 'Pareto-optimal mapping', 'Pareto-optimal mappings')} the search found among ${formatCount(exploration.search.evaluated)} evaluated (${exploration.search.exhaustive ? 'exhaustively' : exploration.search.strategy})${found ? '' : '; the chosen mapping was made after the search (a split re-balanced from its probed parts, or an alternative near the pick priced exactly), so it is not among them'}.`,
  );
  // Once per operator and re-balanced split (refinement may re-balance the same split again, or
  // several splits of one operator to the same shares), saying whether the final pick kept it.
  const byResult = new Map<string, { op: string; to: string; from: string[] }>();
  for (const r of refined ?? []) {
    const key = `${r.op}|${r.to}`;
    const group = byResult.get(key) ?? { op: r.op, to: r.to, from: [] };
    if (!group.from.includes(r.from)) group.from.push(r.from);
    byResult.set(key, group);
  }
  for (const { op: id, to, from } of byResult.values()) {
    const i = bound.ops.findIndex((op) => op.id === id);
    const final = i >= 0 ? table.choices[i]![chosen.genome[i]!]!.label : to;
    const splits = from.length === 1 ? `The split of ${id} (${from[0]}) was` : `The splits of ${id} (${from.join('; ')}) were`;
    summary.push(
      `${splits} probed where ${from.length === 1 ? 'it runs' : 'they run'} and re-balanced from what ${from.length === 1 ? 'its' : 'their'} parts took (${to})` +
        (final === to
          ? ' before the final pick.'
          : `; the final pick, priced on the whole plan (copies and what runs beside it included), runs it as ${final}.`),
    );
  }
  if (picked?.simplified) {
    const over = picked.simplified.over;
    const label = bound.ops.map((op, i) => `${op.id}:${table.choices[i]![over[i]!]!.label}`).join(', ');
    const { kind, gain, exposure } = picked.simplified;
    const other = kind === 'other shares';
    const what = other
      ? `The same splits at other shares (${label}) were predicted ${(100 * gain).toFixed(1)}% better`
      : `A mapping with ${kind === 'one device' ? 'more devices' : kind === 'no split' ? 'splits' : 'more splits'} (${label}) was predicted ${(100 * gain).toFixed(1)}% better`;
    const kept = other ? 'the shares that hold up when it moves are kept' : 'the simpler mapping is kept';
    summary.push(
      exposure
        ? `${what} as probed, but ${(100 * exposure.gain).toFixed(1)}% worse on average over a real device running ${(100 * exposure.drift).toFixed(0)}% faster or slower than probed (a part on a device whose speed does not move sets the makespan when the other speeds up): ${kept}.`
        : `${what}, inside the model's resolution of ${(100 * picked.margin).toFixed(1)}% for these devices: ${kept}.`,
    );
  }
  const singles = exploration.baselines.filter((b) => b.name.endsWith(' alone') && b.feasible && b.time !== undefined);
  if (singles.length) {
    const bestSingle = singles.reduce((a, b) => (b.time! < a.time! ? b : a));
    summary.push(
      `Against the fastest single device, ${bestSingle.name}: ${ratio(bestSingle.time!, chosen.time)} the speed and ${ratio(bestSingle.energy!, chosen.energy)} the energy efficiency.`,
    );
  }
  if (exploration.front.length > 1) {
    const f = exploration.front;
    const lo = f.reduce((a, b) => (b.energy < a.energy ? b : a));
    summary.push(
      `The front runs from ${formatSeconds(f[0]!.time)} / ${formatJoules(f[0]!.energy)} (fastest) to ${formatSeconds(lo.time)} / ${formatJoules(lo.energy)} (most frugal).`,
    );
  }
  for (const o of operators) summary.push(o.reason + '.');
  if (predicted.transfers.length) {
    const bytes = predicted.transfers.reduce((s, t) => s + t.bytes, 0);
    summary.push(`${predicted.transfers.length} copies between memories move ${(bytes / 1e6).toFixed(2)} MB in the chosen plan.`);
  }
  const uncal = exploration.devices.filter((d) => d.model.startsWith('uncalibrated'));
  if (uncal.length)
    summary.push(`Predictions for ${uncal.map((d) => d.name).join(', ')} are uncalibrated (spec-derived, +-100%): run \`dype calibrate\` for calibrated ones.`);
  if (bound.ops.some((o) => costs.whole(o, 0).basis === 'roofline'))
    summary.push("Dense operators (GEMM, element-wise, reductions, SDDMM) are priced by each device's roofline: modelled, not calibrated.");
  if (x.probed)
    summary.push(
      "The cost model's figures are scaled to what a probe of this input took on each device (on a sample of the rows where the input is large), and a chosen split's parts were probed where they run.",
    );
  return { summary, features, operators };
}

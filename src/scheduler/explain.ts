// Why a plan is what it is, in words and numbers: the input features that matter, what each
// operator is predicted to cost on each device, and how the chosen mapping compares with the
// fastest single device and the other ends of the front.

import type { CostModel } from '../cost/model.js';
import type { System } from '../devices/system.js';
import type { BoundWorkload } from '../workloads/bind.js';
import type { OperatorEstimate, PlanningCosts } from './costs.js';
import type { Metrics } from './evaluate.js';
import type { PickResult } from './pick.js';
import type { Refinement } from './refine.js';
import { type Policy, policyName } from './policy.js';
import type { Exploration, MappingPoint } from './schedule.js';
import type { CostTable } from './space.js';
import { formatJoules, formatSeconds } from '../units.js';

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
  readonly policy: Policy;
  /** How a scalar policy's pick was made, when it was. */
  readonly picked?: PickResult;
  /** Whether planning probed this input on the devices (the figures are the model's scaled to what the probes saw). */
  readonly probed?: boolean;
  /** Splits whose parts were probed and re-balanced before the final pick. */
  readonly refined?: readonly Refinement[];
}

const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

export function explain(x: ExplainInput): Explanation {
  const { bound, system, model, costs, table, exploration, chosen, predicted, policy, picked, refined } = x;
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
    let line = `${val.name}: ${f.rows} x ${f.cols}, ${f.nnz} nonzeros, rows of ${f.rowLength.mean.toFixed(1)} on average (cv ${f.rowLength.cv.toFixed(2)}, max ${f.rowLength.max})`;
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
    let reason: string;
    if (!fastest) reason = 'no single device can run it';
    else if (choice.parts.length > 1) {
      reason =
        seconds <= fastest.seconds
          ? `split ${choice.label}: ${formatSeconds(seconds)} against ${formatSeconds(fastest.seconds)} on ${fastest.device} alone (${ratio(fastest.seconds, seconds)} faster)`
          : `split ${choice.label}: ${formatSeconds(seconds)}, slower than ${fastest.device} alone (${formatSeconds(fastest.seconds)}) but ${formatJoules(joules)} against ${formatJoules(fastest.joules)}, or leaving ${fastest.device} free for other operators`;
    } else if (choice.label === fastest.device) {
      const next = alternatives[1];
      reason =
        `on ${fastest.device}, the fastest device for it: ${formatSeconds(fastest.seconds)}` +
        (next ? `, next ${next.device} ${formatSeconds(next.seconds)} (${ratio(next.seconds, fastest.seconds)} slower)` : '');
    } else {
      reason = `${choice.label} at ${formatSeconds(seconds)} / ${formatJoules(joules)} rather than the fastest, ${fastest.device} (${formatSeconds(fastest.seconds)} / ${formatJoules(fastest.joules)}), for the ${policyName(policy)} objective or to avoid moving data`;
    }
    return { id: op.id, kind: op.kind, choice: choice.label, seconds, joules, alternatives, reason: `${op.id} (${op.kind}): ${reason}` };
  });

  const timeWord = exploration.stream ? 'per input' : '';
  summary.push(
    `Chosen by ${policyName(policy)}: ${formatSeconds(chosen.time)}${timeWord ? ` ${timeWord}` : ''} and ${formatJoules(chosen.energy)} predicted (modelled), out of ${exploration.front.length} Pareto-optimal mappings among ${exploration.search.evaluated} evaluated (${exploration.search.exhaustive ? 'exhaustively' : exploration.search.strategy}).`,
  );
  for (const r of refined ?? []) {
    summary.push(`The split of ${r.op} (${r.from}) was probed where it runs and re-balanced from what its parts took (${r.to}) before the final pick.`);
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

// How far the figures of the real devices in an explored plan may be from an execution: the
// probes' own spread on this input, how far this machine's speed moved during calibration
// (cost/speed-drift.ts), and how far it moved across the moments `dype explore` ran in the last
// week (cost/speed-history.ts). On a shared VM the latter two are tens of per cent over seconds
// and no prediction can be closer than that; a plan that stated only the first would claim more
// than it knows (issue 20: explore's CPU baselines against --measure).

import type { SpeedHistoryDrift } from '../../cost/speed-history.js';
import type { Plan } from '../../scheduler/schedule.js';

export interface RealDeviceSpread {
  readonly device: string;
  /**
   * The spread of the probes of this input on the device (0.04 is +-4%), each operator's weighted
   * by its predicted seconds there, if it was probed.
   */
  readonly probeSpread: number | undefined;
  /** How far the device's speed moved during calibration, if calibration measured it. */
  readonly speedDrift: number | undefined;
  /** How far it moved across the readings kept from earlier plans, if there are enough. */
  readonly speedHistory: SpeedHistoryDrift | undefined;
}

/** The uncertainty stated for a device's figures: the largest of the three. */
export function statedSpread(s: RealDeviceSpread): number {
  return Math.max(s.probeSpread ?? 0, s.speedDrift ?? 0, s.speedHistory?.drift ?? 0);
}

/**
 * The spread of figures made of parts, each part's spread weighted by its seconds: one short
 * operator whose probe caught a slow run does not make a long baseline that uncertain (a 13 us
 * ReLU at +-1,938% stated that for a 0.3 ms GraphSAGE baseline when the largest spread counted).
 * Errors are taken to go the same way in every part, so the weighted mean, not a root sum of squares.
 */
export function timeWeightedSpread(parts: readonly { readonly seconds: number; readonly spread: number }[]): number | undefined {
  let seconds = 0;
  let weighted = 0;
  for (const p of parts) {
    if (!(p.seconds > 0) || !Number.isFinite(p.spread)) continue;
    seconds += p.seconds;
    weighted += p.seconds * p.spread;
  }
  return seconds > 0 ? weighted / seconds : parts.length > 0 ? 0 : undefined;
}

/**
 * One entry per real device the plan's problem holds (none for a served plan, which has no live
 * problem); `history` by device name (cost/speed-history.ts: what `observeSpeed` returns).
 */
export function realDeviceSpreads(plan: Pick<Plan, 'problem'>, history?: ReadonlyMap<string, SpeedHistoryDrift>): RealDeviceSpread[] {
  const problem = (plan as Partial<Plan>).problem;
  if (!problem?.system) return [];
  const { system, costs, bound } = problem;
  const out: RealDeviceSpread[] = [];
  for (const d of problem.allowed) {
    const device = system.devices[d]!;
    if (device.simulated) continue;
    const probed = bound.ops.map((op) => costs.whole(op, d)).filter((e) => e.basis === 'probed');
    const probeSpread = timeWeightedSpread(probed.map((e) => ({ seconds: e.seconds, spread: e.uncertainty })));
    out.push({ device: device.name, probeSpread, speedDrift: costs.speedDrift?.(d), speedHistory: history?.get(device.name) });
  }
  return out;
}

const pct = (x: number): string => `+-${Math.round(100 * x)}%`;

// Plans made within a minute or two of each other read "over 1 minute", not "over 1 minutes".
const minutes = (n: number): string => `${n} ${n === 1 ? 'minute' : 'minutes'}`;

const span = (seconds: number): string =>
  seconds >= 2 * 86400
    ? `${Math.round(seconds / 86400)} days`
    : seconds >= 7200
      ? `${Math.round(seconds / 3600)} hours`
      : minutes(Math.max(1, Math.round(seconds / 60)));

/** A line per real device for the text report. */
export function spreadLines(spreads: readonly RealDeviceSpread[]): string[] {
  return spreads.map((s) => {
    const probe = s.probeSpread !== undefined ? `probed on this input (${pct(s.probeSpread)} between the probe's runs)` : 'not probed';
    const calibration = s.speedDrift !== undefined ? `its speed moved ${pct(s.speedDrift)} during calibration` : undefined;
    const h = s.speedHistory;
    const history = h ? `${pct(h.drift)} across ${h.readings} readings over ${span(h.spanSeconds)} of plans` : undefined;
    const moved = [calibration, history].filter((x) => x !== undefined);
    const drift =
      moved.length > 0
        ? `${moved.join(' and ')}, so an execution may land ${pct(statedSpread(s))} from them`
        : 'how far its speed moves on this machine is not measured (dype calibrate measures it)';
    return `${s.device}'s figures: ${probe}; ${drift}.`;
  });
}

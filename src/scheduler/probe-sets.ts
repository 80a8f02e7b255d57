// What a probe runs: which operators a device is probed on and how (a count profile of a
// multi-source search, a row profile of a sparse operator split by rows, or the operator whole,
// sampled when large), as ranges of units; the prober (probe.ts) times them and reads the results.

import type { Device } from '../devices/device.js';
import type { System } from '../devices/system.js';
import { ownKernel } from '../executor/piece.js';
import { operatorKind } from '../operators/registry.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import type { ModelCostSource } from './costs.js';
import { type Cost, workOf } from './probed-costs.js';
import { measuredRanges, profileChunks } from './probe-ranges.js';
import { onHostCores } from '../executor/cache-turnover.js';

/** Whether the device runs the operator as one of its own kernels (else it is host work): the registry says which kinds the devices run. */
export function runsKernel(op: BoundOp, device: Device): boolean {
  return operatorKind(op.kind, 'probe').execution.on === 'device' && (device.capabilities.operators as readonly string[]).includes(op.kind);
}

/** Whether a probe of `op` on `device` can tell the model anything: a kernel the device runs, or host work timed on the host. */
export function probeable(op: BoundOp, device: Device): boolean {
  if (runsKernel(op, device) || ownKernel(op, device)) return true;
  return onHostCores(device);
}

/**
 * A probe's spread from its runs' seconds (sorted): half the interquartile range over the median
 * (the whole range for three runs). One preempted run among five put the spread, the uncertainty
 * the plan states for the probe, at +-2,000-9,000% where the other runs agreed within a few per cent.
 */
export function probeSpread(sorted: readonly number[]): number {
  const n = sorted.length;
  const median = sorted[n >> 1] ?? 0;
  if (n === 0 || !(median > 0)) return 0;
  return (sorted[Math.ceil((3 * (n - 1)) / 4)]! - sorted[Math.floor((n - 1) / 4)]!) / median / 2;
}

/** Whether an operator's cost varies along its rows in ways worth a profile: a sparse operand split by rows. */
export function profiled(op: BoundOp, bound: BoundWorkload): boolean {
  return op.split === 'rows' && bound.values[op.operands[0]!]!.kind === 'sparse' && op.units >= 8;
}

/** Parts of these sizes make a count profile (as fractions of the units), with every power of two below them: small parts' costs bend most (a CGRA's search of two sources cost what one did, of four 2.5x). */
const COUNT_FRACTIONS = [1 / 8, 1 / 4, 1 / 2, 1];
/** A count profile may run this many times the probe budget in all; larger operators are sampled. */
const COUNT_BUDGET = 24;
/**
 * On a simulator, where a run costs host time only and says exactly what it will say again, an
 * operator too large for the full profile still gets a coarse one (one unit, a quarter, a half,
 * the whole) within this many times the probe budget. Without it a large multi-source BFS split
 * between two CGRAs was priced by the model's shape, which put 38 of 64 sources on luxembourg_osm
 * at 27% of the whole where they took 58%: a min-EDP pick 194% worse than the GPU alone.
 */
const COARSE_COUNT_BUDGET = 96;

/**
 * The part sizes of an operator's count profile, or undefined where it is split by rows (a row
 * profile prices it), unsplit, or too large to run at every size within the budget (on a
 * simulator, `coarse`, at a few sizes within a larger one).
 */
export function profileCounts(op: BoundOp, bound: BoundWorkload, maxEntries: number, coarse = false): number[] | undefined {
  if (op.split !== 'sources' || op.units < 2) return undefined;
  const powers: number[] = [];
  for (let c = 1; c < op.units / 8; c *= 2) powers.push(c);
  const sizes = (fractions: readonly number[], extra: readonly number[]): number[] =>
    [...new Set([1, ...extra, ...fractions.map((f) => Math.max(1, Math.round(f * op.units)))])].sort((a, b) => a - b);
  const work = workOf(op, bound);
  // Each size but the whole runs twice (from the first unit and up to the last).
  const cost = (counts: readonly number[]): number => counts.reduce((a, c) => a + (c < op.units ? 2 : 1) * work(0, c), 0);
  const full = sizes(COUNT_FRACTIONS, powers);
  if (cost(full) <= COUNT_BUDGET * maxEntries) return full;
  if (!coarse) return undefined;
  const few = sizes([1 / 4, 1 / 2, 1], []);
  return cost(few) <= COARSE_COUNT_BUDGET * maxEntries ? few : undefined;
}
/** Units `[b, e)` of operator i, one range a probe runs. */
export interface ProbeRange {
  readonly i: number;
  readonly b: number;
  readonly e: number;
}

/** What a range's runs took: the median run, and the spread of the runs. */
export type Observed = { readonly cost: Cost; readonly spread: number };

/** The ranges one operator's probe on device d runs, and how what they took is read: a count profile, a row profile, or the whole. */
export type ProbeSet = { readonly op: BoundOp; readonly d: number; readonly ranges: readonly ProbeRange[] } & (
  | { readonly kind: 'count'; readonly counts: readonly number[] }
  | { readonly kind: 'rows'; readonly chunks: readonly (readonly [number, number])[] }
  | { readonly kind: 'whole' }
);
/** What probing operator `op` on device d runs: a count profile, a row profile, or the whole operator (sampled when large). */
export function probeSet(bound: BoundWorkload, system: System, model: ModelCostSource, maxEntries: number, op: BoundOp, d: number): ProbeSet {
  const device = system.devices[d]!;
  const i = op.index;
  const units = Math.max(op.units, 1);
  const counts = runsKernel(op, device) ? profileCounts(op, bound, maxEntries, device.simulated) : undefined;
  if (counts) {
    const n = op.units;
    const ranges = [...counts.map((c) => [0, c] as const), ...counts.filter((c) => c < n).map((c) => [n - c, n] as const)];
    return { kind: 'count', op, d, counts, ranges: ranges.map(([b, e]) => ({ i, b, e })) };
  }
  if (!(profiled(op, bound) && runsKernel(op, device))) {
    const predicted = model.cost(op, d, 0, units).seconds;
    const ranges = measuredRanges(op, bound, device, predicted, 0, units, maxEntries);
    return { kind: 'whole', op, d, ranges: ranges.map(([b, e]) => ({ i, b, e })) };
  }
  // Four chunks, up to eight while each one's predicted work stays well above a call's cost
  // (the profile's fixed cost is read off the chunks and the whole, so even chunks that are
  // mostly call price their parts right; more of them add detail, not accuracy).
  const whole = model.cost(op, d, 0, units).seconds;
  const call = model.cost(op, d, 0, 1).seconds;
  const k = Math.max(4, Math.min(8, Math.floor(whole / Math.max(8 * call, 1e-15))));
  const chunks = profileChunks(op, bound, maxEntries, k);
  // The whole operator runs once too, timed in the same rounds as its chunks: even where the
  // chunks are a sample, a device's time need not grow with rows as the sample's does (a
  // simulated GPU takes 15 us for 1,000 rows of a banded SpMV and for all 50,000: it fills
  // with rows before it slows), and pricing the whole from a sample's rate put it at 15x.
  return { kind: 'rows', op, d, chunks, ranges: [...chunks, [0, op.units] as const].map(([b, e]) => ({ i, b, e })) };
}

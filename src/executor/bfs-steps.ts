// A single-source BFS re-decided level by level: the search runs a few levels on one device,
// stops, and the executor looks at the actual frontier (its size, its out-edges, the vertices
// still unvisited, the direction Beamer's rule takes next) to pick the device for the next
// levels, counting what a move costs: the depth array's copy, the graph's copy to a memory
// space that lacks it, and the new call's fixed cost and pass over the depth array.
//
// Stopping costs a device call, so levels are grouped: a group runs up to where the forecast
// path leaves its device, and stops earlier for a fresh look only once its predicted work is ten
// times the cost of that look (a call). The steps' own observed / predicted times scale the
// later predictions for their device, so a device slower than the model thought loses the
// rest of the search at the next look. And a search only runs this way when the
// graph's typical frontier profile (from its features) predicts a gain of at least
// `MIN_GAIN` over the planned device alone: otherwise it is one call, as planned.

import type { CsrMatrix } from '../data/csr.js';
import type { Device, DeviceResult, EnergySource, TimeSource } from '../devices/device.js';
import type { System } from '../devices/system.js';
import type { BfsLevelShape, CostModel } from '../cost/model.js';
import { InvalidArgumentError } from '../errors.js';
import { onHost } from '../devices/host-gate.js';

import { BEAMER_ALPHA as ALPHA, BEAMER_BETA as BETA } from '../beamer.js';
/** The least predicted gain over the planned device for which a search runs in steps. */
export const MIN_GAIN = 0.1;
/** The most gain ever asked for: an uncalibrated model's predictions still rank a 10x gain. */
const MAX_REQUIRED_GAIN = 0.9;
/** A group stops for a fresh look once its predicted work reaches this many calls' cost. */
const LOOK_EVERY_CALLS = 10;

/** One group of levels of a stepped search, as it ran. */
export interface BfsStepRecord {
  readonly device: string;
  /** The frontier's depth when the step started, and the levels it ran. */
  readonly fromLevel: number;
  readonly levels: number;
  /** Vertices in the frontier it started from, and its out-edges. */
  readonly frontier: number;
  readonly frontierEdges: number;
  /** Direction Beamer's rule takes for the first level, as predicted. */
  readonly bottomUp: boolean;
  readonly predictedSeconds: number;
  readonly observedSeconds: number;
  readonly observedJoules: number;
  readonly source: TimeSource;
  readonly energySource: EnergySource;
  /** Modelled seconds to bring the search here (depth array, and the graph where missing); 0 when it stayed. */
  readonly moveSeconds: number;
  /** Why this device: the predicted cost of the next level on each candidate. */
  readonly reason: string;
}

export interface SteppedBfsResult {
  readonly depth: Int32Array;
  /** The steps' seconds plus the modelled moves between memory spaces. */
  readonly seconds: number;
  readonly joules: number;
  readonly source: TimeSource;
  readonly energySource: EnergySource;
  readonly steps: readonly BfsStepRecord[];
}

export interface SteppedBfsContext {
  readonly system: System;
  readonly model: CostModel;
  readonly graph: CsrMatrix;
  readonly source: number;
  /** The planned device (index into the system): where the search starts and its result is expected. */
  readonly planned: number;
  /** Devices the search may use: resumable BFS devices still in the run. */
  readonly usable: (d: number) => boolean;
  /** Observed / predicted time of BFS levels on a device so far in this run (1 when none). */
  readonly scale?: (d: number) => number;
  readonly signal?: AbortSignal;
  /**
   * A step failed on device d: return true to go on without it (the search resumes from the
   * last completed step on another device), false to fail the search with `err`.
   */
  readonly onStepError?: (d: number, err: unknown) => boolean;
}

/** Devices of the system that can take part in a stepped BFS. */
export function resumableBfsDevices(system: System): number[] {
  const out: number[] = [];
  system.devices.forEach((d, i) => {
    if (d.capabilities.bfsResume && d.capabilities.operators.includes('bfs')) out.push(i);
  });
  return out;
}

/**
 * The typical search of a graph (the features' mean frontier profile, Beamer's rule replayed on
 * it) priced level by level on each device, unscaled: the forecast for the levels not run yet.
 * Kept per model and graph: a run prices it once.
 */
interface LevelTable {
  readonly shapes: readonly BfsLevelShape[];
  /** Seconds of level l on device d: `level[d][l]` (devices by system index; empty where unusable). */
  readonly level: readonly Float64Array[];
  /** Fixed seconds of a call on device d (its constant and its pass over the depth array). */
  readonly call: readonly number[];
}
const tables = new WeakMap<CostModel, WeakMap<CsrMatrix, LevelTable>>();
function levelTable(model: CostModel, system: System, g: CsrMatrix, devices: readonly number[]): LevelTable {
  let byGraph = tables.get(model);
  if (!byGraph) tables.set(model, (byGraph = new WeakMap()));
  const cached = byGraph.get(g);
  if (cached) return cached;
  const gf = model.graphFeatures(g);
  const n = g.rows;
  const nnz = g.nnz;
  const shapes: BfsLevelShape[] = [];
  let explored = 0;
  let visited = 0;
  let bottomUp = false;
  for (let l = 0; l + 1 < gf.frontier.length; l++) {
    const f = gf.frontier[l]! * n;
    const e = gf.frontierEdges[l]! * nnz;
    if (!bottomUp && e > Math.max(0, nnz - explored - e) / ALPHA) bottomUp = true;
    else if (bottomUp && f < n / BETA) bottomUp = false;
    explored += e;
    visited += f;
    shapes.push({ frontier: f, frontierEdges: e, unvisited: Math.max(0, n - visited), bottomUp });
  }
  const level: Float64Array[] = system.devices.map(() => new Float64Array(0));
  const call: number[] = system.devices.map(() => 0);
  for (const d of devices) {
    const device = system.devices[d]!;
    level[d] = Float64Array.from(shapes, (s) => model.predictBfsLevel(device, g, s).seconds);
    const s0 = shapes[0] ?? { frontier: 1, frontierEdges: 0, unvisited: n, bottomUp: false };
    call[d] = Math.max(0, model.predictBfsLevel(device, g, s0, true).seconds - model.predictBfsLevel(device, g, s0).seconds);
  }
  const t = { shapes, level, call };
  byGraph.set(g, t);
  return t;
}

/**
 * Cheapest predicted cost of the forecast levels from `from` on, ending where the result is
 * expected, for each device the search could be on when they start: a shortest path over
 * levels x devices, a move (and a new call) on every change of device. `next[l][d]` is the
 * device to run level l on when the search is on d.
 */
function costToGo(
  table: LevelTable,
  usable: readonly number[],
  from: number,
  scale: (d: number) => number,
  move: (a: number, b: number) => number,
  end: number,
): { cost: Map<number, number>; next: (l: number, d: number) => number } {
  const L = table.shapes.length;
  const D = usable.length;
  const steps = Math.max(0, L - from);
  // J[k * D + i]: cost of levels from + k .. L - 1 with the search on usable[i] before them.
  const J = new Float64Array((steps + 1) * D);
  const choice = new Int32Array(steps * D);
  for (let i = 0; i < D; i++) J[steps * D + i] = move(usable[i]!, end);
  for (let k = steps - 1; k >= 0; k--) {
    const l = from + k;
    for (let i = 0; i < D; i++) {
      let best = Infinity;
      let arg = i;
      for (let j = 0; j < D; j++) {
        const dj = usable[j]!;
        const c = table.level[dj]![l]! * scale(dj) + (i === j ? 0 : move(usable[i]!, dj) + table.call[dj]! * scale(dj)) + J[(k + 1) * D + j]!;
        if (c < best) {
          best = c;
          arg = j;
        }
      }
      J[k * D + i] = best;
      choice[k * D + i] = arg;
    }
  }
  const cost = new Map<number, number>();
  usable.forEach((d, i) => cost.set(d, J[i]!));
  return {
    cost,
    next: (l, d) => {
      const k = l - from;
      const i = usable.indexOf(d);
      return k < 0 || k >= steps || i < 0 ? d : usable[choice[k * D + i]!]!;
    },
  };
}

/**
 * Whether stepping is predicted to pay on this graph: the typical search priced on the planned
 * device alone, against the cheapest path over the usable devices (moves and calls included).
 */
export function steppingPays(ctx: SteppedBfsContext, candidates: readonly number[]): { pays: boolean; planned: number; hybrid: number; required: number } {
  const usable = candidates.filter((d) => ctx.usable(d));
  if (!usable.includes(ctx.planned) || usable.length < 2) return { pays: false, planned: 0, hybrid: 0, required: MIN_GAIN };
  // The gain must exceed what the model cannot resolve on the devices involved.
  let uncertainty = 0;
  for (const d of usable) uncertainty = Math.max(uncertainty, ctx.model.predictShape(ctx.system.devices[d]!, { kind: 'bfs', graph: ctx.graph }).uncertainty);
  const required = Math.min(MAX_REQUIRED_GAIN, Math.max(MIN_GAIN, uncertainty));
  const table = levelTable(ctx.model, ctx.system, ctx.graph, candidates);
  const scale = (d: number): number => ctx.scale?.(d) ?? 1;
  let alone = table.call[ctx.planned]! * scale(ctx.planned);
  for (let l = 0; l < table.shapes.length; l++) alone += table.level[ctx.planned]![l]! * scale(ctx.planned);
  const holding = new Set(['host', ctx.system.devices[ctx.planned]!.memorySpace]);
  const { cost } = costToGo(table, usable, 0, scale, (a, b) => moveSeconds(ctx, a, b, holding), ctx.planned);
  const hybrid = table.call[ctx.planned]! * scale(ctx.planned) + cost.get(ctx.planned)!;
  return { pays: hybrid < (1 - required) * alone, planned: alone, hybrid, required };
}

/**
 * Modelled seconds to continue the search on `to` after `from`: the depth array (none before the
 * first step: a fresh search makes its own), and the graph where `to`'s memory lacks it.
 */
function moveSeconds(ctx: SteppedBfsContext, from: number, to: number, holding: ReadonlySet<string>, withDepths = true): number {
  if (from === to) return 0;
  const a = ctx.system.devices[from]!.memorySpace;
  const b = ctx.system.devices[to]!.memorySpace;
  const g = ctx.graph;
  let s = a === b || !withDepths ? 0 : ctx.model.transferSeconds(g.rows * 4, a, b);
  if (!holding.has(b)) s += ctx.model.transferSeconds(g.rowPtr.byteLength + g.colIdx.byteLength, 'host', b);
  return s;
}

/**
 * Run a single-source BFS in steps, choosing each step's device from the actual frontier.
 * @throws the failing step's error when `onStepError` declines it or no usable device is left.
 */
export async function steppedBfs(ctx: SteppedBfsContext, candidates: readonly number[]): Promise<SteppedBfsResult> {
  const { system, model, graph: g, source } = ctx;
  const n = g.rows;
  const rp = g.rowPtr;
  const degree = (v: number): number => Number(rp[v + 1]!) - Number(rp[v]!);
  // Memory spaces holding the graph: the host, and the planned device's (the plan copied it there).
  const holding = new Set<string>(['host', system.devices[ctx.planned]!.memorySpace]);
  const steps: BfsStepRecord[] = [];
  let depth: Int32Array | undefined;
  let level = 0;
  let at = ctx.planned;
  let group = 1;
  // The frontier to expand next.
  let frontier = 1;
  let frontierEdges = degree(source);
  let visited = 1;
  let explored = 0;
  let bottomUp = false;
  let seconds = 0;
  let joules = 0;
  let anySimulated = false;
  let energySource: EnergySource = 'measured';
  const lost = new Set<number>();
  const table = levelTable(model, system, g, candidates);
  // Observed / predicted seconds of this search's steps, per device (the median).
  const stepRatios = new Map<number, number[]>();
  const stepScale = (d: number): number => {
    const r = stepRatios.get(d);
    if (!r || r.length === 0) return 1;
    const sorted = [...r].sort((a, b) => a - b);
    return sorted[sorted.length >> 1]!;
  };
  for (;;) {
    ctx.signal?.throwIfAborted();
    const usable = candidates.filter((d) => !lost.has(d) && ctx.usable(d));
    if (usable.length === 0) throw new InvalidArgumentError(`steppedBfs: no device left that can resume the search at level ${level}`);
    // Direction Beamer's rule takes for this level, as the devices decide it.
    if (!bottomUp && frontierEdges > Math.max(0, g.nnz - explored - frontierEdges) / ALPHA) bottomUp = true;
    else if (bottomUp && frontier < n / BETA) bottomUp = false;
    const shape: BfsLevelShape = { frontier, frontierEdges, unvisited: Math.max(0, n - visited), bottomUp };
    const scale = (d: number): number => (ctx.scale?.(d) ?? 1) * stepScale(d);
    const move = (a: number, b: number): number => moveSeconds(ctx, a, b, holding);
    // The rest of the search as forecast by the typical profile, from the level after this one.
    const rest = costToGo(table, usable, level + 1, scale, move, ctx.planned);
    // Every step is a call, wherever it runs; only a move adds the copies.
    const costs = usable.map((d) => {
      const device = system.devices[d]!;
      const lvl = model.predictBfsLevel(device, g, shape).seconds * scale(d);
      const call = table.call[d]! * scale(d);
      return { d, lvl, call, move: lost.has(at) ? 0 : moveSeconds(ctx, at, d, holding, steps.length > 0), rest: rest.cost.get(d)! };
    });
    const total = (c: (typeof costs)[number]): number => c.lvl + c.call + c.move + c.rest;
    let pick = costs.find((c) => c.d === at) ?? costs[0]!;
    for (const c of costs) if (total(c) < total(pick)) pick = c;
    const moved = pick.d !== at;
    // Levels to run before looking again: up to where the forecast path leaves this device, or
    // sooner once the group's forecast work is worth a look (a call) ten times over. A move is
    // followed by a look after one level: the frontier just changed hands.
    const lookAfter = LOOK_EVERY_CALLS * Math.max(table.call[pick.d]! * scale(pick.d), 1e-9);
    let work = pick.lvl;
    group = 1;
    if (!moved || steps.length === 0) {
      while (level + group < table.shapes.length && rest.next(level + group, pick.d) === pick.d && work < lookAfter) {
        work += table.level[pick.d]![level + group]! * scale(pick.d);
        group++;
      }
      // The forecast ends (the actual search may run on): to the end, unless still worth a look.
      if (level + group >= table.shapes.length && work < lookAfter) group = 0;
    }
    const device: Device = system.devices[pick.d]!;
    const reason = costs
      .map(
        (c) =>
          `${system.devices[c.d]!.name} ${(c.lvl * 1e6).toPrecision(3)} us (+${((c.call + c.move) * 1e6).toPrecision(3)} us to start there, ${(c.rest * 1e6).toPrecision(3)} us for the rest)`,
      )
      .join(', ');
    let r: DeviceResult<'bfs'>;
    try {
      const resume = depth ? { resume: { depth, level } } : {};
      r = await onHost(device, () =>
        device.run(
          { kind: 'bfs', source, ...(group > 0 ? { maxLevels: group } : {}), ...resume },
          { graph: g },
          undefined,
          ctx.signal ? { signal: ctx.signal } : {},
        ),
      );
    } catch (err) {
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      if (ctx.onStepError?.(pick.d, err)) {
        lost.add(pick.d);
        continue;
      }
      throw err;
    }
    const moveCost = pick.move;
    holding.add(device.memorySpace);
    const ran = r.output.frontier.length - 1;
    // Predicted cost of the levels it ran: this level from the actual frontier, the others from the forecast.
    let predicted = pick.call + pick.lvl;
    for (let l = level + 1; l < level + ran && l < table.shapes.length; l++) predicted += table.level[pick.d]![l]! * scale(pick.d);
    steps.push({
      device: device.name,
      fromLevel: level,
      levels: ran,
      frontier,
      frontierEdges,
      bottomUp,
      predictedSeconds: predicted,
      observedSeconds: r.seconds,
      observedJoules: r.joules,
      source: r.source,
      energySource: r.energySource,
      moveSeconds: moveCost,
      reason: `level ${level}: frontier ${frontier} vertices, ${frontierEdges} edges${bottomUp ? ' (bottom-up)' : ''}; this level predicted at ${reason}`,
    });
    seconds += r.seconds + moveCost;
    // The model's view of this step against what the device did, without this search's own
    // scale (which the ratio is about to revise).
    const own = stepScale(pick.d);
    if (predicted > 0 && r.seconds > 0) {
      const list = stepRatios.get(pick.d) ?? [];
      list.push((r.seconds * own) / predicted);
      stepRatios.set(pick.d, list);
    }
    joules += r.joules;
    if (r.source !== 'measured') anySimulated = true;
    if (r.energySource !== 'measured') energySource = r.energySource;
    at = pick.d;
    depth = r.output.depth;
    if (r.output.complete) break;
    level += ran;
    // The new frontier, the vertices found so far and the edges explored, from the depths.
    frontier = 0;
    frontierEdges = 0;
    visited = 0;
    explored = 0;
    for (let v = 0; v < n; v++) {
      const dv = depth[v]!;
      if (dv < 0) continue;
      visited++;
      if (dv === level) {
        frontier++;
        frontierEdges += degree(v);
      } else {
        explored += degree(v);
      }
    }
    if (frontier === 0) break;
  }
  // The result is expected where the plan put the search.
  if (at !== ctx.planned) seconds += moveSeconds(ctx, at, ctx.planned, holding);
  return { depth: depth!, seconds, joules, source: anySimulated ? 'simulated' : 'measured', energySource, steps };
}

// Single-source BFS re-decided level by level: on a small-world core with a long tail, a search
// planned on one device runs its levels where the actual frontier makes them cheapest (steps on
// two or more devices), its depths equal the reference, each step says why, the trace draws the
// steps on their devices, a device lost between steps costs nothing computed, and a graph where
// no device beats the planned one runs in one call.

import { afterEach, describe, expect, it } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { chromeTrace } from '../../src/executor/trace.js';
import { resumableBfsDevices, steppingPays } from '../../src/executor/bfs-steps.js';
import { runPlan } from '../../src/executor/run.js';
import { generate } from '../../src/generators/index.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { nativeAddon } from '../../src/native/addon.js';
import { confidentModel, deviceIndex, expectReferenceOutputs, mixedSystem, Planner, wholeOn, withGenome } from './executor-fixtures.js';

const system = mixedSystem();
// A model that states +-20%: stepping must be predicted to gain more than that.
const tailed = new Planner(system, generate({ kind: 'kronecker', scale: 11, seed: 3, tail: 400 }), confidentModel(system));
const road = new Planner(system, generate({ kind: 'grid', rows: 60, cols: 60, seed: 3 }), confidentModel(system));
const originals = system.devices.map((d) => d.run.bind(d));
afterEach(() => {
  system.devices.forEach((d, i) => {
    (d as { run: Device['run'] }).run = originals[i]!;
  });
});

async function bfsOn(planner: Planner, device: string): Promise<ReturnType<typeof withGenome>> {
  const plan = await planner.plan('bfs');
  return withGenome(
    plan,
    Int32Array.from(plan.problem.bound.ops, (_, i) => wholeOn(plan, i, device)),
  );
}

describe('BFS re-decided level by level', () => {
  it('the system has three devices that can resume a search', () => {
    expect(resumableBfsDevices(system).map((d) => system.devices[d]!.name)).toEqual(['cpu', 'gpu', 'cgra']);
  });

  it('a search planned on the CPU moves levels to the devices predicted cheaper for them; depths equal the reference', async () => {
    const plan = await bfsOn(tailed, 'cpu');
    const ctx = {
      system,
      model: plan.problem.model,
      graph: tailed.graph,
      source: plan.problem.bound.ops[0]!.source!,
      planned: deviceIndex(plan, 'cpu'),
      usable: () => true,
    };
    expect(steppingPays(ctx, resumableBfsDevices(system)).pays).toBe(true);
    const result = await runPlan(plan);
    expectReferenceOutputs(plan, result);
    const piece = result.pieces.find((p) => p.kind === 'bfs')!;
    expect(piece.device).toBe('cpu');
    const steps = piece.steps!;
    expect(steps.length).toBeGreaterThan(1);
    expect(new Set(steps.map((s) => s.device)).size).toBeGreaterThan(1);
    // Consecutive, covering every level of the search.
    let level = 0;
    for (const s of steps) {
      expect(s.fromLevel).toBe(level);
      expect(s.levels).toBeGreaterThan(0);
      expect(s.reason).toMatch(/^level \d+: frontier \d+ vertices/);
      level += s.levels;
    }
    const depth = result.outputs[plan.problem.bound.values[plan.problem.bound.outputs[0]!]!.name] as Int32Array;
    expect(level).toBe(Math.max(...depth));
    // The piece's time is the steps' and the moves' between memory spaces.
    const sum = steps.reduce((t, s) => t + s.observedSeconds + s.moveSeconds, 0);
    expect(piece.observedSeconds).toBeGreaterThanOrEqual(sum * (1 - 1e-12));
    expect(
      steps.some((s) => s.device !== 'cpu' && s.moveSeconds > 0) || steps.every((s) => system.devices.find((d) => d.name === s.device)!.memorySpace === 'host'),
    ).toBe(true);
  });

  it('the trace draws each group of levels on its device, with its reason', async () => {
    const plan = await bfsOn(tailed, 'cpu');
    const result = await runPlan(plan);
    const events = chromeTrace(result).traceEvents.filter((e) => e.cat === 'bfs-levels');
    const steps = result.pieces.find((p) => p.kind === 'bfs')!.steps!;
    expect(events).toHaveLength(steps.length);
    const tracks = chromeTrace(result).traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name');
    const trackOf = (tid: number): unknown => tracks.find((t) => t.tid === tid)?.args?.['name'];
    events.forEach((e, i) => {
      expect(trackOf(e.tid)).toBe(steps[i]!.device);
      expect(e.args?.['reason']).toBe(steps[i]!.reason);
    });
  });

  it("needs a predicted gain beyond the model's uncertainty: an uncalibrated model (+-100%) keeps the same search in one call", async () => {
    const plan = await bfsOn(tailed, 'cpu');
    const ctx = {
      system,
      model: plan.problem.model,
      graph: tailed.graph,
      source: plan.problem.bound.ops[0]!.source!,
      planned: deviceIndex(plan, 'cpu'),
      usable: () => true,
    };
    const confident = steppingPays(ctx, resumableBfsDevices(system));
    expect(confident.required).toBeCloseTo(0.2, 12);
    const gain = 1 - confident.hybrid / confident.planned;
    expect(gain).toBeGreaterThan(0.2);
    const unsure = new Planner(system, tailed.graph);
    const uncalibrated = steppingPays({ ...ctx, model: unsure.model }, resumableBfsDevices(system));
    expect(uncalibrated.required).toBe(0.9);
    if (1 - uncalibrated.hybrid / uncalibrated.planned < 0.9) {
      expect(uncalibrated.pays).toBe(false);
      const uplan = await bfsOn(unsure, 'cpu');
      const result = await runPlan(uplan);
      expect(result.pieces.find((p) => p.kind === 'bfs')!.steps).toBeUndefined();
    }
  });

  it('bfsLevels: false runs the search in one call on its planned device', async () => {
    const plan = await bfsOn(tailed, 'cpu');
    const result = await runPlan(plan, { bfsLevels: false });
    expectReferenceOutputs(plan, result);
    expect(result.pieces.find((p) => p.kind === 'bfs')!.steps).toBeUndefined();
  });

  it('a road-like graph, where no device beats the planned one level by level, runs in one call', async () => {
    const plan = await road.plan('bfs');
    const ctx = {
      system,
      model: plan.problem.model,
      graph: road.graph,
      source: plan.problem.bound.ops[0]!.source!,
      planned: plan.problem.choices[0]![plan.chosen.genome[0]!]!.parts[0]!.device,
      usable: () => true,
    };
    expect(steppingPays(ctx, resumableBfsDevices(system)).pays).toBe(false);
    const result = await runPlan(plan);
    expectReferenceOutputs(plan, result);
    expect(result.pieces.find((p) => p.kind === 'bfs')!.steps).toBeUndefined();
  });

  it('a device failing between steps: the search resumes from the last completed step elsewhere', async () => {
    const plan = await bfsOn(tailed, 'cpu');
    // Where the search goes after its first step, when nothing fails.
    const normal = (await runPlan(plan)).pieces.find((p) => p.kind === 'bfs')!.steps!;
    const second = normal.find((s) => s.device !== normal[0]!.device)!.device;
    const victim = system.devices.find((d) => d.name === second)! as Device & { run: Device['run'] };
    let calls = 0;
    victim.run = (async () => {
      calls++;
      throw new Error('simulated device fault');
    }) as Device['run'];
    const result = await runPlan(plan);
    expectReferenceOutputs(plan, result);
    expect(calls).toBe(1);
    const steps = result.pieces.find((p) => p.kind === 'bfs')!.steps!;
    expect(steps.every((s) => s.device !== second)).toBe(true);
    expect(steps.length).toBeGreaterThan(1);
  });

  it('an abort between steps stops the search: the run rejects with the reason and leaves no native worker', async () => {
    const plan = await bfsOn(tailed, 'cpu');
    const controller = new AbortController();
    const calls: string[] = [];
    system.devices.forEach((d, i) => {
      (d as { run: Device['run'] }).run = (async (...args: Parameters<Device['run']>) => {
        calls.push(d.name);
        const r = await originals[i]!(...args);
        controller.abort(new Error('stop here'));
        return r;
      }) as Device['run'];
    });
    await expect(runPlan(plan, { signal: controller.signal })).rejects.toThrow('stop here');
    expect(calls).toHaveLength(1);
    expect(nativeAddon().liveWorkers()).toBe(0);
  });

  it('a plan led by energy runs its search in one call (the level-by-level choice minimises time)', async () => {
    const plan = await tailed.plan('bfs', 'min-energy');
    const result = await runPlan(plan);
    expectReferenceOutputs(plan, result);
    expect(result.pieces.find((p) => p.kind === 'bfs')!.steps).toBeUndefined();
  });

  it('refuses a bfsLevels that is not a boolean', async () => {
    const plan = await bfsOn(tailed, 'cpu');
    await expect(runPlan(plan, { bfsLevels: 'yes' as unknown as boolean })).rejects.toThrow(InvalidArgumentError);
  });
});

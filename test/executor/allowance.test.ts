// A run under a device allowance (the service's quotas, piece by piece): once the allowance
// refuses a device no new piece starts there, the operators not started move to the other
// devices (recorded as a quota re-plan), so the device's use passes the limit by at most the one
// piece that was running; when no device may take the rest, the run waits until one is allowed.
// Simulated devices and the spec model: every piece's seconds are the same on any machine.

import { expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import type { DeviceAllowance } from '../../src/executor/allowance.js';
import { runPlan } from '../../src/executor/run.js';
import { schedule } from '../../src/scheduler/schedule.js';
import type { DenseMatrix } from '../../src/data/dense.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();

/** Refuses `device` once `limit` seconds were charged to it. */
class Limit implements DeviceAllowance {
  readonly used = new Map<string, number>();
  readonly watched: ReadonlySet<string>;
  constructor(
    readonly device: string,
    readonly limit: number,
  ) {
    this.watched = new Set([device]);
  }
  refuses(d: string): boolean {
    return d === this.device && (this.used.get(d) ?? 0) >= this.limit;
  }
  retryIn(): number {
    return Infinity;
  }
  charge(d: string, s: number): void {
    this.used.set(d, (this.used.get(d) ?? 0) + s);
  }
}

it('stops starting pieces on a device once its allowance is used, and moves the rest off it', async () => {
  const plan = await schedule('gcn', graph, { system, model, probe: false });
  // Every operator on the GPU when nothing limits it.
  const free = await runPlan(plan, { learn: false });
  expect(new Set(free.pieces.map((p) => p.device))).toEqual(new Set(['gpu']));
  const gpuSeconds = free.pieces.reduce((s, p) => s + p.observedSeconds, 0);
  const longest = Math.max(...free.pieces.map((p) => p.observedSeconds));
  // A limit of a third of the run's GPU time: without the allowance the run passes it by far more than a piece.
  const limit = gpuSeconds / 3;
  expect(gpuSeconds).toBeGreaterThan(limit + longest);
  const allowance = new Limit('gpu', limit);
  const r = await runPlan(plan, { learn: false, allowance });
  const onGpu = r.pieces.filter((p) => p.device === 'gpu').reduce((s, p) => s + p.observedSeconds, 0);
  // Every GPU piece was charged as it ended, and the use passed the limit by at most one piece.
  expect(allowance.used.get('gpu')).toBeCloseTo(onGpu, 12);
  expect(onGpu).toBeGreaterThanOrEqual(limit);
  expect(onGpu).toBeLessThanOrEqual(limit + longest);
  expect(r.pieces.some((p) => p.device === 'cgra')).toBe(true);
  expect(r.replans).toHaveLength(1);
  expect(r.replans[0]!.reason).toMatch(/^quota: before \w+, gpu is over the run's allowance/);
  // The results are the same wherever the rest ran.
  for (const [name, v] of Object.entries(free.outputs)) {
    const a = (v as DenseMatrix).data;
    const b = (r.outputs[name] as DenseMatrix).data;
    for (let k = 0; k < a.length; k++) expect(b[k]).toBeCloseTo(a[k]!, 4);
  }
});

it('waits, when no device may take the rest, until the allowance lets one be used again', async () => {
  const plan = await schedule('gcn', graph, { system, model, probe: false });
  const t0 = performance.now();
  const until = t0 + 60;
  let asked = 0;
  let allowed = 0;
  const charged: number[] = [];
  const closed: DeviceAllowance = {
    watched: new Set(['gpu', 'cgra']),
    refuses: () => {
      const no = performance.now() < until;
      if (!no) allowed++;
      return no;
    },
    retryIn: () => {
      asked++;
      return Math.max(0, until - performance.now()) / 1000;
    },
    charge: () => void charged.push(performance.now()),
  };
  const r = await runPlan(plan, { learn: false, allowance: closed });
  expect(asked).toBeGreaterThan(0);
  // No piece started before the allowance opened: each was let through by the allowance (which
  // refused everything until then) and ended after it opened. (Read off the clock: a piece's
  // wallStart counts from the run's own start, later than t0 by however long setting it up took.)
  expect(allowed).toBeGreaterThanOrEqual(r.pieces.length);
  expect(charged).toHaveLength(r.pieces.length);
  for (const t of charged) expect(t).toBeGreaterThanOrEqual(until);
  expect(r.replans).toEqual([]);
});

it('stops waiting for the allowance when the run is aborted', async () => {
  const plan = await schedule('gcn', graph, { system, model, probe: false });
  const never: DeviceAllowance = { watched: new Set(['gpu', 'cgra']), refuses: () => true, retryIn: () => 10, charge: () => {} };
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('stop now')), 30);
  await expect(runPlan(plan, { allowance: never, signal: controller.signal })).rejects.toThrow('stop now');
});

it('refuses an allowance without the shape of one, naming the option', async () => {
  const plan = await schedule('gcn', graph, { system, model, probe: false });
  await expect(runPlan(plan, { allowance: { refuses: () => false } as never })).rejects.toThrow(InvalidArgumentError);
  await expect(runPlan(plan, { allowance: 3 as never })).rejects.toThrow(/runPlan: allowance must be a DeviceAllowance/);
});

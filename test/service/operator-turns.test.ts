// Jobs interleaved operator by operator on the served machine (`granularity: 'operator'`): a burst
// of low-priority jobs and a few high-priority ones all finish with the right results and sane
// places on the machine's timeline; elastic jobs re-plan at their turns and say so; a job that
// fails in planning, or is cancelled, gives its lane back so the others go on; and the server
// refuses settings that do not go together. Simulated devices and the spec model.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { runPlan } from '../../src/executor/run.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { connect, type DypeClient, type ServedRunResult } from '../../src/service/client.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';
import type { DenseMatrix } from '../../src/data/dense.js';
import { closedAfterEach, simulatedServer, TOKENS } from './support.js';

const graph = smallGraph();
const open = closedAfterEach();

async function operatorServer(elastic: boolean): Promise<[DypeClient, DypeClient]> {
  const server = await simulatedServer({ clock: 'declared', granularity: 'operator', elastic }, { priority: 5 });
  const a = await connect(server.addresses[0]!, { token: TOKENS.a });
  const b = await connect(server.addresses[0]!, { token: TOKENS.b });
  open.keep(server, [a, b]);
  return [a, b];
}

/** First index where a and b differ by more than FP32 rounding of sums this size (-1 when none). */
function firstFar(a: ArrayLike<number>, b: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i]! - b[i]!) <= 1e-4 * (1 + Math.abs(b[i]!)))) return i;
  return -1;
}

const fixed = { probe: false, run: { replan: false, learn: false } } as const;

describe('operator turns on the served machine', () => {
  it('finishes a burst and a high-priority trickle with the reference results, re-planning elastically at turns', async () => {
    const [high, low] = await operatorServer(true);
    const jobs: Promise<ServedRunResult>[] = [];
    for (let k = 0; k < 16; k++) jobs.push(low.run('gcn', graph, { ...fixed, arrival: 0 }));
    for (let k = 0; k < 4; k++) jobs.push(high.run('gcn', graph, { ...fixed, arrival: 0.0003 + k * 0.0002 }));
    const results = await Promise.all(jobs);
    const system = twoDeviceSystem();
    const alone = await runPlan(await schedule('gcn', graph, { system, model: specModel(system), probe: false }), { replan: false, learn: false });
    for (const r of results) {
      // Whatever devices the turns moved it to (their kernels sum in different orders: FP32 rounding apart).
      for (const [name, v] of Object.entries(alone.outputs)) {
        const got = (r.outputs[name] as DenseMatrix).data;
        const want = (v as DenseMatrix).data;
        expect(got.length).toBe(want.length);
        expect(firstFar(got, want)).toBe(-1);
      }
      const m = r.machine!;
      expect(m.start).toBeGreaterThanOrEqual(m.arrival);
      expect(m.finish).toBeGreaterThan(m.start);
      expect(m.turnaround).toBeCloseTo(m.finish - m.arrival, 12);
      // Each operator's device seconds on the machine, by the devices its pieces ran on.
      expect(m.work!.length).toBeGreaterThan(0);
      for (const w of m.work!) {
        expect(Object.values(w.devices).reduce((t, s) => t + s, 0)).toBeCloseTo(w.seconds, 12);
        for (const d of Object.keys(w.devices)) expect(r.pieces.some((p) => p.device === d)).toBe(true);
      }
    }
    const elastic = results.flatMap((r) => r.replans).filter((x) => x.reason.startsWith('elastic:'));
    expect(elastic.length).toBeGreaterThan(0);
    for (const x of elastic) expect(x.to).not.toBe(x.from);
  });

  it('runs each plan as made when not elastic', async () => {
    const [high, low] = await operatorServer(false);
    const jobs: Promise<ServedRunResult>[] = [];
    for (let k = 0; k < 8; k++) jobs.push(low.run('gcn', graph, { ...fixed, arrival: 0 }));
    jobs.push(high.run('gcn', graph, { ...fixed, arrival: 0.0002 }));
    for (const r of await Promise.all(jobs)) expect(r.replans).toEqual([]);
  });

  it('goes on when a job fails in planning or is cancelled: its lane is given back', async () => {
    const [high, low] = await operatorServer(true);
    const ok = Array.from({ length: 4 }, () => low.run('gcn', graph, { ...fixed, arrival: 0 }));
    const bad = high.run('gcn', graph, { probe: false, policy: 'no-such-policy' as never, arrival: 0 });
    const controller = new AbortController();
    // Cancelled while queued or running (whichever it is when the cancel arrives); a job that
    // finished first is answered normally.
    const cancelled = high.run('gcn', graph, { ...fixed, arrival: 0, signal: controller.signal }).then(
      () => 'finished',
      (e: { code?: string }) => e.code,
    );
    setTimeout(() => controller.abort(), 2);
    await expect(bad).rejects.toThrow(/policy/);
    expect(['finished', 'ERR_ABORTED']).toContain(await cancelled);
    expect((await Promise.all(ok)).length).toBe(4);
  });

  it('refuses operator turns on an exclusive machine, and settings of the wrong kind', async () => {
    await expect(simulatedServer({ granularity: 'operator', sharing: 'exclusive' })).rejects.toThrow(InvalidArgumentError);
    await expect(simulatedServer({ granularity: 'operator', sharing: 'exclusive' })).rejects.toThrow(/granularity 'operator'.*sharing "exclusive"/);
    await expect(simulatedServer({ granularity: 'ops' as never })).rejects.toThrow(/startServer: granularity/);
    await expect(simulatedServer({ elastic: 'yes' as never })).rejects.toThrow(/startServer: elastic must be true or false/);
  });
});

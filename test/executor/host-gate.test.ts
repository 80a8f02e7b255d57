// The host's cores are gated: a piece timed on the real CPU never runs while simulator work (or a
// dense operator computed on the host for a simulated device) runs beside it, so its measured
// time is the CPU's own. Before the gate, a GCN split across the CPU and the simulators timed the
// CPU's SpMM with the simulators on the same two cores (714-751 us where it takes 242 us alone).

import { describe, expect, it } from 'vitest';
import { hostGate, hostUse } from '../../src/devices/host-gate.js';
import { runPlan } from '../../src/executor/run.js';
import { Planner, widestSplit, withGenome } from './executor-fixtures.js';

describe('the host gate', () => {
  it('classifies devices: the CPU exclusive, simulators shared', () => {
    const planner = new Planner();
    expect(planner.system.devices.map((d) => [d.name, hostUse(d)])).toEqual([
      ['cpu', 'exclusive'],
      ['gpu', 'shared'],
      ['cgra', 'shared'],
    ]);
  });

  it('lets shared holders overlap, keeps an exclusive holder alone, and admits a waiting exclusive before later shared ones', async () => {
    const log: string[] = [];
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const a = hostGate.run('shared', async () => {
      log.push('a+');
      await hold;
      log.push('a-');
    });
    const b = hostGate.run('shared', async () => void log.push('b'));
    const x = hostGate.run('exclusive', async () => void log.push('x'));
    const c = hostGate.run('shared', async () => void log.push('c'));
    await b;
    expect(log).toEqual(['a+', 'b']); // b shared the cores with a; x waits for a; c waits behind x
    expect(hostGate.state.waiting).toBe(2);
    release();
    await Promise.all([a, x, c]);
    expect(log).toEqual(['a+', 'b', 'a-', 'x', 'c']);
    expect(hostGate.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it('never runs a CPU piece while a simulator piece runs, in a run split across all three devices', async () => {
    const planner = new Planner();
    const plan = await planner.plan('gcn');
    const spans: { device: string; start: number; end: number }[] = [];
    const originals = planner.system.devices.map((d) => d.run.bind(d));
    planner.system.devices.forEach((d, k) => {
      (d as { run: typeof d.run }).run = (async (...args: Parameters<typeof d.run>) => {
        const start = performance.now();
        try {
          return await originals[k]!(...args);
        } finally {
          spans.push({ device: d.name, start, end: performance.now() });
        }
      }) as typeof d.run;
    });
    try {
      // Every operator split three ways: CPU and simulator pieces are ready at the same moments.
      await runPlan(withGenome(plan, widestSplit(plan, 3)), { replan: false });
    } finally {
      planner.system.devices.forEach((d, k) => ((d as { run: typeof d.run }).run = originals[k]!));
    }
    const cpu = spans.filter((s) => s.device === 'cpu');
    const sims = spans.filter((s) => s.device !== 'cpu');
    expect(cpu.length).toBeGreaterThan(0);
    expect(sims.length).toBeGreaterThan(0);
    for (const c of cpu)
      for (const s of sims) expect(c.end <= s.start || s.end <= c.start, `cpu [${c.start}, ${c.end}] overlaps ${s.device} [${s.start}, ${s.end}]`).toBe(true);
  });
});

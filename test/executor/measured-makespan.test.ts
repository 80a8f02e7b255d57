// Real runs report real time. When every piece ran on real hardware (here: the CPU alone), the
// run's makespan is read off the host's clock and the pieces' starts and finishes are measured;
// the composed makespan stays beside it. Where simulators take part, their times are not on the
// host's clock, so the composed timeline is the makespan and the result says so.

import { describe, expect, it } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { runPlan } from '../../src/executor/run.js';
import { allOn, expectReferenceOutputs, Planner } from './executor-fixtures.js';
import { withGenome } from './executor-fixtures.js';

describe('the makespan of a run', () => {
  it('is measured on the host clock when every device is real (the CPU alone), for a GCN', async () => {
    const cpuOnly = new Planner(buildSystem({ name: 'cpu', devices: [{ name: 'cpu', backend: 'cpu' }] }));
    const plan = await cpuOnly.plan('gcn');
    const t0 = performance.now();
    const result = await runPlan(plan);
    const wall = (performance.now() - t0) / 1000;
    expectReferenceOutputs(plan, result);
    expect(result.makespanSource).toBe('measured');
    expect(result.makespan).toBeGreaterThan(0);
    expect(result.makespan).toBeLessThanOrEqual(wall);
    // The pieces ran one after another on the one device: measured times in order, no overlap.
    const sorted = [...result.pieces].sort((a, b) => a.start - b.start);
    expect(sorted[0]!.start).toBe(0);
    for (let k = 1; k < sorted.length; k++) expect(sorted[k]!.start).toBeGreaterThanOrEqual(sorted[k - 1]!.finish);
    expect(result.makespan).toBe(Math.max(...result.pieces.map((p) => p.finish)));
    // Each piece's measured span holds its kernel's own time; the composed makespan sums those.
    for (const p of result.pieces) expect(p.finish - p.start).toBeGreaterThanOrEqual(p.observedSeconds * 0.999);
    expect(result.composedMakespan).toBeLessThanOrEqual(result.makespan * 1.001);
  });

  it('is the composed timeline where simulators take part, and says so', async () => {
    const mixed = new Planner();
    const plan = await mixed.plan('gcn');
    const result = await runPlan(withGenome(plan, allOn(plan, 'gpu')));
    expect(result.makespanSource).toBe('composed');
    expect(result.makespan).toBe(result.composedMakespan);
    expect(result.pieces.every((p) => p.source !== 'measured')).toBe(true);
  });
});

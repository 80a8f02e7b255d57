// A stream whose structure changes at input 10 (road-like grids, then power-law graphs): with
// re-planning on the inputs' features the stream finishes at least 1.3x sooner than keeping the
// plan made at input 0 (issue 6, demonstration 1, at test size). Deterministic: both devices
// are simulated.

import { describe, expect, it } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { buildSystem } from '../../src/devices/system.js';
import { runStream } from '../../src/executor/stream.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { gridGraph, kroneckerGraph } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { workload } from '../../src/workloads/library.js';
import { referenceValues } from '../../src/workloads/reference.js';

const system = buildSystem({
  name: 'stream',
  devices: [
    { name: 'gpu', backend: 'gpu-sim' },
    { name: 'cgra', backend: 'cgra-sim' },
  ],
  links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
});
const model = new CostModel(system);
const inputs = [
  ...Array.from({ length: 10 }, (_, i) => gridGraph({ rows: 60, cols: 60, deleteFraction: 0.1, seed: i + 1 })),
  ...Array.from({ length: 10 }, (_, i) => kroneckerGraph({ scale: 12, edgeFactor: 16, seed: i + 1 })),
];

describe('runStream', () => {
  it('re-plans when road-like inputs give way to power-law ones, and is 1.3x faster for it', async () => {
    const plan = await schedule(workload('stream:bfs'), inputs, { system, model });
    // Stream re-planning alone: each BFS in one call on its planned device (level-by-level
    // re-decision, which also rescues a kept plan, is tested in bfs-levels.test.ts).
    const adaptive = await runStream(plan, inputs, { bfsLevels: false });
    const fixed = await runStream(plan, inputs, { featureThreshold: false, bfsLevels: false });
    expect(adaptive.replans).toHaveLength(1);
    expect(adaptive.replans[0]!.input).toBe(10);
    expect(adaptive.replans[0]!.reason).toMatch(/moved \d+\.\d+x .* past 1\.50x$/);
    expect(fixed.replans).toEqual([]);
    expect(fixed.plans.every((p) => p.chosen.label === plan.chosen.label)).toBe(true);
    expect(fixed.totalSeconds / adaptive.totalSeconds).toBeGreaterThanOrEqual(1.3);
    expect(adaptive.throughput).toBeCloseTo(20 / adaptive.pipelinedSeconds, 9);
    // Overlapped, the stream takes no longer than one input at a time, and no less than its longest input.
    expect(adaptive.pipelinedSeconds).toBeLessThanOrEqual(adaptive.totalSeconds * (1 + 1e-12));
    expect(adaptive.pipelinedSeconds).toBeGreaterThanOrEqual(Math.max(...adaptive.results.map((r) => r.makespan)));
    expect(adaptive.starts).toHaveLength(20);
    // Every input's result is its own reference.
    for (const k of [0, 9, 10, 19]) {
      const p = adaptive.plans[k]!;
      const depth = adaptive.results[k]!.outputs['depth'] as Int32Array;
      expect(Array.from(depth)).toEqual(Array.from(referenceValues(p.problem.bound)[p.problem.bound.outputs[0]!] as Int32Array));
    }
  });

  it('keeps the mapping while the structure stays put', async () => {
    const same = inputs.slice(0, 4);
    const plan = await schedule(workload('stream:bfs'), same, { system, model });
    const s = await runStream(plan, same);
    expect(s.replans).toEqual([]);
    expect(s.results).toHaveLength(4);
    expect(s.plans[0]).toBe(plan);
  });

  it('refuses an empty stream and bad options', async () => {
    const plan = await schedule(workload('stream:bfs'), inputs.slice(0, 1), { system, model });
    await expect(runStream(plan, [])).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(runStream(plan, inputs.slice(0, 1), { featureThreshold: -1 })).rejects.toThrow(/runStream: featureThreshold/);
    await expect(runStream(plan, inputs.slice(0, 1), { featureTreshold: 1 } as never)).rejects.toThrow(/did you mean "featureThreshold"/);
  });
});

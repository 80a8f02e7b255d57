// Probes: before trusting the model, planning runs each operator on each device on this input (a
// sample of a large one) and scales the model's figures to what the device did; a chosen
// split's parts are probed where they run and its shares re-balanced. A model 20x wrong about a
// device then plans as an accurate one does, and the plan's figures are what the devices do.

import { describe, expect, it, vi } from 'vitest';
import type { CostModel } from '../../src/cost/model.js';
import type { System } from '../../src/devices/system.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { probeRanges } from '../../src/scheduler/probe-ranges.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { runPiece } from '../../src/executor/piece.js';
import { generate } from '../../src/generators/index.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

/** A model that believes the GPU 20x slower at SpMM than its spec says. */
function wrongModel(system: System): CostModel {
  const m = specModel(system);
  for (let k = 0; k < 60; k++) m.observeUncorrected('gpu', 'spmm', { seconds: 1e-3, joules: 1e-3 }, { seconds: 2e-2, joules: 2e-2 });
  return m;
}

describe('planning with probes', () => {
  const system = twoDeviceSystem();
  const graph = smallGraph();

  it('plans from a model 20x wrong about a device as from one that is right, and says what it did', async () => {
    const right = await schedule('spmm', graph, { system, model: specModel(system), params: { k: 16 } });
    const wrong = await schedule('spmm', graph, { system, model: wrongModel(system), params: { k: 16 } });
    const blind = await schedule('spmm', graph, { system, model: wrongModel(system), params: { k: 16 }, probe: false });
    expect(wrong.chosen.label).toBe(right.chosen.label);
    expect(blind.chosen.label).not.toBe(right.chosen.label);
    expect(wrong.explanation.summary.join('\n')).toMatch(/scaled to what a probe of this input took on each device/);
  });

  it("predicts what the devices then do: the plan's pieces cost what they cost", async () => {
    const plan = await schedule('spmm', graph, { system, model: wrongModel(system), params: { k: 16 } });
    const { bound, choices, costs } = plan.problem;
    const values = referenceValues(bound);
    const op = bound.ops[0]!;
    for (const part of choices[0]![plan.chosen.genome[0]!]!.parts) {
      const predicted = costs.cost(op, part.device, part.begin, part.end);
      const ran = await runPiece(
        bound,
        op,
        system.devices[part.device]!,
        op.operands.map((v) => values[v]!),
        part.begin,
        part.end,
      );
      expect(predicted.seconds / ran.seconds).toBeGreaterThan(0.9);
      expect(predicted.seconds / ran.seconds).toBeLessThan(1.1);
    }
  });

  it('samples a large operator: no probe call touches more than its share of the entries', () => {
    const big = generate({ kind: 'kronecker', scale: 16, seed: 1 });
    const plan = {
      values: [
        { kind: 'sparse', pattern: big, entries: big.nnz },
        { kind: 'dense', entries: big.rows * 8 },
      ],
      ops: [],
    };
    const op = { index: 0, id: 'Y', kind: 'spmm', operands: [0, 1], output: 1, split: 'rows', units: big.rows, whole: [false, true], flops: 0, bytes: 0 };
    const ranges = probeRanges(op as never, plan as never, 0, big.rows, 200_000);
    expect(ranges.length).toBe(4);
    for (const [b, e] of ranges) expect(Number(big.rowPtr[e]!) - Number(big.rowPtr[b]!) + (e - b)).toBeLessThanOrEqual(200_000 / 4 + 2000);
    // Spread over the rows, not bunched at the start.
    expect(ranges[3]![0]).toBeGreaterThan(big.rows / 2);
  });

  it('runs the devices only through their own run (the planner never computes results)', async () => {
    const runs = system.devices.map((d) => vi.spyOn(d, 'run'));
    await schedule('spmm', graph, { system, model: specModel(system) });
    expect(runs.reduce((s, r) => s + r.mock.calls.length, 0)).toBeGreaterThan(0);
    await schedule('spmm', graph, { system, model: specModel(system), probe: false });
    const before = runs.map((r) => r.mock.calls.length);
    await schedule('spmm', graph, { system, model: specModel(system), probe: false });
    expect(runs.map((r) => r.mock.calls.length)).toEqual(before);
    vi.restoreAllMocks();
  });

  it('refuses a probe option it cannot read', async () => {
    await expect(schedule('spmm', graph, { system, model: specModel(system), probe: 'yes' as never })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(schedule('spmm', graph, { system, model: specModel(system), probe: { maxEntries: 0 } })).rejects.toThrow(
      /^schedule: probe.maxEntries must be in \[1, /,
    );
    await expect(schedule('spmm', graph, { system, model: specModel(system), probe: { maxEntrie: 5 } as never })).rejects.toThrow(/maxEntries/);
  });
});

// Oracle.compare executes a mapping and the oracle's best afresh in the same rounds, so a loss is
// not the machine's load at two moments, nor the luck of a best picked among noisy candidates.

import { describe, expect, it, vi } from 'vitest';
import { Oracle, PAIRED_ROUNDS } from '../../src/oracle/oracle.js';
import { explore } from '../../src/scheduler/schedule.js';
import { mixedSystem } from '../executor/executor-fixtures.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';

const graph = smallGraph();

describe('Oracle.compare', () => {
  it("gives the best itself exactly the best's figures on simulated devices", async () => {
    const system = twoDeviceSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system) });
    const oracle = await Oracle.build(ex.problem);
    const best = oracle.optimum('min-time');
    const mapping = Array.from(best.genome, (c, i) => oracle.choices[i]![c]!);
    const { pick, best: again } = await oracle.compare(mapping, 'min-time');
    expect(pick.median.makespan).toBe(best.value);
    expect(again.median.makespan).toBe(best.value);
  });

  it('pairs the rounds: the best against itself is even in every round, however the machine moved', async () => {
    const system = mixedSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system) });
    const oracle = await Oracle.build(ex.problem, { repeats: 3 });
    const best = Array.from(oracle.optimum('min-time').genome, (c, i) => oracle.choices[i]![c]!);
    const { ratio, inRounds } = await oracle.compare(best, 'min-time');
    expect(ratio).toEqual({ median: 1, lo: 1, hi: 1, rounds: ratio.rounds });
    // The figures printed beside the ratio come from the same rounds: equal too.
    expect(inRounds.pick).toEqual(inRounds.best);
    // A simulated best has no rounds to pair; one with the CPU is timed in at least PAIRED_ROUNDS.
    if (best.some((ch) => ch.parts.some((p) => p.device === 0))) expect(ratio.rounds).toBeGreaterThanOrEqual(PAIRED_ROUNDS);
  });

  it('times the pick and the best again, together, on a real device', async () => {
    const system = mixedSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system) });
    const oracle = await Oracle.build(ex.problem, { repeats: 3 });
    const cpuAlone = oracle.choices[0]!.find((c) => c.parts.length === 1 && c.parts[0]!.device === 0)!;
    const run = vi.spyOn(system.devices[0]!, 'run');
    const { pick, best, ratio, inRounds } = await oracle.compare([cpuAlone], 'min-time');
    // Executed again (not read from the first measurement), in shared rounds, at least PAIRED_ROUNDS of them.
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(PAIRED_ROUNDS + 1);
    expect(ratio.rounds).toBeGreaterThanOrEqual(PAIRED_ROUNDS);
    expect(ratio.lo).toBeLessThanOrEqual(ratio.median);
    expect(ratio.median).toBeLessThanOrEqual(ratio.hi);
    expect(pick.median.makespan).toBeGreaterThan(0);
    expect(best.lo.makespan).toBeLessThanOrEqual(best.hi.makespan);
    // Each round composed from its own runs: the medians over rounds are figures of real rounds.
    expect(inRounds.pick.makespan).toBeGreaterThan(0);
    expect(inRounds.best.energy).toBeGreaterThan(0);
    vi.restoreAllMocks();
  });

  it('refuses a mapping of the wrong length', async () => {
    const system = twoDeviceSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system) });
    const oracle = await Oracle.build(ex.problem);
    await expect(oracle.compare([], 'min-time')).rejects.toThrow(/Oracle.compare: mapping must hold one choice per operator \(1\)/);
  });
});

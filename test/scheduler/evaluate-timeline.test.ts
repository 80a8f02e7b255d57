// The evaluator's list schedule with fixed costs. On a two-operator chain the makespan is the
// operators' time plus the modelled copies (System.transferSeconds) of every value that must move
// between host and GPU memory, copies on one link direction one after another, and the energy is
// the active energy plus the idle power of each device the mapping uses over its idle time. Independent branches of a DAG (sage: the self projection and the neighbour
// aggregation) run at once on two devices, so the makespan is less than the sum of the durations.

import { describe, expect, it } from 'vitest';
import { Evaluator } from '../../src/scheduler/evaluate.js';
import { buildChoices } from '../../src/scheduler/candidates.js';
import { CostTable } from '../../src/scheduler/space.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { bindChain, FixedCosts, genomeOf, smallGraph, twoDeviceSystem, uniformCosts } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const bound = bindChain();
const choices = buildChoices(bound, system, [0, 1], { splits: false }, () => 1);
// seconds and joules per device (gpu, cgra)
const costs = new FixedCosts({ Y: [0.5, 1], H: [0.25, 2] }, { Y: [50, 3], H: [20, 4] });
const table = new CostTable(choices, bound.ops, costs);
const evaluator = new Evaluator(bound, system, table, ['time', 'energy']);
const bytes = (name: string): number => bound.values.find((v) => v.name === name)!.bytes;
const toGpu = (b: number): number => system.transferSeconds(b, 'host', 'gpu');
const toHost = (b: number): number => system.transferSeconds(b, 'gpu', 'host');

describe('makespan of a chain', () => {
  it('is the sum of the durations when nothing leaves host memory', () => {
    const m = evaluator.metrics(genomeOf(choices, ['cgra', 'cgra']));
    expect(m.makespan).toBe(3);
    expect(m.transfers).toEqual([]);
    expect(m.timeline.map((e) => [e.op, e.device, e.start, e.finish])).toEqual([
      [0, 1, 0, 1],
      [1, 1, 1, 3],
    ]);
  });

  it('adds the copy of the operand to GPU memory and of the result back to the host', () => {
    const m = evaluator.metrics(genomeOf(choices, ['cgra', 'gpu']));
    const y = toGpu(bytes('Y'));
    const h = toHost(bytes('H'));
    expect(y).toBeGreaterThan(0);
    expect(m.makespan).toBeCloseTo(1 + y + 0.25 + h, 12);
    expect(m.transfers.map((t) => [bound.values[t.value]!.name, t.from, t.to, t.bytes])).toEqual([
      ['Y', 'host', 'gpu', bytes('Y')],
      ['H', 'gpu', 'host', bytes('H')],
    ]);
    expect(m.transfers[0]!.start).toBe(1); // the copy starts when Y is ready
    expect(m.timeline[1]!.start).toBeCloseTo(1 + y, 12);
  });

  it('copies the two inputs to the GPU one after the other: they share the host -> gpu direction', () => {
    const m = evaluator.metrics(genomeOf(choices, ['gpu', 'gpu']));
    // Latencies overlap (a copy is queued while the one before it moves); bytes do not.
    const link = system.links[0]!;
    const inputs = link.latency + (bytes('A') + bytes('X')) / link.bandwidth;
    expect(inputs).toBeGreaterThan(Math.max(toGpu(bytes('A')), toGpu(bytes('X'))));
    expect(m.timeline[0]!.start).toBeCloseTo(inputs, 12);
    expect(m.makespan).toBeCloseTo(inputs + 0.5 + 0.25 + toHost(bytes('H')), 12);
    // The second copy starts when the first has left the link (its latency overlaps, its bytes do not).
    const [first, second] = m.transfers;
    expect(second!.start).toBeCloseTo(first!.start + first!.bytes / link.bandwidth, 15);
  });

  it('evaluate() writes the same time and energy as metrics()', () => {
    const out = new Float64Array(2);
    for (const labels of [
      ['cgra', 'cgra'],
      ['cgra', 'gpu'],
      ['gpu', 'cgra'],
      ['gpu', 'gpu'],
    ]) {
      const g = genomeOf(choices, labels);
      expect(evaluator.evaluate(g, out)).toBe(true);
      const m = evaluator.metrics(g);
      expect([out[0], out[1]]).toEqual([m.makespan, m.energy]);
    }
  });
});

describe('energy of a chain', () => {
  it('is active energy plus idle watts times idle time on every device the mapping uses', () => {
    const m = evaluator.metrics(genomeOf(choices, ['cgra', 'gpu']));
    const [gpu, cgra] = system.devices;
    expect(m.busy).toEqual([0.25, 1]);
    expect(m.activeEnergy).toBe(3 + 20);
    const idle = gpu!.power.idleWatts * (m.makespan - 0.25) + cgra!.power.idleWatts * (m.makespan - 1);
    expect(m.idleEnergy).toBeCloseTo(idle, 10);
    expect(m.energy).toBeCloseTo(23 + idle, 10);
    expect(gpu!.power.idleWatts).toBeGreaterThan(0); // else the idle term would test nothing
  });
});

describe('parallel branches', () => {
  const sage = bindWorkload(workload('sage'), smallGraph());
  const sageChoices = buildChoices(sage, system, [0, 1], { splits: false }, () => 1);
  const sageEvaluator = new Evaluator(sage, system, new CostTable(sageChoices, sage.ops, uniformCosts(sage, [1, 1])), ['time', 'energy']);
  const sageBytes = (name: string): number => sage.values.find((v) => v.name === name)!.bytes;

  it('runs the two branches of sage at once on two devices', () => {
    expect(sage.ops.map((o) => o.id)).toEqual(['self', 'neigh', 'nproj', 'sum', 'h']);
    const m = sageEvaluator.metrics(genomeOf(sageChoices, ['cgra', 'gpu', 'gpu', 'cgra', 'cgra']));
    const toGpu = (n: string): number => system.transferSeconds(sageBytes(n), 'host', 'gpu');
    // M and X go to the GPU one after the other, Wn after them (one copy at a time per direction).
    const link = system.links[0]!;
    const neighStart = link.latency + (sageBytes('M') + sageBytes('X')) / link.bandwidth;
    const nprojEnd = Math.max(neighStart + 1, neighStart + sageBytes('Wn') / link.bandwidth) + 1;
    expect(neighStart).toBeGreaterThan(Math.max(toGpu('M'), toGpu('X')));
    const sumStart = Math.max(1, nprojEnd + system.transferSeconds(sageBytes('nproj'), 'gpu', 'host'));
    expect(m.makespan).toBeCloseTo(sumStart + 2, 12);
    expect(m.makespan).toBeLessThan(5); // five operators of one second each
    const [self, neigh] = m.timeline;
    expect(self!.start).toBeLessThan(neigh!.finish);
    expect(neigh!.start).toBeLessThan(self!.finish);
  });

  it('runs them one after the other on one device', () => {
    const m = sageEvaluator.metrics(genomeOf(sageChoices, ['cgra', 'cgra', 'cgra', 'cgra', 'cgra']));
    expect(m.makespan).toBe(5);
  });
});

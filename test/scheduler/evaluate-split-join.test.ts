// A split operator's parts run on their devices at once; the GPU part reads only its share of the
// sparse operand (the dense one whole), sends its rows of the result back, and the operator's
// output is ready on the host when the last part has joined there.

import { describe, expect, it } from 'vitest';
import { Evaluator } from '../../src/scheduler/evaluate.js';
import { buildChoices } from '../../src/scheduler/candidates.js';
import { CostTable } from '../../src/scheduler/space.js';
import { bindChain, FixedCosts, genomeOf, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const bound = bindChain();
const choices = buildChoices(bound, system, [0, 1], { splitRatios: [0.5] }, () => 1);
const split = choices[0]!.find((c) => c.parts.length === 2)!;
const table = new CostTable(choices, bound.ops, new FixedCosts({ Y: [2e-4, 2e-4], H: [1e-5, 2e-5] }));
const evaluator = new Evaluator(bound, system, table, ['time', 'energy']);
const valueIndex = (name: string): number => bound.values.findIndex((v) => v.name === name);
const bytes = (name: string): number => bound.values[valueIndex(name)]!.bytes;
const share = split.parts[0]!.fraction;
const rowShare = split.parts[0]!.rowFraction;

describe('a split operator', () => {
  it('is labelled with its two devices', () => {
    expect(split.parts.map((p) => p.device)).toEqual([0, 1]);
  });

  for (const next of ['cgra', 'gpu']) {
    it(`joins on the host before the next operator (on ${next}) starts`, () => {
      const m = evaluator.metrics(genomeOf(choices, [split.label, next]));
      const [gpuPart, cgraPart, relu] = m.timeline;
      expect([gpuPart!.device, cgraPart!.device, relu!.op]).toEqual([0, 1, 1]);
      // The GPU part waits for its slice of A and the whole of X; the CGRA part reads host memory.
      // Both copies cross the host -> gpu direction, one after the other.
      const link = system.links[0]!;
      const inputs = link.latency + (bytes('A') * share + bytes('X')) / link.bandwidth;
      expect(gpuPart!.start).toBeCloseTo(inputs, 15);
      expect(cgraPart!.start).toBe(0);
      const back = m.transfers.find((t) => t.value === valueIndex('Y') && t.from === 'gpu')!;
      expect(back.to).toBe('host');
      expect(back.bytes).toBeCloseTo(bytes('Y') * rowShare, 6);
      expect(back.start).toBe(gpuPart!.finish);
      const joined = Math.max(gpuPart!.finish + system.transferSeconds(bytes('Y') * rowShare, 'gpu', 'host'), cgraPart!.finish);
      if (next === 'cgra') {
        expect(relu!.start).toBeCloseTo(joined, 15);
      } else {
        // The whole output moves from the host, where it joined, to the GPU.
        const again = m.transfers.find((t) => t.value === valueIndex('Y') && t.to === 'gpu')!;
        expect(again.from).toBe('host');
        expect(again.start).toBeCloseTo(joined, 15);
        expect(again.bytes).toBe(bytes('Y'));
        expect(relu!.start).toBeCloseTo(joined + system.transferSeconds(bytes('Y'), 'host', 'gpu'), 15);
      }
    });
  }

  it('is faster than either device alone when both take the same time', () => {
    const t = (labels: string[]): number => evaluator.metrics(genomeOf(choices, labels)).makespan;
    expect(t([split.label, 'cgra'])).toBeLessThan(t(['cgra', 'cgra']));
    expect(t([split.label, 'cgra'])).toBeLessThan(t(['gpu', 'cgra']));
  });
});

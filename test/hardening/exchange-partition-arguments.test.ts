// partitionStats and predictExchange check their arguments like every entry point: a missing or
// odd partition, layout, rank or interconnect is an InvalidArgumentError naming the function, not
// a TypeError or RangeError from inside (a partition of 1e300 parts asked for an array that size).

import { describe, expect, it } from 'vitest';
import { partitionRows, partitionStats } from '../../src/data/partition.js';
import { predictExchange } from '../../src/distributed/interconnect.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';

const a = kroneckerGraph({ scale: 6, seed: 1 });
const layout = (...counts: number[]) => ({ counts: Int32Array.from(counts), displs: new Int32Array(counts.length) });
const net = { latencySeconds: 1e-6, bytesPerSecond: 1e9, source: 'test' };

const refusal = (call: () => unknown): Error => {
  try {
    call();
  } catch (e) {
    return e as Error;
  }
  return new Error('accepted');
};

describe('argument checks of partitionStats and predictExchange', () => {
  it('partitionStats refuses an odd partition by name', () => {
    const good = partitionRows(a, 2);
    for (const bad of [undefined, null, 'rows', { parts: 1e300, owner: good.owner }, { parts: 2 ** 40, owner: good.owner }, { parts: 2, owner: [0, 1] }]) {
      const e = refusal(() => partitionStats(a, bad as never));
      expect(e, JSON.stringify(bad)).toBeInstanceOf(InvalidArgumentError);
      expect(e.message).toMatch(/^partitionStats: /);
    }
    expect(partitionStats(a, good).parts).toHaveLength(2);
  });

  it('predictExchange refuses odd layouts, ranks and interconnects by name', () => {
    const cases: unknown[][] = [
      [undefined, layout(0, 1), 4, 0, net],
      [layout(0, 1), {}, 4, 0, net],
      [layout(0, 1), layout(0, 1, 2), 4, 0, net],
      [layout(0, 1), layout(0, 1), 4, 2, net],
      [layout(0, 1), layout(0, 1), Number.NaN, 0, net],
      [layout(0, 1), layout(0, 1), 4, 0, {}],
      [layout(0, 1), layout(0, 1), 4, 0, { ...net, bytesPerSecond: 0 }],
      [layout(0, 1), layout(0, 1), 4, 0, net, -5],
    ];
    for (const args of cases) {
      const e = refusal(() => (predictExchange as (...x: unknown[]) => number)(...args));
      expect(e, String(args)).toBeInstanceOf(InvalidArgumentError);
      expect(e.message).toMatch(/^predictExchange: /);
    }
    expect(predictExchange(layout(0, 250), layout(0, 100), 4, 0, net)).toBeCloseTo(1e-6 + 1000 / 1e9, 12);
  });
});

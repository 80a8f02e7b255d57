// A working set beyond the scratchpad is tiled and gathered through line buffers: shrinking the
// scratchpad (a spec override) raises DMA traffic and stall cycles, and the result stays exact.

import { describe, expect, it } from 'vitest';
import type { DenseMatrix } from '../../../src/data/dense.js';
import type { BfsOutput } from '../../../src/devices/device.js';
import { bfsReference } from '../../../src/kernels/reference.js';
import { firstDifference, firstSpmmMismatch } from '../../support/compare.js';
import { randomDense, skewedMatrix } from '../../support/random.js';
import { cgraDevice } from './helpers.js';

describe('cgra-sim scratchpad and DMA', () => {
  const a = skewedMatrix(2000, 2000, 30_000, 6, 'f32');
  const x = randomDense(2000, 4, 'f32', 3);

  it('spmm: a small scratchpad means more tiles, X line misses and DMA stalls', async () => {
    const big = await cgraDevice({ spmBytes: 1 << 20 }).run({ kind: 'spmm' }, { a, x });
    const small = await cgraDevice({ spmBytes: 4096 }).run({ kind: 'spmm' }, { a, x });
    expect(big.counters['lineMisses']).toBe(0);
    expect(small.counters['lineMisses']).toBeGreaterThan(1000);
    expect(small.counters['tiles']).toBeGreaterThan(big.counters['tiles']!);
    expect(small.counters['dramBytes']).toBeGreaterThan(big.counters['dramBytes']!);
    expect(small.counters['dmaStallCycles']).toBeGreaterThan(2 * big.counters['dmaStallCycles']!);
    expect(small.joules).toBeGreaterThan(big.joules);
    expect(firstSpmmMismatch(a, x.data, 4, (small.output as DenseMatrix).data)).toBe(-1);
  });

  it('bfs: a graph that fits is loaded once, one that does not is streamed', async () => {
    const g = skewedMatrix(5000, 5000, 40_000, 2, 'pattern');
    const fits = await cgraDevice({ spmBytes: 1 << 22 }).run({ kind: 'bfs', source: 1 }, { graph: g });
    const streamed = await cgraDevice({ spmBytes: 8192 }).run({ kind: 'bfs', source: 1 }, { graph: g });
    expect(fits.counters['resident']).toBe(1);
    expect(streamed.counters['resident']).toBe(0);
    expect(streamed.counters['dmaStallCycles']).toBeGreaterThan(fits.counters['dmaStallCycles']!);
    expect(firstDifference((streamed.output as BfsOutput).depth, bfsReference(g, 1))).toBe(-1);
  });
});

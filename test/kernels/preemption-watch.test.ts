// While a timing watches (`watchPreemption`), each kernel call counts whether its thread was
// switched out against its will; with every core busy with a spinning thread, calls are.
// Unwatched, nothing is counted (the two system calls a call costs are spent only when asked).

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { spmm } from '../../src/kernels/spmm.js';
import { nativeAddon } from '../../src/native/addon.js';

const SPIN = 'const end = Date.now() + 20000; while (Date.now() < end) {}';

describe('watchPreemption', () => {
  const spinners: Worker[] = [];
  const g = kroneckerGraph({ scale: 14, edgeFactor: 8, seed: 3 });
  const x = new DenseMatrix(g.cols, 32, new Float32Array(g.cols * 32).fill(0.5));
  beforeAll(() => {
    for (let i = 0; i < availableParallelism(); i++) spinners.push(new Worker(SPIN, { eval: true }));
  });
  afterAll(async () => {
    await Promise.all(spinners.map((w) => w.terminate()));
  });

  it('counts no call while unwatched', async () => {
    const addon = nativeAddon();
    const before = addon.poolJobs().preempted;
    for (let i = 0; i < 20; i++) await spmm(g, x);
    expect(addon.poolJobs().preempted).toBe(before);
  });

  it('counts calls switched out while watched, with every core contended', async () => {
    const addon = nativeAddon();
    const before = addon.poolJobs().preempted;
    addon.watchPreemption(true);
    try {
      const end = performance.now() + 3000;
      while (addon.poolJobs().preempted === before && performance.now() < end) await spmm(g, x);
    } finally {
      addon.watchPreemption(false);
    }
    expect(addon.poolJobs().preempted).toBeGreaterThan(before);
  });
});

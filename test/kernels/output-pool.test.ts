// The kernels' output pool: an array given back is taken again by the next output of its length
// and precision, and nothing else is ever handed out twice: arrays the pool did not make, arrays
// already given back, and arrays of another length or precision are refused or kept apart; past
// the cap (a share of the memory budget) the oldest are dropped, and all of them once idle.

import { afterEach, expect, it, vi } from 'vitest';
import { clearOutputPool, POOL_IDLE_RELEASE_MS, pooledOutputBytes, recycleOutput, takeOutput } from '../../src/kernels/output-pool.js';
import { setMemoryBudget } from '../../src/limits.js';

afterEach(() => clearOutputPool());

it('hands a given-back array to the next output of its length and precision, once', () => {
  const a = takeOutput('t', 4, 8, 'f32');
  expect(a).toBeInstanceOf(Float32Array);
  expect(a.length).toBe(32);
  recycleOutput(a);
  recycleOutput(a); // a second give-back of the same array is ignored
  expect(pooledOutputBytes()).toBe(128);
  expect(takeOutput('t', 8, 8, 'f32')).not.toBe(a); // another length
  expect(takeOutput('t', 4, 8, 'f64')).not.toBe(a); // another precision
  expect(takeOutput('t', 8, 4, 'f32')).toBe(a); // same length: reused
  expect(pooledOutputBytes()).toBe(0);
  expect(takeOutput('t', 4, 8, 'f32')).not.toBe(a); // not handed out twice
});

it('refuses arrays it did not make, and views into its own', () => {
  const mine = takeOutput('t', 16, 1, 'f64');
  for (const foreign of [new Float64Array(16), mine.subarray(0, 8), new Float32Array(16), [1, 2], undefined]) recycleOutput(foreign);
  expect(pooledOutputBytes()).toBe(0);
  const fresh = takeOutput('t', 16, 1, 'f64');
  expect(fresh).not.toBe(mine);
});

it('drops the oldest arrays past its cap', () => {
  const before = setMemoryBudget(8 * 1024); // cap: a quarter, 2 KiB
  try {
    const arrays = [0, 1, 2].map(() => takeOutput('t', 64, 1, 'f32')); // 256 bytes each
    const big = takeOutput('t', 1024, 1, 'f32'); // 4 KiB: over the cap alone
    for (const a of arrays) recycleOutput(a);
    recycleOutput(big);
    expect(pooledOutputBytes()).toBe(768);
    recycleOutput(takeOutput('t', 384, 1, 'f32')); // 768 + 1536: the oldest 256-byte array goes
    expect(pooledOutputBytes()).toBe(2048);
    expect(takeOutput('t', 64, 1, 'f32')).toBe(arrays[2]);
    expect(takeOutput('t', 64, 1, 'f32')).toBe(arrays[1]);
    expect(takeOutput('t', 64, 1, 'f32')).not.toBe(arrays[0]);
  } finally {
    setMemoryBudget(before);
  }
});

it('checks sizes as a dense result does', () => {
  expect(() => takeOutput('nativeGemm', -1, 4, 'f32')).toThrow(/nativeGemm: rows/);
});

it('empties itself once idle, and waits again after each take or give-back', () => {
  vi.useFakeTimers();
  try {
    const [a, b] = [takeOutput('t', 8, 1, 'f32'), takeOutput('t', 8, 1, 'f32')];
    recycleOutput(a);
    recycleOutput(b);
    vi.advanceTimersByTime(POOL_IDLE_RELEASE_MS - 1);
    expect(takeOutput('t', 8, 1, 'f32')).toBe(b); // activity: the wait starts again
    vi.advanceTimersByTime(POOL_IDLE_RELEASE_MS - 1);
    expect(pooledOutputBytes()).toBe(32);
    vi.advanceTimersByTime(1);
    expect(pooledOutputBytes()).toBe(0);
    expect(takeOutput('t', 8, 1, 'f32')).not.toBe(a);
  } finally {
    vi.useRealTimers();
  }
});

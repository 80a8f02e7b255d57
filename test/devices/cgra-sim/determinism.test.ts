// The simulator is deterministic: the same input gives the same counters, whatever the number of
// host threads, and splitting the rows into ranges splits the work without losing any.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specValues } from '../../../src/devices/spec.js';
import { packageRoot } from '../../../src/native/addon.js';
import { randomDense, skewedMatrix } from '../../support/random.js';
import { cgraDevice } from './helpers.js';

describe('cgra-sim determinism', () => {
  const a = skewedMatrix(20_000, 20_000, 400_000, 8, 'f32');
  const x = randomDense(20_000, 16, 'f32', 1);

  it('gives the same counters twice', async () => {
    // Two devices, so both simulate (a device keeps an SpMM's counters by matrix: simulation-reuse.test.ts).
    const one = await cgraDevice().run({ kind: 'spmm' }, { a, x });
    const two = await cgraDevice().run({ kind: 'spmm' }, { a, x });
    const { simulationWallSeconds: _w1, ...c1 } = one.counters;
    const { simulationWallSeconds: _w2, ...c2 } = two.counters;
    expect(c1).toEqual(c2);
    expect(one.joules).toBe(two.joules);
  });

  it('row ranges split the iterations and memory operations of the whole', async () => {
    const device = cgraDevice();
    const whole = await device.run({ kind: 'spmm' }, { a, x });
    const left = await device.run({ kind: 'spmm' }, { a, x }, [0, 9000]);
    const right = await device.run({ kind: 'spmm' }, { a, x }, [9000, 20_000]);
    for (const part of [left, right]) {
      expect(part.counters['unrollLanes']).toBe(whole.counters['unrollLanes']);
      expect(part.counters['unrollNonzeros']).toBe(whole.counters['unrollNonzeros']);
      expect(part.counters['cycles']).toBeLessThan(whole.counters['cycles']!);
    }
    const sum = (key: string): number => left.counters[key]! + right.counters[key]!;
    expect(sum('iterations')).toBe(whole.counters['iterations']);
    expect(sum('memoryOperations')).toBe(whole.counters['memoryOperations']);
    // Each part pays its own configuration load and pipeline fill and drain, nothing more.
    const ratio = sum('cycles') / whole.counters['cycles']!;
    expect(ratio).toBeGreaterThanOrEqual(0.99);
    expect(ratio).toBeLessThan(1.05);
  });

  it('gives the same counters with one host thread and with several', () => {
    // A child process per thread count: the native pool is sized once per process.
    const params = specValues(cgraDevice().spec);
    const script = `
      const addon = require(${JSON.stringify(join(packageRoot, 'build', 'Release', 'dype_native.node'))});
      let s = 1; const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
      const rows = 30000, cols = 30000, perRow = 12;
      const rowPtr = new Int32Array(rows + 1), colIdx = new Int32Array(rows * perRow);
      for (let r = 0; r < rows; r++) { rowPtr[r + 1] = (r + 1) * perRow; for (let j = 0; j < perRow; j++) colIdx[r * perRow + j] = Math.floor(rnd() ** 2 * cols); }
      const x = new Float32Array(cols * 16).map(() => rnd()), y = new Float32Array(rows * 16);
      addon.cgraSpmm(rows, cols, rowPtr, colIdx, null, x, 16, y, 0, rows, ${JSON.stringify(params)}).then((c) => {
        const { seconds, ...rest } = c; let h = 0; for (const v of y) h = (h * 31 + Math.round(v * 1e3)) >>> 0;
        console.log(JSON.stringify({ ...rest, h }));
      });`;
    const run = (threads: string): unknown =>
      JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { ...process.env, DYPE_THREADS: threads }, encoding: 'utf8' }));
    const one = run('1') as Record<string, number>;
    expect(one['cycles']).toBeGreaterThan(0);
    expect(run('2')).toEqual(one);
  });
});

// Where the JS thread sits on a pool worker's core, a mid-size kernel call does not go to the
// host lane and back (8-11 us more than the kernel on a 2-vCPU VM): the lane and that worker
// trade cores, and the call runs on the JS thread with the worker beside it. A child process
// moves its own JS thread onto the worker's core with taskset (the process keeps both cores; only
// the main thread is moved) and checks that the lane followed it and the result is right.

import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';

const addonPath = process.env['DYPE_NATIVE_ADDON'] ?? join(repoRoot, 'build', 'Release', 'dype_native.node');
const hasTaskset = spawnSync('taskset', ['--version'], { encoding: 'utf8' }).status === 0;
// The child runs two threads, bound to cores of their own.
const bound = availableParallelism() >= 2 && process.env['DYPE_PIN'] !== '0';

const child = `
const addon = require(${JSON.stringify(addonPath)});
const { execFileSync } = require('node:child_process');
// The cores this process may use, from taskset's list ("0-3,6").
const list = execFileSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8' }).split(':').pop().trim();
const cores = list.split(',').flatMap((part) => { const [a, b] = part.split('-').map(Number); return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i); });
const n = 20000, k = 8;
const rowPtr = new Int32Array(n + 1), colIdx = new Int32Array(n * 4);
for (let r = 0; r < n; r++) { rowPtr[r + 1] = (r + 1) * 4; for (let j = 0; j < 4; j++) colIdx[r * 4 + j] = (r + j * 97) % n; }
const x = new Float32Array(n * k).fill(1), y = new Float32Array(n * k);
(async () => {
  await addon.spmm(n, n, rowPtr, colIdx, null, x, k, y, 0, n, 0);
  const lane = addon.laneCore();
  // DYPE_THREADS=2: the lane on the first core of the process's, the one worker on the second.
  const worker = cores[1];
  execFileSync('taskset', ['-pc', String(worker), String(process.pid)]);
  y.fill(0);
  await addon.spmm(n, n, rowPtr, colIdx, null, x, k, y, 0, n, 1);
  console.log(JSON.stringify({ lane, worker, laneAfter: addon.laneCore(), moves: addon.laneMoves(), y0: y[0], yLast: y[n * k - 1] }));
})();
`;

describe('the host lane and the JS thread', () => {
  it.skipIf(!hasTaskset || !bound)('trade cores when the JS thread sits on a worker', () => {
    const r = spawnSync(process.execPath, ['-e', child], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, DYPE_THREADS: '2' } });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim()) as { lane: number; worker: number; laneAfter: number; moves: number; y0: number; yLast: number };
    expect(out.lane).not.toBe(out.worker);
    expect(out.moves).toBe(1);
    expect(out.laneAfter).toBe(out.worker);
    // Four ones in every row of A, x all ones.
    expect(out.y0).toBe(4);
    expect(out.yLast).toBe(4);
  });
});

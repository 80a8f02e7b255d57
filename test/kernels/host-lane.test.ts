// Every asynchronous CPU kernel call runs on one long-lived thread of the addon, the host lane
// (native/src/host_lane.h), and settles on the JS thread that made it. What that must keep: calls
// made together all settle with their own results; a process or a worker thread that ends while a
// kernel runs ends cleanly (the kernel writes into arrays of the environment being torn down);
// and a process with nothing in flight exits on its own (the lane holds no event loop open).

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/native/addon.js';
import { repoRoot } from '../support/datasets.js';

const addonPath = process.env['DYPE_NATIVE_ADDON'] ?? join(repoRoot, 'build', 'Release', 'dype_native.node');

// A banded CSR matrix (16 entries a row) and a dense x of width k, in plain JavaScript for child processes.
const makeProblem = `
const addon = require(${JSON.stringify(addonPath)});
function problem(n, k) {
  const rowPtr = new Int32Array(n + 1), colIdx = new Int32Array(n * 16);
  for (let r = 0; r < n; r++) { rowPtr[r + 1] = (r + 1) * 16; for (let j = 0; j < 16; j++) colIdx[r * 16 + j] = (r + j * 97) % n; }
  const x = new Float32Array(n * k).fill(1), y = new Float32Array(n * k);
  return { n, k, rowPtr, colIdx, x, y };
}
const spmm = (p) => addon.spmm(p.n, p.n, p.rowPtr, p.colIdx, null, p.x, p.k, p.y, 0, p.n, false);
`;

function runChild(body: string): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['-e', makeProblem + body], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe('the host lane', () => {
  it('settles calls made together, each with its own result', async () => {
    const addon = nativeAddon();
    const n = 3000;
    const k = 4;
    const rowPtr = new Int32Array(n + 1);
    const colIdx = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      rowPtr[r + 1] = r + 1;
      colIdx[r] = r;
    }
    // Row r of A is e_r with weight r + 1 and x is all ones, so row r of each output is (r + 1) everywhere.
    const values = Float32Array.from({ length: n }, (_, r) => r + 1);
    const x = new Float32Array(n * k).fill(1);
    const ranges = Array.from({ length: 16 }, (_, c) => [c * 150, c * 150 + 700] as const);
    const outs = ranges.map(([b, e]) => new Float32Array((e - b) * k));
    const settled = await Promise.all(ranges.map(([b, e], c) => addon.spmm(n, n, rowPtr, colIdx, values, x, k, outs[c]!, b, e, false)));
    for (const s of settled) expect(s.seconds).toBeGreaterThan(0);
    ranges.forEach(([b], c) => {
      const y = outs[c]!;
      for (let i = 0; i < y.length; i += 97) expect(y[i]).toBe(b + Math.floor(i / k) + 1);
    });
    expect(addon.liveWorkers()).toBe(0);
  });

  it('lets a process exit while a kernel runs, cleanly', () => {
    const r = runChild(`
      const p = problem(400000, 32);
      spmm(p);
      setImmediate(() => process.exit(0));
    `);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
  });

  it('lets a worker thread end while its kernel runs, and serves the process after', () => {
    const r = runChild(`
      const { Worker } = require('node:worker_threads');
      const w = new Worker(${JSON.stringify(`${makeProblem} require('node:worker_threads').parentPort.postMessage('go'); spmm(problem(400000, 32));`)}, { eval: true });
      w.once('message', async () => {
        await w.terminate();
        const p = problem(2000, 4);
        const r = await spmm(p);
        console.log(r.seconds > 0 && p.y[0] === 16 ? 'ok' : 'wrong');
      });
    `);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('ok');
  });

  it('binds its threads only where there is a worker to keep apart, and not when told not to', () => {
    const core = (env: Record<string, string>): number =>
      Number(
        spawnSync(process.execPath, ['-e', `console.log(require(${JSON.stringify(addonPath)}).laneCore())`], {
          encoding: 'utf8',
          env: { ...process.env, ...env },
        }).stdout.trim(),
      );
    const addon = nativeAddon();
    expect(core({ DYPE_THREADS: '1' })).toBe(-1);
    expect(core({ DYPE_PIN: '0' })).toBe(-1);
    if (addon.threads() >= 2 && !process.env['DYPE_THREADS'] && process.env['DYPE_PIN'] !== '0') expect(core({})).toBeGreaterThanOrEqual(0);
  });

  it('holds no event loop open once its calls have settled', () => {
    const r = runChild(`
      spmm(problem(1000, 4)).then((s) => console.log(s.seconds > 0 ? 'settled' : 'wrong'));
    `);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('settled');
  });
});

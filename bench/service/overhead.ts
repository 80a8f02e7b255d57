// Issue 22: what serving costs. The same plan run in this process (`runPlan`) and by a `dype
// serve` child process (`client.runPlan` of the plan the server keeps), alternating, in the same
// run: a tiny job (SpMM on a 64-vertex graph: the per-request cost) and a GCN on a generated graph
// of about a million entries (the overhead against real work, the outputs sent back included),
// plus a `status` round trip (the protocol alone). Medians with their spread (min to max) over
// the rounds, and served / in-process as a ratio.
// Run: node --expose-gc --import tsx bench/service/overhead.ts [--quick]

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCostModel } from '../../src/cost/store.js';
import { detectSystem } from '../../src/devices/system.js';
import { runPlan } from '../../src/executor/run.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { connect } from '../../src/service/client.js';
import { median } from '../../src/stats.js';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false } }, strict: true });
const TINY_ROUNDS = args.quick ? 200 : 1000;
const GCN_ROUNDS = args.quick ? 5 : 15;

const dir = mkdtempSync(join(tmpdir(), 'dype-bench-serve-'));
process.env['DYPE_CACHE_DIR'] = dir;
const socket = join(dir, 'd.sock');
const root = join(import.meta.dirname, '..', '..');
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts'), 'serve', '--socket', socket], {
  cwd: root,
  env: { ...process.env },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  child.stdout!.on('data', (b: Buffer) => b.toString().includes('listening on') && resolve());
  child.once('exit', () => reject(new Error('dype serve exited')));
});

const system = await detectSystem();
const model = await loadCostModel(system);
const client = await connect(`unix:${socket}`, { token: readFileSync(join(dir, 'd.token'), 'utf8').trim() });

const ms = (t0: number): number => performance.now() - t0;
const spread = (xs: number[]): string => `${median(xs).toPrecision(3)} (${Math.min(...xs).toPrecision(3)} to ${Math.max(...xs).toPrecision(3)})`;

async function compare(label: string, workload: string, graph: ReturnType<typeof kroneckerGraph>, rounds: number): Promise<void> {
  const options = { probe: false, policy: 'min-time' } as const;
  const local = await schedule(workload, graph, { ...options, system, model });
  const served = await client.schedule(workload, graph, options);
  const run = { replan: false, learn: false } as const;
  // Warm both paths (kernels, JIT, the server's first run) before timing.
  for (let i = 0; i < 3; i++) {
    await runPlan(local, run);
    await client.runPlan(served, run);
  }
  const a: number[] = [];
  const b: number[] = [];
  // The run's own wall time inside each process: what the server adds around it is the rest.
  const aRun: number[] = [];
  const bRun: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    aRun.push((await runPlan(local, run)).wallSeconds * 1000);
    a.push(ms(t));
    t = performance.now();
    bRun.push((await client.runPlan(served, run)).wallSeconds * 1000);
    b.push(ms(t));
  }
  const ratio = median(b) / median(a);
  console.log(`${label}: ${graph.rows} vertices, ${graph.nnz} entries; mapping in-process ${local.chosen.label} | served ${served.chosen.label}`);
  console.log(
    `  in-process ms ${spread(a)}; served ms ${spread(b)}; served / in-process ${ratio.toFixed(3)}; overhead ${((median(b) - median(a)) * 1000).toFixed(0)} us per request (medians of ${rounds})`,
  );
  console.log(`  the run alone (its wallSeconds): in-process ms ${spread(aRun)}; inside the server ms ${spread(bRun)}`);
}

try {
  const statusTimes: number[] = [];
  for (let i = 0; i < 50; i++) await client.status();
  for (let i = 0; i < TINY_ROUNDS; i++) {
    const t = performance.now();
    await client.status();
    statusTimes.push(ms(t));
  }
  console.log(`status round trip: ms ${spread(statusTimes)} (medians of ${TINY_ROUNDS})`);
  await compare('tiny job (spmm)', 'spmm', kroneckerGraph({ scale: 6, edgeFactor: 4, seed: 1 }), TINY_ROUNDS);
  await compare('gcn', 'gcn', kroneckerGraph({ scale: 16, edgeFactor: 8, seed: 1 }), GCN_ROUNDS);
} finally {
  await client.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await system.dispose();
  rmSync(dir, { recursive: true, force: true });
}

// Issue 22: what serving costs. The same plan run in this process (`runPlan`) and by a `dype
// serve` child process (`client.runPlan` of the plan the server keeps), in the same run: a tiny job
// (SpMM on a 64-vertex graph: the per-request cost) and a GCN on a generated graph of about a
// million entries (the overhead against real work, the outputs sent back included), plus a
// `status` round trip (the protocol alone) and the transport floor (a bare Node peer answering a
// reply of the tiny job's size: what any two processes pay to talk here).
//
// Both sides first run the tiny job a few thousand times (a server's code takes about that many
// requests to be compiled to its fastest: its median fell from ~420 to ~150 us over the first 3,000
// here, and a long-running daemon is past that), then the sides alternate in blocks (tiny: 25
// requests a block, the first 5 not counted), so each is
// timed in its steady state while the machine's drift falls on all of them alike: alternated
// request by request, the in-process run left this process's kernel threads spinning into the
// served request that followed, and a served request landed after an idle pause (the peer's core
// asleep), neither of which an application calling one or the other meets.
//
// The library and the server come from the build (`dist/`, what `dype` runs; rebuilt when a source
// is newer) unless --sources:
// under tsx, the sources cost a served tiny request about 0.15 ms more than the build does.
// A second server and client with polling off (`--poll-us 0`, `pollMicroseconds: 0`) take part in
// the tiny job's blocks: what polling for the next message instead of sleeping saves (hot-poll.ts).
// Uploads: a feature matrix sent through the socket and through shared memory (Linux: written into
// a region the server maps), alternated, each upload new content (one value changed), beside one
// in-process copy of the same bytes (the least any transfer costs). And the served plan run in
// this process on devices the server grants (`runHere`), beside the others in the same blocks; and
// a loop of GCN runs in-process against `runHere` keeping its lease (keptLoop).
//
// Run: node --expose-gc --import tsx bench/service/overhead.ts [--quick] [--sources]

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connect as connectSocket } from 'node:net';
import { median } from '../../src/stats.js';
import { randomPermutation, Rng } from '../../src/generators/rng.js';
import { ensureBuilt } from '../../test/support/build-cli.js';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, sources: { type: 'boolean', default: false } },
  strict: true,
});
const TINY_BLOCKS = args.quick ? 10 : 50;
const BLOCK = 25;
const WARM = 5;
const GCN_ROUNDS = args.quick ? 9 : 40;
/** Quiet time before each block, ms: longer than any process's polling after its last message or job. */
const SETTLE_MS = 5;
/** Runs of one plan a side makes in a row in the loop comparison (keptLoop). */
const LOOP_RUNS = 6;
/** Seed of the sides' order in each round. */
const ORDER_SEED = 22;
/** Tiny requests each side runs before any is timed (the server's JIT warms up over thousands). */
const WARM_REQUESTS = args.quick ? 1500 : 3000;
/** Bytes of the tiny job's reply frame (64 x 32 FP32 outputs and the run's record): the floor's reply. */
const TINY_REPLY_BYTES = 9_400;

const root = join(import.meta.dirname, '..', '..');
if (!args.sources) ensureBuilt(); // rebuilt when a source is newer
type Lib = typeof import('../../src/index.js');
const lib: Lib = await import(args.sources ? '../../src/index.js' : join(root, 'dist', 'index.js'));
const cli = args.sources ? ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts')] : [join(root, 'dist', 'cli', 'main.js')];

const dir = mkdtempSync(join(tmpdir(), 'dype-bench-serve-'));
process.env['DYPE_CACHE_DIR'] = dir;
const socket = join(dir, 'd.sock');
const echoSocket = join(dir, 'echo.sock');

/** Start a child process and wait until it prints `ready` on stdout. */
async function child(argv: string[], ready: string): Promise<ReturnType<typeof spawn>> {
  const c = spawn(process.execPath, argv, { cwd: root, env: { ...process.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    c.stdout!.on('data', (b: Buffer) => b.toString().includes(ready) && resolve());
    c.once('exit', () => reject(new Error(`${argv.join(' ')} exited`)));
  });
  return c;
}
const server = await child([...cli, 'serve', '--socket', socket], 'listening on');
const idleSocket = join(dir, 'sleeps.sock');
const sleepingServer = await child([...cli, 'serve', '--socket', idleSocket, '--poll-us', '0'], 'listening on');
const echo = await child([join(import.meta.dirname, 'echo-peer.mjs'), echoSocket, String(TINY_REPLY_BYTES)], 'listening');

const system = await lib.detectSystem();
const model = await lib.loadCostModel(system);
const token = readFileSync(join(dir, 'd.token'), 'utf8').trim();
const client = await lib.connect(`unix:${socket}`, { token });
const socketClient = await lib.connect(`unix:${socket}`, { token, sharedMemory: false });
const sleepingClient = await lib.connect(`unix:${idleSocket}`, { token: readFileSync(join(dir, 'sleeps.token'), 'utf8').trim(), pollMicroseconds: 0 });

// The floor: one small request, the whole reply back.
const peer = connectSocket(echoSocket);
await new Promise((r) => peer.once('connect', r));
peer.setNoDelay(true);
let owed = 0;
let answered: () => void = () => undefined;
peer.on('data', (b: Buffer) => {
  owed -= b.length;
  if (owed <= 0) answered();
});
const roundTrip = (): Promise<void> =>
  new Promise((resolve) => {
    owed = TINY_REPLY_BYTES;
    answered = resolve;
    peer.write('x');
  });

const ms = (t0: number): number => performance.now() - t0;
const spread = (xs: number[]): string => `${median(xs).toPrecision(3)} (${Math.min(...xs).toPrecision(3)} to ${Math.max(...xs).toPrecision(3)})`;

/** Time `call` `block` times in a row, keeping all but the first `warm`: ms, and what the call returns. */
async function block<T>(call: () => Promise<T>, size: number, warm: number, into: number[], results: T[] = []): Promise<void> {
  // Each block starts on a settled machine: the collector's debt paid, and the last block's after-work
  // done (pool workers poll 2 ms after a job, a server 1 ms for the next request), so no side runs
  // on another's leftovers.
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  for (let i = 0; i < size; i++) {
    const t = performance.now();
    const r = await call();
    if (i < warm) continue;
    into.push(ms(t));
    results.push(r);
  }
}

let pageSink = 0;
/** The call's outputs read one value a page, as a caller using them would: pages of a mapped reply fault in here, as they would in the caller's own use, so the served side is not timed without them. */
async function used<T extends { outputs: Record<string, unknown> }>(call: Promise<T>): Promise<T> {
  const result = await call;
  for (const o of Object.values(result.outputs)) {
    const data = ArrayBuffer.isView(o) ? o : (o as { data?: unknown }).data;
    if (!ArrayBuffer.isView(data) || data instanceof DataView) continue;
    const values = data as unknown as ArrayLike<number>;
    for (let i = 0; i < values.length; i += 512) pageSink += Number(values[i]);
  }
  return result;
}

async function compare(label: string, workload: string, graph: ReturnType<Lib['kroneckerGraph']>, blocks: number, size: number, warm: number): Promise<void> {
  const options = { probe: false, policy: 'min-time' } as const;
  const local = await lib.schedule(workload, graph, { ...options, system, model });
  const served = await client.schedule(workload, graph, options);
  const run = { replan: false, learn: false } as const;
  const sleeping = await sleepingClient.schedule(workload, graph, options);
  // The served plan run in this process on devices the server grants (runHere: no outputs cross).
  const here = await lib.schedule(workload, graph, { ...options, system, model, fixedMapping: served.mapping });
  // Warm both paths (kernels, JIT, the server's first runs) before timing.
  const warmRounds = size > 1 ? WARM_REQUESTS / size : 3;
  for (let i = 0; i < warmRounds; i++) {
    for (let j = 0; j < size; j++) await lib.runPlan(local, run);
    for (let j = 0; j < size; j++) await client.runPlan(served, run);
    for (let j = 0; j < size; j++) await sleepingClient.runPlan(sleeping, run);
    for (let j = 0; j < size; j++) await client.runHere(served, here, run);
  }
  const a: number[] = [];
  const b: number[] = [];
  const floor: number[] = [];
  // The run's own wall time inside each process: what the server adds around it is the rest.
  const aRuns: { wallSeconds: number }[] = [];
  const bRuns: { wallSeconds: number; serverSeconds?: number }[] = [];
  const eRuns: { wallSeconds: number }[] = [];
  // Large outputs come back in shared memory to `client`; to `socketClient` through the socket.
  const viaSocket = size === 1 ? await socketClient.schedule(workload, graph, options) : undefined;
  const c: number[] = [];
  const d: number[] = [];
  const e: number[] = [];
  // The sides' order is drawn afresh each round: a side leaves its processes' after-work on whatever
  // comes next (a pool's workers poll for 2 ms after a job, a server polls for the next request, a
  // collector runs), so no side may always follow the same one. (It turned round-robin before,
  // which keeps every side's predecessor: runHere always came after the polling-off server's GCN.)
  const sides: (() => Promise<void>)[] = [
    () => block(() => used(lib.runPlan(local, run)), size, warm, a, aRuns),
    () => block(() => used(client.runPlan(served, run)), size, warm, b, bRuns),
    ...(viaSocket ? [() => block(() => used(socketClient.runPlan(viaSocket, run)), size, warm, c)] : []),
    () => block(() => used(sleepingClient.runPlan(sleeping, run)), size, warm, d),
    () => block(() => used(client.runHere(served, here, run)), size, warm, e, eRuns),
    ...(size > 1 ? [() => block(roundTrip, size, warm, floor)] : []),
  ];
  const order = new Rng(ORDER_SEED, blocks);
  for (let i = 0; i < blocks; i++) for (const j of randomPermutation(order, sides.length)) await sides[j]!();
  const over = (median(b) - median(a)) * 1000;
  console.log(`${label}: ${graph.rows} vertices, ${graph.nnz} entries; mapping in-process ${local.chosen.label} | served ${served.chosen.label}`);
  console.log(
    `  in-process ms ${spread(a)}; served ms ${spread(b)}; served / in-process ${(median(b) / median(a)).toFixed(3)}; overhead ${over.toFixed(0)} us per request (medians of ${a.length})`,
  );
  if (d.length > 0)
    console.log(
      `  served, polling off (--poll-us 0): ms ${spread(d)}; overhead ${((median(d) - median(a)) * 1000).toFixed(0)} us per request: polling saves ${((median(d) - median(b)) * 1000).toFixed(0)} us`,
    );
  console.log(
    `  run here on devices the server grants (runHere): ms ${spread(e)}; / in-process ${(median(e) / median(a)).toFixed(3)}; overhead ${((median(e) - median(a)) * 1000).toFixed(0)} us per request`,
  );
  if (size === 1) {
    // One request of each side a round: the per-round ratio cancels the machine's drift between rounds.
    const perRound = (xs: number[]): string => median(xs.map((x, i) => x / a[i]!)).toFixed(3);
    console.log(`  medians of per-round ratios to in-process: served ${perRound(b)}; runHere ${perRound(e)}; polling off ${perRound(d)}`);
  }
  if (c.length > 0) console.log(`  served with its outputs through the socket ms ${spread(c)}; served / in-process ${(median(c) / median(a)).toFixed(3)}`);
  const wall = (rs: { wallSeconds: number }[]): string => spread(rs.map((r) => r.wallSeconds * 1000));
  console.log(`  the run alone (its wallSeconds): in-process ms ${wall(aRuns)}; inside the server ms ${wall(bRuns)}; run here ms ${wall(eRuns)}`);
  const held = bRuns.flatMap((r, i) => (r.serverSeconds === undefined ? [] : [{ run: r.wallSeconds * 1000, held: r.serverSeconds * 1000, call: b[i]! }]));
  if (held.length > 0)
    console.log(
      `  served, where the time goes (medians, ms): the run inside the server ${median(held.map((h) => h.run)).toFixed(2)}; the server around it ${median(held.map((h) => h.held - h.run)).toFixed(2)}; transport and the client's decoding ${median(held.map((h) => h.call - h.held)).toFixed(2)}`,
    );
  if (floor.length > 0) {
    const f = median(floor) * 1000;
    console.log(
      `  transport floor (a bare Node peer answering ${TINY_REPLY_BYTES} bytes): us ${spread(floor.map((x) => x * 1000))}; overhead above the floor ${(over - f).toFixed(0)} us`,
    );
  }
}

/**
 * A loop of runs of one plan, as an application serving a stream of requests makes them: blocks of
 * LOOP_RUNS in-process and with `runHere` keeping its lease (the last of a block lets it go, so the
 * other sides never wait for it), in a fresh order each round; each block's first run not counted
 * (`runHere`'s asks for the grant). Medians of the per-round ratios of the blocks' medians.
 */
async function keptLoop(graph: ReturnType<Lib['kroneckerGraph']>, rounds: number): Promise<void> {
  const options = { probe: false, policy: 'min-time' } as const;
  const served = await client.schedule('gcn', graph, options);
  const here = await lib.schedule('gcn', graph, { ...options, system, model, fixedMapping: served.mapping });
  const run = { replan: false, learn: false } as const;
  const inProcess: number[] = [];
  const kept: number[] = [];
  const loop = async (call: (last: boolean) => Promise<unknown>, into: number[]): Promise<void> => {
    await block(() => call(false), 1, 1, []); // a settled machine, then the block's first run, not counted
    const times: number[] = [];
    for (let i = 1; i < LOOP_RUNS; i++) {
      const t = performance.now();
      await call(i === LOOP_RUNS - 1);
      times.push(ms(t));
    }
    into.push(median(times));
  };
  const order = new Rng(ORDER_SEED, rounds + 1);
  for (let r = 0; r < rounds; r++) {
    const sides = [() => loop(() => lib.runPlan(here, run), inProcess), () => loop((last) => client.runHere(served, here, { ...run, keepLease: !last }), kept)];
    for (const j of randomPermutation(order, 2)) await sides[j]!();
  }
  const ratios = kept.map((k, i) => k / inProcess[i]!);
  console.log(
    `gcn in a loop (${rounds} rounds of ${LOOP_RUNS} runs a side): in-process ms ${spread(inProcess)}; runHere keeping its lease ms ${spread(kept)}; per-round ratio ${spread(ratios)}`,
  );
}

/** Upload `rows` x 64 FP32 features, new content each time, through the socket and through shared memory. */
async function uploads(rows: number, rounds: number): Promise<void> {
  const data = new Float32Array(rows * 64).map((_, i) => (i % 97) / 97);
  const bytes = data.byteLength;
  const times = { socket: [] as number[], shared: [] as number[], copy: [] as number[] };
  const via = new Set<string>();
  for (let r = 0; r < rounds + 1; r++) {
    for (const [side, c] of [
      ['socket', socketClient],
      ['shared', client],
    ] as const) {
      data[0] = r + (side === 'shared' ? 0.5 : 0);
      const m = new lib.DenseMatrix(rows, 64, data);
      const t = performance.now();
      const up = await c.upload(m);
      if (r > 0) times[side].push(ms(t));
      via.add(`${side}: ${up.via}`);
    }
    const t = performance.now();
    data.slice();
    if (r > 0) times.copy.push(ms(t));
  }
  const rate = (xs: number[]): string => `${(bytes / 1e6 / median(xs)).toFixed(2)} GB/s`;
  console.log(`upload of ${rows} x 64 FP32 (${(bytes / 2 ** 20).toFixed(1)} MiB), ${[...via].join(', ')}; medians of ${rounds}`);
  console.log(
    `  through the socket ms ${spread(times.socket)} (${rate(times.socket)}); through shared memory ms ${spread(times.shared)} (${rate(times.shared)})`,
  );
  console.log(
    `  socket / shared memory ${(median(times.socket) / median(times.shared)).toFixed(2)}x; one in-process copy ms ${spread(times.copy)} (${rate(times.copy)})`,
  );
}

try {
  await uploads(1 << 16, args.quick ? 5 : 15);
  if (!args.quick) await uploads(1 << 18, 7);
  console.log(`library and server from ${args.sources ? 'the sources (tsx)' : 'the build (dist/)'}`);
  const statusTimes: number[] = [];
  for (let i = 0; i < 4 * TINY_BLOCKS; i++) await block(() => client.status(), BLOCK, WARM, statusTimes);
  console.log(`status round trip: ms ${spread(statusTimes)} (medians of ${statusTimes.length})`);
  await compare('tiny job (spmm)', 'spmm', lib.kroneckerGraph({ scale: 6, edgeFactor: 4, seed: 1 }), TINY_BLOCKS, BLOCK, WARM);
  const kronecker16 = lib.kroneckerGraph({ scale: 16, edgeFactor: 8, seed: 1 });
  await compare('gcn', 'gcn', kronecker16, GCN_ROUNDS, 1, 0);
  await keptLoop(kronecker16, args.quick ? 5 : 40);
  if (Number.isNaN(pageSink)) console.log('(an output read one value a page held NaN)');
} finally {
  await client.close();
  await socketClient.close();
  await sleepingClient.close();
  peer.destroy();
  for (const c of [server, sleepingServer, echo]) {
    c.kill('SIGTERM');
    await new Promise((r) => c.once('exit', r));
  }
  await system.dispose();
  rmSync(dir, { recursive: true, force: true });
}

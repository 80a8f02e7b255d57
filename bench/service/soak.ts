// Issue 22's hostile soak: a `dype serve` process and 64 concurrent clients in 4 client processes
// (two tenants), about 10,000 requests: valid runs checked against a local reference, status
// calls, cancels of other tenants' job ids, wrong tokens, fuzzed, oversized and malformed frames,
// and clients that vanish mid-job. Passes when the server never exits, every valid run is
// answered with its own output or a typed error, nothing is lost or misdelivered, every refusal
// is typed, and the server still answers and drains cleanly at the end.
// Run: node --import tsx bench/service/soak.ts [--quick] [--processes 4] [--connections 16] [--requests 160]

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '../../src/service/client.js';
import type { SoakConfig, SoakCounts } from './soak-client.js';

export interface SoakSettings {
  readonly processes: number;
  readonly connections: number;
  readonly requests: number;
}

export interface SoakOutcome {
  readonly counts: SoakCounts;
  readonly requests: number;
  readonly serverExitedEarly: boolean;
  readonly answeredAfter: boolean;
  readonly drainCode: number | null;
  readonly seconds: number;
}

const TOKENS = ['soak-tenant-a-token-0123456789', 'soak-tenant-b-token-9876543210'];
const MAX_FRAME = 1 << 20;
const root = join(import.meta.dirname, '..', '..');
/** tsx would keep a transpile cache in the system's temporary folder; the processes here leave nothing behind. */
const NO_TSX_CACHE = { TSX_DISABLE_CACHE: '1' };

/** Run the soak; the server and every client are processes of their own. */
export async function runSoak(s: SoakSettings): Promise<SoakOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'dype-soak-'));
  const policy = join(dir, 'policy.json');
  writeFileSync(policy, JSON.stringify({ tenants: TOKENS.map((token, i) => ({ name: `t${i}`, token, maxQueued: 4096 })) }));
  const socket = join(dir, 'd.sock');
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts'), 'serve', '--socket', socket, '--policy', policy, '--max-frame', String(MAX_FRAME)],
    { cwd: root, env: { ...process.env, ...NO_TSX_CACHE, DYPE_CACHE_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<number | null>((r) => server.once('close', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (b: Buffer) => b.toString().includes('listening on') && resolve());
    void exited.then(() => reject(new Error('dype serve exited before listening')));
  });
  let stillRunning = true;
  void exited.then(() => (stillRunning = false));
  const t0 = performance.now();
  const clients = Array.from({ length: s.processes }, (_, p) => {
    const config: SoakConfig = {
      address: `unix:${socket}`,
      token: TOKENS[p % 2]!,
      seed: 7 + p,
      connections: s.connections,
      requests: s.requests,
      maxFrame: MAX_FRAME,
    };
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'soak-client.ts'), JSON.stringify(config)], {
      cwd: root,
      env: { ...process.env, ...NO_TSX_CACHE },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => void (out += b.toString()));
    return new Promise<SoakCounts>((resolve, reject) =>
      child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out) as SoakCounts) : reject(new Error(`soak client ${p} exited ${code}`)))),
    );
  });
  const all = await Promise.all(clients);
  const seconds = (performance.now() - t0) / 1000;
  const counts: SoakCounts = { valid: 0, verified: 0, mismatched: 0, lost: 0, typed: {}, untyped: [], hostile: 0 };
  for (const c of all) {
    counts.valid += c.valid;
    counts.verified += c.verified;
    counts.mismatched += c.mismatched;
    counts.lost += c.lost;
    counts.hostile += c.hostile;
    counts.untyped.push(...c.untyped);
    for (const [k, v] of Object.entries(c.typed)) counts.typed[k] = (counts.typed[k] ?? 0) + v;
  }
  const exitedEarly = !stillRunning;
  // Still serving: a fresh client gets an answer; then SIGTERM drains it to a clean exit.
  let answeredAfter = false;
  if (stillRunning) {
    const c = await connect(`unix:${socket}`, { token: TOKENS[0]! });
    answeredAfter = (await c.status()).tenants.length === 2;
    await c.close();
    server.kill('SIGTERM');
  }
  const drainCode = await exited;
  rmSync(dir, { recursive: true, force: true });
  return { counts, requests: s.processes * s.connections * s.requests, serverExitedEarly: exitedEarly, answeredAfter, drainCode, seconds };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: args } = parseArgs({
    options: { quick: { type: 'boolean', default: false }, processes: { type: 'string' }, connections: { type: 'string' }, requests: { type: 'string' } },
    strict: true,
  });
  const settings = {
    processes: Number(args.processes ?? 4),
    connections: Number(args.connections ?? (args.quick ? 4 : 16)),
    requests: Number(args.requests ?? (args.quick ? 20 : 160)),
  };
  const o = await runSoak(settings);
  const c = o.counts;
  console.log(
    `hostile soak: ${settings.processes} processes x ${settings.connections} clients x ${settings.requests} requests = ${o.requests} requests in ${o.seconds.toFixed(1)} s`,
  );
  console.log(`valid runs ${c.valid}: verified ${c.verified}, mismatched ${c.mismatched}, lost ${c.lost}; hostile exchanges ${c.hostile}`);
  console.log(
    `typed refusals: ${JSON.stringify(c.typed)}; untyped errors: ${c.untyped.length}${c.untyped.length ? ` (${c.untyped.slice(0, 3).join(' | ')})` : ''}`,
  );
  console.log(`server exited early: ${o.serverExitedEarly}; answered after: ${o.answeredAfter}; drain exit code: ${o.drainCode}`);
  const pass = !o.serverExitedEarly && o.answeredAfter && o.drainCode === 0 && c.mismatched === 0 && c.lost === 0 && c.untyped.length === 0;
  console.log(pass ? 'PASS' : 'FAIL');
  process.exitCode = pass ? 0 : 1;
}

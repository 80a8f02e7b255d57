// The CLI against a running server: `dype status` (text and --json), and `--server` on `system`,
// `explore` and `run`, with the token from --token, DYPE_TOKEN, or the file beside the socket.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DypeServer } from '../../src/service/server.js';
import { spawnCli } from '../support/spawn-cli.js';
import { inProcessServer } from './support.js';

let server: DypeServer;
let address = '';
let dir = '';

beforeAll(async () => {
  ({ server, address, dir } = await inProcessServer());
});
afterAll(async () => server.close());

it('dype status shows tenants, devices and the store; --json has them as data', async () => {
  // No --token: the token file beside the socket is found.
  const text = await spawnCli(['status', '--server', address], { cwd: dir });
  expect(text.err).toBe('');
  expect(text.code).toBe(0);
  expect(text.out).toMatch(/you are tenant "default"/);
  expect(text.out).toMatch(/^default\s+1\s+0\s+0\/64/m);
  expect(text.out).toMatch(/^Store: /m);
  const json = await spawnCli(['status', '--server', address, '--json'], { cwd: dir, env: { DYPE_TOKEN: readFileSync(server.tokenFile!, 'utf8').trim() } });
  const s = JSON.parse(json.out) as { command: string; tenant: string; devices: { name: string }[] };
  expect(s.command).toBe('status');
  expect(s.devices.map((d) => d.name)).toEqual(server.state.system.devices.map((d) => d.name));
  const bad = await spawnCli(['status', '--server', address, '--token', 'wrong-token-wrong-token'], { cwd: dir });
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/^dype: serve\.hello: the token is not valid for this server/);
});

it('dype system --server and dype explore --server answer from the server', async () => {
  const sys = await spawnCli(['system', '--server', address, '--json'], { cwd: dir });
  expect(sys.code, sys.err).toBe(0);
  expect((JSON.parse(sys.out) as { devices: unknown[] }).devices.length).toBe(server.state.system.devices.length);
  const ex = await spawnCli(['explore', 'spmm', '--generate', 'kron12', '--server', address, '--no-plot', '--json'], { cwd: dir });
  expect(ex.code, ex.err).toBe(0);
  expect((JSON.parse(ex.out) as { front: unknown[] }).front.length).toBeGreaterThan(0);
  const measure = await spawnCli(['explore', '--server', address, '--measure'], { cwd: dir });
  expect(measure.code).toBe(2);
  expect(measure.err).toMatch(/does not go with --server/);
});

it('dype run --server plans and runs on the server and reports here', async () => {
  const run = await spawnCli(['run', 'gcn', '--generate', 'kron12', '--server', address, '--no-plot', '--no-trace', '--json'], { cwd: dir });
  expect(run.code, run.err).toBe(0);
  const r = JSON.parse(run.out) as { command: string; plan: { mapping: string }; pieces: { op: string }[]; observed: { makespan: number } };
  expect(r.command).toBe('run');
  expect(new Set(r.pieces.map((p) => p.op))).toEqual(new Set(['xw1', 'agg1', 'h1', 'xw2', 'agg2']));
  expect(r.observed.makespan).toBeGreaterThan(0);
  const text = await spawnCli(['run', 'spmm', '--generate', 'kron12', '--server', address, '--no-plot', '--no-trace'], { cwd: dir });
  expect(text.code, text.err).toBe(0);
  expect(text.out).toMatch(/^Plan \(min-time\): /m);
  expect(text.out).toMatch(/^Makespan /m);
  // A stream workload: one input of its stream plan runs on the server.
  const stream = await spawnCli(['run', 'stream:gcn', '--generate', 'kron12', '--server', address, '--no-plot', '--no-trace', '--json'], { cwd: dir });
  expect(stream.code, stream.err).toBe(0);
  expect(new Set((JSON.parse(stream.out) as { pieces: { op: string }[] }).pieces.map((p) => p.op))).toEqual(new Set(['xw1', 'agg1', 'h1', 'xw2', 'agg2']));
});

it('dype explore --server plans a stream workload as a stream: seconds per input in steady state, below one input alone', async () => {
  const ex = await spawnCli(['explore', 'stream:spmm', '--generate', 'kron12', '--server', address, '--no-plot', '--json'], { cwd: dir });
  expect(ex.code, ex.err).toBe(0);
  const front = (JSON.parse(ex.out) as { front: { time: number; latency: number; mapping: string }[] }).front;
  // A split pipelines its inputs: its period is under the latency of one input.
  expect(front.some((p) => p.mapping.includes('+') && p.time < p.latency)).toBe(true);
});

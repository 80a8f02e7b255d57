// A real `dype serve` process against hostile clients: random bytes as frames (fuzzed), an
// oversized frame, malformed msgpack, unknown request types, wrong field types, bad matrices, a
// wrong token, and a client that leaves mid-job. Each gets a typed error (never a crash), and
// the server goes on serving the others, delivering each reply only to the connection that asked.

import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccessError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import { encodeMatrix } from '../../src/service/wire-values.js';
import { RawClient, serverProcess, type ServerProcess, TOKENS } from './support.js';

const CODES = ['ERR_INVALID_ARGUMENT', 'ERR_FORMAT', 'ERR_LIMIT', 'ERR_UNSUPPORTED', 'ERR_ACCESS'];
const LIMIT = 1 << 20;
let proc: ServerProcess;
let good: DypeClient;
const graph = kroneckerGraph({ scale: 8, edgeFactor: 8, seed: 2 });

beforeAll(async () => {
  proc = await serverProcess(['--max-frame', String(LIMIT)]);
  good = await connect(proc.address, { token: TOKENS.b });
});
afterAll(async () => {
  await good.close();
  proc.child.kill('SIGKILL');
  await proc.exited;
});

it('answers fuzzed frames of random bytes with one typed error each, and keeps serving', async () => {
  const { raw, reply } = await RawClient.hello(proc.address, TOKENS.a);
  expect(reply['type']).toBe('welcome');
  const bodies = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 300 }), { numRuns: 300, seed: 22 });
  for (const body of bodies) raw.sendBody(body);
  for (let i = 0; i < bodies.length; i++) {
    const r = await raw.next();
    expect(r['type']).toBe('error');
    expect(CODES).toContain((r['error'] as { code: string }).code);
  }
  // The same connection still works, and so does everyone else's.
  raw.send({ type: 'status', id: 9 });
  expect(await raw.next()).toMatchObject({ type: 'result', id: 9 });
  await expect(good.schedule('spmm', graph, { probe: false })).resolves.toMatchObject({ workload: 'spmm' });
  raw.close();
});

it('refuses oversized and malformed frames, unknown requests, wrong fields and bad matrices with typed errors', async () => {
  const { raw } = await RawClient.hello(proc.address, TOKENS.a);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(LIMIT * 4, 0);
  raw.sendBytes(head);
  raw.sendBytes(Buffer.alloc(LIMIT * 4, 0x91)); // skipped, never parsed
  expect(await raw.next()).toMatchObject({
    id: 0,
    error: { code: 'ERR_LIMIT', message: expect.stringMatching(/frame of 4194304 bytes is over the limit of 1048576/) },
  });
  raw.sendBody(Buffer.from([0xa5, 0x61]));
  expect(await raw.next()).toMatchObject({ id: 0, error: { name: 'FormatError', code: 'ERR_FORMAT' } });
  const cases: [unknown, RegExp, string][] = [
    [{ type: 'uplod', id: 5 }, /field "type" must be one of .* \(did you mean "upload"\?\)/, 'ERR_INVALID_ARGUMENT'],
    [{ type: 'status', id: -1 }, /field "id" must be an integer/, 'ERR_INVALID_ARGUMENT'],
    [{ type: 'schedule', id: 6, workload: 5, data: 'x' }, /serve\.schedule: field "workload" must be a shipped workload's name/, 'ERR_INVALID_ARGUMENT'],
    [{ type: 'schedule', id: 7, workload: 'gcn', data: 'abc' }, /serve\.schedule: field "data" must be a content hash/, 'ERR_INVALID_ARGUMENT'],
    [
      { type: 'schedule', id: 8, workload: 'gcn', data: 'a'.repeat(64), optoins: {} },
      /unknown field "optoins" \(did you mean "options"\?\)/,
      'ERR_INVALID_ARGUMENT',
    ],
    [{ type: 'run', id: 10, plan: 7 }, /no kept plan 7/, 'ERR_INVALID_ARGUMENT'],
    [
      { type: 'explore', id: 14, workload: 'spmm', data: 'a'.repeat(64), stream: 'yes' },
      /serve\.explore: field "stream" must be true or false, got "yes"/,
      'ERR_INVALID_ARGUMENT',
    ],
    [{ type: 'cancel', id: 11, job: 'j1' }, /serve\.cancel/, 'ERR_INVALID_ARGUMENT'],
    [
      { type: 'upload', id: 12, matrix: { kind: 'csr', rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 2), colIdx: Int32Array.of(0, 5) } },
      /^CsrMatrix: .*5/,
      'ERR_INVALID_ARGUMENT',
    ],
    [
      { type: 'upload', id: 13, matrix: { kind: 'dense', rows: 2, cols: 1, data: Float64Array.of(1, NaN) } },
      /^DenseMatrix: element \(1, 0\) = NaN is not finite/,
      'ERR_INVALID_ARGUMENT',
    ],
    [
      { type: 'upload', id: 14, matrix: { kind: 'dense', rows: 3, cols: 1, data: Float64Array.of(1, 2) } },
      /^DenseMatrix: data has length 2, expected rows \* cols = 3/,
      'ERR_INVALID_ARGUMENT',
    ],
    [
      { type: 'upload', id: 15, matrix: { kind: 'csr', rows: 2, cols: 2, rowPtr: [0, 1, 2], colIdx: Int32Array.of(0, 1) } },
      /field "matrix\.rowPtr" must be a typed array \(Int32Array or BigInt64Array\), got Array\(3\)/,
      'ERR_INVALID_ARGUMENT',
    ],
    [{ type: 'upload', id: 16, matrix: { ...encodeMatrix(graph), rows: 1e12 } }, /^CsrMatrix: /, 'ERR_INVALID_ARGUMENT'],
    [{ type: 'upload', id: 17, matrix: encodeMatrix(kroneckerGraph({ scale: 15, edgeFactor: 16, seed: 1 })) }, /over the limit of 1048576/, 'ERR_LIMIT'],
  ];
  for (const [message, pattern, code] of cases) {
    raw.send(message);
    const r = await raw.next();
    const id = (message as { id: number }).id;
    expect(r, JSON.stringify(message).slice(0, 80)).toMatchObject({ type: 'error', id: id === 17 || id < 0 ? 0 : id, error: { code } });
    expect((r['error'] as { message: string }).message).toMatch(pattern);
  }
  raw.close();
  await expect(connect(proc.address, { token: 'not-a-token-of-anyone-here' })).rejects.toThrow(AccessError);
  expect(proc.child.exitCode).toBe(null);
});

it('a client leaving mid-job blocks no one, and its result goes to no one else', async () => {
  const { raw: leaver } = await RawClient.hello(proc.address, TOKENS.a);
  const big = kroneckerGraph({ scale: 11, edgeFactor: 8, seed: 9 });
  leaver.send({ type: 'upload', id: 1, matrix: encodeMatrix(big) });
  const up = await leaver.next();
  expect(up).toMatchObject({ type: 'result', id: 1 });
  const hash = (up['result'] as { hash: string }).hash;
  leaver.send({ type: 'run', id: 2, workload: 'gcn', data: hash, options: { probe: false } });
  leaver.send({ type: 'run', id: 3, workload: 'spmm', data: hash, options: { probe: false } });
  leaver.close();
  // Another tenant's raw connection: every reply it gets answers one of its own requests.
  const { raw: other } = await RawClient.hello(proc.address, TOKENS.b);
  const mine = [21, 22, 23];
  other.send({ type: 'upload', id: 21, matrix: encodeMatrix(graph) });
  const h = ((await other.next())['result'] as { hash: string }).hash;
  other.send({ type: 'run', id: 22, workload: 'spmm', data: h, options: { probe: false } });
  other.send({ type: 'status', id: 23 });
  const replies = [await other.next(), await other.next()];
  expect(replies.map((r) => r['id']).sort()).toEqual([22, 23]);
  for (const r of replies) expect(mine).toContain(r['id']);
  expect(replies.find((r) => r['id'] === 22)!['type']).toBe('result');
  // Nothing more arrives for this connection.
  await expect(other.next(500)).rejects.toThrow('no reply');
  other.close();
  const st = await good.status();
  const a = st.tenants.find((t) => t.name === 'a')!;
  expect(a.running + a.queued).toBe(0);
});

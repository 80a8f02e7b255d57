// Uploads through shared memory (Linux): a Unix-socket client writes a large matrix into a region
// the server maps, and gets the same hash, the same stored matrix and the same results as through
// the socket. A region is sealed once uploaded (its writer can no longer change what was hashed),
// used once, and only by the connection that reserved it; every bad descriptor of an array in it
// is a typed error naming the field.

import { closeSync, openSync, writeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import { sharedRegionsAvailable } from '../../src/service/shared-regions.js';
import { contentHash } from '../../src/service/wire-values.js';
import type { DypeServer } from '../../src/service/server.js';
import { join } from 'node:path';
import { startServer } from '../../src/service/server.js';
import { tempFolder } from '../support/temp.js';
import { inProcessServer, RawClient, regionDescriptors, settle, TOKENS, twoTenantPolicy } from './support.js';

const available = sharedRegionsAvailable().available;
let server: DypeServer;
let address = '';
let shared: DypeClient;
let socketOnly: DypeClient;
const graph = kroneckerGraph({ scale: 13, edgeFactor: 16, seed: 3 });
const x = new DenseMatrix(
  graph.cols,
  32,
  Float32Array.from({ length: graph.cols * 32 }, (_, i) => ((i * 7919) % 1000) / 1000 - 0.5),
);

beforeAll(async () => {
  ({ server, address } = await inProcessServer({ policy: true }));
  shared = await connect(address, { token: TOKENS.a });
  socketOnly = await connect(address, { token: TOKENS.b, sharedMemory: false });
});
afterAll(async () => {
  await shared?.close();
  await socketOnly?.close();
  await server?.close();
});

/** A raw connection of tenant a with a region of `bytes` reserved and `fill` written at its start. */
async function reserved(bytes: number, fill?: Uint8Array): Promise<{ raw: RawClient; region: number; path: string }> {
  const { raw, reply } = await RawClient.hello(address, TOKENS.a);
  expect(reply['sharedMemory']).toBe(true);
  raw.send({ type: 'reserve', id: 1, bytes });
  const r = (await raw.next()) as { result: { region: number; path: string } };
  if (fill) {
    const fd = openSync(r.result.path, 'r+');
    writeSync(fd, fill, 0, fill.length, 0);
    closeSync(fd);
  }
  return { raw, ...r.result };
}

describe.skipIf(!available)('shared-memory uploads', () => {
  it('give the hash and the results the socket gives', async () => {
    const viaRegion = await shared.upload(graph);
    const viaSocket = await socketOnly.upload(graph);
    expect(viaRegion).toMatchObject({ hash: contentHash(graph), stored: 'new', via: 'shared-memory' });
    expect(viaSocket).toMatchObject({ hash: viaRegion.hash, stored: 'shared', via: 'socket' });
    const options = { probe: false, policy: 'min-time' } as const;
    const a = await shared.run('spmm', { A: graph, X: x }, options);
    const b = await socketOnly.run('spmm', { A: graph, X: x }, options);
    // The output (1 MiB) comes back in a region to the client that can map one.
    expect([a.outputsVia, b.outputsVia]).toEqual(['shared-memory', 'socket']);
    const ya = (a.outputs['Y'] as DenseMatrix).data;
    const yb = (b.outputs['Y'] as DenseMatrix).data;
    expect(ya.length).toBe(graph.rows * 32);
    // The two runs may split the rows differently (the order of the sums differs), not the inputs.
    let worst = 0;
    for (let i = 0; i < ya.length; i++) worst = Math.max(worst, Math.abs(ya[i]! - yb[i]!) / (1 + Math.abs(yb[i]!)));
    expect(worst).toBeLessThan(1e-5);
  });

  it('small matrices still go through the socket', async () => {
    const small = kroneckerGraph({ scale: 6, edgeFactor: 4, seed: 1 });
    expect((await shared.upload(small)).via).toBe('socket');
  });

  it('seal the region: its writer cannot change it after the upload', async () => {
    const data = Float32Array.from({ length: 1024 }, (_, i) => i);
    const { raw, region, path } = await reserved(data.byteLength, new Uint8Array(data.buffer));
    const writer = openSync(path, 'r+');
    try {
      raw.send({ type: 'upload', id: 2, region, matrix: { kind: 'dense', rows: 32, cols: 32, data: { type: 'Float32Array', offset: 0, length: 1024 } } });
      const up = (await raw.next()) as { result: { hash: string; via: string } };
      expect(up.result).toMatchObject({ hash: contentHash(new DenseMatrix(32, 32, data)), via: 'shared-memory' });
      expect(() => writeSync(writer, new Uint8Array(4), 0, 4, 0)).toThrow(/EPERM|not permitted/);
    } finally {
      closeSync(writer);
      raw.socket.destroy();
    }
  });

  it('use a region once, and only on the connection that reserved it', async () => {
    const data = new Float64Array(64).fill(1);
    const { raw, region } = await reserved(data.byteLength, new Uint8Array(data.buffer));
    const other = await reserved(8);
    const matrix = { kind: 'dense', rows: 8, cols: 8, data: { type: 'Float64Array', offset: 0, length: 64 } };
    try {
      other.raw.send({ type: 'upload', id: 5, region: region + 100, matrix });
      expect(await other.raw.next()).toMatchObject({
        type: 'error',
        error: { code: 'ERR_INVALID_ARGUMENT', message: expect.stringMatching(/field "region"/) },
      });
      raw.send({ type: 'upload', id: 2, region, matrix });
      expect(await raw.next()).toMatchObject({ type: 'result', result: { via: 'shared-memory' } });
      raw.send({ type: 'upload', id: 3, region, matrix });
      expect(await raw.next()).toMatchObject({
        type: 'error',
        error: { code: 'ERR_INVALID_ARGUMENT', message: expect.stringMatching(/not a region this connection reserved/) },
      });
    } finally {
      raw.socket.destroy();
      other.raw.socket.destroy();
    }
  });

  it.each([
    ['an unknown type', { type: 'Uint8Array', offset: 0, length: 8 }, /data\.type" must be one of/],
    ['a misaligned offset', { type: 'Float64Array', offset: 4, length: 8 }, /data\.offset" must be a non-negative multiple of 8/],
    [
      'a length past the end',
      { type: 'Float64Array', offset: 0, length: 9 },
      /data\.length" must be a count of elements that ends inside the region of 64 bytes/,
    ],
    ['an extra field', { type: 'Float64Array', offset: 0, length: 8, stride: 2 }, /data\.stride" is not part of an array in a region/],
  ])('refuse %s with a typed error', async (_what, data, message) => {
    const { raw, region } = await reserved(64, new Uint8Array(64));
    try {
      raw.send({ type: 'upload', id: 2, region, matrix: { kind: 'dense', rows: 1, cols: 8, data } });
      expect(await raw.next()).toMatchObject({ type: 'error', error: { code: 'ERR_INVALID_ARGUMENT', message: expect.stringMatching(message) } });
    } finally {
      raw.socket.destroy();
    }
  });

  it('close the regions a client leaves unused when it goes', async () => {
    const descriptors = regionDescriptors;
    const before = descriptors();
    const { raw } = await RawClient.hello(address, TOKENS.a);
    for (let i = 0; i < 3; i++) {
      raw.send({ type: 'reserve', id: 1 + i, bytes: 4096 });
      expect(await raw.next()).toMatchObject({ type: 'result' });
    }
    expect(descriptors()).toBe(before + 3);
    raw.socket.destroy();
    expect(await settle(descriptors, before)).toBe(before);
  });

  it('bound what a connection may reserve', async () => {
    const { raw } = await RawClient.hello(address, TOKENS.a);
    try {
      raw.send({ type: 'reserve', id: 1, bytes: 2 ** 40 });
      expect(await raw.next()).toMatchObject({
        type: 'error',
        error: { code: 'ERR_LIMIT', message: expect.stringMatching(/more than one upload may hold here/) },
      });
      raw.send({ type: 'reserve', id: 2, bytes: -1 });
      expect(await raw.next()).toMatchObject({
        type: 'error',
        error: { code: 'ERR_INVALID_ARGUMENT', message: expect.stringMatching(/field "bytes" must be a positive integer/) },
      });
      for (let i = 0; i < 4; i++) {
        raw.send({ type: 'reserve', id: 10 + i, bytes: 64 });
        expect(await raw.next()).toMatchObject({ type: 'result' });
      }
      raw.send({ type: 'reserve', id: 20, bytes: 64 });
      expect(await raw.next()).toMatchObject({ type: 'error', error: { code: 'ERR_LIMIT', message: expect.stringMatching(/already holds 4 unused regions/) } });
      // Unused regions count together against what one upload may hold (the store's 4 GiB here).
      const { raw: other } = await RawClient.hello(address, TOKENS.a);
      other.send({ type: 'reserve', id: 1, bytes: 3 * 2 ** 30 });
      expect(await other.next()).toMatchObject({ type: 'result' });
      other.send({ type: 'reserve', id: 2, bytes: 2 ** 30 + 1 });
      expect(await other.next()).toMatchObject({ type: 'error', error: { code: 'ERR_LIMIT', message: expect.stringMatching(/beside the 3221225472 bytes/) } });
      other.socket.destroy();
    } finally {
      raw.socket.destroy();
    }
  });
});

it('are offered only on the Unix socket, and not when the server turns them off', async () => {
  const dir = tempFolder('dype-serve-shm-');
  const tcpServer = await startServer({ socket: join(dir, 'd.sock'), tcp: '127.0.0.1:0', policy: twoTenantPolicy(dir), log: () => {} });
  const off = await startServer({ socket: join(dir, 'e.sock'), policy: twoTenantPolicy(dir), sharedMemory: false, log: () => {} });
  const clients: DypeClient[] = [];
  try {
    const [unixAddress, tcpAddress] = tcpServer.addresses;
    clients.push(await connect(tcpAddress!, { token: TOKENS.a }), await connect(off.addresses[0]!, { token: TOKENS.a }));
    for (const c of clients) expect((await c.upload(graph)).via).toBe('socket');
    const { raw, reply } = await RawClient.hello(unixAddress!, TOKENS.a);
    expect(reply['sharedMemory']).toBe(available ? true : undefined);
    raw.socket.destroy();
    const refused = await RawClient.hello(off.addresses[0]!, TOKENS.a);
    expect(refused.reply['sharedMemory']).toBeUndefined();
    refused.raw.send({ type: 'reserve', id: 1, bytes: 64 });
    expect(await refused.raw.next()).toMatchObject({
      type: 'error',
      error: { code: 'ERR_UNSUPPORTED', message: expect.stringMatching(/serve\.reserve: shared-memory uploads are off here/) },
    });
    refused.raw.socket.destroy();
  } finally {
    for (const c of clients) await c.close();
    await tcpServer.close();
    await off.close();
  }
});

it('connect refuses a sharedMemory option that is not a boolean, naming it', async () => {
  await expect(connect(address, { token: TOKENS.a, sharedMemory: 'yes' as unknown as boolean })).rejects.toThrow(
    /connect: sharedMemory must be true or false, got "yes"/,
  );
});

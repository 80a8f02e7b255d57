// A run's large outputs come back in a shared-memory region to a client that showed at connect
// that it can open the server's regions: the same values as through the socket, the region closed
// once the client has mapped it (or when the client leaves without saying so), and never usable
// as an upload's region.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { sharedRegionsAvailable } from '../../src/service/shared-regions.js';
import { inProcessServer, RawClient, regionDescriptors, settle, TOKENS } from './support.js';

let server: DypeServer;
let address = '';
let shared: DypeClient;
let socketOnly: DypeClient;
// 65,536 vertices: a BFS's depths are 256 KiB, the least that goes in a region.
const graph = kroneckerGraph({ scale: 16, edgeFactor: 4, seed: 9 });

beforeAll(async () => {
  ({ server, address } = await inProcessServer({ policy: true }));
  shared = await connect(address, { token: TOKENS.a });
  socketOnly = await connect(address, { token: TOKENS.a, sharedMemory: false });
});
afterAll(async () => {
  await shared?.close();
  await socketOnly?.close();
  await server?.close();
});

describe.skipIf(!sharedRegionsAvailable().available)('shared-memory replies', () => {
  it('carry the values the socket carries, and the region closes once mapped', async () => {
    const before = regionDescriptors();
    const options = { probe: false, policy: 'min-time' } as const;
    const a = await shared.run('bfs', graph, options);
    const b = await socketOnly.run('bfs', graph, options);
    expect([a.outputsVia, b.outputsVia]).toEqual(['shared-memory', 'socket']);
    const depthA = Object.values(a.outputs)[0] as Int32Array;
    const depthB = Object.values(b.outputs)[0] as Int32Array;
    expect(depthA).toBeInstanceOf(Int32Array);
    expect(depthA.length).toBe(graph.rows);
    expect(Array.from(depthA)).toEqual(Array.from(depthB));
    expect(await settle(regionDescriptors, before)).toBe(before);
  });

  it('are closed when a client that never maps them leaves, and cannot be uploaded from', async () => {
    const before = regionDescriptors();
    const { raw } = await RawClient.hello(address, TOKENS.a);
    raw.send({ type: 'reserve', id: 1, bytes: 1 });
    const probe = (await raw.next()) as { result: { region: number } };
    raw.send({ type: 'close-regions', id: 2, regions: [probe.result.region], maps: true });
    expect(await raw.next()).toMatchObject({ type: 'result', result: { closed: 1 } });
    const { hash } = await shared.upload(graph);
    raw.send({ type: 'run', id: 3, workload: 'bfs', data: hash, options: { probe: false } });
    const reply = (await raw.next()) as { type: string; result: { region: { region: number }; outputs: Record<string, unknown> } };
    expect(reply.type).toBe('result');
    const region = reply.result.region.region;
    expect(Object.values(reply.result.outputs)[0]).toMatchObject({ type: 'Int32Array', offset: 0, length: graph.rows });
    expect(regionDescriptors()).toBe(before + 1);
    raw.send({ type: 'upload', id: 4, region, matrix: { kind: 'dense', rows: 1, cols: 1, data: { type: 'Float32Array', offset: 0, length: 1 } } });
    expect(await raw.next()).toMatchObject({
      type: 'error',
      error: { code: 'ERR_INVALID_ARGUMENT', message: expect.stringMatching(/not a region this connection reserved/) },
    });
    raw.send({ type: 'close-regions', id: 5, regions: 'all' });
    expect(await raw.next()).toMatchObject({
      type: 'error',
      error: { code: 'ERR_INVALID_ARGUMENT', message: expect.stringMatching(/field "regions" must be an array/) },
    });
    raw.socket.destroy();
    expect(await settle(regionDescriptors, before)).toBe(before);
  });
});

// A run's large outputs come back in a shared-memory region to a client that showed at connect
// that it can open the server's regions: the same values as through the socket, the region closed
// once the client has mapped it (or when the client leaves without saying so), and never usable
// as an upload's region. A stream's results come back in one region. After a reply the server
// keeps one region made ahead for the connection's next reply of that size (reply-spare.test.ts),
// closed with the connection.

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
    // The reply's region closed once mapped; the one made ahead for the next reply stays.
    expect(await settle(regionDescriptors, before + 1)).toBe(before + 1);
  });

  it('carry every result of a stream in one region, the values the socket carries', async () => {
    const before = regionDescriptors();
    const inputs = [graph, kroneckerGraph({ scale: 16, edgeFactor: 4, seed: 10 })];
    const options = { probe: false, params: { k: 8 }, run: { replan: false } } as const;
    const a = await shared.runStream('spmm', inputs, options);
    const b = await socketOnly.runStream('spmm', inputs, options);
    expect(a.results.map((r) => r.outputsVia)).toEqual(['shared-memory', 'shared-memory']);
    expect(b.results.map((r) => r.outputsVia)).toEqual(['socket', 'socket']);
    for (const [i, r] of a.results.entries()) {
      const ya = Object.values(r.outputs)[0] as { rows: number; data: Float32Array };
      const yb = Object.values(b.results[i]!.outputs)[0] as { rows: number; data: Float32Array };
      expect(ya.rows).toBe(inputs[i]!.rows);
      expect(ya.data.length).toBe(inputs[i]!.rows * 8);
      // The two streams may be planned on different devices (each against the machine's backlog), which sum in other orders.
      let worst = 0;
      for (let j = 0; j < ya.data.length; j++) worst = Math.max(worst, Math.abs(ya.data[j]! - yb.data[j]!) / Math.max(1, Math.abs(yb.data[j]!)));
      expect(worst).toBeLessThan(1e-4);
      expect(ya.data.some((v) => v !== 0)).toBe(true);
    }
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
    // The reply's region, and the one made ahead for this connection's next reply.
    expect(await settle(regionDescriptors, before + 2)).toBe(before + 2);
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

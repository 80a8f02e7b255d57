// A large upload is hashed off the JS thread: a request sent right behind it is answered while
// the hash is still being taken, not after (before, the server hashed on its event loop and every
// other tenant's request waited for it).

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DypeServer } from '../../src/service/server.js';
import { inProcessServer, RawClient, TOKENS } from './support.js';

let server: DypeServer;
let address = '';

beforeAll(async () => {
  ({ server, address } = await inProcessServer({ policy: true }));
});
afterAll(async () => {
  await server?.close();
});

it('answers a status request sent behind a 32 MiB upload before the upload', async () => {
  const { raw } = await RawClient.hello(address, TOKENS.a);
  try {
    const rows = 2 ** 17;
    const data = new Float32Array(rows * 64).map((_, i) => (i % 251) / 251);
    raw.send({ type: 'upload', id: 1, matrix: { kind: 'dense', rows, cols: 64, data } });
    raw.send({ type: 'status', id: 2 });
    const first = await raw.next();
    const second = await raw.next();
    expect([first['id'], second['id']]).toEqual([2, 1]);
    expect(second).toMatchObject({ type: 'result', result: { stored: 'new', bytes: rows * 64 * 4, via: 'socket' } });
  } finally {
    raw.socket.destroy();
  }
});

// The handshake: a hello with the right protocol and token is welcomed with the tenant's name;
// another protocol version, a wrong token, or anything but a hello first gets one typed error
// frame and the connection is closed.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccessError, InvalidArgumentError } from '../../src/errors.js';
import { connect } from '../../src/service/client.js';
import { PROTOCOL_VERSION } from '../../src/service/protocol.js';
import type { DypeServer } from '../../src/service/server.js';
import { inProcessServer, RawClient } from './support.js';

let server: DypeServer;
let address = '';
let token = '';

beforeAll(async () => {
  ({ server, address } = await inProcessServer());
  token = readFileSync(server.tokenFile!, 'utf8').trim();
});
afterAll(async () => server.close());

it("writes the default tenant's token to a 0600 file and the socket with mode 0600", async () => {
  const { statSync } = await import('node:fs');
  expect(statSync(server.tokenFile!).mode & 0o777).toBe(0o600);
  expect(statSync(address.replace('unix:', '')).mode & 0o777).toBe(0o600);
  expect(token.length).toBeGreaterThanOrEqual(32);
});

it('welcomes a client with the right protocol and token', async () => {
  const { raw, reply } = await RawClient.hello(address, token);
  expect(reply).toMatchObject({ type: 'welcome', protocol: PROTOCOL_VERSION, tenant: 'default' });
  raw.close();
  const c = await connect(address, { token });
  expect(c.tenant).toBe('default');
  await c.close();
});

it('refuses another protocol version with a typed error and closes', async () => {
  const raw = await RawClient.open(address);
  raw.send({ type: 'hello', protocol: PROTOCOL_VERSION + 1, client: '9.9.9', token });
  const reply = await raw.next();
  expect(reply).toMatchObject({ type: 'error', id: 0, error: { name: 'UnsupportedError', code: 'ERR_UNSUPPORTED' } });
  expect(String((reply['error'] as { message: string }).message)).toMatch(
    /^serve\.hello: the client speaks protocol 2 \(dype "9\.9\.9"\); this server speaks 1/,
  );
  await raw.whenClosed();
});

it('refuses a wrong token, and a first message that is not a hello', async () => {
  await expect(connect(address, { token: `${token}x` })).rejects.toThrow(AccessError);
  await expect(connect(address, { token: `${token}x` })).rejects.toThrow(/serve\.hello: the token is not valid for this server/);
  const raw = await RawClient.open(address);
  raw.send({ type: 'status', id: 1 });
  expect(await raw.next()).toMatchObject({ error: { code: 'ERR_ACCESS', message: expect.stringMatching(/first message must be a hello/) } });
  await raw.whenClosed();
  await expect(connect(address, { token: '' })).rejects.toThrow(InvalidArgumentError);
  await expect(connect('10.0.0.1:7077', { token })).rejects.toThrow(/not a loopback address/);
});

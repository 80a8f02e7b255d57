// Policy files: every bad field reported on its own line with its path, unknown keys with a
// suggestion, quotas checked against the system's devices; a reload that fails keeps the policy
// in force and says why in the log.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FormatError, IoError } from '../../src/errors.js';
import { checkPolicy, loadPolicy } from '../../src/service/policy.js';
import { tempFolder } from '../support/temp.js';
import { inProcessServer, TOKENS } from './support.js';

it('reports each bad field with its path and value', () => {
  let err: unknown;
  try {
    checkPolicy(
      {
        tenants: [
          { name: 'web', token: 'short', weight: -1, priorty: 2, quotas: { gpu: { share: 1.5 }, tpu: { share: 0.5 } } },
          { name: 'web', token: 'a-long-enough-token-0001', maxQueued: 0.5 },
        ],
        extra: 1,
      },
      'policy.json',
      ['cpu', 'gpu'],
    );
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(FormatError);
  const msg = (err as Error).message;
  expect(msg).toMatch(/^loadPolicy: policy.json: 8 problems:/);
  for (const line of [
    'extra: unknown field',
    'tenants[0].priorty: unknown field (did you mean "priority"?)',
    'tenants[0].token: must be a string of 16 to 1024 characters, got 5 characters',
    'tenants[0].weight: must be a number in (0, 1e6], got -1',
    'tenants[0].quotas.gpu.share: must be a fraction in (0, 1], got 1.5',
    'tenants[0].quotas.tpu: no device "tpu" on this system',
    'tenants[1].name: "web" is used by an earlier tenant',
    'tenants[1].maxQueued: must be an integer in [1, 1000000], got 0.5',
  ]) {
    expect(msg).toContain(line);
  }
  expect(() => checkPolicy({ tenants: [] }, 'p')).toThrow(/tenants: must be a non-empty array/);
  expect(() =>
    checkPolicy(
      {
        tenants: [
          { name: 'a', token: TOKENS.a },
          { name: 'b', token: TOKENS.a },
        ],
      },
      'p',
    ),
  ).toThrow(/token of an earlier tenant/);
});

it('reads files as JSON with typed errors', () => {
  const dir = tempFolder('dype-policy-');
  expect(() => loadPolicy(join(dir, 'missing.json'))).toThrow(IoError);
  writeFileSync(join(dir, 'bad.json'), '{ tenants: ');
  expect(() => loadPolicy(join(dir, 'bad.json'))).toThrow(/not valid JSON/);
});

let close: (() => Promise<void>) | undefined;
afterAll(async () => close?.());

it('reloads on request; a bad file keeps the policy in force and logs why', async () => {
  const { server, dir, logs } = await inProcessServer({ policy: true });
  close = () => server.close();
  const path = join(dir, 'policy.json');
  writeFileSync(
    path,
    JSON.stringify({
      tenants: [
        { name: 'a', token: TOKENS.a, weight: 5 },
        { name: 'c', token: 'token-of-tenant-c-00000000' },
      ],
    }),
  );
  expect(server.reload()).toBe(true);
  expect(server.policy.tenants.map((t) => [t.name, t.weight])).toEqual([
    ['a', 5],
    ['c', 1],
  ]);
  // b left the policy: its new jobs are refused.
  expect(() => server.scheduler.submit('serve.run', { tenant: 'b', kind: 'run', run: async () => ({ value: 0, usage: new Map() }) })).toThrow(
    /tenant "b" is not in the server's policy/,
  );
  writeFileSync(path, JSON.stringify({ tenants: [{ name: 'a', token: TOKENS.a, wieght: 2 }] }));
  expect(server.reload()).toBe(false);
  expect(server.policy.tenants.length).toBe(2);
  expect(logs.at(-1)).toMatch(/reload: kept the policy in force: .*tenants\[0\]\.wieght: unknown field \(did you mean "weight"\?\)/s);
});

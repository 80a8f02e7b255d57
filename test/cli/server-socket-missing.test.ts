// A command pointed at a dype server whose socket does not exist says that no server listens
// there, naming the path: `dype status` with no server running said "no token for
// unix:/.../dype.sock: give --token or set DYPE_TOKEN", and with a token "connect ENOENT".

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dype-no-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('says no server listens at the socket, with or without a token, exit 1', async () => {
  const socket = join(dir, 'none.sock');
  const expected = `dype: status: cannot access ${JSON.stringify(socket)}: no dype server listens there (no such socket): start one with \`dype serve\`, or name one with --server ADDRESS\n`;
  for (const extra of [[], ['--token', 'a-token-of-sixteen-chars']]) {
    const r = await runCli(['status', '--server', socket, ...extra]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(expected);
  }
});

it('explore --server names its own command', async () => {
  const r = await runCli(['explore', '--server', join(dir, 'none.sock'), '--no-plot']);
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/^dype: explore: cannot access ".*none\.sock": no dype server listens there/);
});

// The flags of commands that can talk to a dype server (--server ADDRESS, --token), and how they
// find the token: the flag, DYPE_TOKEN, or the default tenant's token file beside the socket.

import { existsSync, readFileSync } from 'node:fs';
import { IoError } from '../errors.js';
import { defaultSocketPath, formatAddress, parseAddress, tokenFileFor } from '../service/address.js';
import { connect, type DypeClient } from '../service/client.js';
import type { FlagValues, Options } from './parse.js';
import { UsageError } from './usage-error.js';

export const SERVER_FLAGS = {
  server: { type: 'string' },
  token: { type: 'string' },
} as const satisfies Options;

export const SERVER_FLAGS_HELP = `  --server ADDRESS     ask a dype server (dype serve) instead of this process: a socket path,
                       unix:PATH or HOST:PORT on loopback
  --token TOKEN        the tenant's token (default $DYPE_TOKEN, else the token file that
                       dype serve wrote beside its socket)`;

/** Connect to the server `--server` names (or the default socket), with the token found as above. */
export async function connectFromFlags(command: string, values: FlagValues): Promise<DypeClient> {
  const raw = typeof values['server'] === 'string' ? values['server'] : `unix:${defaultSocketPath()}`;
  let address: ReturnType<typeof parseAddress>;
  try {
    address = parseAddress(command, raw);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  // No socket, no server: `dype status` on a machine that runs none asked for a token instead.
  if (address.kind === 'unix' && !existsSync(address.path)) {
    throw new IoError(
      command,
      address.path,
      new Error('no dype server listens there (no such socket): start one with `dype serve`, or name one with --server ADDRESS'),
    );
  }
  let token = typeof values['token'] === 'string' ? values['token'] : process.env['DYPE_TOKEN'];
  if (!token) {
    const file = tokenFileFor(address);
    if (existsSync(file)) token = readFileSync(file, 'utf8').trim();
  }
  if (!token) throw new UsageError(`${command}: no token for ${formatAddress(address)}: give --token or set DYPE_TOKEN`);
  return connect(formatAddress(address), { token });
}

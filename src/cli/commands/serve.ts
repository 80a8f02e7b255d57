// `dype serve`: run the shared scheduler as a daemon until SIGTERM (or SIGINT), which drain it:
// accepted jobs finish and their replies go out, new ones are refused, then it exits. SIGHUP
// reloads the policy file (a bad file keeps the policy in force, and the log says why).

import { DEFAULT_POLL_MICROSECONDS, MAX_POLL_MICROSECONDS } from '../../service/hot-poll.js';
import { startServer } from '../../service/server.js';
import { intFlag, parseFlags } from '../parse.js';

export const SERVE_HELP = `Usage: dype serve [--socket PATH] [--tcp HOST:PORT] [--policy FILE] [options]

Run dype as a service that several applications share: one process owns the devices, the cost
model and the uploaded data, and runs every tenant's jobs through one weighted-fair dispatcher.
Clients connect with connect(address, { token }) from the library, or dype status --server.

Options:
  --socket PATH        Unix socket to listen on (mode 0600); default $XDG_RUNTIME_DIR/dype/dype.sock,
                       else dype.sock in the cache folder
  --tcp HOST:PORT      also listen on loopback TCP (127.0.0.1, ::1 or localhost only)
  --policy FILE        tenants, tokens, weights, priorities, queue limits and device quotas (JSON,
                       see docs/serving.md); without it, one tenant whose token is written to a
                       0600 file beside the socket
  --max-frame BYTES    largest message accepted (default 268435456, 256 MiB)
  --store-mib N        uploaded data kept, in MiB, least recently used evicted first (default 4096)
  --sharing MODE       shared (default): jobs co-run on the devices their plans leave free, each
                       planned against the machine's backlog; exclusive: each job holds the whole
                       machine, first come first served
  --granularity G      job (default): each job runs whole, planned against the backlog its arrival
                       finds; operator: up to 64 open jobs' operators take turns on the machine,
                       earliest ready first, and each job re-plans the rest at every turn (it grows
                       onto devices others left and shrinks off those a higher priority reserved)
  --no-elastic         with --granularity operator: each job keeps the plan it started with
  --poll-us N          after a reply, while no job is running, poll for the next request for up
                       to N microseconds instead of sleeping (a thread woken from sleep runs a
                       tiny request 3-5x slower; polling stops while requests come later than
                       that); 0 turns it off (default 1000)
  --no-shared-memory   Unix-socket clients upload through the socket only (by default, on Linux,
                       a large matrix is written into a shared-memory region this process maps)
  -h, --help           show this help

Signals: SIGTERM or SIGINT drain (accepted jobs finish, new ones are refused, then exit 0);
SIGHUP reloads the policy file.

Examples (each runs until stopped, so they are shown with a $ prompt):
  $ dype serve
  $ dype serve --socket /tmp/dype.sock --tcp 127.0.0.1:7077 --policy examples/serve/policy.json`;

const FLAGS = {
  socket: { type: 'string' },
  tcp: { type: 'string' },
  policy: { type: 'string' },
  'max-frame': { type: 'string' },
  'store-mib': { type: 'string' },
  sharing: { type: 'string' },
  granularity: { type: 'string' },
  'no-elastic': { type: 'boolean' },
  'no-shared-memory': { type: 'boolean' },
  'poll-us': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function serveCommand(argv: readonly string[], out: (s: string) => void): Promise<void> {
  const { values } = parseFlags('serve', argv, FLAGS);
  if (values['help']) {
    out(SERVE_HELP);
    return;
  }
  const maxFrameBytes = intFlag('serve', 'max-frame', values['max-frame'], 256 * 2 ** 20, 1024, 2 ** 32 - 1);
  const pollMicroseconds = intFlag('serve', 'poll-us', values['poll-us'], DEFAULT_POLL_MICROSECONDS, 0, MAX_POLL_MICROSECONDS);
  const storeMib = intFlag('serve', 'store-mib', values['store-mib'], 4096, 1, 2 ** 30);
  const server = await startServer({
    ...(typeof values['socket'] === 'string' ? { socket: values['socket'] } : {}),
    ...(typeof values['tcp'] === 'string' ? { tcp: values['tcp'] } : {}),
    ...(typeof values['policy'] === 'string' ? { policy: values['policy'] } : {}),
    maxFrameBytes,
    storeBytes: storeMib * 2 ** 20,
    ...(typeof values['sharing'] === 'string' ? { sharing: values['sharing'] as 'shared' } : {}),
    ...(typeof values['granularity'] === 'string' ? { granularity: values['granularity'] as 'job' } : {}),
    ...(values['no-elastic'] ? { elastic: false } : {}),
    ...(values['no-shared-memory'] ? { sharedMemory: false } : {}),
    pollMicroseconds,
  });
  out(`dype serve: listening on ${server.addresses.join(', ')}`);
  out(
    server.tokenFile
      ? `dype serve: tenant "default"; its token is in ${server.tokenFile}`
      : `dype serve: policy ${server.policy.source}, tenants ${server.policy.tenants.map((t) => t.name).join(', ')}`,
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      out(`dype serve: ${signal}: draining (accepted jobs finish, new ones are refused)`);
      process.off('SIGHUP', hup);
      server.close().then(resolve, (e: unknown) => {
        process.stderr.write(`dype serve: ${e instanceof Error ? e.message : String(e)}\n`);
        resolve();
      });
    };
    const hup = (): void => void server.reload();
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    process.on('SIGHUP', hup);
  });
  out('dype serve: stopped');
}

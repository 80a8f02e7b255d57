// `dype status`: what a dype server is doing: its tenants and their queues, each device's busy
// time and each tenant's share of it, quota use, the data store, and the asking tenant's jobs.

import { formatBytes } from '../../units.js';
import { parseFlags } from '../parse.js';
import { connectFromFlags, SERVER_FLAGS, SERVER_FLAGS_HELP } from '../server-flags.js';
import { formatSeconds, formatTable } from '../table.js';
import type { ServerStatus } from '../../service/client.js';

export const STATUS_HELP = `Usage: dype status [--server ADDRESS] [--token TOKEN] [--json]

Show what a dype server (dype serve) is doing: tenants with their weight, priority, queued and
running jobs; each device's busy time and each tenant's share of it; quota use; the data store;
and the jobs of the tenant asking.

Options:
${SERVER_FLAGS_HELP}
  --json               print one JSON object
  -h, --help           show this help

Without --server, the default socket ($XDG_RUNTIME_DIR/dype/dype.sock, else the cache folder).

Examples (they need a running dype serve, so they are shown with a $ prompt):
  $ dype status
  $ dype status --server /tmp/dype.sock --json`;

const FLAGS = { ...SERVER_FLAGS, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** The status as text. */
export function formatStatus(s: ServerStatus, address: string): string {
  const lines: string[] = [];
  lines.push(
    `Server ${address}: dype ${s.server.version}, up ${formatSeconds(s.server.uptimeSeconds)}, ${s.server.connections} connection(s), system ${s.server.system}`,
  );
  lines.push(
    `Dispatcher: ${s.slots} job(s) at a time, ${s.running} running, ${s.queued} queued${s.draining ? ', draining' : ''}; you are tenant "${s.tenant}"`,
  );
  const queued = Object.entries(s.machine.backlog).map(([k, v]) => `${k} ${formatSeconds(v)}`);
  const turns = s.machine.granularity === 'operator' ? `, operator turns${s.machine.elastic ? ', elastic' : ''}` : '';
  lines.push(`Machine: ${s.machine.sharing}${turns} (${s.machine.clock} clock); work queued now: ${queued.length > 0 ? queued.join(', ') : 'none'}\n`);
  lines.push(
    formatTable(
      ['tenant', 'weight', 'priority', 'queued', 'running', 'done', 'failed', 'refused', 'served'],
      s.tenants.map((t) => [
        t.name,
        String(t.weight),
        String(t.priority),
        `${t.queued}/${t.maxQueued}`,
        String(t.running),
        String(t.completed),
        String(t.failed),
        String(t.refused),
        formatSeconds(t.servedSeconds),
      ]),
    ),
  );
  lines.push('');
  lines.push(
    formatTable(
      ['device', 'busy', 'share per tenant'],
      s.devices.map((d) => [
        d.name,
        formatSeconds(d.busySeconds),
        Object.entries(d.shares)
          .map(([t, x]) => `${t} ${pct(x)}`)
          .join(', ') || '-',
      ]),
    ),
  );
  const quotas = s.tenants.flatMap((t) =>
    Object.entries(t.devices).flatMap(([d, u]) =>
      u.quota ? [[t.name, d, `${pct(u.quota.share)} of ${formatSeconds(u.quota.window)}`, pct(u.quota.used)]] : [],
    ),
  );
  if (quotas.length > 0) lines.push('', formatTable(['tenant', 'device', 'quota', 'used now'], quotas));
  const st = s.store;
  lines.push(
    '',
    `Store: ${formatBytes(st.bytes)} of ${formatBytes(st.maxBytes)} in ${st.entries} matri${st.entries === 1 ? 'x' : 'ces'} (${st.evicted} evicted); yours: ${st.tenantEntries ?? 0}, ${formatBytes(st.tenantBytes ?? 0)}${st.tenantJobBytes ? `; your running jobs hold ${formatBytes(st.tenantJobBytes)}` : ''}`,
  );
  lines.push(
    s.jobs.length === 0
      ? 'Your jobs: none'
      : `Your jobs:\n${formatTable(
          ['job', 'kind', 'state', 'for'],
          s.jobs.map((j) => [j.id, j.kind, j.state, formatSeconds(j.seconds)]),
        )}`,
  );
  return lines.join('\n');
}

export async function statusCommand(argv: readonly string[], out: (s: string) => void): Promise<void> {
  const { values } = parseFlags('status', argv, FLAGS);
  if (values['help']) {
    out(STATUS_HELP);
    return;
  }
  const client = await connectFromFlags('status', values);
  try {
    const s = await client.status();
    out(values['json'] ? JSON.stringify({ command: 'status', ...s }, null, 2) : formatStatus(s, String(values['server'] ?? 'default socket')));
  } finally {
    await client.close();
  }
}

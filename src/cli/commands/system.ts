// `dype system`: the devices dype would schedule on (detected, or from a system file), their
// specs with sources, the links between their memories, and backends that cannot run here.

import type { Device } from '../../devices/device.js';
import { detectSystem, loadSystem, probeBackends, type BackendStatus, type System } from '../../devices/system.js';
import type { SystemInfo } from '../../service/system-info.js';
import { parseFlags } from '../parse.js';
import { connectFromFlags, SERVER_FLAGS } from '../server-flags.js';
import { formatTable } from '../table.js';
import { UsageError } from '../usage-error.js';
import { deviceInfo } from '../../service/system-info.js';

export const SYSTEM_HELP = `Usage: dype system [--system FILE | --server ADDRESS] [--params] [--json]

Show the system dype schedules on: each device (real or simulated, memory, power, operators),
the links between device memories, and the backends that cannot run on this machine and why.

Options:
  --system FILE     a system description (JSON, see docs/system.md) instead of the detected one
  --params          also list every device parameter with its unit and source
  --json            print one JSON object (schema in docs/cli-json.md)
  --server ADDRESS  show the system of a dype server (dype serve): a socket path, unix:PATH or
                    HOST:PORT on loopback
  --token TOKEN     its tenant token (default $DYPE_TOKEN, else the token file beside its socket)
  -h, --help        show this help

Simulated devices (cgra-sim, gpu-sim) compute true results but report simulated time and
energy; the CPU reports measured time and energy read from RAPL, or modelled where RAPL is
unreadable.

Examples:
  dype system
  dype system --params
  dype system --system examples/systems/two-gpus.json --json`;

const FLAGS = {
  ...SERVER_FLAGS,
  system: { type: 'string' },
  params: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toPrecision(3)} ${units[i]}`;
}

/** What the listing reads of a device: a live one, or one a server described. */
type DeviceView = Pick<Device, 'name' | 'backend' | 'kind' | 'simulated' | 'memorySpace' | 'capabilities' | 'power' | 'spec'>;
/** What the listing reads of a system. */
interface SystemView {
  readonly name: string;
  readonly devices: readonly DeviceView[];
  readonly links: System['links'];
}

/** The system as one JSON-ready object (`dype system --json`). */
export function systemJson(system: SystemView, backends: readonly BackendStatus[]): object {
  return {
    command: 'system',
    name: system.name,
    devices: system.devices.map(deviceInfo),
    links: system.links,
    backends,
  };
}

export async function systemCommand(argv: readonly string[], out: (s: string) => void): Promise<void> {
  const { values } = parseFlags('system', argv, FLAGS);
  if (values['help']) {
    out(SYSTEM_HELP);
    return;
  }
  if (typeof values['server'] === 'string') {
    if (typeof values['system'] === 'string') throw new UsageError('system: give --system or --server, not both');
    const client = await connectFromFlags('system', values);
    try {
      const info = await client.system();
      printSystem(info as unknown as SystemView & SystemInfo, info.backends, values, out);
    } finally {
      await client.close();
    }
    return;
  }
  const system = typeof values['system'] === 'string' ? await loadSystem(values['system']) : await detectSystem();
  const backends = await probeBackends();
  try {
    printSystem(system, backends, values, out);
  } finally {
    await system.dispose();
  }
}

function printSystem(system: SystemView, backends: readonly BackendStatus[], values: Record<string, unknown>, out: (s: string) => void): void {
  if (values['json']) {
    out(JSON.stringify(systemJson(system, backends), null, 2));
    return;
  }
  out(`System: ${system.name}\n`);
  out(
    formatTable(
      ['device', 'backend', 'profile', 'time', 'energy', 'memory', 'idle W', 'busy W', 'operators', 'precisions'],
      system.devices.map((d) => [
        d.name,
        d.backend,
        d.spec.name,
        d.simulated ? 'simulated' : 'measured',
        d.power.source,
        bytes(d.capabilities.memoryBytes),
        d.power.idleWatts.toPrecision(3),
        d.power.activeWatts.toPrecision(3),
        [...d.capabilities.operators, ...(d.capabilities.denseKernels ?? [])].join(' '),
        d.capabilities.precisions.join(' '),
      ]),
    ),
  );
  if (system.links.length > 0) {
    out('\nLinks');
    out(
      formatTable(
        ['between', 'profile', 'bandwidth', 'latency'],
        system.links.map((l) => [
          `${l.between[0]} <-> ${l.between[1]}`,
          l.profile,
          `${(l.bandwidth / 1e9).toPrecision(3)} GB/s`,
          `${(l.latency * 1e6).toPrecision(3)} us`,
        ]),
      ),
    );
  }
  out('\nBackends on this machine');
  for (const b of backends) out(`  ${b.backend.padEnd(10)} ${b.available ? `available: ${b.detail}` : `not available: ${b.reason}`}`);
  if (values['params']) {
    for (const d of system.devices) {
      out(`\n${d.name} (${d.backend}, profile ${d.spec.name}): ${d.spec.description}`);
      out(
        formatTable(
          ['parameter', 'value', 'unit', 'source'],
          Object.entries(d.spec.params).map(([k, p]) => [k, String(p.value), p.unit, p.source]),
        ),
      );
    }
  }
  if (system.devices.some((d) => d.simulated)) {
    out('\nSimulated devices compute true results; their times and energies are simulated, not measured.');
  }
}

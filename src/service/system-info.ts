// The server's system as plain data (what `system` answers): the same fields `dype system --json`
// prints, so a client can show it the same way.

import type { BackendStatus, System } from '../devices/system.js';

export interface SystemInfo {
  readonly name: string;
  readonly devices: readonly {
    readonly name: string;
    readonly backend: string;
    readonly kind: string;
    readonly simulated: boolean;
    readonly memorySpace: string;
    readonly capabilities: unknown;
    readonly power: unknown;
    readonly spec: unknown;
  }[];
  readonly links: unknown;
  readonly backends: readonly BackendStatus[];
}

export function describeSystem(system: System, backends: readonly BackendStatus[]): SystemInfo {
  return {
    name: system.name,
    devices: system.devices.map((d) => ({
      name: d.name,
      backend: d.backend,
      kind: d.kind,
      simulated: d.simulated,
      memorySpace: d.memorySpace,
      capabilities: d.capabilities,
      power: d.power,
      spec: d.spec,
    })),
    links: system.links,
    backends,
  };
}

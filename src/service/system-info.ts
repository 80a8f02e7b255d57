// The server's system as plain data (what `system` answers): the same fields `dype system --json`
// prints, so a client can show it the same way.

import type { Device } from '../devices/device.js';
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

/** A device's fields as `dype system --json` prints them (and a server answers them). */
export function deviceInfo(
  d: Pick<Device, 'name' | 'backend' | 'kind' | 'simulated' | 'memorySpace' | 'capabilities' | 'power' | 'spec'>,
): SystemInfo['devices'][number] {
  return {
    name: d.name,
    backend: d.backend,
    kind: d.kind,
    simulated: d.simulated,
    memorySpace: d.memorySpace,
    capabilities: d.capabilities,
    power: d.power,
    spec: d.spec,
  };
}

export function describeSystem(system: System, backends: readonly BackendStatus[]): SystemInfo {
  return { name: system.name, devices: system.devices.map(deviceInfo), links: system.links, backends };
}

// A system of the host's real CPU beside a simulated CGRA: one real device and one simulator, for
// tests of what applies to real devices only. The caller disposes of it.

import { buildSystem, type System } from '../../src/devices/system.js';

export function cpuAndCgra(): System {
  return buildSystem({
    name: 'mixed',
    devices: [
      { name: 'cpu', backend: 'cpu' },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
  });
}

// A cgra-sim device built from a shipped profile, optionally with parameters overridden as a
// system file would, for the cgra-sim tests.

import { cgraSimBackend } from '../../../src/devices/backends/cgra-sim.js';
import type { Device } from '../../../src/devices/device.js';
import { loadProfile, overrideSpec } from '../../../src/devices/spec.js';

export function cgraDevice(overrides?: Record<string, number>, profile = 'hycube-4x4'): Device {
  const spec = loadProfile('test', 'cgra-sim', profile, cgraSimBackend.params);
  return cgraSimBackend.create('cgra0', overrideSpec('test', 'test-system.json', 'devices[0]', spec, overrides, cgraSimBackend.params));
}

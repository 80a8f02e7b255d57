// System files: a valid description builds devices and links; every malformed field is refused
// with a FormatError naming the field.

import { describe, expect, it } from 'vitest';
import { FormatError, InvalidArgumentError } from '../../../src/errors.js';
import { buildSystem, HOST } from '../../../src/devices/system.js';

const ok = {
  name: 'bench-box',
  devices: [{ name: 'cpu', backend: 'cpu', overrides: { activeWattsPerCore: 5 } }],
};

describe('buildSystem', () => {
  it('builds devices with their specs and overrides, sourced', () => {
    const s = buildSystem(ok);
    expect(s.name).toBe('bench-box');
    expect(s.devices.map((d) => d.name)).toEqual(['cpu']);
    const p = s.devices[0]!.spec.params['activeWattsPerCore']!;
    expect(p.value).toBe(5);
    expect(p.source).toMatch(/override/);
    expect(s.devices[0]!.spec.params['idleWattsPerCore']!.source).toMatch(/assumption|SPEC/);
    expect(s.memorySpaces).toEqual([HOST]);
  });

  it('caps a device memory from the file', () => {
    const s = buildSystem({ devices: [{ name: 'c', backend: 'cpu', memoryBytes: 1 << 20 }] });
    expect(s.devices[0]!.capabilities.memoryBytes).toBe(1 << 20);
    expect(s.devices[0]!.name).toBe('c');
  });

  const broken: [string, unknown, RegExp][] = [
    ['not an object', 42, /must be an object/],
    ['no devices', { devices: [] }, /devices: must be a non-empty array/],
    ['unknown top-level field', { ...ok, link: [] }, /link: unknown field \(did you mean "links"\?\)/],
    ['unknown backend', { devices: [{ name: 'a', backend: 'cpuu' }] }, /devices\[0\]\.backend: "cpuu" is not a backend \(did you mean "cpu"\?\)/],
    ['bad device name', { devices: [{ name: '1 cpu', backend: 'cpu' }] }, /devices\[0\]\.name/],
    ['device named host', { devices: [{ name: 'host', backend: 'cpu' }] }, /names host memory/],
    [
      'duplicate names',
      {
        devices: [
          { name: 'a', backend: 'cpu' },
          { name: 'a', backend: 'cpu' },
        ],
      },
      /devices\[1\]\.name: duplicate/,
    ],
    ['unknown device field', { devices: [{ name: 'a', backend: 'cpu', profle: 'x' }] }, /devices\[0\]\.profle: unknown field \(did you mean "profile"\?\)/],
    ['override out of range', { devices: [{ name: 'a', backend: 'cpu', overrides: { idleWattsPerCore: -1 } }] }, /idleWattsPerCore = -1 is outside/],
    ['override not a parameter', { devices: [{ name: 'a', backend: 'cpu', overrides: { watts: 3 } }] }, /overrides\.watts is not a parameter/],
    ['override NaN', { devices: [{ name: 'a', backend: 'cpu', overrides: { idleWattsPerCore: 'NaN' } }] }, /must be a finite number/],
    ['bad memory cap', { devices: [{ name: 'a', backend: 'cpu', memoryBytes: -5 }] }, /memoryBytes: must be a positive integer/],
    ['link to nowhere', { ...ok, links: [{ between: ['host', 'gpu'], profile: 'pcie-gen4-x16' }] }, /"gpu" is not a memory space/],
    ['link with one end', { ...ok, links: [{ between: ['host'], profile: 'pcie-gen4-x16' }] }, /links\[0\]\.between: must be two/],
  ];
  for (const [what, raw, message] of broken) {
    it(`refuses ${what}`, () => {
      let err: unknown;
      try {
        buildSystem(raw, 'sys.json');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FormatError);
      expect((err as Error).message).toMatch(/^buildSystem: sys\.json: /);
      expect((err as Error).message).toMatch(message);
    });
  }

  it('names a missing profile with a suggestion', () => {
    expect(() => buildSystem({ devices: [{ name: 'a', backend: 'cpu', profile: 'server-cor' }] })).toThrow(InvalidArgumentError);
    expect(() => buildSystem({ devices: [{ name: 'a', backend: 'cpu', profile: 'server-cor' }] })).toThrow(/did you mean "server-core"/);
  });
});

// Transfer times follow the links: nothing within a memory space, latency + bytes / bandwidth
// over a direct link, and staged through host memory where no peer-to-peer link exists.

import { describe, expect, it } from 'vitest';
import { System, type Link } from '../../../src/devices/system.js';
import { Placement } from '../../../src/devices/placement.js';
import type { Device } from '../../../src/devices/device.js';
import { InvalidArgumentError } from '../../../src/errors.js';

function fakeDevice(name: string, memorySpace: string): Device {
  return { name, memorySpace, dispose: async () => {} } as unknown as Device;
}
const link = (a: string, b: string, bandwidth: number, latency: number): Link => ({
  between: [a, b],
  bandwidth,
  latency,
  profile: 'custom',
  source: 'test',
});

const system = new System(
  'two-gpus',
  [fakeDevice('cpu', 'host'), fakeDevice('g0', 'g0'), fakeDevice('g1', 'g1'), fakeDevice('g2', 'g2')],
  [link('host', 'g0', 1e9, 1e-5), link('host', 'g1', 2e9, 1e-5), link('g0', 'g1', 1e10, 1e-6), link('host', 'g2', 1e9, 0)],
);

describe('System.transferSeconds', () => {
  it('is free within a memory space', () => {
    expect(system.transferSeconds(1e9, 'g0', 'g0')).toBe(0);
  });
  it('uses the direct link in either direction', () => {
    expect(system.transferSeconds(1e9, 'host', 'g1')).toBeCloseTo(0.5 + 1e-5, 12);
    expect(system.transferSeconds(1e9, 'g1', 'host')).toBeCloseTo(0.5 + 1e-5, 12);
    expect(system.transferSeconds(1e9, 'g0', 'g1')).toBeCloseTo(0.1 + 1e-6, 12);
  });
  it('goes through the host without a peer link', () => {
    expect(system.route('g2', 'g1').length).toBe(2);
    expect(system.transferSeconds(1e9, 'g2', 'g1')).toBeCloseTo(1 + 0.5 + 1e-5, 12);
  });
  it('refuses unknown spaces and bad sizes', () => {
    expect(() => system.transferSeconds(1, 'host', 'gpu9')).toThrow(InvalidArgumentError);
    expect(() => system.transferSeconds(NaN, 'host', 'g0')).toThrow(/bytes must be/);
  });
});

describe('Placement', () => {
  it('prices a copy from the cheapest holder and tracks copies', () => {
    const p = new Placement(system);
    const buf = new Float32Array(4);
    p.place(buf, 'g2');
    expect(p.copySeconds(buf, 1e9, 'g1')).toBeCloseTo(1.5 + 1e-5, 9);
    p.copied(buf, 'g0');
    expect(p.where(buf).sort()).toEqual(['g0', 'g2']);
    expect(p.copySource(buf, 1e9, 'g1')).toBe('g0');
    expect(p.copySeconds(buf, 1e9, 'g1')).toBeCloseTo(0.1 + 1e-6, 9);
    p.place(buf, 'host');
    expect(p.where(buf)).toEqual(['host']);
    expect(p.copySeconds(buf, 1e9, 'host')).toBe(0);
  });
  it('refuses unplaced buffers and unknown spaces', () => {
    const p = new Placement(system);
    expect(() => p.copySeconds({}, 1, 'g0')).toThrow(/has not been placed/);
    expect(() => p.place({}, 'nowhere')).toThrow(/not a memory space/);
  });
});

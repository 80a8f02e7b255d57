// The machine fingerprint is short, stable across calls, sensitive to every caller part, and
// independent of the order those parts were given in.

import { describe, expect, it } from 'vitest';
import { machineFingerprint } from '../../src/cost/cache.js';

describe('machineFingerprint', () => {
  it('is 16 hex digits and the same on every call', () => {
    const a = machineFingerprint();
    expect(a.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(machineFingerprint()).toEqual(a);
    expect(Object.keys(a.parts).sort()).toEqual(['cpuModel', 'logicalCpus', 'memoryGiB', 'nativeAbi', 'node', 'platform']);
    expect(a.parts['node']).toBe(process.versions.node.split('.')[0]);
  });

  it('changes with caller parts, not with their order', () => {
    const base = machineFingerprint().fingerprint;
    const one = machineFingerprint({ devices: 'aa', sim: 'bb' });
    expect(one.fingerprint).not.toBe(base);
    expect(machineFingerprint({ sim: 'bb', devices: 'aa' }).fingerprint).toBe(one.fingerprint);
    expect(machineFingerprint({ devices: 'ab', sim: 'bb' }).fingerprint).not.toBe(one.fingerprint);
    expect(one.parts['extra.devices']).toBe('aa');
  });

  it('refuses non-string parts', () => {
    expect(() => machineFingerprint({ n: 1 } as never)).toThrow(/^machineFingerprint: extra\["n"\] must be a string, got 1$/);
    expect(() => machineFingerprint([] as never)).toThrow(/^machineFingerprint: extra must be an object/);
  });
});

// Every shipped device profile parses under its backend's rules, and every number in it says
// where it comes from; the spec parser refuses missing sources and unknown parameters.

import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/errors.js';
import { BACKENDS } from '../../../src/devices/backends/index.js';
import { loadProfile, parseSpec, shippedProfiles } from '../../../src/devices/spec.js';
import { linkProfileTable } from '../../../src/devices/system.js';

describe('shipped device profiles', () => {
  for (const b of BACKENDS.values()) {
    it(`${b.name}: default profile ${b.defaultProfile} exists`, () => {
      expect(shippedProfiles(b.name)).toContain(b.defaultProfile);
    });
    for (const profile of shippedProfiles(b.name)) {
      it(`${b.name}/${profile} gives every parameter with a source`, () => {
        const spec = loadProfile('test', b.name, profile, b.params);
        expect(Object.keys(spec.params).sort()).toEqual(Object.keys(b.params).sort());
        for (const p of Object.values(spec.params)) expect(p.source.length).toBeGreaterThan(10);
      });
    }
  }

  it('link profiles carry sources', () => {
    for (const [name, p] of Object.entries(linkProfileTable())) {
      expect(p.bandwidth.value, name).toBeGreaterThan(0);
      expect(p.bandwidth.source.length, name).toBeGreaterThan(10);
      expect(p.latency.source.length, name).toBeGreaterThan(5);
    }
  });
});

describe('parseSpec', () => {
  const rules = { watts: { min: 0, max: 10, unit: 'W', description: 'power' } };
  it('refuses a number without a source', () => {
    expect(() => parseSpec('t', 'f.json', { name: 'x', description: '', params: { watts: { value: 1 } } }, rules)).toThrow(/watts\.source/);
  });
  it('refuses a missing parameter', () => {
    expect(() => parseSpec('t', 'f.json', { name: 'x', description: '', params: {} }, rules)).toThrow(/params\.watts is missing/);
  });
  it('refuses an unknown parameter with a suggestion', () => {
    expect(() => parseSpec('t', 'f.json', { name: 'x', description: '', params: { watt: { value: 1, source: 'a datasheet' } } }, rules)).toThrow(
      /did you mean "watts"/,
    );
  });
  it('refuses a value out of range', () => {
    expect(() => parseSpec('t', 'f.json', { name: 'x', description: '', params: { watts: { value: 11, source: 'a datasheet' } } }, rules)).toThrow(FormatError);
  });
});

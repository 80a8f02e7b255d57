// RAPL reading on a fake powercap tree: package zones only, counter wrap-around handled, and a
// clear reason when nothing is readable.

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RaplReader } from '../../../src/devices/rapl.js';

function zone(root: string, dir: string, name: string, energy: number, range = 1000): string {
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, 'name'), `${name}\n`);
  writeFileSync(join(root, dir, 'energy_uj'), `${energy}\n`);
  writeFileSync(join(root, dir, 'max_energy_range_uj'), `${range}\n`);
  return join(root, dir, 'energy_uj');
}

describe('RaplReader', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it('sums package zones and survives a wrap', () => {
    const root = mkdtempSync(join(tmpdir(), 'rapl-'));
    roots.push(root);
    const p0 = zone(root, 'intel-rapl:0', 'package-0', 900);
    const p1 = zone(root, 'intel-rapl:1', 'package-1', 100);
    zone(root, 'intel-rapl:0:0', 'core', 5); // a subzone: must not be counted twice
    zone(root, 'intel-rapl:2', 'psys', 5); // not a package
    const r = RaplReader.open(root);
    expect(r).toBeInstanceOf(RaplReader);
    const reader = r as RaplReader;
    const before = reader.sample();
    expect(before).toEqual([900, 100]);
    writeFileSync(p0, '50\n'); // wrapped: 900 -> 1000 -> 50 is 150 uJ
    writeFileSync(p1, '400\n');
    expect(reader.joulesBetween(before, reader.sample())).toBeCloseTo((150 + 300) / 1e6, 12);
  });

  it('says why when there is nothing to read', () => {
    const r = RaplReader.open(join(tmpdir(), 'no-such-powercap'));
    expect(r).not.toBeInstanceOf(RaplReader);
    expect((r as { reason: string }).reason).toMatch(/does not exist/);
  });
});

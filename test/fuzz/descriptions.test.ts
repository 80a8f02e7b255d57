// Workload and system descriptions under mutation: every shipped workload definition and system
// file, with up to three hostile edits, must either define a workload / build a system or be
// refused with a typed error naming defineWorkload / buildSystem. A description is data: no
// field is ever evaluated, and nothing leaks onto Object.prototype.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { defineWorkload } from '../../src/workloads/definition.js';
import { generate } from '../../src/generators/index.js';
import { attempt, fuzz } from './harness.js';
import { jsonMutations, mutateJson } from './json-mutations.js';

const root = join(import.meta.dirname, '..', '..');
const workloads = readdirSync(join(root, 'workloads'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(root, 'workloads', f), 'utf8')) as unknown);
const systems: unknown[] = [
  ...readdirSync(join(root, 'examples', 'systems'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(root, 'examples', 'systems', f), 'utf8')) as unknown),
  {
    name: 'three',
    devices: [
      { name: 'cpu', backend: 'cpu' },
      { name: 'gpu', backend: 'gpu-sim', profile: 'h100-sxm' },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  },
];
const graph = generate({ kind: 'kronecker', scale: 5, seed: 1 });

describe('workload definitions', () => {
  fuzz(
    'defineWorkload on mutated shipped definitions: a workload or a typed refusal',
    fc.tuple(fc.constantFrom(...workloads), jsonMutations),
    300,
    ([w, ms]) => {
      const raw = mutateJson(w, ms);
      const got = attempt('defineWorkload', () => defineWorkload(raw, '<fuzz>'));
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      if (!got.ok) return 'refused';
      // A definition that was accepted must bind to a graph, or refuse it with a typed error.
      attempt(['bindWorkload', 'defineWorkload'], () => bindWorkload(got.value, graph, { params: {} }));
      return 'result';
    },
  );
});

describe('system descriptions', () => {
  fuzz('buildSystem on mutated system files: a system or a typed refusal', fc.tuple(fc.constantFrom(...systems), jsonMutations), 300, ([s, ms]) => {
    const raw = mutateJson(s, ms);
    const got = attempt('buildSystem', () => buildSystem(raw, '<fuzz>'));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    if (!got.ok) return 'refused';
    for (const d of got.value.devices) {
      expect(Number.isFinite(d.capabilities.memoryBytes) && d.capabilities.memoryBytes > 0, `${d.name} memoryBytes ${d.capabilities.memoryBytes}`).toBe(true);
    }
    return 'result';
  });
});

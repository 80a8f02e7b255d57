// The baseline mappings. singleDeviceGenome: every operator whole on one device, or null when
// the device has no whole choice for some operator. heftGenome: each operator, in upward-rank
// order, on the single device that finishes it earliest; a device faster at everything gets
// everything, equal devices share the independent branches of sage, and HEFT never splits.

import { describe, expect, it } from 'vitest';
import { heftGenome, singleDeviceGenome } from '../../src/scheduler/baselines.js';
import { Evaluator } from '../../src/scheduler/evaluate.js';
import { buildChoices } from '../../src/scheduler/candidates.js';
import { CostTable } from '../../src/scheduler/space.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { genomeOf, smallGraph, twoDeviceSystem, uniformCosts } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const graph = smallGraph();
const gcn = bindWorkload(workload('gcn'), graph);
const choices = buildChoices(gcn, system, [0, 1], {}, (_op, d) => d + 1);

describe('singleDeviceGenome', () => {
  it('puts every operator whole on the device', () => {
    for (const d of [0, 1]) {
      const g = singleDeviceGenome(choices, d)!;
      expect(g).toHaveLength(gcn.ops.length);
      g.forEach((c, i) => {
        expect(choices[i]![c]!.parts).toHaveLength(1);
        expect(choices[i]![c]!.parts[0]!.device).toBe(d);
      });
    }
  });

  it('is null for a device with no whole choice', () => {
    const cgraOnly = buildChoices(gcn, system, [1], {}, () => 1);
    expect(singleDeviceGenome(cgraOnly, 0)).toBeNull();
    expect(Array.from(singleDeviceGenome(cgraOnly, 1)!)).toEqual(gcn.ops.map(() => 0));
  });
});

describe('heftGenome', () => {
  const devicesOf = (table: CostTable, g: Int32Array): string[] =>
    Array.from(g, (c, i) => table.choices[i]![c]!.parts.map((p) => system.devices[p.device]!.name).join('+'));

  it('puts every operator on a device ten times faster at each', () => {
    const gpuFast = new CostTable(choices, gcn.ops, uniformCosts(gcn, [1e-3, 1e-2]));
    expect(devicesOf(gpuFast, heftGenome(gcn, system, gpuFast))).toEqual(gcn.ops.map(() => 'gpu'));
    const cgraFast = new CostTable(choices, gcn.ops, uniformCosts(gcn, [1e-2, 1e-3]));
    expect(devicesOf(cgraFast, heftGenome(gcn, system, cgraFast))).toEqual(gcn.ops.map(() => 'cgra'));
  });

  it('never picks a split, though splits are on offer', () => {
    const table = new CostTable(choices, gcn.ops, uniformCosts(gcn, [1, 1]));
    expect(choices.some((c) => c.some((x) => x.parts.length > 1))).toBe(true);
    heftGenome(gcn, system, table).forEach((c, i) => expect(choices[i]![c]!.parts).toHaveLength(1));
  });

  it('spreads the independent branches of sage over two equal devices, beating either alone', () => {
    const sage = bindWorkload(workload('sage'), graph);
    const sc = buildChoices(sage, system, [0, 1], { splits: false }, () => 1);
    const table = new CostTable(sc, sage.ops, uniformCosts(sage, [1, 1]));
    const g = heftGenome(sage, system, table);
    expect(new Set(devicesOf(table, g))).toEqual(new Set(['gpu', 'cgra']));
    const ev = new Evaluator(sage, system, table, ['time', 'energy']);
    const t = ev.metrics(g).makespan;
    expect(t).toBeLessThan(
      ev.metrics(
        genomeOf(
          sc,
          sage.ops.map(() => 'gpu'),
        ),
      ).makespan,
    );
    expect(t).toBeLessThan(
      ev.metrics(
        genomeOf(
          sc,
          sage.ops.map(() => 'cgra'),
        ),
      ).makespan,
    );
  });
});

// bench:update --only retakes the named metrics from a run of their suite alone and keeps every
// other metric of the baseline as it was, with the tolerance a retaken ratio had (retakeOnly in
// bench/gate/compare.ts).
import { describe, expect, it } from 'vitest';
import { retakeOnly } from '../../bench/gate/compare.js';
import type { Metric } from '../../bench/gate/metrics.js';

const current: Metric[] = [
  { name: 'spmm.eigen/dype', kind: 'ratio', value: 1.6, higherIsBetter: true },
  { name: 'bfs.2t.plain/dype', kind: 'ratio', value: 1.95, higherIsBetter: true, tolerance: 0.3 },
  { name: 'bfs.gap/dype', kind: 'ratio', value: 1.4, higherIsBetter: true, tolerance: 0.25 },
];
const bfsRun: Metric[] = [
  { name: 'bfs.gap/dype', kind: 'ratio', value: 1.8, higherIsBetter: true, tolerance: 0.25 },
  { name: 'bfs.2t.plain/dype', kind: 'ratio', value: 1.2, higherIsBetter: true },
  { name: 'bfs.2t.fresh/dype', kind: 'info', value: 2, higherIsBetter: true },
];

describe('retakeOnly', () => {
  it('retakes one metric from a one-suite run and keeps the rest and its tolerance', () => {
    const merged = retakeOnly(current, bfsRun, ['bfs.2t.plain/dype']);
    expect(merged).toEqual([current[0], { ...bfsRun[1], tolerance: 0.3 }, current[2]]);
  });

  it('retakes a whole suite by its prefix and adds its new metrics', () => {
    const merged = retakeOnly(current, bfsRun, ['bfs.']);
    expect(merged.map((m) => [m.name, m.value, m.tolerance])).toEqual([
      ['spmm.eigen/dype', 1.6, undefined],
      ['bfs.2t.plain/dype', 1.2, 0.3],
      ['bfs.gap/dype', 1.8, 0.25],
      ['bfs.2t.fresh/dype', 2, undefined],
    ]);
  });

  it('refuses a baseline metric the run lacks and a prefix nothing starts with', () => {
    expect(() => retakeOnly(current, bfsRun, ['spmm.'])).toThrow(/spmm.eigen\/dype is in the baseline but not in the run/);
    expect(() => retakeOnly(current, bfsRun, ['dense.'])).toThrow(/no metric starts with "dense."/);
  });
});

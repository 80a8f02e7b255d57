// A baseline from several runs (bench/gate/compare.ts medianOfRuns): timed ratios take their
// median over the runs, everything else comes from the first run.
import { describe, expect, it } from 'vitest';
import { medianOfRuns } from '../../bench/gate/compare.js';
import type { Metric } from '../../bench/gate/metrics.js';

const ratio = (name: string, value: number, tolerance?: number): Metric => ({
  name,
  kind: 'ratio',
  value,
  higherIsBetter: true,
  ...(tolerance === undefined ? {} : { tolerance }),
});
const det = (name: string, value: number): Metric => ({ name, kind: 'deterministic', value, higherIsBetter: true });

describe('medianOfRuns', () => {
  it('takes each ratio median over the runs that have it, keeping its tolerance', () => {
    const got = medianOfRuns([
      [ratio('bfs.2t.gap/dype', 0.89, 0.25), ratio('spmm.eigen/dype', 1.5), det('decisions.h100.optimal', 72)],
      [ratio('bfs.2t.gap/dype', 0.7, 0.25), ratio('spmm.eigen/dype', 1.6)],
      [ratio('bfs.2t.gap/dype', 0.73, 0.25)],
    ]);
    expect(got).toEqual([ratio('bfs.2t.gap/dype', 0.73, 0.25), ratio('spmm.eigen/dype', 1.55), det('decisions.h100.optimal', 72)]);
  });

  it('keeps deterministic metrics as the first run has them, and returns one run as it is', () => {
    const first = [det('devices.cora.cycles', 100), ratio('spmm.eigen/dype', 1.5)];
    expect(medianOfRuns([first, [det('devices.cora.cycles', 120)]])[0]!.value).toBe(100);
    expect(medianOfRuns([first])).toEqual(first);
    expect(medianOfRuns([])).toEqual([]);
  });

  it('refuses a metric whose kind differs between runs', () => {
    expect(() => medianOfRuns([[ratio('spmm.eigen/dype', 1.5)], [det('spmm.eigen/dype', 1.5)]])).toThrow(/ratio in the first run and deterministic/);
  });
});

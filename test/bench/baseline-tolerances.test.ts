// A timed ratio whose spread on one machine class is wider than its default tolerance gets a
// tolerance of its own in that class's baseline (bench:update --tolerance, withTolerances in
// bench/gate/compare.ts), and the gate then judges it by that.
import { describe, expect, it } from 'vitest';
import { compareMetrics, withTolerances } from '../../bench/gate/compare.js';
import type { Metric } from '../../bench/gate/metrics.js';

const base: Metric[] = [
  { name: 'dense.2t.openblas/dype', kind: 'ratio', value: 1.29, higherIsBetter: true, tolerance: 0.25 },
  { name: 'devices.cora.spmm.gpu-sim.cycles', kind: 'deterministic', value: 100, higherIsBetter: false },
];
const now = (v: number): Metric[] => [{ ...base[0]!, value: v }, base[1]!];

describe('withTolerances', () => {
  it('widens one ratio, and the gate follows it', () => {
    expect(compareMetrics(base, now(0.85)).ok).toBe(false);
    const wider = withTolerances(base, { 'dense.2t.openblas/dype': 0.4 });
    expect(wider[0]!.tolerance).toBe(0.4);
    expect(wider[1]).toEqual(base[1]);
    expect(compareMetrics(wider, now(0.85)).ok).toBe(true);
    expect(compareMetrics(wider, now(0.7)).ok).toBe(false);
  });

  it('refuses a missing metric, a deterministic one and a fraction out of range', () => {
    expect(() => withTolerances(base, { 'spmm.eigen/dype': 0.4 })).toThrow(/no metric "spmm.eigen\/dype"/);
    expect(() => withTolerances(base, { 'devices.cora.spmm.gpu-sim.cycles': 0.4 })).toThrow(/deterministic/);
    expect(() => withTolerances(base, { 'dense.2t.openblas/dype': 1.5 })).toThrow(/fraction in \(0, 1\), got 1.5/);
    expect(() => withTolerances(base, { 'dense.2t.openblas/dype': Number.NaN })).toThrow(/got NaN/);
  });
});

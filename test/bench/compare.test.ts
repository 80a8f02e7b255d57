// The regression gate's comparison rules (bench/gate/compare.ts), on fixed metric lists.
import { describe, expect, it } from 'vitest';
import { compareMetrics, verdictTable } from '../../bench/gate/compare.js';
import type { Metric } from '../../bench/gate/metrics.js';

const ratio = (name: string, value: number, extra: Partial<Metric> = {}): Metric => ({ name, kind: 'ratio', value, higherIsBetter: true, ...extra });
const det = (name: string, value: number, higherIsBetter = true): Metric => ({ name, kind: 'deterministic', value, higherIsBetter });
const info = (name: string, value: number): Metric => ({ name, kind: 'info', value, higherIsBetter: true });

const BASE: Metric[] = [
  ratio('spmm.eigen/dype', 2.0),
  det('decisions.optimal', 120),
  det('decisions.meanLoss', 0.04, false),
  info('spmm.f32.k8.eigen/dype', 3.0),
];

function verdictOf(current: Metric[], name: string, baseline: Metric[] = BASE) {
  const c = compareMetrics(baseline, current);
  const v = c.verdicts.find((x) => x.name === name);
  if (v === undefined) throw new Error(`no verdict for ${name}`);
  return { ok: c.ok, v };
}

describe('compareMetrics', () => {
  it('passes an identical run', () => {
    const c = compareMetrics(BASE, BASE);
    expect(c.ok).toBe(true);
    expect(c.failures).toBe(0);
  });

  it('fails a ratio that dropped 30% (an injected slowdown)', () => {
    const { ok, v } = verdictOf([ratio('spmm.eigen/dype', 1.4), ...BASE.slice(1)], 'spmm.eigen/dype');
    expect(ok).toBe(false);
    expect(v.status).toBe('fail');
    expect(v.change).toBeCloseTo(-0.3, 10);
  });

  it('passes a ratio that dropped 10% (noise)', () => {
    const { ok, v } = verdictOf([ratio('spmm.eigen/dype', 1.8), ...BASE.slice(1)], 'spmm.eigen/dype');
    expect(ok).toBe(true);
    expect(v.status).toBe('pass');
  });

  it('puts the ratio threshold at 15%: 14.9% passes, 15.1% fails', () => {
    expect(verdictOf([ratio('spmm.eigen/dype', 2.0 * 0.851), ...BASE.slice(1)], 'spmm.eigen/dype').ok).toBe(true);
    expect(verdictOf([ratio('spmm.eigen/dype', 2.0 * 0.849), ...BASE.slice(1)], 'spmm.eigen/dype').ok).toBe(false);
  });

  it('passes a ratio that improved, however much, and says so', () => {
    const { ok, v } = verdictOf([ratio('spmm.eigen/dype', 3.0), ...BASE.slice(1)], 'spmm.eigen/dype');
    expect(ok).toBe(true);
    expect(v.reason).toMatch(/improved/);
  });

  it('honours a per-metric tolerance from the baseline', () => {
    const loose = [ratio('bfs.plain/dype', 1.0, { tolerance: 0.3 })];
    expect(compareMetrics(loose, [ratio('bfs.plain/dype', 0.75)]).ok).toBe(true);
    expect(compareMetrics(loose, [ratio('bfs.plain/dype', 0.69)]).ok).toBe(false);
  });

  it('gates a lower-is-better ratio on rises', () => {
    const base = [ratio('x', 1.0, { higherIsBetter: false })];
    expect(compareMetrics(base, [ratio('x', 1.2, { higherIsBetter: false })]).ok).toBe(false);
    expect(compareMetrics(base, [ratio('x', 0.5, { higherIsBetter: false })]).ok).toBe(true);
  });

  it('fails a deterministic metric that changed 2%, in either direction', () => {
    expect(verdictOf([BASE[0]!, det('decisions.optimal', 120 * 1.02), ...BASE.slice(2)], 'decisions.optimal').ok).toBe(false);
    expect(verdictOf([BASE[0]!, det('decisions.optimal', 120 * 0.98), ...BASE.slice(2)], 'decisions.optimal').ok).toBe(false);
    expect(verdictOf([BASE[0]!, BASE[1]!, det('decisions.meanLoss', 0.04 * 0.98, false), BASE[3]!], 'decisions.meanLoss').ok).toBe(false);
  });

  it('passes a deterministic metric within 1%', () => {
    expect(verdictOf([BASE[0]!, det('decisions.optimal', 120 * 1.005), ...BASE.slice(2)], 'decisions.optimal').ok).toBe(true);
  });

  it('compares a deterministic baseline of 0 exactly', () => {
    expect(compareMetrics([det('z', 0)], [det('z', 0)]).ok).toBe(true);
    expect(compareMetrics([det('z', 0)], [det('z', 0.001)]).ok).toBe(false);
  });

  it('fails when a gated metric is missing', () => {
    const { ok, v } = verdictOf(
      BASE.filter((m) => m.name !== 'decisions.optimal'),
      'decisions.optimal',
    );
    expect(ok).toBe(false);
    expect(v.reason).toMatch(/missing/);
  });

  it('does not fail when an info metric is missing or moves', () => {
    expect(compareMetrics(BASE, BASE.slice(0, 3)).ok).toBe(true);
    expect(compareMetrics(BASE, [...BASE.slice(0, 3), info('spmm.f32.k8.eigen/dype', 0.1)]).ok).toBe(true);
  });

  it('fails a gated metric that is not a finite number', () => {
    expect(compareMetrics(BASE, [ratio('spmm.eigen/dype', NaN), ...BASE.slice(1)]).ok).toBe(false);
  });

  it('fails a metric whose kind changed', () => {
    expect(compareMetrics(BASE, [info('spmm.eigen/dype', 2.0), ...BASE.slice(1)]).ok).toBe(false);
  });

  it('reports metrics new in this run without failing', () => {
    const c = compareMetrics(BASE, [...BASE, ratio('bfs.graphblas/dype', 5)]);
    expect(c.ok).toBe(true);
    expect(c.verdicts.find((v) => v.name === 'bfs.graphblas/dype')?.status).toBe('new');
  });

  it('rejects a list that names a metric twice', () => {
    expect(() => compareMetrics(BASE, [...BASE, ratio('spmm.eigen/dype', 2)])).toThrow(/twice/);
  });

  it('lists failures first in the table', () => {
    const table = verdictTable(compareMetrics(BASE, [ratio('spmm.eigen/dype', 1.0), ...BASE.slice(1)]));
    const lines = table.split('\n');
    expect(lines[2]).toMatch(/^\| spmm\.eigen\/dype .*\*\*FAIL\*\*/);
    expect(table).not.toMatch(/spmm\.f32\.k8/);
  });
});

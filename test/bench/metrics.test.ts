// Metric extraction for the regression gate (bench/gate/metrics.ts), on small report fixtures.
import { describe, expect, it } from 'vitest';
import type { SuiteReport } from '../../bench/common/report.js';
import { metricsOf } from '../../bench/gate/metrics.js';

function report(suite: SuiteReport['suite'], data: unknown): SuiteReport {
  return {
    suite,
    title: suite,
    date: '2026-01-01T00:00:00Z',
    settings: {},
    notes: [],
    tables: [],
    data,
    machine: { cpu: 'test', logicalCpus: 2, memoryGiB: 1, node: 'v20', platform: 'linux-x64', loadAverage: 0 },
  };
}

describe('metricsOf', () => {
  it('takes decision quality per system: counts on all-simulated systems as deterministic, the optimal rate where the CPU is timed as a ratio', () => {
    const rates = (cases: number, optimal: number) => ({ cases, optimal, optimalRate: optimal / cases, meanLoss: 0.03, worstLoss: 0.2 });
    const m = metricsOf(
      report('decisions', {
        summary: {
          cases: 144,
          optimal: 130,
          meanLoss: 0.03,
          speedupOverStatic: 1.5,
          speedupOverGpu: 1.4,
          energyEfficiencyOverGpu: 1.6,
          bySystem: { h100: rates(72, 70), 'cpu-cgra': rates(72, 60) },
        },
        results: [
          { system: 'h100', measured: false },
          { system: 'cpu-cgra', measured: true },
        ],
      }),
    );
    const kind = (name: string) => m.find((x) => x.name === name)?.kind;
    expect(kind('decisions.h100.optimal')).toBe('deterministic');
    expect(m.find((x) => x.name === 'decisions.h100.meanLoss')).toMatchObject({ value: 0.03, higherIsBetter: false, kind: 'deterministic' });
    expect(m.find((x) => x.name === 'decisions.cpu-cgra.optimalRate')).toMatchObject({ kind: 'ratio', value: 60 / 72, higherIsBetter: true });
    expect(m.some((x) => x.name === 'decisions.cpu-cgra.optimal')).toBe(false);
    expect(kind('decisions.cpu-cgra.worstLoss')).toBe('info');
    expect(kind('decisions.speedupOverGpu')).toBe('info');
  });

  it('takes the SpMM medians over inputs as ratio metrics and the per-configuration ones as information', () => {
    const m = metricsOf(
      report('spmm', {
        summary: { medianEigenRatio: 2, medianGraphblasRatio: 4, medianPlainRatio: 1.2 },
        configs: [{ precision: 'f32', k: 8, rows: [], summary: { medianRatioAll: 2, medianGraphblasRatioAll: 4, medianPlainRatioAll: 1.2 } }],
      }),
    );
    expect(
      m
        .filter((x) => x.kind === 'ratio')
        .map((x) => x.name)
        .sort(),
    ).toEqual(['spmm.eigen/dype', 'spmm.graphblas/dype', 'spmm.plain/dype']);
    expect(m.find((x) => x.name === 'spmm.f32.k8.eigen/dype')?.kind).toBe('info');
  });

  it('takes simulated device figures as deterministic and skips measured ones', () => {
    const m = metricsOf(
      report('devices', {
        speed: [],
        datasets: [
          { dataset: 'cora', operator: 'spmm', device: 'cgra', seconds: 1e-3, joules: 1e-4, source: 'simulated', counters: { cycles: 1000 } },
          { dataset: 'cora', operator: 'spmm', device: 'cpu', seconds: 1e-3, joules: 1e-4, source: 'measured', counters: {} },
          { dataset: 'cora', operator: 'bfs', device: 'cgra', seconds: 2e-3, joules: 2e-4, source: 12, source_: 'simulated', counters: { cycles: 2000 } },
        ],
      }),
    );
    expect(m.map((x) => x.name).sort()).toEqual([
      'devices.cora.bfs.cgra.cycles',
      'devices.cora.bfs.cgra.joules',
      'devices.cora.bfs.cgra.seconds',
      'devices.cora.spmm.cgra.cycles',
      'devices.cora.spmm.cgra.joules',
      'devices.cora.spmm.cgra.seconds',
    ]);
  });

  it('says which field is missing when a report changed shape', () => {
    expect(() => metricsOf(report('bfs', { graphs: [] }))).toThrow(/bfs: metrics: the report has no summary\.medianPlainRatio/);
  });

  it('gives no metrics for suites the gate does not read', () => {
    expect(metricsOf(report('boundary', {}))).toEqual([]);
  });
});

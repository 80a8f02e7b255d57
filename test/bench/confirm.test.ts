// The gate's second look at timed failures (bench/gate/compare.ts confirmFailures): a ratio that
// failed counts only when its suite's confirmation run fails it again.
import { describe, expect, it } from 'vitest';
import { compareMetrics, confirmFailures, suitesToConfirm, verdictTable } from '../../bench/gate/compare.js';
import type { Metric } from '../../bench/gate/metrics.js';

const ratio = (name: string, value: number): Metric => ({ name, kind: 'ratio', value, higherIsBetter: true });
const det = (name: string, value: number): Metric => ({ name, kind: 'deterministic', value, higherIsBetter: true });

const BASE: Metric[] = [ratio('bfs.2t.gap/dype', 0.8), ratio('spmm.eigen/dype', 2.0), det('devices.cora.cycles', 100)];
const slowBfs: Metric[] = [ratio('bfs.2t.gap/dype', 0.5), ratio('spmm.eigen/dype', 2.0), det('devices.cora.cycles', 100)];

function verdict(c: ReturnType<typeof compareMetrics>, name: string) {
  const v = c.verdicts.find((x) => x.name === name);
  if (v === undefined) throw new Error(`no verdict for ${name}`);
  return v;
}

describe('confirmFailures', () => {
  it('names the suites behind timed failures, not deterministic or missing ones', () => {
    const first = compareMetrics(BASE, [ratio('bfs.2t.gap/dype', 0.5), ratio('spmm.eigen/dype', 2.0), det('devices.cora.cycles', 200)]);
    expect(suitesToConfirm(first)).toEqual(['bfs']);
    expect(suitesToConfirm(compareMetrics(BASE, [ratio('spmm.eigen/dype', 2.0), det('devices.cora.cycles', 100)]))).toEqual([]);
  });

  it('passes a ratio that fails once and passes on the confirmation run, and says it was noise', () => {
    const first = compareMetrics(BASE, slowBfs);
    expect(first.ok).toBe(false);
    const c = confirmFailures(first, compareMetrics(BASE, [ratio('bfs.2t.gap/dype', 0.78)]));
    expect(c.ok).toBe(true);
    const v = verdict(c, 'bfs.2t.gap/dype');
    expect(v.status).toBe('pass');
    expect(v.rerun).toBe(0.78);
    expect(v.reason).toMatch(/^noise: failed at 0\.5000 \(-37\.5%\), passed on the confirmation run at 0\.7800/);
    expect(verdictTable(c).split('\n')[2]).toMatch(/^\| bfs\.2t\.gap\/dype .*noise/);
  });

  it('fails a ratio that fails twice, naming both values', () => {
    const c = confirmFailures(compareMetrics(BASE, slowBfs), compareMetrics(BASE, [ratio('bfs.2t.gap/dype', 0.55)]));
    expect(c.ok).toBe(false);
    expect(c.failures).toBe(1);
    expect(verdict(c, 'bfs.2t.gap/dype').reason).toMatch(/twice: 0\.5000 \(-37\.5%\), then 0\.5500 \(-31\.3%\)/);
  });

  it('keeps a failure whose metric the confirmation run lacks', () => {
    const c = confirmFailures(compareMetrics(BASE, slowBfs), compareMetrics(BASE, []));
    expect(c.ok).toBe(false);
    expect(verdict(c, 'bfs.2t.gap/dype').reason).toMatch(/missing from the confirmation run/);
  });

  it('never lets a confirmation run pass a deterministic or missing metric', () => {
    const first = compareMetrics(BASE, [ratio('bfs.2t.gap/dype', 0.8), det('devices.cora.cycles', 200)]);
    const c = confirmFailures(first, compareMetrics(BASE, BASE));
    expect(c.ok).toBe(false);
    expect(verdict(c, 'devices.cora.cycles').status).toBe('fail');
    expect(verdict(c, 'spmm.eigen/dype').status).toBe('fail');
  });

  it('leaves a passing first run untouched, whatever the confirmation run says', () => {
    const first = compareMetrics(BASE, BASE);
    expect(confirmFailures(first, compareMetrics(BASE, slowBfs))).toEqual(first);
  });
});

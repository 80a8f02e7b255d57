// The decision suite's one rule for a pick against the oracle's best (bench/scheduler/decision-suite.ts
// `judge`), used for the planner's pick and for the rival oracle's best alike, and the summary of
// the rival's verdicts by system.
import { describe, expect, it } from 'vitest';
import { judge } from '../../bench/scheduler/decision-suite.js';
import { type CaseResult, summarise } from '../../bench/scheduler/decision-summary.js';

const m = (makespan: number, energy = 1) => ({ makespan, energy });
const scored = (mid: number, lo = mid, hi = mid) => ({ median: m(mid), lo: m(lo), hi: m(hi) });
// A comparison whose paired rounds gave these ratios of the pick's value over the best's.
const rounds = (median: number, lo = median, hi = median) => ({ median, lo, hi, rounds: 15 });

describe('judge', () => {
  it('calls a pick whose paired ratio is within 1% optimal, and one 2% off a loss of 2%', () => {
    expect(judge('min-time', false, { pick: scored(1.009), best: scored(1), ratio: rounds(1.009) })).toMatchObject({ optimal: true });
    const v = judge('min-time', false, { pick: scored(1.02), best: scored(1), ratio: rounds(1.02) });
    expect(v.optimal).toBe(false);
    expect(v.loss).toBeCloseTo(0.02, 12);
  });

  it('admits a first quartile of the paired ratios within 1% only where a device is measured', () => {
    const paired = { pick: scored(1.1), best: scored(1), ratio: rounds(1.1, 1.005, 1.2) };
    expect(judge('min-time', true, paired).optimal).toBe(true);
    expect(judge('min-time', false, paired).optimal).toBe(false);
    expect(judge('min-time', true, { ...paired, ratio: rounds(1.1, 1.05, 1.2) }).optimal).toBe(false);
  });

  it('judges by the rounds, not by medians taken piece by piece', () => {
    // Piece by piece the pick looks 30% worse (its pieces caught a slow spell the best's missed);
    // round by round the two were even.
    const paired = { pick: scored(1.3, 1.2, 1.4), best: scored(1, 0.95, 1.05), ratio: rounds(1.0, 0.98, 1.02) };
    const v = judge('min-time', true, paired);
    expect(v).toMatchObject({ optimal: true, loss: 0 });
    expect(v.unpaired.optimal).toBe(false);
    expect(v.unpaired.loss).toBeCloseTo(0.3, 12);
    // And a loss the rounds agree on is a loss, however the medians fall.
    expect(judge('min-time', true, { pick: scored(1), best: scored(1), ratio: rounds(1.2, 1.15, 1.3) }).loss).toBeCloseTo(0.2, 12);
  });

  it('reads the objective for the rule before pairing: energy, and time x energy', () => {
    const paired = { pick: { median: m(1, 3), lo: m(1, 3), hi: m(1, 3) }, best: { median: m(2, 1), lo: m(2, 1), hi: m(2, 1) } };
    expect(judge('min-time', false, { ...paired, ratio: rounds(0.5) }).unpaired.optimal).toBe(true);
    expect(judge('min-energy', false, { ...paired, ratio: rounds(3) }).unpaired.loss).toBeCloseTo(2, 12);
    expect(judge('min-edp', false, { ...paired, ratio: rounds(1.5) }).unpaired.loss).toBeCloseTo(0.5, 12);
  });
});

describe('summarise with a rival oracle', () => {
  const base = { workload: 'spmm', dataset: 'cora', heldOut: false, measured: true, calibration: 'quick', objective: 'min-time' } as const;
  const result = (system: string, rival?: { optimal: boolean; loss: number }): CaseResult =>
    ({ ...base, system, optimal: true, loss: 0, oracleExact: true, ...(rival ? { rival: { ...rival, label: 'Y:cpu' } } : {}) }) as unknown as CaseResult;

  it('rates the rival per system, apart from the picks', () => {
    const s = summarise([result('a', { optimal: true, loss: 0 }), result('a', { optimal: false, loss: 0.3 }), result('b')]);
    expect(s.optimalRate).toBe(1);
    expect(s.rivalBySystem?.['a']).toMatchObject({ cases: 2, optimal: 1, worstLoss: 0.3 });
    expect(s.rivalBySystem?.['b']).toBeUndefined();
  });

  it('leaves the rival out where none ran', () => {
    expect(summarise([result('a')]).rivalBySystem).toBeUndefined();
  });
});

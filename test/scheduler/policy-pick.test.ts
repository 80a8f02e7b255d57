// pick(): each policy's choice among hand-made candidates, with its tie-break.

import { describe, expect, it } from 'vitest';
import { type Candidate, pick, type Policy, policyKey, policyName } from '../../src/scheduler/policy.js';

const c = (time: number, energy: number, memory = 0, latency = time): Candidate => ({ time, energy, memory, latency });
// A front: fast and hungry to slow and frugal.
const front = [c(1, 10, 300), c(2, 4, 200), c(4, 2, 100), c(8, 1.5, 50)];

describe('pick', () => {
  it('min-time and fastest-within-budget take the fastest', () => {
    expect(pick('min-time', front)).toBe(0);
    expect(pick('fastest-within-budget', front)).toBe(0);
  });

  it('min-energy and frugal-within-deadline take the most frugal', () => {
    expect(pick('min-energy', front)).toBe(3);
    expect(pick('frugal-within-deadline', front)).toBe(3);
  });

  it('min-edp takes the least energy x delay', () => {
    // products 10, 8, 8, 12: a tie broken by time
    expect(pick('min-edp', front)).toBe(1);
    expect(pick('min-edp', [c(3, 3), c(1, 10), c(2, 5)])).toBe(0);
  });

  it('breaks ties of the first key by the second', () => {
    expect(pick('min-time', [c(1, 5), c(1, 3), c(2, 1)])).toBe(1);
    expect(pick('min-energy', [c(3, 1), c(2, 1), c(1, 2)])).toBe(1);
  });

  it('weights scale each objective to [0, 1] over the candidates', () => {
    expect(pick({ weights: { time: 1 } }, front)).toBe(0);
    expect(pick({ weights: { energy: 1 } }, front)).toBe(3);
    expect(pick({ weights: { memory: 1 } }, front)).toBe(3);
    // time scaled: 0, 1/7, 3/7, 1; energy scaled: 1, 2.5/8.5, 0.5/8.5, 0; sums 1, 0.44, 0.49, 1
    expect(pick({ weights: { time: 1, energy: 1 } }, front)).toBe(1);
    expect(pick({ weights: { time: 1, energy: 2 } }, front)).toBe(2); // 2, 0.73, 0.55, 1
    expect(pick({ weights: { time: 10, energy: 1 } }, front)).toBe(0);
  });

  it('weights on an objective that does not vary decide nothing; time breaks the tie', () => {
    expect(pick({ weights: { memory: 1 } }, [c(3, 1, 7), c(2, 9, 7)])).toBe(1);
    expect(policyKey({ weights: { memory: 1 } }, [c(3, 1, 7), c(2, 9, 7)])(c(3, 1, 7))).toEqual([0, 3]);
  });

  it('returns -1 when there is nothing to pick from', () => {
    for (const p of ['min-time', 'min-energy', 'min-edp', { weights: { time: 1 } }] as Policy[]) expect(pick(p, [])).toBe(-1);
  });

  it('names policies for tables', () => {
    expect(policyName('min-edp')).toBe('min-edp');
    expect(policyName({ weights: { time: 2, energy: 1 } })).toBe('weighted (time 2, energy 1)');
  });
});

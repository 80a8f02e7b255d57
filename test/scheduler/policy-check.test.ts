// checkPolicy: refuses unknown names (with the closest one), policies whose constraint option is
// missing, and malformed weights, each with a message that starts with the function's name.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { checkPolicy } from '../../src/scheduler/policy.js';

const none = { deadline: false, energyBudget: false };
const both = { deadline: true, energyBudget: true };
const fails = (policy: unknown, has = none): InvalidArgumentError => {
  try {
    checkPolicy('schedule', policy, has);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    return e as InvalidArgumentError;
  }
  throw new Error(`checkPolicy accepted ${JSON.stringify(policy)}`);
};

describe('checkPolicy', () => {
  it('accepts every named policy and weights, returning them unchanged', () => {
    for (const p of ['min-time', 'min-energy', 'min-edp', 'fastest-within-budget', 'frugal-within-deadline']) expect(checkPolicy('f', p, both)).toBe(p);
    const w = { weights: { time: 1, energy: 0, latency: 2, memory: 0.5 } };
    expect(checkPolicy('f', w, none)).toBe(w);
  });

  it('suggests the closest name for a misspelled policy', () => {
    expect(fails('min-tme').message).toBe('schedule: unknown policy "min-tme" (did you mean "min-time"?)');
    expect(fails('frugal').message).toMatch(/^schedule: unknown policy "frugal"/);
    expect(fails('zzzzzzzzzzzz').message).toMatch(/policies: min-time, min-energy, min-edp, fastest-within-budget, frugal-within-deadline, or \{ weights \}/);
  });

  it('needs energyBudget for fastest-within-budget and deadline for frugal-within-deadline', () => {
    expect(fails('fastest-within-budget', { deadline: true, energyBudget: false }).message).toBe(
      'schedule: policy "fastest-within-budget" needs the energyBudget option',
    );
    expect(fails('frugal-within-deadline', { deadline: false, energyBudget: true }).message).toBe(
      'schedule: policy "frugal-within-deadline" needs the deadline option',
    );
  });

  it('refuses bad weights', () => {
    expect(fails({ weights: { tme: 1 } }).message).toBe('schedule: policy.weights has unknown objective "tme" (did you mean "time"?)');
    expect(fails({ weights: { time: -1 } }).message).toBe('schedule: policy.weights.time must be a number >= 0, got -1');
    expect(fails({ weights: { time: Infinity } }).message).toMatch(/policy\.weights\.time must be a number >= 0, got Infinity/);
    expect(fails({ weights: { energy: '1' } }).message).toMatch(/policy\.weights\.energy must be a number >= 0, got "1"/);
    expect(fails({ weights: { time: 0, energy: 0 } }).message).toBe('schedule: policy.weights must give some objective a positive weight');
    expect(fails({ weights: {} }).message).toMatch(/positive weight/);
    expect(fails({ weights: [1] }).message).toBe('schedule: policy.weights must be an object, got Array(1)');
  });

  it('refuses anything else', () => {
    for (const p of [null, 3, [], { weights: { time: 1 }, extra: 1 }, { weight: { time: 1 } }]) {
      expect(fails(p).message).toMatch(/^schedule: policy must be one of min-time, .* or \{ weights: \{\.\.\.\} \}, got /);
    }
  });
});

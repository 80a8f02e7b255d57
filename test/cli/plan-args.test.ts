// The planning flags' value parsers: quantities with SI-prefixed units, and the short form of
// a mapping used in tables.

import { describe, expect, it } from 'vitest';
import { shortMapping } from '../../src/cli/mapping-text.js';
import { quantityFlag } from '../../src/cli/plan-args.js';

describe('quantityFlag', () => {
  it('reads plain numbers and SI-prefixed units', () => {
    expect(quantityFlag('explore', 'deadline', '0.5', 's')).toBe(0.5);
    expect(quantityFlag('explore', 'deadline', '2ms', 's')).toBeCloseTo(0.002, 15);
    expect(quantityFlag('explore', 'deadline', '500us', 's')).toBeCloseTo(5e-4, 15);
    expect(quantityFlag('explore', 'deadline', '1e-3 s', 's')).toBe(0.001);
    expect(quantityFlag('explore', 'energy-budget', '50mJ', 'J')).toBeCloseTo(0.05, 15);
    expect(quantityFlag('explore', 'energy-budget', '2kJ', 'J')).toBe(2000);
    expect(quantityFlag('explore', 'deadline', undefined, 's')).toBeUndefined();
  });

  it('refuses a prefix without its unit, the wrong unit, and non-positive values', () => {
    for (const bad of ['2m', '2mJ', '0', '-1', 'fast', '']) {
      expect(() => quantityFlag('explore', 'deadline', bad, 's'), bad).toThrow(/explore: --deadline must be a positive number of seconds/);
    }
    expect(() => quantityFlag('run', 'energy-budget', '3ms', 'J')).toThrow(/run: --energy-budget must be a positive number of joules/);
  });
});

describe('shortMapping', () => {
  const ops = [
    { id: 'xw1', choices: ['cpu', 'gpu', 'cpu 50% + gpu 50%'] },
    { id: 'agg1', choices: ['cpu', 'gpu', 'cpu 25% + gpu 75%'] },
    { id: 'h1', choices: ['cpu', 'gpu'] },
  ];
  it('names the main device and only the operators that differ', () => {
    expect(shortMapping(ops, [1, 1, 1])).toBe('all gpu');
    expect(shortMapping(ops, [1, 2, 1])).toBe('gpu; agg1 on cpu 25% + gpu 75%');
    expect(shortMapping(ops, [0, 1, 0])).toBe('cpu; agg1 on gpu');
  });
  it('lists every operator when no device runs two of them', () => {
    expect(shortMapping(ops, [2, 2, 0])).toBe('xw1 on cpu 50% + gpu 50%, agg1 on cpu 25% + gpu 75%, h1 on cpu');
    expect(shortMapping([{ id: 'Y', choices: ['gpu'] }], [0])).toBe('Y on gpu');
  });
});

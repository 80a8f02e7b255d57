// A split's label never says a part holds nothing: a re-balanced three-way split was shown as
// "cpu 0% + cgra 0% + gpu 99%", two parts that held rows printed as empty.

import { describe, expect, it } from 'vitest';
import { splitChoice } from '../../src/scheduler/space.js';
import { bindChain } from './schedule-fixtures.js';

describe('split labels', () => {
  const bound = bindChain();
  const op = bound.ops[0]!;
  const names = ['cpu', 'gpu', 'cgra'];

  it('shows a part under half a percent as <1%, and its neighbour as >99%', () => {
    const ch = splitChoice(op, bound, names, [0, 1], [0.001, 0.999]);
    expect(ch).not.toBeNull();
    expect(ch!.parts[0]!.end).toBeGreaterThan(0);
    expect(ch!.label).toBe('cpu <1% + gpu >99%');
  });

  it('rounds other shares to whole percents', () => {
    expect(splitChoice(op, bound, names, [0, 1], [0.3, 0.7])!.label).toMatch(/^cpu \d+% \+ gpu \d+%$/);
  });
});

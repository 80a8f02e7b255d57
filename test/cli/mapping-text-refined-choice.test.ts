// shortMapping names a choice the exploration's operators do not list from the mapping's own
// label: a chosen split re-balanced after its probe is such a choice, and `dype run pagerank
// --data citeseer.mtx` printed "Plan (min-time): ?; x1 on cpu, x2 on cpu, x3 on cpu, x4 on cpu"
// (explore's chosen row "cpu; p1 on ?, p2 on cpu 80% + cgra 20%, p3 on ?, ...").

import { expect, it } from 'vitest';
import { shortMapping } from '../../src/cli/mapping-text.js';

const operators = [
  { id: 'p1', choices: ['cpu', 'cgra', 'cpu 50% + cgra 50%'] },
  { id: 'x1', choices: ['cpu', 'cgra'] },
  { id: 'p2', choices: ['cpu', 'cgra', 'cpu 50% + cgra 50%'] },
  { id: 'x2', choices: ['cpu', 'cgra'] },
];

it('takes a choice past the listed ones from the label', () => {
  const label = 'p1:cpu 76% + cgra 24%, x1:cpu, p2:cpu 78% + cgra 22%, x2:cpu';
  expect(shortMapping(operators, [3, 0, 4, 0], label)).toBe('cpu; p1 on cpu 76% + cgra 24%, p2 on cpu 78% + cgra 22%');
});

it('reads the listed choices as before, with or without a label', () => {
  expect(shortMapping(operators, [2, 0, 0, 0])).toBe('cpu; p1 on cpu 50% + cgra 50%');
  expect(shortMapping(operators, [1, 1, 1, 1], 'p1:cgra, x1:cgra, p2:cgra, x2:cgra')).toBe('all cgra');
});

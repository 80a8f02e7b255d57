// Every refusal of the graph transforms is an InvalidArgumentError naming the function.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { gcnNormalise, meanAggregator, pagerankMatrix, TRANSFORMS } from '../../src/workloads/transforms.js';
import { randomDense } from '../support/random.js';
import { csr, thrown } from './helpers.js';

function expectRefusal(f: () => unknown, fn: string, detail: RegExp): void {
  const e = thrown(f);
  expect(e).toBeInstanceOf(InvalidArgumentError);
  expect(e.message.startsWith(`${fn}: `)).toBe(true);
  expect(e.message).toMatch(detail);
}

describe('transform errors', () => {
  const rect = csr(3, [[0], [2]]);

  it('gcnNormalise and pagerankMatrix refuse a non-square matrix, naming its shape', () => {
    expectRefusal(() => gcnNormalise(rect), 'gcnNormalise', /a must be square .*got 2x3/);
    expectRefusal(() => pagerankMatrix(rect), 'pagerankMatrix', /a must be square .*got 2x3/);
  });

  it('every transform refuses a non-CsrMatrix and an unknown precision', () => {
    const fns: Array<[string, (a: never, p?: never) => unknown]> = [
      ['gcnNormalise', gcnNormalise],
      ['meanAggregator', meanAggregator],
      ['pagerankMatrix', pagerankMatrix],
      ['transpose', (a, p) => TRANSFORMS.get('transpose')!.apply(a, p!)],
    ];
    for (const [fn, f] of fns) {
      expectRefusal(() => f(randomDense(2, 2, 'f32', 1) as never), fn, /a must be a CsrMatrix, got DenseMatrix object/);
      expectRefusal(() => f(csr(2, [[1], [0]]) as never, 'f16' as never), fn, /precision must be one of "f32", "f64", got "f16"/);
    }
  });

  it('gcnNormalise refuses rows of A + I that do not sum to a positive number', () => {
    const negative = csr(2, [[[1, -3]], [[0, 1]]], 'f64'); // row 0: -3 + 1 = -2
    expectRefusal(() => gcnNormalise(negative), 'gcnNormalise', /row 0 of A \+ I sums to -2/);
    const zeroLoop = csr(1, [[[0, 0]]], 'f64'); // an existing diagonal entry of 0 is kept, not replaced by 1
    expectRefusal(() => gcnNormalise(zeroLoop), 'gcnNormalise', /row 0 of A \+ I sums to 0/);
  });

  it('meanAggregator refuses a non-empty row summing to 0', () => {
    const cancel = csr(
      2,
      [
        [[0, 1]],
        [
          [0, 2],
          [1, -2],
        ],
      ],
      'f64',
    );
    expectRefusal(() => meanAggregator(cancel), 'meanAggregator', /row 1 has 2 entries whose values sum to 0/);
  });
});

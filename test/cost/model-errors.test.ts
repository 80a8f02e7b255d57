// The cost model refuses bad requests with typed errors naming the function and the value.

import { describe, expect, it } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { detectSystem } from '../../src/devices/system.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';

const model = new CostModel(await detectSystem());
const a = generate({ kind: 'grid', rows: 10, cols: 10, seed: 1 });

describe('CostModel errors', () => {
  it('names an unknown device', () => {
    expect(() => model.predict('tpu', { kind: 'spmm' }, { a, x: DenseMatrix.zeros(a.cols, 2) })).toThrow(/CostModel.predict: no device "tpu"/);
  });
  it('refuses x of the wrong height', () => {
    expect(() => model.predict('cpu', { kind: 'spmm' }, { a, x: DenseMatrix.zeros(3, 2) })).toThrow(InvalidArgumentError);
  });
  it('refuses a BFS range and a bad msbfs range', () => {
    expect(() => model.predict('cpu', { kind: 'bfs', source: 0 }, { graph: a }, [0, 1])).toThrow(/cannot be split/);
    expect(() => model.predict('cpu', { kind: 'msbfs', sources: Int32Array.of(1, 2) }, { graph: a }, [1, 3])).toThrow(/not a range/);
  });
  it('refuses spmv with a wide x', () => {
    expect(() => model.predict('cpu', { kind: 'spmv' }, { a, x: DenseMatrix.zeros(a.cols, 2) })).toThrow(/spmv needs x with one column, got 2/);
  });
  it('refuses a row range outside the matrix', () => {
    expect(() => model.predictShape('cpu', { kind: 'spmm', a, k: 4, precision: 'f32', range: [0, a.rows + 1] })).toThrow(/not a range/);
  });
  it('refuses a calibration of another model version', () => {
    expect(() => new CostModel(model.system, { modelVersion: 99, createdAt: '', quick: true, seconds: 0, devices: [] })).toThrow(/model version 99/);
  });
});

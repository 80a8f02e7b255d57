// Split boundaries of a sparse operator are placed by nonzeros, not by rows: each part's share is
// its exact fraction of the nonzeros and lies within one row of the share asked for. Dense
// operators and multi-source BFS split by rows and sources.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { buildChoices } from '../../src/scheduler/candidates.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { bindChain, smallGraph, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();

/** Row 0 holds half the nonzeros of a 100-row matrix; every other row holds one. */
function headHeavy(): CsrMatrix {
  const n = 100;
  const rowPtr = new Int32Array(n + 1);
  const cols: number[] = [];
  for (let c = 0; c < n; c++) cols.push(c);
  rowPtr[1] = n;
  for (let r = 1; r < n; r++) {
    cols.push(r);
    rowPtr[r + 1] = rowPtr[r]! + 1;
  }
  return new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx: Int32Array.from(cols) });
}

describe('split boundaries are balanced by nonzeros', () => {
  it('gives every part its exact fraction of the nonzeros, within one row of the asked share', () => {
    const bound = bindChain(smallGraph());
    const a = bound.values[bound.ops[0]!.operands[0]!]!.pattern!;
    const rp = a.rowPtr;
    const nnz = Number(rp[a.rows]!);
    const choices = buildChoices(bound, system, [0, 1], { splitRatios: [0.1, 0.3, 0.5, 0.7, 0.9] }, (_op, d) => (d === 0 ? 1 : 3))[0]!;
    const splits = choices.filter((c) => c.parts.length === 2);
    const asked = [0.1, 0.3, 0.5, 0.7, 0.9, 0.75];
    expect(splits).toHaveLength(asked.length);
    for (const [k, c] of splits.entries()) {
      const [p, q] = c.parts as [(typeof c.parts)[0], (typeof c.parts)[0]];
      expect(p.fraction).toBe((Number(rp[p.end]!) - Number(rp[p.begin]!)) / nnz);
      expect(q.fraction).toBe((Number(rp[q.end]!) - Number(rp[q.begin]!)) / nnz);
      // The boundary is the first row at which the cumulative nonzeros reach the share.
      expect(Number(rp[p.end]!)).toBeGreaterThanOrEqual(asked[k]! * nnz);
      expect(Number(rp[p.end - 1]!)).toBeLessThan(asked[k]! * nnz);
    }
  });

  it('cuts right after a heavy first row, far from the row share', () => {
    const bound = bindChain(headHeavy());
    const choices = buildChoices(bound, system, [0, 1], { splitRatios: [0.5] }, () => 1)[0]!;
    const half = choices.find((c) => c.parts.length === 2)!;
    expect(half.parts.map((p) => [p.begin, p.end])).toEqual([
      [0, 1],
      [1, 100],
    ]);
    expect(half.parts[0]!.fraction).toBeCloseTo(100 / 199, 12);
    expect(half.label).toBe('gpu 50% + cgra 50%');
  });

  it('splits a dense operator by rows', () => {
    const bound = bindWorkload(workload('gcn'), smallGraph());
    const i = bound.ops.findIndex((o) => o.kind === 'gemm');
    const op = bound.ops[i]!;
    const choices = buildChoices(bound, system, [0, 1], { splitRatios: [0.25] }, () => 1)[i]!;
    const quarter = choices.find((c) => c.parts.length === 2)!;
    expect(quarter.parts[0]!.end).toBe(Math.round(0.25 * op.units));
    expect(quarter.parts[0]!.fraction).toBe(Math.round(0.25 * op.units) / op.units);
  });

  it('splits a multi-source BFS by sources', () => {
    const bound = bindWorkload(workload('msbfs'), smallGraph(), { params: { sources: 8 } });
    expect(bound.ops[0]!.units).toBe(8);
    const choices = buildChoices(bound, system, [0, 1], { splitRatios: [0.25] }, () => 1)[0]!;
    const quarter = choices.find((c) => c.parts.length === 2)!;
    expect(quarter.parts.map((p) => [p.begin, p.end, p.fraction])).toEqual([
      [0, 2, 0.25],
      [2, 8, 0.75],
    ]);
  });
});

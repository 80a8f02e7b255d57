// Observers see every piece once, as it ends, with how its time was obtained, and the whole run
// once, with the very object runPlan resolves to.

import { describe, expect, it } from 'vitest';
import { type PieceRecord, type RunResult, runPlan } from '../../src/executor/run.js';
import { isNative } from '../../src/executor/piece.js';
import type { Plan } from '../../src/scheduler/schedule.js';
import { allOn, pieceCount, Planner, widestSplit, withGenome } from './executor-fixtures.js';

const planner = new Planner();

/** What a piece's source must be: a clock on the CPU, the simulator for native kernels elsewhere, else the roofline. */
function expectedSource(plan: Plan, r: PieceRecord): string {
  if (r.device === 'cpu') return 'measured';
  const op = plan.problem.bound.ops.find((o) => o.id === r.op)!;
  return isNative(op, plan.problem.system.device(r.device)) ? 'simulated' : 'roofline';
}

async function observe(plan: Plan): Promise<{ pieces: PieceRecord[]; ends: RunResult[]; result: RunResult }> {
  const pieces: PieceRecord[] = [];
  const ends: RunResult[] = [];
  const result = await runPlan(plan, { replan: false, observers: [{ onPiece: (r) => pieces.push(r), onRunEnd: (r) => ends.push(r) }] });
  return { pieces, ends, result };
}

const key = (r: PieceRecord): string => `${r.op}/${r.device}/${r.begin}/${r.end}`;

describe.each(['gcn', 'sage', 'pagerank', 'msbfs'])('observers of %s', (name) => {
  it.each(['chosen', 'three-way'] as const)('see each piece of the %s mapping once, with its source', async (mapping) => {
    const base = await planner.plan(name);
    const plan = mapping === 'chosen' ? base : withGenome(base, widestSplit(base, 3));
    const { pieces, ends, result } = await observe(plan);

    expect(pieces).toHaveLength(pieceCount(plan, plan.chosen.genome));
    expect(new Set(pieces.map(key)).size).toBe(pieces.length);
    expect(pieces.map(key).sort()).toEqual(result.pieces.map(key).sort());
    for (const r of pieces) {
      expect(r.source, `${key(r)} (${r.kind})`).toBe(expectedSource(plan, r));
      expect(r.observedSeconds).toBeGreaterThanOrEqual(0);
      expect(r.observedJoules).toBeGreaterThanOrEqual(0);
      // The plan predicted each of its own pieces.
      if (mapping === 'chosen') {
        expect(r.predictedSeconds).toBeGreaterThanOrEqual(0);
        expect(r.predictedJoules).toBeGreaterThanOrEqual(0);
      }
    }

    expect(ends).toHaveLength(1);
    expect(ends[0]).toBe(result);
    expect(result.measuredShare).toBeGreaterThanOrEqual(0);
    expect(result.measuredShare).toBeLessThanOrEqual(1);
  });
});

describe('sources across devices', () => {
  it('a three-way gcn covers measured, simulated and roofline pieces', async () => {
    const base = await planner.plan('gcn');
    const { pieces } = await observe(withGenome(base, widestSplit(base, 3)));
    expect(new Set(pieces.map((r) => r.source))).toEqual(new Set(['measured', 'simulated', 'roofline']));
    // Dense operators on simulators are priced, native ones simulated.
    expect(pieces.filter((r) => r.kind === 'gemm' && r.device !== 'cpu').every((r) => r.source === 'roofline')).toBe(true);
    expect(pieces.filter((r) => r.kind === 'spmm' && r.device !== 'cpu').every((r) => r.source === 'simulated')).toBe(true);
  });
});

describe('measuredShare', () => {
  it('is 1 when everything runs on the CPU', async () => {
    const base = await planner.plan('gcn');
    const { result } = await observe(withGenome(base, allOn(base, 'cpu')));
    expect(result.pieces.every((p) => p.source === 'measured')).toBe(true);
    expect(result.measuredShare).toBe(1);
  });

  it('is 0 when nothing runs on the CPU', async () => {
    const base = await planner.plan('gcn');
    const { result } = await observe(withGenome(base, allOn(base, 'gpu')));
    expect(result.pieces.some((p) => p.device === 'cpu')).toBe(false);
    expect(result.measuredShare).toBe(0);
  });

  it("is the CPU pieces' share of the observed seconds", async () => {
    const base = await planner.plan('gcn');
    const { result } = await observe(withGenome(base, widestSplit(base, 3)));
    const total = result.pieces.reduce((s, p) => s + p.observedSeconds, 0);
    const cpu = result.pieces.reduce((s, p) => s + (p.device === 'cpu' ? p.observedSeconds : 0), 0);
    expect(cpu).toBeGreaterThan(0);
    expect(result.measuredShare).toBeCloseTo(cpu / total, 12);
  });
});

describe('several observers', () => {
  it('are all called, and one without hooks is allowed', async () => {
    const plan = await planner.plan('spmm');
    const a: PieceRecord[] = [];
    const b: PieceRecord[] = [];
    let endsB = 0;
    const result = await runPlan(plan, {
      replan: false,
      observers: [{ onPiece: (r) => a.push(r) }, {}, { onPiece: (r) => b.push(r), onRunEnd: () => endsB++ }],
    });
    expect(a).toHaveLength(result.pieces.length);
    expect(b).toEqual(a);
    expect(endsB).toBe(1);
  });
});

// The drift monitor: relative error of observed against predicted time over the run, the worst
// piece, the threshold, and feedback of native kernels' observations into the cost model.

import { describe, expect, it } from 'vitest';
import { DriftMonitor } from '../../src/executor/drift.js';
import { type PieceRecord, runPlan } from '../../src/executor/run.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { Planner, withGenome, wholeOn } from './executor-fixtures.js';

const piece = (over: Partial<PieceRecord>): PieceRecord => ({
  op: 'y', kind: 'spmm', device: 'gpu', begin: 0, end: 10,
  predictedSeconds: 1e-3, observedSeconds: 1e-3, predictedJoules: 1e-3, observedJoules: 1e-3,
  source: 'simulated', energySource: 'simulated', ...over,
});

describe('DriftMonitor', () => {
  it('accumulates the relative error by time and names the worst piece', () => {
    const m = new DriftMonitor(undefined, { threshold: 0.25 });
    m.onPiece(piece({ op: 'a', predictedSeconds: 1e-3, observedSeconds: 1.1e-3 }));
    expect(m.state.drifted).toBe(false);
    m.onPiece(piece({ op: 'b', device: 'cgra', predictedSeconds: 1e-3, observedSeconds: 3e-3 }));
    const s = m.state;
    expect(s.pieces).toBe(2);
    expect(s.relativeError).toBeCloseTo((4.1e-3 - 2e-3) / 2e-3, 12);
    expect(s.worst).toEqual({ op: 'b', device: 'cgra', relativeError: 2 });
    expect(s.drifted).toBe(true);
  });

  it('refuses a threshold that is not a positive number', () => {
    expect(() => new DriftMonitor(undefined, { threshold: 0 })).toThrow(InvalidArgumentError);
    expect(() => new DriftMonitor(undefined, { threshold: Number.NaN })).toThrow(/DriftMonitor: threshold/);
  });

  it('teaches the model from native pieces only, which moves its later predictions', async () => {
    const planner = new Planner();
    const plan = await planner.plan('gcn');
    // Aggregations (spmm) on the gpu, everything else on the cpu: both kinds of pieces occur.
    const genome = Int32Array.from(plan.problem.bound.ops, (op, i) => wholeOn(plan, i, op.kind === 'spmm' ? 'gpu' : 'cpu'));
    const forced = withGenome(plan, genome);
    const before = planner.model.corrections.factor('gpu/spmm/time');
    const drift = new DriftMonitor(planner.model);
    await runPlan(forced, { replan: false, observers: [drift] });
    expect(drift.records.length).toBe(plan.problem.bound.ops.length);
    const after = planner.model.corrections.factor('gpu/spmm/time');
    // The uncalibrated model is far from the simulator, so two observations move the factor.
    expect(after).not.toBe(before);
    // Dense operators (measured on the cpu, or rooflines) leave the model's keys alone.
    expect(planner.model.corrections.factor('cpu/spmm/time')).toBe(1);
  });
});

// The drift monitor: relative error of observed against predicted time over the run, the worst
// piece and the threshold. It only watches: the run is the one path through which pieces teach
// the cost model (before, the monitor and the executor each learnt from every piece: twice).

import { describe, expect, it } from 'vitest';
import { DriftMonitor } from '../../src/executor/drift.js';
import { type PieceRecord, runPlan } from '../../src/executor/run.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { Planner, withGenome, wholeOn } from './executor-fixtures.js';

const piece = (over: Partial<PieceRecord>): PieceRecord => ({
  op: 'y',
  kind: 'spmm',
  device: 'gpu',
  begin: 0,
  end: 10,
  predictedSeconds: 1e-3,
  observedSeconds: 1e-3,
  predictedJoules: 1e-3,
  observedJoules: 1e-3,
  source: 'simulated',
  energySource: 'simulated',
  wallStart: 0,
  wallFinish: 0,
  ...over,
});

describe('DriftMonitor', () => {
  it('accumulates the relative error by time and names the worst piece', () => {
    const m = new DriftMonitor({ threshold: 0.25 });
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
    expect(() => new DriftMonitor({ threshold: 0 })).toThrow(InvalidArgumentError);
    expect(() => new DriftMonitor({ threshold: Number.NaN })).toThrow(/DriftMonitor: threshold/);
  });

  it("refuses a cost model: learning is the run's", () => {
    const planner = new Planner();
    expect(() => new DriftMonitor(planner.model as never)).toThrow(/^DriftMonitor: it no longer takes a cost model: runPlan teaches/);
  });

  it('leaves the model alone: the run teaches it once per native piece, and not at all with learn: false', async () => {
    const planner = new Planner();
    const plan = await planner.plan('gcn');
    // Aggregations (spmm) on the gpu, everything else on the cpu: both kinds of pieces occur.
    const genome = Int32Array.from(plan.problem.bound.ops, (op, i) => wholeOn(plan, i, op.kind === 'spmm' ? 'gpu' : 'cpu'));
    const forced = withGenome(plan, genome);
    const seen: number[] = [];
    const original = planner.model.observeUncorrected.bind(planner.model);
    planner.model.observeUncorrected = (...args: Parameters<typeof original>) => {
      seen.push(1);
      original(...args);
    };
    const drift = new DriftMonitor();
    await runPlan(forced, { replan: false, learn: false, observers: [drift] });
    expect(drift.records.length).toBe(plan.problem.bound.ops.length);
    expect(seen.length).toBe(0);
    await runPlan(forced, { replan: false, observers: [drift] });
    // Two spmm pieces (native, simulated on the gpu): two observations; dense pieces teach nothing.
    expect(seen.length).toBe(2);
    expect(planner.model.corrections.factor('gpu/spmm/time')).not.toBe(1);
    expect(planner.model.corrections.factor('cpu/spmm/time')).toBe(1);
  });
});

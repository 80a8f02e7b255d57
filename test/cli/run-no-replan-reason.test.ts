// `dype run` tells the truth about drift. It printed "Re-plans: none (the observed times stayed
// within the threshold...)" even when a piece took 5-7x its prediction: drift in the last
// operator has nothing left to re-plan. The line now says which of the three happened.

import { describe, expect, it } from 'vitest';
import { noReplanReason } from '../../src/cli/commands/run.js';
import type { RunResult } from '../../src/executor/run.js';

const piece = (op: string, predicted: number, observed: number): RunResult['pieces'][number] => ({
  op,
  kind: 'spmm',
  device: 'cpu',
  begin: 0,
  end: 1,
  predictedSeconds: predicted,
  observedSeconds: observed,
  predictedJoules: 0,
  observedJoules: 0,
  source: 'measured',
  energySource: 'modelled',
  wallStart: 0,
  wallFinish: observed,
  start: 0,
  finish: observed,
});
const result = (pieces: RunResult['pieces']): RunResult => ({ pieces }) as unknown as RunResult;

describe('why a run did not re-plan', () => {
  it('says re-planning was off', () => {
    expect(noReplanReason(result([piece('a', 1e-3, 9e-3)]), false)).toBe('none (re-planning is off: --no-replan)');
  });

  it('says every piece stayed near its prediction when they did', () => {
    expect(noReplanReason(result([piece('a', 1e-3, 1.1e-3), piece('b', 2e-3, 1.8e-3)]), 0.25)).toBe('none (every piece took within 25% of its prediction)');
  });

  it('names the piece that drifted when one did, and why nothing moved', () => {
    const why = noReplanReason(result([piece('a', 1e-3, 1.1e-3), piece('agg2', 1e-3, 5.2e-3)]), 0.25);
    expect(why).toMatch(/^none, though agg2 on cpu took 5\.20x its prediction: /);
    expect(why).toMatch(/nothing left to re-plan/);
  });
});

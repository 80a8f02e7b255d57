// dype run says where a makespan read off the host clock went beyond the pieces' own time: the
// executor's work around them. 'Re-plans: none (every piece took within 25%...)' stood alone
// beside a makespan 3x the prediction (a BFS's kernels 3.44 ms, the run 6.11 ms).

import { describe, expect, it } from 'vitest';
import { executorTimeNote } from '../../src/cli/commands/run.js';

describe('the executor time note', () => {
  it("states the pieces' time and the rest where the host clock read over a tenth more", () => {
    expect(executorTimeNote({ makespan: 6.11e-3, makespanSource: 'measured', composedMakespan: 3.44e-3 })).toBe(
      "Of that makespan, 3.44 ms is the pieces' own time (their observed costs composed as planned); the other 2.67 ms went to the executor's work around them (calls, output memory, level-by-level decisions), which the prediction does not include.",
    );
  });

  it('says nothing where the pieces account for it, or where the makespan is composed', () => {
    expect(executorTimeNote({ makespan: 3.6e-3, makespanSource: 'measured', composedMakespan: 3.44e-3 })).toBeUndefined();
    expect(executorTimeNote({ makespan: 7.1e-4, makespanSource: 'composed', composedMakespan: 7.1e-4 })).toBeUndefined();
  });
});

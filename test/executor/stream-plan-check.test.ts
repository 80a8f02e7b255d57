// runStream checks its plan as runPlan does: anything but a plan from schedule() is an
// InvalidArgumentError naming runStream, not a TypeError from reading the plan's constraints.

import { describe, expect, it } from 'vitest';
import { runStream } from '../../src/executor/stream.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { smallGraph } from '../scheduler/schedule-fixtures.js';

describe('runStream checks its plan', () => {
  it('refuses what schedule() did not make', async () => {
    for (const plan of ['gcn', {}, null, { problem: {} }, [1]]) {
      const e = await runStream(plan as never, [smallGraph()]).catch((x: Error) => x);
      expect(e, JSON.stringify(plan)).toBeInstanceOf(InvalidArgumentError);
      expect((e as Error).message).toMatch(/^runStream: plan must come from schedule\(\)/);
    }
  });
});

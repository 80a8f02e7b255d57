// The planner's and executor's options under fuzzing, as options.test.ts does for the loaders and
// kernels: schedule, explore, runPlan and runStream get objects of their known option names,
// misspellings and unrelated keys, holding hostile values, or no object at all. Each must plan or
// run, or refuse with a typed error naming itself. (`budget` and `exhaustiveLimit` are left out:
// their largest valid values ask for searches of hours, which is what they mean.)

import { describe, expect } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { runStream } from '../../src/executor/stream.js';
import { PREPARE_KEYS } from '../../src/scheduler/problem.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';
import { attemptAsync, fuzzAsync } from './harness.js';
import { build, checkRefusal, optionsFor } from './option-arbitraries.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();
const plan = await schedule('spmm', graph, { system, model, probe: false });
/** What planning takes, but the fixture's system and model (kept underneath) and the search sizes left out above. */
const PLANNING = [...PREPARE_KEYS.filter((k) => !['system', 'model', 'budget', 'exhaustiveLimit'].includes(k)), 'staticMapping', 'maxPoints'];
/** The options with the fixture's system and model underneath, where they are an object. */
const onFixture = (o: unknown): unknown => (o !== null && typeof o === 'object' && !Array.isArray(o) ? { system, model, ...o } : o);

const TARGETS: { fn: string; names: readonly string[]; call: (options: unknown) => Promise<unknown> }[] = [
  { fn: 'schedule', names: [...PLANNING, 'policy', 'fixedMapping'], call: (o) => schedule('spmm', graph, onFixture(o) as never) },
  { fn: 'explore', names: PLANNING, call: (o) => explore('spmm', graph, onFixture(o) as never) },
  {
    fn: 'runPlan',
    names: ['signal', 'observers', 'replan', 'learn', 'deviceLoss', 'recoverDeviceFailures', 'bfsLevels', 'keepValues', 'backlog', 'gate', 'allowance'],
    call: (o) => runPlan(plan, o as never),
  },
  {
    fn: 'runStream',
    names: ['signal', 'observers', 'replan', 'deviceLoss', 'recoverDeviceFailures', 'featureThreshold', 'bfsLevels', 'allowance'],
    call: (o) => runStream(plan, [graph], o as never),
  },
];

describe('options of the planner and the executor', () => {
  for (const t of TARGETS) {
    fuzzAsync(`${t.fn} options: plan or run, or a typed refusal naming ${t.fn}`, optionsFor(t.names), 40, async (c) => {
      const { options, unknownName } = build(t.names, c);
      // An already-aborted signal stops planning and runs with its own reason, as fetch does
      // (test/executor/cancellation.test.ts): that is the one refusal that is not a DypeError.
      const signal = options !== null && typeof options === 'object' ? (options as { signal?: unknown }).signal : undefined;
      const aborted = signal instanceof AbortSignal && signal.aborted;
      const stopped = Symbol('stopped by the signal');
      const got = await attemptAsync(t.fn, () =>
        t.call(options).catch((e: unknown) => {
          if (aborted && e === signal.reason) return stopped;
          throw e;
        }),
      );
      checkRefusal(t.fn, unknownName, got as never);
      // Nothing plans or runs under a signal aborted before the call.
      if (aborted) expect(got.ok && got.value !== stopped, `${t.fn} ran under an aborted signal`).toBe(false);
      return got.ok && got.value !== stopped ? 'result' : 'refused';
    });
  }
});

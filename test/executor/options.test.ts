// runPlan refuses bad arguments with typed errors before any piece runs.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { runPlan, type RunPlanOptions } from '../../src/executor/run.js';
import type { Plan } from '../../src/scheduler/schedule.js';
import { Planner } from './executor-fixtures.js';

const planner = new Planner();
const plan = (): Promise<Plan> => planner.plan('spmm');

describe('runPlan arguments', () => {
  it('rejects a misspelled option with a suggestion', async () => {
    const p = await plan();
    const run = runPlan(p, { observer: [] } as unknown as RunPlanOptions);
    await expect(run).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(run).rejects.toThrow(/^runPlan: .*did you mean "observers"/);
  });

  it.each([
    ['an empty object', {}],
    ['null', null],
    ['a string', 'gcn'],
    ['a plan without a chosen mapping', { bound: {} }],
  ])('rejects %s as the plan', async (_, value) => {
    const run = runPlan(value as unknown as Plan);
    await expect(run).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(run).rejects.toThrow(/^runPlan: plan/);
  });

  it('rejects options that are not an object', async () => {
    const p = await plan();
    await expect(runPlan(p, null as unknown as RunPlanOptions)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(runPlan(p, [] as unknown as RunPlanOptions)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('rejects observers that are not an array, before any piece runs', async () => {
    const p = await plan();
    const run = runPlan(p, { observers: { onPiece: () => undefined } } as unknown as RunPlanOptions);
    await expect(run).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(run).rejects.toThrow(/observers must be an array/);
  });
});

// Option values are checked before anything runs: a non-signal, a null observer and a hook
// that is not a function are refused with InvalidArgumentError naming runPlan.
describe('runPlan option values', () => {
  it.each([
    ['signal is not an AbortSignal', { signal: 'abort' }],
    ['an observer is null', { observers: [null] }],
    ['an observer hook is not a function', { observers: [{ onPiece: 1 }] }],
  ])('rejects with InvalidArgumentError when %s', async (_, options) => {
    const p = await plan();
    let pieces = 0;
    const counting = { onPiece: () => pieces++ };
    const opts = { ...options, observers: [counting, ...((options as { observers?: unknown[] }).observers ?? [])] };
    const run = runPlan(p, opts as unknown as RunPlanOptions);
    await expect(run).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(run).rejects.toThrow(/^runPlan: /);
    expect(pieces).toBe(0);
  });
});

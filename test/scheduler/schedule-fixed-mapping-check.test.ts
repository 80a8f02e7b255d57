// A mapping handed to schedule (fixedMapping) or explore (staticMapping) is checked before use:
// a malformed one is an InvalidArgumentError naming the option and the entry, and one that does
// not fit the workload or system says which operator or device, instead of a TypeError from
// deep inside the planner or a reason that names neither.

import { describe, expect, it } from 'vitest';
import { InfeasibleError, InvalidArgumentError } from '../../src/errors.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const base = { system, model: specModel(system), splitRatios: [0.5] };
const graph = smallGraph();
const plan = schedule('gcn', graph, base);

/** The error `schedule` throws for `fixedMapping`. */
async function refusal(fixedMapping: unknown): Promise<Error> {
  return schedule('gcn', graph, { ...base, fixedMapping: fixedMapping as never }).then(
    () => new Error('accepted'),
    (e: Error) => e,
  );
}

describe('a fixed or static mapping is checked', () => {
  it('refuses what is not an array of entries, by name', async () => {
    for (const bad of [{ agg1: 'gpu' }, 'gpu', [null], [['agg1', 'gpu']]]) {
      const e = await refusal(bad);
      expect(e, JSON.stringify(bad)).toBeInstanceOf(InvalidArgumentError);
      expect(e.message).toMatch(/^schedule: fixedMapping/);
    }
  });

  it('names the entry and field at fault', async () => {
    const good = (await plan).mapping;
    const entry = (i: number, over: Record<string, unknown>): unknown => good.map((m, j) => (j === i ? { ...m, ...over } : m));
    expect((await refusal(entry(1, { share: [1] }))).message).toMatch(/fixedMapping\[1\] has an unknown field "share" \(did you mean "shares"\?\)/);
    expect((await refusal(entry(0, { shares: [0.5, 0.2], devices: ['gpu', 'cgra'] }))).message).toMatch(/fixedMapping\[0\]\.shares must sum to 1/);
    expect((await refusal(entry(0, { devices: ['gpu'], shares: [0.5, 0.5] }))).message).toMatch(/fixedMapping\[0\]\.shares must be 1 number/);
    expect((await refusal(entry(2, { devices: [] }))).message).toMatch(/fixedMapping\[2\]\.devices must be a non-empty array/);
    expect((await refusal(entry(1, { op: good[0]!.op }))).message).toMatch(/fixedMapping\[1\]\.op names an operator an earlier entry already maps/);
    expect((await refusal(entry(0, { shares: [Number.NaN] }))).message).toMatch(/fixedMapping\[0\]\.shares/);
  });

  it('says which device or operator does not fit', async () => {
    const good = (await plan).mapping;
    const tpu = await refusal(good.map((m, j) => (j === 0 ? { ...m, devices: ['tpu'], shares: [1] } : m)));
    expect(tpu).toBeInstanceOf(InfeasibleError);
    expect(tpu.message).toMatch(new RegExp(`operator "${good[0]!.op}" names device "tpu", which this system lacks \\(devices: gpu, cgra\\)`));
    const short = await refusal(good.slice(1));
    expect(short.message).toMatch(new RegExp(`no entry for operator "${good[0]!.op}"`));
    const ex = await explore('gcn', graph, { ...base, staticMapping: [...good, { op: 'nope', devices: ['gpu'], shares: [1] }] });
    expect(ex.baselines.find((b) => b.name === 'static')!.reason).toMatch(/operator "nope" is not one of the workload's/);
  });

  it("still takes a plan's own mapping", async () => {
    const p = await plan;
    const again = await schedule('gcn', graph, { ...base, fixedMapping: p.mapping });
    expect(again.chosen.label).toBe(p.chosen.label);
  });
});

// Copies that cross the same direction of a link share its bandwidth: they run one after the
// other, so the bytes a direction carries take at least bytes / bandwidth of the makespan. The
// old evaluator started every copy when its value was ready and gave each the whole link (four
// copies of 32 MB at once on a 50 GB/s link, a makespan shorter than the copies alone).

import { describe, expect, it } from 'vitest';
import { explore } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, threeDeviceSystem } from './schedule-fixtures.js';

const system = threeDeviceSystem();

describe('link sharing in the makespan', () => {
  it('never runs two copies at once on one direction of a link, for any mapping of the front or the sample', async () => {
    const ex = await explore('gcn', smallGraph(), { system, model: specModel(system), maxPoints: 200 });
    const mappings = [...ex.front, ...ex.dominated];
    expect(mappings.length).toBeGreaterThan(20);
    let checked = 0;
    for (const p of mappings) {
      const m = ex.problem.evaluator.metrics(p.genome);
      const byDirection = new Map<string, { start: number; finish: number; seconds: number }[]>();
      for (const t of m.transfers) {
        const link = system.route(t.from, t.to)[0]!;
        const key = `${t.from}->${t.to}`;
        const list = byDirection.get(key) ?? [];
        list.push({ start: t.start, finish: t.finish, seconds: t.bytes / link.bandwidth });
        byDirection.set(key, list);
      }
      for (const list of byDirection.values()) {
        list.sort((a, b) => a.start - b.start);
        // Each copy starts once the one before it has put its bytes on the link.
        for (let k = 1; k < list.length; k++) expect(list[k]!.start).toBeGreaterThanOrEqual(list[k - 1]!.start + list[k - 1]!.seconds - 1e-15);
        const carried = list.reduce((s, t) => s + t.seconds, 0);
        expect(m.makespan).toBeGreaterThanOrEqual(carried);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10); // the mappings did copy things over links
  });
});

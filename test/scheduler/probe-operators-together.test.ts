// On a real device the planner probes every operator in the same rounds, in the workload's order,
// as a run meets them and as the oracle times a mapping's pieces. Probed one operator at a time, a
// short operator ran its repeats back to back, hot from its own last run: a GCN's ReLU on cora
// probed at 8 us took 11-19 us among the others, and the CPU baselines `dype explore` showed were
// 0.5-0.7x what `--measure` executed on the small datasets.

import { expect, it, vi } from 'vitest';
import { generate } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { cpuCgraSystem, specModel } from './schedule-fixtures.js';

const runs: { op: number; device: string; begin: number; end: number }[] = [];
vi.mock('../../src/executor/piece.js', async (original) => {
  const piece = await original<typeof import('../../src/executor/piece.js')>();
  return {
    ...piece,
    executePiece: (...args: Parameters<typeof piece.executePiece>) => {
      const [, op, device, , begin, end] = args;
      runs.push({ op: op.index, device: device.name, begin, end });
      return piece.executePiece(...args);
    },
  };
});

it('times the real CPU probes of every operator in shared rounds, never one operator back to back', async () => {
  const system = cpuCgraSystem();
  const graph = generate({ kind: 'grid', rows: 24, cols: 24, seed: 2 });
  runs.length = 0;
  const plan = await schedule('gcn', graph, { system, model: specModel(system), policy: 'min-time' });
  const ops = plan.problem.bound.ops;
  const relu = ops.findIndex((o) => o.kind === 'relu');
  expect(relu).toBeGreaterThan(0);
  // The probes of the CPU before the first part is priced again (refinement, verification). A run
  // the pool ran short of its workers is taken again at once (repeatInRounds' retakes, on a
  // loaded machine): a retake is one sample, so consecutive runs of one range count once.
  const cpu: typeof runs = [];
  for (const r of runs) {
    const before = cpu[cpu.length - 1];
    const retake = before !== undefined && before.op === r.op && before.begin === r.begin && before.end === r.end;
    if (r.device === 'cpu' && !retake) cpu.push(r);
  }
  const whole = (r: (typeof runs)[number]): boolean => r.begin === 0 && r.end === Math.max(ops[r.op]!.units, 1);
  // The warm-up and the first three rounds: every range runs at least that often (more while its
  // runs total under 5 ms, so a slow operator may leave the later rounds early).
  const firstReluRuns = cpu.flatMap((r, k) => (r.op === relu && whole(r) ? [k] : [])).slice(0, 4);
  expect(firstReluRuns).toHaveLength(4);
  // Between two runs of the ReLU, every other operator's probe ran.
  for (let j = 1; j < firstReluRuns.length; j++) {
    const between = new Set(cpu.slice(firstReluRuns[j - 1]! + 1, firstReluRuns[j]!).map((r) => r.op));
    expect([...between].sort()).toEqual(ops.map((o) => o.index).filter((i) => i !== relu));
  }
  // And the first round follows the workload's order.
  const firstRound = [...new Set(cpu.slice(0, firstReluRuns[1]).map((r) => r.op))];
  expect(firstRound).toEqual(ops.map((o) => o.index));
});

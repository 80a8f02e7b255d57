// Level-by-level BFS steps only onto devices the plan may use: a device excluded when planning
// takes no level of the search, and with one device left the search runs in one call (stepping
// had nowhere to go and only paid its calls: a CPU-only BFS of wing ran 8.4 ms stepped, 3.8 ms whole).

import { describe, expect, it } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { generate } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { confidentModel, expectReferenceOutputs, mixedSystem } from './executor-fixtures.js';

const system = mixedSystem();
const model = confidentModel(system);
// The graph on which a search planned on the CPU steps onto the other devices (bfs-levels.test.ts).
const tailed = generate({ kind: 'kronecker', scale: 11, seed: 3, tail: 400 });

async function bfsPiece(exclude: string[]) {
  const plan = await schedule('bfs', tailed, { system, model, probe: false, exclude, fixedMapping: [{ op: 'depth', devices: ['cpu'], shares: [1] }] });
  const result = await runPlan(plan);
  expectReferenceOutputs(plan, result);
  return result.pieces.find((p) => p.kind === 'bfs')!;
}

describe('BFS steps and excluded devices', () => {
  it('steps onto the other devices when they may be used', async () => {
    const piece = await bfsPiece([]);
    expect(new Set(piece.steps?.map((s) => s.device)).size).toBeGreaterThan(1);
  });

  it('never onto an excluded device, and not at all with one device left', async () => {
    const piece = await bfsPiece(['gpu']);
    for (const s of piece.steps ?? []) expect(s.device).not.toBe('gpu');
    const alone = await bfsPiece(['gpu', 'cgra']);
    expect(alone.steps).toBeUndefined();
    expect(alone.device).toBe('cpu');
  });
});

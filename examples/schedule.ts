// Plan a two-layer GCN on a generated power-law graph: the Pareto front of time against
// energy, the mapping the policy picks, and why. Every figure is a prediction (cost model and
// rooflines), labelled so.
// Run: npx tsx examples/schedule.ts

import { detectSystem, explore, kroneckerGraph, loadCostModel, schedule } from '../src/index.js';

const graph = kroneckerGraph({ scale: 13, edgeFactor: 16, seed: 5 });
const system = await detectSystem();
const model = await loadCostModel(system);

const plan = await schedule('gcn', graph, { system, model, policy: 'min-edp' });
console.log(`front (${plan.front.length} of ${plan.search.evaluated} mappings, ${plan.search.strategy}), predicted:`);
for (const p of plan.front) {
  console.log(`  ${(p.time * 1e3).toFixed(3)} ms  ${(p.energy * 1e3).toFixed(2)} mJ  ${p === plan.chosen ? '<- chosen' : ''}  ${p.label}`);
}
for (const b of plan.baselines)
  if (b.time !== undefined) console.log(`  baseline ${b.name}: ${(b.time * 1e3).toFixed(3)} ms, ${(b.energy! * 1e3).toFixed(2)} mJ`);
console.log(plan.explanation.summary.join('\n'));

// The same workload under a deadline, most frugal first; and its front without choosing.
const fast = plan.front[0]!.time;
const frugal = await schedule('gcn', graph, { system, model, policy: 'frugal-within-deadline', deadline: fast * 1.5 });
console.log(`most frugal within ${(fast * 1.5 * 1e3).toFixed(3)} ms: ${frugal.chosen.label}`);
const ex = await explore('sage', graph, { system, model, objectives: ['time', 'energy', 'memory'] });
console.log(`sage: ${ex.front.length} points on the 3-objective front, normalised hypervolume ${ex.hypervolume.normalised.toFixed(3)}`);
await system.dispose();

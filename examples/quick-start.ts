// The README's library example, run by CI as it is shown there (test/cli/readme-example.test.ts
// checks the README's block is this file): plan a GCN on a generated graph, run the plan, and
// call a kernel directly.
// Run: npx tsx examples/quick-start.ts
import { bfs, detectSystem, kroneckerGraph, runPlan, schedule } from '../src/index.js';

const graph = kroneckerGraph({ scale: 12, seed: 1 });         // or loadEdgeList, loadMatrixMarket, loadNpz
const system = await detectSystem();                           // cpu + cgra-sim + gpu-sim (or a CUDA GPU)
const plan = await schedule('gcn', graph, { system, policy: 'min-time' });
console.log('chosen:', plan.chosen.label);                     // every figure in a plan is predicted
console.log(`predicted ${(plan.chosen.time * 1e3).toPrecision(3)} ms, ${(plan.chosen.energy * 1e3).toPrecision(3)} mJ`);

const result = await runPlan(plan);                            // executes it; re-plans if it drifts
console.log(`observed ${(result.makespan * 1e3).toPrecision(3)} ms, ${result.replans.length} re-plans`);

let hub = 0;                                                   // Kronecker graphs have isolated vertices:
for (let v = 1; v < graph.rows; v++) if (graph.rowLength(v) > graph.rowLength(hub)) hub = v;
const { depth } = await bfs(graph, hub);                       // a kernel alone, from the best-connected vertex
console.log(`BFS from ${hub} reached ${depth.filter((d) => d >= 0).length} of ${graph.rows} vertices`);
await system.dispose();

// Plan a GraphSAGE layer on a generated power-law graph, run the plan on the detected system
// (the CPU for real, the simulators simulating), check the result against the TypeScript
// reference, compare predicted with observed per piece, and write a Chrome trace.
// Run: npx tsx examples/run-plan.ts [trace.json]

import { detectSystem, kroneckerGraph, loadCostModel, referenceValues, runPlan, schedule, TraceRecorder } from '../src/index.js';

const graph = kroneckerGraph({ scale: 12, edgeFactor: 16, seed: 9 });
const system = await detectSystem();
const model = await loadCostModel(system);
const plan = await schedule('sage', graph, { system, model, policy: 'min-energy' });
console.log(`plan: ${plan.chosen.label}`);

const trace = new TraceRecorder('sage on kronecker 12');
const result = await runPlan(plan, { observers: [trace] });
for (const p of result.pieces) {
  console.log(
    `${p.op.padEnd(6)} ${p.device.padEnd(5)} [${p.begin}, ${p.end})  predicted ${(p.predictedSeconds * 1e6).toFixed(0).padStart(7)} us  ` +
      `observed ${(p.observedSeconds * 1e6).toFixed(0).padStart(7)} us (${p.source})  at ${(p.start * 1e6).toFixed(0)}-${(p.finish * 1e6).toFixed(0)} us`,
  );
}
const out = result.outputs['h'] as { data: Float32Array };
const ref = referenceValues(plan.problem.bound)[plan.problem.bound.outputs[0]!] as { data: Float32Array };
let worst = 0;
for (let i = 0; i < ref.data.length; i++) worst = Math.max(worst, Math.abs(out.data[i]! - ref.data[i]!));
console.log(
  `makespan ${(result.makespan * 1e6).toFixed(0)} us (predicted ${(plan.chosen.latency * 1e6).toFixed(0)} us), ${(result.measuredShare * 100).toFixed(0)}% of piece time measured; largest difference from the reference ${worst.toExponential(1)}`,
);
if (!(worst < 1e-3)) throw new Error('run-plan: the result differs from the reference');
if (process.argv[2]) await trace.write(process.argv[2]);
await system.dispose();

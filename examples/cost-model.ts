// Predict an SpMM on every device of the detected system before running it, then run it and
// compare. Uses this machine's stored calibration when `dype calibrate` has made one, else spec
// defaults (and says so).
// Run: npx tsx examples/cost-model.ts

import { denseFeatures, detectSystem, kroneckerGraph, loadCostModel } from '../src/index.js';

const system = await detectSystem();
const model = await loadCostModel(system);
const a = kroneckerGraph({ scale: 13, edgeFactor: 16, seed: 5 });
const x = denseFeatures({ rows: a.cols, cols: 16, seed: 1 });

for (const device of system.devices) {
  const p = model.predict(device, { kind: 'spmm' }, { a, x });
  const r = await device.run({ kind: 'spmm' }, { a, x });
  const state = model.state(device);
  console.log(
    `${device.name.padEnd(5)} predicted ${(p.seconds * 1e3).toFixed(3)} ms +-${Math.round(p.uncertainty * 100)}% (${state.state}), ` +
      `${r.source} ${(r.seconds * 1e3).toFixed(3)} ms`,
  );
}
await system.dispose();

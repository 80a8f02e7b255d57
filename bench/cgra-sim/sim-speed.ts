// Simulation speed of the cgra-sim backend: simulated nonzeros per second of host time for SpMM
// (k = 16, FP32) and simulated edges per second for BFS, on a Kronecker graph.
//   node --import tsx bench/cgra-sim/sim-speed.ts [scale]

import { DenseMatrix } from '../../src/data/dense.js';
import { cgraSimBackend } from '../../src/devices/backends/cgra-sim.js';
import { loadProfile } from '../../src/devices/spec.js';
import { kroneckerGraph } from '../../src/generators/index.js';

async function main(): Promise<void> {
  const scale = Number(process.argv[2] ?? 17);
  const g = kroneckerGraph({ scale, seed: 7, weights: 'f32' });
  const device = cgraSimBackend.create('cgra0', loadProfile('sim-speed', 'cgra-sim', 'hycube-4x4', cgraSimBackend.params));
  const k = 16;
  const xData = new Float32Array(g.cols * k);
  for (let i = 0; i < xData.length; i++) xData[i] = ((i * 2654435761) % 1000) / 1000 - 0.5;
  const x = new DenseMatrix(g.cols, k, xData);
  console.log(`${g} on ${device.spec.name}`);
  // Start the searches from the vertex of highest degree, which lies in the giant component.
  let hub = 0;
  for (let v = 1; v < g.rows; v++) if (g.rowLength(v) > g.rowLength(hub)) hub = v;
  for (let rep = 0; rep < 3; rep++) {
    const r = await device.run({ kind: 'spmm' }, { a: g, x });
    const wall = r.counters['simulationWallSeconds']!;
    console.log(
      `spmm k=16 f32: ${(g.nnz / wall / 1e6).toFixed(1)} M nonzeros/s (${(wall * 1e3).toFixed(1)} ms), ` +
        `simulated ${(r.seconds * 1e3).toFixed(2)} ms, ${r.counters['cycles']} cycles, II ${r.counters['ii']}`,
    );
  }
  for (let rep = 0; rep < 3; rep++) {
    const r = await device.run({ kind: 'bfs', source: hub }, { graph: g });
    const wall = r.counters['simulationWallSeconds']!;
    const edges = r.counters['iterations']!;
    console.log(
      `bfs: ${(edges / wall / 1e6).toFixed(1)} M edges/s (${edges} edges, ${(wall * 1e3).toFixed(1)} ms), ` +
        `simulated ${(r.seconds * 1e3).toFixed(2)} ms, ${r.counters['passes']} passes`,
    );
  }
  const sources = Int32Array.from({ length: 32 }, (_, i) => (hub + i) % g.rows);
  const m = await device.run({ kind: 'msbfs', sources }, { graph: g });
  const wall = m.counters['simulationWallSeconds']!;
  console.log(`msbfs 32 sources: ${(m.counters['iterations']! / wall / 1e6).toFixed(1)} M iterations/s (${(wall * 1e3).toFixed(1)} ms)`);
}

await main();

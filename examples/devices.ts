// Run one SpMM and one BFS on every device of the detected system and print what each reports:
// the same true result everywhere, with time and energy measured (cpu) or simulated.
// Run: npx tsx examples/devices.ts

import { bfsReference, denseFeatures, detectSystem, kroneckerGraph } from '../src/index.js';

const system = await detectSystem();
const g = kroneckerGraph({ scale: 14, edgeFactor: 16, seed: 1 });
const x = denseFeatures({ rows: g.cols, cols: 16, seed: 1 });
const want = bfsReference(g, 0);

for (const device of system.devices) {
  const s = await device.run({ kind: 'spmm' }, { a: g, x });
  const b = await device.run({ kind: 'bfs', source: 0 }, { graph: g });
  const same = b.output.depth.every((d, i) => d === want[i]);
  console.log(
    `${device.name.padEnd(5)} ${device.backend.padEnd(9)} SpMM ${(s.seconds * 1e3).toFixed(3)} ms ${s.source}, ` +
      `${(s.joules * 1e3).toFixed(3)} mJ ${s.energySource}; BFS ${(b.seconds * 1e3).toFixed(3)} ms ${b.source}, ` +
      `${b.output.frontier.length} levels, depths ${same ? 'match' : 'DIFFER from'} the reference`,
  );
  if (!same) process.exitCode = 1;
}
await system.dispose();

// A dype server and a client in one script: start `dype serve`'s daemon on a socket in a
// temporary folder, connect with the default tenant's token, plan and run a GCN on the server,
// check the output against the same plan run in this process, print the server's status, drain.
// (In production the server is its own process: `dype serve`, and clients `connect` to it.)
// Run: npx tsx examples/serve.ts

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type DenseMatrix, kroneckerGraph, runPlan, schedule, startServer } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'dype-serve-example-'));
try {
  const server = await startServer({ socket: join(dir, 'dype.sock'), log: (line) => console.log(`server: ${line}`) });
  console.log(`listening on ${server.addresses.join(', ')}; token in ${server.tokenFile}`);
  const token = readFileSync(server.tokenFile!, 'utf8').trim();

  const graph = kroneckerGraph({ scale: 12, edgeFactor: 16, seed: 9 });
  const dype = await connect(server.addresses[0]!, { token });
  const plan = await dype.schedule('gcn', graph, { probe: false }); // was: schedule('gcn', graph, ...)
  const served = await dype.runPlan(plan, { replan: false }); // was: runPlan(plan, ...)
  console.log(`served plan: ${plan.chosen.label} (plan ${plan.planId}); ran in ${(served.wallSeconds * 1e3).toFixed(1)} ms on the server`);

  const local = await runPlan(await schedule('gcn', graph, { probe: false, system: server.state.system, model: server.state.model }), { replan: false });
  const a = served.outputs['agg2'] as DenseMatrix;
  const b = local.outputs['agg2'] as DenseMatrix;
  let worst = 0;
  for (let i = 0; i < a.data.length; i++) worst = Math.max(worst, Math.abs(a.data[i]! - b.data[i]!));
  console.log(`largest difference from the in-process run: ${worst}`);
  if (worst !== 0) throw new Error('serve: the served output differs from the in-process one');

  const status = await dype.status();
  for (const d of status.devices) console.log(`${d.name.padEnd(5)} busy ${(d.busySeconds * 1e3).toFixed(3)} ms`);
  await dype.close();
  await server.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

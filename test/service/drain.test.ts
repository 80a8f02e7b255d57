// SIGTERM drains a real `dype serve`: a job accepted before the signal finishes and its client
// gets the result; a new job is refused with a typed error; then the process exits 0 and
// removes its socket. SIGHUP with a broken policy file keeps the server (and the policy) going.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { SessionClosedError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect } from '../../src/service/client.js';
import { serverProcess, TOKENS } from './support.js';

async function waitFor(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
}

it('finishes accepted jobs, refuses new ones, then exits 0', async () => {
  const proc = await serverProcess();
  const a = await connect(proc.address, { token: TOKENS.a });
  const b = await connect(proc.address, { token: TOKENS.b });
  const graph = kroneckerGraph({ scale: 12, edgeFactor: 16, seed: 4 });
  await b.upload(graph);

  // SIGHUP with a bad file: logged, the policy stays, the server serves.
  writeFileSync(join(proc.dir, 'policy.json'), '{"tenants": [{"name": "a"}]}');
  proc.child.kill('SIGHUP');
  await waitFor(() => proc.output().includes('reload:'));
  await expect(b.status()).resolves.toMatchObject({ tenant: 'b' });
  expect(proc.output()).toMatch(/reload: kept the policy in force: .*tenants\[0\]\.token/s);

  // Enough jobs that work is still going on when the signal is handled, however loaded or fast the
  // machine: each on a graph of its own, since a simulator replays a matrix it has seen only once.
  const graphs = Array.from({ length: 12 }, (_, i) => kroneckerGraph({ scale: 13, edgeFactor: 16, seed: 10 + i }));
  for (const g of graphs) await a.upload(g);
  const accepted = graphs.map((g) => a.run('gcn', g, { probe: false }));
  // A run's request is written once its data's content reference is computed, which can take
  // more than a turn of the event loop (the hash of a large array runs off the main thread): ask
  // until the server has taken all twelve, so the signal comes after they were accepted.
  const taken = async (): Promise<number> => {
    const me = (await a.status()).tenants.find((t) => t.name === 'a');
    return me ? me.queued + me.running + me.completed + me.failed : 0;
  };
  for (let i = 0; i < 500 && (await taken()) < graphs.length; i++) await new Promise((r) => setTimeout(r, 5));
  expect(await taken()).toBe(graphs.length);
  proc.child.kill('SIGTERM');
  await waitFor(() => proc.output().includes('draining'));
  // One request for both checks: the accepted jobs may finish (and the server exit) soon after.
  const refused = await b.schedule('spmm', graph, { probe: false }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(SessionClosedError);
  expect((refused as Error).message).toMatch(/shutting down/);
  for (const result of await Promise.all(accepted)) expect(result.outputs['agg2']).toBeInstanceOf(DenseMatrix);
  expect(await proc.exited).toBe(0);
  expect(existsSync(proc.address.replace('unix:', ''))).toBe(false);
  expect(proc.output()).toContain('dype serve: stopped');
  await a.close();
  await b.close();
});

// Data the server evicted is uploaded again by the client that sent it: the call that names it
// succeeds. Data named by its hash (a DataRef), which the client cannot send again, gets the
// server's typed MissingDataError with the hash it named.

import { expect, it } from 'vitest';
import { InvalidArgumentError, MissingDataError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { matrixBytes } from '../../src/service/wire-values.js';
import { serverForFile } from './support.js';

const first = kroneckerGraph({ scale: 8, edgeFactor: 8, seed: 1 });
const second = kroneckerGraph({ scale: 8, edgeFactor: 8, seed: 2 });
// Room for one of the two graphs: uploading the second evicts the first.
const served = serverForFile({ storeBytes: Math.ceil(Math.max(matrixBytes(first), matrixBytes(second)) * 1.5) });

it('a matrix evicted since its upload is uploaded again, and the call succeeds', async () => {
  const { client } = served;
  const ref = await client.upload(first);
  // explore keeps no plan, so nothing pins the data it names.
  await client.explore('spmm', second, { probe: false }); // evicts the first graph
  expect((await client.status()).store.evicted).toBe(1);
  const explored = await client.explore('spmm', first, { probe: false });
  expect(explored.front.length).toBeGreaterThan(0);
  expect((await client.status()).store.evicted).toBe(2); // the first sent again, in the second's place
  const run = await client.run('spmm', first, { probe: false, run: { replan: false } });
  expect(Object.keys(run.outputs)).toEqual(['Y']);
  // Named by hash, the evicted data cannot be sent again by the client: the server's error stands.
  await client.explore('spmm', second, { probe: false });
  const refused = await client.explore('spmm', ref, { probe: false }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(MissingDataError);
  expect(refused).toBeInstanceOf(InvalidArgumentError);
  expect((refused as MissingDataError).hash).toBe(ref.hash);
  expect((refused as Error).message).toMatch(/evicted since: upload it again/);
});

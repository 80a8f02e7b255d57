// runDistributed with `layouts`: repeated calls on the same graph reuse one partition and one
// layout per sparse input (the returned partition is the same object), and give the same outputs
// as calls that build them afresh; a layouts object made for another communicator is refused.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import type { DenseMatrix } from '../../src/data/dense.js';
import { DistributedLayouts } from '../../src/distributed/layouts.js';
import { runDistributed } from '../../src/distributed/run.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { loopback } from './loopback.js';

const graph = generate({ kind: 'kronecker', scale: 9, seed: 21 }) as CsrMatrix;

describe('runDistributed with kept layouts', () => {
  for (const workload of ['gcn', 'pagerank'])
    it(`${workload}, 2 ranks: the second call reuses the first's partition and matches a fresh run`, async () => {
      const comms = loopback(2);
      const layouts = comms.map((c) => new DistributedLayouts(c));
      const run = () => Promise.all(comms.map((c, r) => runDistributed(c, workload, graph, { partitioner: 'rows', layouts: layouts[r]! })));
      const first = await run();
      const second = await run();
      const fresh = await Promise.all(comms.map((c) => runDistributed(c, workload, graph, { partitioner: 'rows' })));
      for (let r = 0; r < 2; r++) {
        expect(second[r]!.partition).toBe(first[r]!.partition);
        expect(fresh[r]!.partition).not.toBe(first[r]!.partition);
        for (const name of Object.keys(fresh[r]!.outputs)) {
          const got = second[r]!.outputs[name] as DenseMatrix;
          const want = fresh[r]!.outputs[name] as DenseMatrix;
          expect(Array.from(got.data)).toEqual(Array.from(want.data));
        }
      }
    });

  it('refuses layouts made for another communicator, by type and naming the option', async () => {
    const [a] = loopback(1);
    const [b] = loopback(1);
    await expect(runDistributed(a!, 'gcn', graph, { layouts: new DistributedLayouts(b!) })).rejects.toThrow(InvalidArgumentError);
    await expect(runDistributed(a!, 'gcn', graph, { layouts: new DistributedLayouts(b!) })).rejects.toThrow(
      /runDistributed: layouts must be a DistributedLayouts made for this communicator/,
    );
  });
});

// A distributed product packs the rows other ranks need into one buffer kept on the distributed
// matrix (per width and precision), not a fresh one per product: fresh pages are what the
// transport then reads cold. The kept buffer is written anew by each product, so a second
// product with other values is as right as the first.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { partitionRows } from '../../src/data/partition.js';
import { gatherRows } from '../../src/distributed/gather.js';
import { DistributedCsr } from '../../src/distributed/halo.js';
import { distributedSpmm, localRowsOf } from '../../src/distributed/spmm.js';
import { denseFeatures, generate } from '../../src/generators/index.js';
import { firstSpmmMismatch } from '../support/compare.js';
import { loopback } from './loopback.js';

describe('distributedSpmm send buffer', () => {
  it('reuses one packed buffer per width and precision across products, each product right', async () => {
    const a = generate({ kind: 'kronecker', scale: 9, seed: 3 }) as CsrMatrix;
    const partition = partitionRows(a, 2);
    const xs = [1, 2].map((seed) => denseFeatures({ rows: a.rows, cols: 8, precision: 'f32', seed }));
    const sent: unknown[][] = [[], []];
    const results = await Promise.all(
      loopback(2).map(async (c, r) => {
        const comm = {
          ...c,
          alltoallv: ((send, ...rest) => {
            sent[r]!.push(send);
            return c.alltoallv(send, ...rest);
          }) as typeof c.alltoallv,
        };
        const dist = await DistributedCsr.build(comm, a, partition);
        const before = sent[r]!.length;
        const out = [];
        for (const x of xs) out.push(await gatherRows(comm, dist, (await distributedSpmm(comm, dist, localRowsOf(dist, x))).y));
        return { out, products: sent[r]!.slice(before).filter((s) => s instanceof Float32Array) };
      }),
    );
    for (const { out, products } of results) {
      // The two products' exchanges sent the same buffer.
      expect(products.length).toBeGreaterThanOrEqual(2);
      expect(products[0]).toBe(products[1]);
      out.forEach((y, i) => expect(firstSpmmMismatch(a, xs[i]!.data, 8, y.data)).toBe(-1));
    }
  });
});

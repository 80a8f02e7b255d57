// A graph's layout across ranks kept from one runDistributed call to the next. Each call
// partitions the graph and builds every sparse input's DistributedCsr (halo lists exchanged
// collectively) with fresh workspaces: on two ranks and delaunay_n16, METIS alone took tens of
// milliseconds a call in a profile, about what the GCN run took. Passed as `layouts` to every
// call, the same partition, layouts and workspaces serve them all.
//
// Collective like the calls it serves: every rank must pass its own `DistributedLayouts`, made
// for the same communicator, to the same sequence of calls, so that all ranks find a layout or
// all build it. A layout is found by the matrix object (a CsrMatrix is not changed after it is
// made), the partition method and the weights.

import type { CsrMatrix } from '../data/csr.js';
import type { RowPartition } from '../data/partition.js';
import { DistributedCsr } from './halo.js';
import type { Communicator } from './mpi.js';

export class DistributedLayouts {
  private readonly partitions = new WeakMap<CsrMatrix, Map<string, RowPartition>>();
  private readonly built = new WeakMap<CsrMatrix, Map<RowPartition, DistributedCsr>>();

  constructor(readonly comm: Communicator) {}

  /** The partition of `graph` made by `make` for `key` (method and weights), made once. */
  partition(graph: CsrMatrix, key: string, make: () => RowPartition): RowPartition {
    let byKey = this.partitions.get(graph);
    if (!byKey) this.partitions.set(graph, (byKey = new Map()));
    let p = byKey.get(key);
    if (!p) byKey.set(key, (p = make()));
    return p;
  }

  /** `a`'s layout under `partition` (collective when it is built). */
  async layout(a: CsrMatrix, partition: RowPartition): Promise<DistributedCsr> {
    let byPartition = this.built.get(a);
    if (!byPartition) this.built.set(a, (byPartition = new Map()));
    let d = byPartition.get(partition);
    if (!d) byPartition.set(partition, (d = await DistributedCsr.build(this.comm, a, partition)));
    return d;
  }
}

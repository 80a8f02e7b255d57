// Gathering a distributed result on every rank, in global order: each rank's part (its vertices'
// values in the distributed matrix's local order, k values each) placed at its vertices' global
// positions. The rows each rank owns are learnt once per distributed matrix.

import { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { type DistributedCsr, scaled } from './halo.js';
import type { Communicator, Exchangeable } from './mpi.js';

const owned = new WeakMap<DistributedCsr, Promise<{ ids: Int32Array; counts: Int32Array; displs: Int32Array }>>();

/** Every rank's row count and global row ids, in rank order (collective on first use). */
function rowsOfEveryRank(comm: Communicator, dist: DistributedCsr): Promise<{ ids: Int32Array; counts: Int32Array; displs: Int32Array }> {
  let found = owned.get(dist);
  if (!found) {
    found = (async () => {
      const counts = new Int32Array(comm.size);
      counts[comm.rank] = dist.localRows;
      await comm.allreduce(counts, 'sum');
      const displs = new Int32Array(comm.size);
      for (let r = 1; r < comm.size; r++) displs[r] = displs[r - 1]! + counts[r - 1]!;
      const ids = new Int32Array(dist.globalRows);
      await comm.allgatherv(dist.rows, ids, counts, displs);
      return { ids, counts, displs };
    })();
    owned.set(dist, found);
  }
  return found;
}

async function gather<T extends Exchangeable>(fn: string, comm: Communicator, dist: DistributedCsr, data: T, k: number): Promise<T> {
  const { ids, counts, displs } = await rowsOfEveryRank(comm, dist);
  const make = (len: number): T => new (data.constructor as new (n: number) => T)(len);
  const values = make(dist.globalRows * k);
  const parts = scaled(fn, { counts, displs }, k);
  await comm.allgatherv(data, values, parts.counts, parts.displs);
  const out = make(dist.globalRows * k);
  ids.forEach((g, p) => out.set(values.subarray(p * k, (p + 1) * k) as never, g * k));
  return out;
}

/**
 * Every rank's rows of Y gathered on every rank, in global row order (collective).
 * @throws {InvalidArgumentError} when `y` does not hold this rank's rows.
 */
export async function gatherRows(comm: Communicator, dist: DistributedCsr, y: DenseMatrix): Promise<DenseMatrix> {
  const fn = 'gatherRows';
  if (!(y instanceof DenseMatrix) || y.rows !== dist.localRows)
    throw new InvalidArgumentError(`${fn}: y must be this rank's ${dist.localRows} rows, got ${describe(y)}`);
  return new DenseMatrix(dist.globalRows, y.cols, await gather(fn, comm, dist, y.data, y.cols), { allowNonFinite: true });
}

/**
 * One value per vertex (a search's depths), every rank's gathered on every rank in global order (collective).
 * @throws {InvalidArgumentError} when `values` is not one Int32Array entry per local vertex.
 */
export async function gatherVertices(comm: Communicator, dist: DistributedCsr, values: Int32Array): Promise<Int32Array> {
  const fn = 'gatherVertices';
  if (!(values instanceof Int32Array) || values.length !== dist.localRows)
    throw new InvalidArgumentError(`${fn}: values must be an Int32Array of this rank's ${dist.localRows} vertices, got ${describe(values)}`);
  return gather(fn, comm, dist, values, 1);
}

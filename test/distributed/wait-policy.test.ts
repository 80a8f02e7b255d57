// How a rank's collectives wait (mpi.ts, waitPolicy): where the host's ranks' kernel threads
// outnumber its cores a waiting collective naps after a short poll; where a rank has no core beyond
// its kernel threads its exchanges do not overlap its compute, and its JS thread tests a started
// collective before a worker takes the wait; DYPE_MPI_SPIN_US overrides the poll, checked.

import { describe, expect, it } from 'vitest';
import { waitPolicy } from '../../src/distributed/mpi.js';

const host = (localRanks: number, kernelThreads: number, rankCores: number, hostCores: number) => ({ localRanks, kernelThreads, rankCores, hostCores });

describe('waitPolicy', () => {
  it('polls without napping and overlaps where each rank has a core to spare', () => {
    expect(waitPolicy(host(2, 7, 8, 16), {})).toMatchObject({ spinMicroseconds: -1, overlap: true, syncMicroseconds: 0 });
  });

  it('does not overlap where a rank has no core beyond its kernel threads (two ranks bound to one core each)', () => {
    const p = waitPolicy(host(2, 1, 1, 2), {});
    expect(p).toMatchObject({ spinMicroseconds: -1, overlap: false });
    expect(p.syncMicroseconds).toBeGreaterThan(0);
    expect(p.reason).toBe('2 ranks x 1 kernel threads on 2 cores, 1 for this rank');
  });

  it('naps after a short poll, and never overlaps, where the ranks outnumber the cores', () => {
    const p = waitPolicy(host(4, 1, 2, 2), {});
    expect(p.spinMicroseconds).toBeGreaterThan(0);
    expect(p.overlap).toBe(false);
  });

  it('takes the poll from DYPE_MPI_SPIN_US and refuses what is not microseconds', () => {
    expect(waitPolicy(host(4, 1, 2, 2), { DYPE_MPI_SPIN_US: '-1' }).spinMicroseconds).toBe(-1);
    expect(waitPolicy(host(1, 1, 2, 2), { DYPE_MPI_SPIN_US: '250' })).toMatchObject({ spinMicroseconds: 250, overlap: true });
    for (const bad of ['soon', '1.5', '-2'])
      expect(() => waitPolicy(host(1, 1, 2, 2), { DYPE_MPI_SPIN_US: bad })).toThrow(/initMpi: DYPE_MPI_SPIN_US must be an integer number of microseconds/);
  });
});

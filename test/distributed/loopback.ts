// N communicators in one process, for testing distributed operators without a launcher: each
// rank is an async task, and a collective completes when every rank has made its call of the
// same number (as MPI matches collectives by order). The data moves exactly as MPI would move it,
// so results and the exchange plan are checked here; the real MPI path is tested with mpirun.

import type { Communicator, Exchangeable } from '../../src/distributed/mpi.js';

type Post = { readonly args: unknown[]; readonly done: (seconds: number) => void };

export function loopback(size: number): Communicator[] {
  const pending = new Map<number, Post[]>();
  const calls = new Array<number>(size).fill(0);
  const post = (rank: number, kind: string, args: unknown[], settle: (posts: Post[]) => void): Promise<void> =>
    new Promise<void>((resolve) => {
      const seq = calls[rank]!++;
      const posts = pending.get(seq) ?? new Array<Post>(size);
      pending.set(seq, posts);
      posts[rank] = { args: [kind, ...args], done: () => resolve() };
      if (posts.filter(Boolean).length < size) return;
      pending.delete(seq);
      const kinds = new Set(posts.map((p) => p.args[0]));
      if (kinds.size !== 1) throw new Error(`loopback: collective ${seq} mixes ${[...kinds].join(', ')}`);
      settle(posts.map((p) => ({ ...p, args: p.args.slice(1) })));
      for (const p of posts) p.done(0);
    });
  return Array.from({ length: size }, (_, rank) => ({
    rank,
    size,
    async alltoallv<T extends Exchangeable>(send: T, sc: Int32Array, sd: Int32Array, recv: T, rc: Int32Array, rd: Int32Array) {
      await post(rank, 'alltoallv', [send, sc, sd, recv, rc, rd], (posts) => {
        // Rank d receives from each rank s the part s addressed to d.
        posts.forEach(({ args }, d) => {
          const [, , , rBuf, rCounts, rDispls] = args as [T, Int32Array, Int32Array, T, Int32Array, Int32Array];
          posts.forEach(({ args: sArgs }, s) => {
            const [sBuf, sCounts, sDispls] = sArgs as [T, Int32Array, Int32Array];
            if (sCounts[d] !== rCounts[s]) throw new Error(`loopback alltoallv: rank ${s} sends ${sCounts[d]} to ${d}, which expects ${rCounts[s]}`);
            rBuf.set(sBuf.subarray(sDispls[d]!, sDispls[d]! + sCounts[d]!) as never, rDispls[s]!);
          });
        });
      });
      return { seconds: 0 };
    },
    async allgatherv<T extends Exchangeable>(send: T, recv: T, rc: Int32Array, rd: Int32Array) {
      await post(rank, 'allgatherv', [send, recv, rc, rd], (posts) => {
        for (const { args } of posts) {
          const [, rBuf, , rDispls] = args as [T, T, Int32Array, Int32Array];
          posts.forEach(({ args: sArgs }, s) => rBuf.set(sArgs[0] as T as never, rDispls[s]!));
        }
      });
      return { seconds: 0 };
    },
    async allreduce(buffer: Float64Array | Int32Array, op: 'sum' | 'max' | 'min') {
      await post(rank, 'allreduce', [buffer], (posts) => {
        const bufs = posts.map((p) => p.args[0] as Float64Array | Int32Array);
        for (let i = 0; i < buffer.length; i++) {
          const xs = bufs.map((b) => b[i]!);
          const v = op === 'sum' ? xs.reduce((a, b) => a + b, 0) : op === 'max' ? Math.max(...xs) : Math.min(...xs);
          for (const b of bufs) b[i] = v;
        }
      });
    },
    async barrier() {
      await post(rank, 'barrier', [], () => undefined);
    },
  }));
}

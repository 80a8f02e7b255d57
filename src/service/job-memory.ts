// A tenant's memory quota (its policy's `memoryBytes`) counts the data it uploaded and what its
// running jobs compute. A job is counted, from when it starts running until it ends, at every
// value its plan computes and every input it derives or generates: what a run allocates at most
// (a run hands a value's memory to the kernels' output pool after its last reader, where the next
// output of that size takes it, and the pool keeps it for later runs). A stream: one input's
// values and every input's outputs. A job that would pass the quota beside the tenant's data and
// its other running jobs waits, its host slot given to other jobs, until enough of them end (they
// give their bytes back); one that would pass it beside the data alone can never run and is refused
// at once with a LimitError naming the figures, as is one that may not wait (operator turns: a job
// whose lane is open holds up others' operators). An upload counts the running jobs' bytes too.

import { LimitError } from '../errors.js';
import type { Plan } from '../scheduler/schedule.js';
import type { JobContext } from './jobs.js';

/**
 * Bytes a run of `plan` computes: every value an operator produces, and inputs it derives or
 * generates (not those `stored` says the server already holds); `outputs`: its outputs' bytes.
 */
export function planBytes(plan: Plan, stored: (data: unknown) => boolean): { computed: number; outputs: number } {
  const { values, outputs } = plan.problem.bound;
  let computed = 0;
  for (const v of values) if (v.producer >= 0 || !stored(v.data)) computed += v.bytes;
  let out = 0;
  for (const i of outputs) out += values[i]!.bytes;
  return { computed, outputs: out };
}

/** What a job is held to: its tenant's quota (none: nothing waits or is refused) and the bytes of data it holds in the store, read again after each wait. */
export type MemoryLimit = () => { readonly quota: number | undefined; readonly dataBytes: number };

/** How a job waits for memory: `aside` waits with its host slot given to other jobs (JobContext.waitAside); absent, the job is refused instead. */
export interface MemoryWait {
  readonly aside: (wait: () => Promise<void>) => Promise<void>;
  readonly signal?: AbortSignal;
}

/** Who a job is, and how it may wait for memory (JobContext.waitAside; absent, it is refused instead). */
export interface MemoryJob {
  readonly fn: string;
  readonly tenant: string;
  readonly signal: AbortSignal;
  readonly waitAside?: JobContext['waitAside'] | undefined;
}

/** The bytes each tenant's running jobs hold. */
export class JobMemory {
  readonly #held = new Map<string, number>();
  /** Per tenant, the waits to wake when one of its jobs gives bytes back. */
  readonly #waiting = new Map<string, Set<() => void>>();

  /** Bytes `tenant`'s running jobs hold now. */
  held(tenant: string): number {
    return this.#held.get(tenant) ?? 0;
  }

  /**
   * Run `body` holding `bytes` for a job of `tenant`; while its data, its other running jobs and
   * `bytes` together pass the quota, wait (`wait`) until one of those jobs ends, then look again.
   * @throws {LimitError} when its data and `bytes` alone pass the quota, or it would have to wait and may not (no `wait`).
   * @throws the signal's reason when aborted while waiting (nothing held).
   */
  async during<T>(fn: string, tenant: string, bytes: number, limit: MemoryLimit, body: () => Promise<T>, wait?: MemoryWait): Promise<T> {
    for (;;) {
      const others = this.held(tenant);
      const { quota, dataBytes } = limit();
      if (quota === undefined || dataBytes + others + bytes <= quota) break;
      const past = `past its memory quota of ${quota} bytes (memoryBytes)`;
      if (dataBytes + bytes > quota)
        throw new LimitError(
          `${fn}: tenant ${JSON.stringify(tenant)} holds ${dataBytes} bytes of data; this job computes ${bytes} bytes more, ${past} even with no other job running; release data it no longer needs, or run it on a smaller input`,
        );
      if (!wait)
        throw new LimitError(
          `${fn}: tenant ${JSON.stringify(tenant)} holds ${dataBytes} bytes of data and ${others} bytes in its running jobs; this job computes ${bytes} bytes more, ${past}; retry when its jobs finish, or release data it no longer needs`,
        );
      await wait.aside(() => this.#released(tenant, wait.signal));
    }
    this.#held.set(tenant, this.held(tenant) + bytes);
    try {
      return await body();
    } finally {
      const left = this.held(tenant) - bytes;
      if (left > 0) this.#held.set(tenant, left);
      else this.#held.delete(tenant);
      const woken = this.#waiting.get(tenant);
      this.#waiting.delete(tenant);
      for (const wake of woken ?? []) wake();
    }
  }

  /** Resolves when a job of `tenant` next gives its bytes back; rejects with the signal's reason on an abort. */
  #released(tenant: string, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      signal?.throwIfAborted();
      let waiting = this.#waiting.get(tenant);
      if (!waiting) this.#waiting.set(tenant, (waiting = new Set()));
      const abort = (): void => {
        waiting.delete(wake);
        reject(signal!.reason);
      };
      const wake = (): void => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      waiting.add(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}

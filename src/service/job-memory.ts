// A tenant's memory quota (its policy's `memoryBytes`) counts the data it uploaded and what its
// running jobs compute. A job is counted, from when it starts running until it ends, at every
// value its plan computes and every input it derives or generates: what a run allocates at most
// (a run hands a value's memory to the kernels' output pool after its last reader, where the next
// output of that size takes it, and the pool keeps it for later runs). A stream: one input's
// values and every input's outputs. A job that would pass the quota beside the tenant's data and
// its other running jobs is refused before it runs, with a LimitError naming the figures; an
// upload counts the running jobs' bytes too.

import { LimitError } from '../errors.js';
import type { Plan } from '../scheduler/schedule.js';

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

/** The bytes each tenant's running jobs hold. */
export class JobMemory {
  readonly #held = new Map<string, number>();

  /** Bytes `tenant`'s running jobs hold now. */
  held(tenant: string): number {
    return this.#held.get(tenant) ?? 0;
  }

  /**
   * Run `body` holding `bytes` for a job of `tenant`.
   * @param limit.quota the tenant's memoryBytes (none: nothing is refused, the bytes still count).
   * @param limit.dataBytes the bytes of data the tenant holds in the store.
   * @throws {LimitError} when the tenant's data, its other running jobs and `bytes` together pass the quota.
   */
  async during<T>(fn: string, tenant: string, bytes: number, limit: { quota: number | undefined; dataBytes: number }, body: () => Promise<T>): Promise<T> {
    const others = this.held(tenant);
    const { quota, dataBytes } = limit;
    if (quota !== undefined && dataBytes + others + bytes > quota) {
      throw new LimitError(
        `${fn}: tenant ${JSON.stringify(tenant)} holds ${dataBytes} bytes of data and ${others} bytes in its running jobs; this job computes ${bytes} bytes more, past its memory quota of ${quota} bytes (memoryBytes); retry when its jobs finish, or release data it no longer needs`,
      );
    }
    this.#held.set(tenant, others + bytes);
    try {
      return await body();
    } finally {
      const left = this.held(tenant) - bytes;
      if (left > 0) this.#held.set(tenant, left);
      else this.#held.delete(tenant);
    }
  }
}

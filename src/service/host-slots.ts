// The host's slots of the service's dispatcher (fair-scheduler.ts): how many jobs compute at once,
// and the jobs that gave theirs up while waiting for their tenant's quota. Such a job, when its
// wait ends, takes the next free slot before any new job starts.

export class HostSlots {
  #running = 0;
  readonly #resuming: (() => void)[] = [];

  constructor(
    readonly slots: number,
    /** Start what may start now (the dispatcher's pump). */
    private readonly pump: () => void,
  ) {}

  get running(): number {
    return this.#running;
  }

  /** Whether a slot is free (call `resumeWaiting` first: jobs that waited for their quota go before new ones). */
  get free(): boolean {
    return this.#running < this.slots;
  }

  take(): void {
    this.#running++;
  }

  give(): void {
    this.#running--;
  }

  /**
   * Give the slot up around `wait`, then take one again ahead of new jobs. On a failed wait (an
   * abort) the slot is taken back at once, so the run fails holding it, as every run does.
   */
  async around(wait: () => Promise<void>, signal: AbortSignal | undefined, state: (waiting: boolean) => void): Promise<void> {
    state(true);
    this.give();
    this.pump();
    try {
      await wait();
      signal?.throwIfAborted();
    } catch (e) {
      this.take();
      state(false);
      throw e;
    }
    await new Promise<void>((resolve) => {
      this.#resuming.push(() => {
        this.take();
        state(false);
        resolve();
      });
      this.pump();
    });
  }

  /** Give the free slots to the jobs whose quota wait has ended, first come first. */
  resumeWaiting(): void {
    while (this.#running < this.slots && this.#resuming.length > 0) this.#resuming.shift()!();
  }
}

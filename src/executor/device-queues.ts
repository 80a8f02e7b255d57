// One piece at a time per device, in the order pieces become ready. A piece for an idle device
// starts at once instead of behind a resolved promise (each await is a trip through the
// microtask queue, a visible share of a small operator's cost).

export class DeviceQueues {
  private readonly tails = new Map<number, Promise<unknown>>();
  private readonly queued = new Map<number, number>();

  /** Run `work` on device `d` after the pieces already queued there, whether they succeed or fail. */
  run<T>(d: number, work: () => Promise<T>): Promise<T> {
    const ahead = this.queued.get(d) ?? 0;
    this.queued.set(d, ahead + 1);
    const run = async (): Promise<T> => {
      try {
        return await work();
      } finally {
        this.queued.set(d, this.queued.get(d)! - 1);
      }
    };
    const next = ahead === 0 ? run() : this.tails.get(d)!.then(run, run);
    this.tails.set(d, next);
    return next;
  }
}

// The host's cores are a device too. A piece timed on the real CPU must not share its cores with
// simulator work (the simulators compute the true result on the host) or with dense operators
// computed there, or its measured time says more about the simulators than about the CPU: a CPU
// SpMM measured at 714-751 us beside running simulators takes 242 us alone. So measured host
// pieces take the cores exclusively; host work whose time is not read off a clock (simulators,
// rooflined dense operators) shares them among itself; a real accelerator's pieces pass freely.
// The gate is process-wide: concurrent runs compete for the same cores.

import type { Device } from './device.js';

/** How a device's piece uses the host's cores. */
export type HostUse = 'exclusive' | 'shared' | 'none';

/** A real device on host memory is timed on the host's cores; a simulator runs on them; anything else is elsewhere. */
export function hostUse(device: Device): HostUse {
  if (device.simulated) return 'shared';
  return device.memorySpace === 'host' ? 'exclusive' : 'none';
}

/** A readers-writer gate that lets a waiting exclusive holder in before new shared ones (so measured pieces are not starved). */
class HostGate {
  private shared = 0;
  private exclusive = false;
  private waitingExclusive = 0;
  private readonly queue: { readonly mode: 'exclusive' | 'shared'; readonly go: () => void }[] = [];

  private admits(mode: 'exclusive' | 'shared'): boolean {
    if (mode === 'exclusive') return !this.exclusive && this.shared === 0;
    return !this.exclusive && this.waitingExclusive === 0;
  }

  private enter(mode: 'exclusive' | 'shared'): void {
    if (mode === 'exclusive') this.exclusive = true;
    else this.shared++;
  }

  private acquire(mode: 'exclusive' | 'shared'): Promise<void> | undefined {
    if (this.queue.length === 0 && this.admits(mode)) {
      this.enter(mode);
      return undefined;
    }
    if (mode === 'exclusive') this.waitingExclusive++;
    return new Promise((resolve) => this.queue.push({ mode, go: resolve }));
  }

  private release(mode: 'exclusive' | 'shared'): void {
    if (mode === 'exclusive') this.exclusive = false;
    else this.shared--;
    // Admit waiters in order while they fit: one exclusive, or a run of shared ones.
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (next.mode === 'exclusive' ? this.exclusive || this.shared > 0 : this.exclusive) break;
      this.queue.shift();
      if (next.mode === 'exclusive') this.waitingExclusive--;
      this.enter(next.mode);
      next.go();
      if (next.mode === 'exclusive') break;
    }
  }

  /** Run `work` holding the cores as `use` says. */
  async run<T>(use: HostUse, work: () => Promise<T>): Promise<T> {
    if (use === 'none') return work();
    const wait = this.acquire(use);
    if (wait) await wait;
    try {
      return await work();
    } finally {
      this.release(use);
    }
  }

  /** For tests: holders and waiters right now. */
  get state(): { readonly shared: number; readonly exclusive: boolean; readonly waiting: number } {
    return { shared: this.shared, exclusive: this.exclusive, waiting: this.queue.length };
  }
}

/** The process's one gate. */
export const hostGate = new HostGate();

/** Run a device's work through the gate, as the device uses the host's cores. */
export function onHost<T>(device: Device, work: () => Promise<T>): Promise<T> {
  return hostGate.run(hostUse(device), work);
}

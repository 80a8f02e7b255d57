// Operand residency: sparse operands kept on devices with memory of their own (a CUDA GPU) for
// the whole run. Each is prefetched at its first reader there, so later operators on that device
// read it in place instead of copying it again, and released when the run ends.

import { CsrMatrix } from '../data/csr.js';
import type { Device } from '../devices/device.js';
import type { BoundOp } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';

/** Operators a device runs with its own kernels on a sparse operand (the ones worth keeping resident). */
const NATIVE_KINDS: ReadonlySet<string> = new Set(['spmm', 'spmv', 'bfs', 'msbfs']);

export class Residency {
  /** Per device, per buffer: whether its prefetch took (a failed one costs nothing: the operator copies as usual). */
  private readonly held = new Map<Device, Map<ArrayBufferView, Promise<boolean>>>();

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly copies?: { count(toDevice: number, toHost: number): void },
  ) {}

  /** Make `op`'s sparse operand resident on `device`; a promise to wait for, or undefined when nothing needs waiting. */
  prepare(device: Device, op: BoundOp, x: readonly Value[]): Promise<unknown> | undefined {
    if (!device.prefetch || device.memorySpace === 'host' || !NATIVE_KINDS.has(op.kind)) return undefined;
    const m = x[0];
    if (!(m instanceof CsrMatrix)) return undefined;
    let held = this.held.get(device);
    if (!held) this.held.set(device, (held = new Map()));
    const fresh: ArrayBufferView[] = [];
    const waits: Promise<boolean>[] = [];
    for (const b of [m.colIdx, m.values]) {
      if (!b || b.byteLength === 0) continue;
      const w = held.get(b);
      if (w) waits.push(w);
      else if (!fresh.includes(b)) fresh.push(b);
    }
    if (fresh.length > 0) {
      const p = device.prefetch(fresh, this.signal ? { signal: this.signal } : {}).then(
        (r) => {
          this.copies?.count(r.bytes, 0);
          return true;
        },
        () => false,
      );
      for (const b of fresh) held.set(b, p);
      waits.push(p);
    }
    return waits.length > 0 ? Promise.all(waits) : undefined;
  }

  /** Release every buffer that was made resident (errors ignored: the run's result stands). */
  async releaseAll(): Promise<void> {
    for (const [device, held] of this.held) {
      const took: ArrayBufferView[] = [];
      for (const [b, p] of held) if (await p) took.push(b);
      if (took.length > 0) await device.release?.(took).catch(() => undefined);
    }
  }
}

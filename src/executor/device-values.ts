// Intermediates that stay on the device that made them. A whole operator on a device with
// memory of its own that can keep its outputs (a CUDA GPU: `Device.fetch`) leaves its result
// there, its host array not yet written (kept-outputs.ts). The next whole operator on that device
// reads it in place; anything else that reads it (another device, a piece of a split, the host's
// own code) has it fetched home first, once. At the run's end the outputs (every value under
// `keepValues`) are fetched and every kept copy is released; a dead intermediate's copy is
// released before its buffer goes back to the output pool, whose next output could otherwise be
// taken for it. The bytes each way are counted for the run's result.

import type { Device } from '../devices/device.js';
import { ExecutionError } from '../errors.js';
import type { KeepOutputs } from '../devices/kept-outputs.js';
import { operatorKind } from '../operators/registry.js';
import type { BoundOp } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';
import { isNative, ownKernel } from './piece.js';

/** Bytes moved between the host and devices with memory of their own during a run. */
export interface DeviceCopies {
  /** Host to device: operators' own copies in and prefetched operands. */
  readonly toDeviceBytes: number;
  /** Device to host: operators' results copied home, and kept results fetched. */
  readonly toHostBytes: number;
}

type Part = { readonly device: number; readonly begin: number; readonly end: number };

interface Held {
  /** The operator that made it. */
  readonly op: string;
  readonly device: Device;
  readonly buffers: ArrayBufferView[];
  /** Whether the host arrays still lack the result. */
  stale: boolean;
}

export class DeviceValues {
  private readonly held = new Map<Value, Held>();
  /** Errors of kept results that could not be fetched (the runner passes them on as they are). */
  private readonly lost = new WeakSet<object>();

  /** Whether `error` is a kept result that could not be brought home. */
  isLostResult(error: unknown): boolean {
    return typeof error === 'object' && error !== null && this.lost.has(error);
  }

  private toDevice = 0;
  private toHost = 0;

  /** The keep request for a piece: only a whole operator of a built-in kind, on a device that can fetch. */
  request(op: BoundOp, device: Device, part: Part): KeepOutputs | undefined {
    if (!device.fetch || device.memorySpace === 'host' || part.begin !== 0 || part.end < op.units) return undefined;
    if (!operatorKind(op.kind, 'runPlan').builtin || op.kind === 'reduce') return undefined;
    return { defer: true, kept: [] };
  }

  /**
   * Before a piece of `op` runs on `device`: fetch each operand whose result is still only on a
   * device, unless this piece reads it in place (the same device, the whole operator, its kernel).
   */
  async prepare(op: BoundOp, x: readonly Value[], device: Device, part: Part): Promise<void> {
    for (const v of x) {
      const h = this.held.get(v);
      if (!h?.stale) continue;
      const inPlace = h.device === device && part.begin === 0 && part.end >= op.units && (isNative(op, device) || ownKernel(op, device) !== undefined);
      if (!inPlace) await this.fetch(h);
    }
  }

  /** A piece of `op` finished: what it kept on its device now stands for its output. */
  record(op: BoundOp, output: Value, device: Device, keep: KeepOutputs | undefined): void {
    if (keep && keep.kept.length > 0) this.held.set(output, { op: op.id, device, buffers: [...keep.kept], stale: keep.defer });
  }

  /** A piece that asked to keep its outputs failed: drop whatever it kept. */
  abandon(device: Device, keep: KeepOutputs | undefined): void {
    if (keep && keep.kept.length > 0) void device.release?.(keep.kept).catch(() => undefined);
  }

  /** `value` is dead: drop its device copy (synchronously, before its buffer is reused). */
  forget(value: Value): void {
    const h = this.held.get(value);
    if (!h) return;
    this.held.delete(value);
    void h.device.release?.(h.buffers).catch(() => undefined);
  }

  /** Bring these values home (the run's outputs), each once; whether any had to be fetched. */
  async bringHome(values: readonly Value[]): Promise<boolean> {
    let fetched = false;
    for (const v of values) {
      const h = this.held.get(v);
      if (!h?.stale) continue;
      await this.fetch(h);
      fetched = true;
    }
    return fetched;
  }

  /** Drop every device copy still held (the run is over, or failed). */
  async releaseAll(): Promise<void> {
    const all = [...this.held.values()];
    this.held.clear();
    for (const h of all) await h.device.release?.(h.buffers).catch(() => undefined);
  }

  /** Count an operator's or a prefetch's copies. */
  count(toDevice: number, toHost: number): void {
    this.toDevice += toDevice;
    this.toHost += toHost;
  }

  copies(): DeviceCopies {
    return { toDeviceBytes: this.toDevice, toHostBytes: this.toHost };
  }

  /**
   * Bring one kept result home. Where its device cannot, the result exists nowhere else: the run
   * fails naming the operator that made it (a re-plan would go on with a stale array).
   */
  private async fetch(h: Held): Promise<void> {
    let bytes: number;
    try {
      bytes = (await h.device.fetch!(h.buffers)).bytes;
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      const lost = new ExecutionError(h.op, h.device.name, `runPlan: the result of ${h.op}, kept on ${h.device.name}, could not be brought home: ${why}`, {
        cause,
      });
      this.lost.add(lost);
      throw lost;
    }
    this.toHost += bytes;
    h.stale = false;
  }
}

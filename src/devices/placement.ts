// Data placement: which memory spaces hold a valid copy of each buffer, and what it costs to
// bring a buffer to a device. The scheduler prices mappings with it; the executor updates it
// as copies happen and operators write their outputs.

import { describe, InvalidArgumentError } from '../errors.js';
import { checkSystem, HOST, type System } from './system.js';

/** Anything with a size in bytes: a typed array, a CsrMatrix, a DenseMatrix, or a buffer id. */
export type BufferKey = object;

/**
 * Valid copies of buffers across the memory spaces of a system. Buffers are keyed by identity
 * and held weakly, so placement never keeps data alive.
 *
 * @example
 * const p = new Placement(system);
 * p.place(x, 'host');
 * p.copySeconds(x, x.byteLength, 'gpu'); // PCIe time; 0 once p.copied(x, 'gpu') was recorded
 */
export class Placement {
  private readonly holders = new WeakMap<BufferKey, Set<string>>();

  constructor(readonly system: System) {
    checkSystem('Placement', system);
  }

  /** Record that `space` now holds the only valid copy (a fresh output, or input data). */
  place(buffer: BufferKey, space: string = HOST): void {
    this.holders.set(buffer, new Set([this.checkSpace('Placement.place', space)]));
  }

  /** Record a completed copy: `space` holds a valid copy too. */
  copied(buffer: BufferKey, space: string): void {
    const set = this.holders.get(buffer);
    if (!set) throw new InvalidArgumentError(`Placement.copied: the buffer (${describe(buffer)}) has not been placed`);
    set.add(this.checkSpace('Placement.copied', space));
  }

  /** Memory spaces holding a valid copy (empty when never placed). */
  where(buffer: BufferKey): string[] {
    return [...(this.holders.get(buffer) ?? [])];
  }

  /**
   * Cheapest modelled time to make `buffer` (of `bytes`) valid in `space`: 0 when it already is,
   * else the fastest copy from any space that holds it.
   * @throws {InvalidArgumentError} when the buffer was never placed.
   */
  copySeconds(buffer: BufferKey, bytes: number, space: string): number {
    const fn = 'Placement.copySeconds';
    this.checkSpace(fn, space);
    const set = this.holders.get(buffer);
    if (!set || set.size === 0) throw new InvalidArgumentError(`${fn}: the buffer (${describe(buffer)}) has not been placed`);
    if (set.has(space)) return 0;
    let best = Infinity;
    for (const from of set) best = Math.min(best, this.system.transferSeconds(bytes, from, space));
    return best;
  }

  /** The space a copy to `space` should come from (the cheapest holder), or undefined if none is needed. */
  copySource(buffer: BufferKey, bytes: number, space: string): string | undefined {
    const set = this.holders.get(buffer);
    if (!set || set.has(space)) return undefined;
    let best: string | undefined;
    let bestT = Infinity;
    for (const from of set) {
      const t = this.system.transferSeconds(bytes, from, space);
      if (t < bestT) {
        bestT = t;
        best = from;
      }
    }
    return best;
  }

  private checkSpace(fn: string, space: string): string {
    if (!this.system.memorySpaces.includes(space)) {
      throw new InvalidArgumentError(`${fn}: ${describe(space)} is not a memory space of the system (${this.system.memorySpaces.join(', ')})`);
    }
    return space;
  }
}

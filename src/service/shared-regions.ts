// Shared memory between the server and a client on the same machine (a Unix-socket client, so the
// same user). Uploads: the client asks for a region of N bytes (`reserve`), writes its matrix's
// arrays into it through the region's /proc path, and sends `upload` naming the region and where
// each array lies in it; the server seals the region against further writes and maps it, so the
// arrays are never copied through the socket, the frame decoder or the heap
// (native/src/shared_memory.cc says why sealing makes the content safe to hash and share).
// Replies: the server writes a run's large outputs into a region, seals it, and names it in the
// reply; the client maps it and says so (`close-regions`). A connection holds few regions at a
// time, each for a bounded time; whatever is left is closed when it expires or the connection leaves.

import { writeSync } from 'node:fs';
import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import { nativeAddon } from '../native/addon.js';
import type { RegionLayout } from './region-layout.js';

/** A region as `reserve` returns it: its number on this connection and the path to write it through. */
export interface Reservation {
  readonly region: number;
  readonly path: string;
  readonly bytes: number;
}

/** Whether this process can make regions (Linux, and an addon that has them), and why not. */
export function sharedRegionsAvailable(): { available: boolean; reason: string } {
  try {
    return nativeAddon().sharedRegionInfo();
  } catch (e) {
    return { available: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

interface OpenRegion {
  readonly fd: number;
  readonly bytes: number;
  readonly timer: NodeJS.Timeout;
  /** A reply's region, waiting for the client to map it (not one it may upload into). */
  readonly reply: boolean;
}

/** Reply regions a connection may have waiting for its client at once; a reply past them goes through the socket. */
const MAX_REPLY_REGIONS = 16;

/** One connection's regions. */
export class SharedRegions {
  readonly #open = new Map<number, OpenRegion>();
  #next = 1;
  /** Whether the client has shown it can open this server's regions (it may be given replies in them). */
  clientMaps = false;
  /** A region made ahead for the next reply (#prepareSpare), and whether one is being made. */
  #spare: { fd: number; bytes: number; timer: NodeJS.Timeout } | undefined;
  #spareQueued = false;
  /** The connection left: no more spares. */
  #closed = false;

  /**
   * @param limits.maxOpen regions a connection may hold unused at once.
   * @param limits.seconds how long a region waits for its upload before it is closed.
   */
  constructor(private readonly limits: { readonly maxOpen: number; readonly seconds: number }) {}

  /**
   * A new region of `bytes` bytes.
   * @param maxBytes the most one upload may hold (the store's bound, or the tenant's memory quota);
   *   the connection's unused regions together may hold no more.
   * @throws {InvalidArgumentError} for a bad size; {LimitError} past `maxBytes` or the open regions' bound.
   */
  reserve(fn: string, bytes: unknown, maxBytes: number): Reservation {
    if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 1) {
      throw new InvalidArgumentError(`${fn}: field "bytes" must be a positive integer, got ${describe(bytes)}`);
    }
    let held = 0;
    let unused = 0;
    for (const r of this.#open.values()) {
      if (r.reply) continue;
      held += r.bytes;
      unused++;
    }
    if (held + bytes > maxBytes) {
      throw new LimitError(
        `${fn}: a region of ${bytes} bytes${held > 0 ? `, beside the ${held} bytes of this connection's unused regions,` : ''} is more than one upload may hold here (${maxBytes} bytes: the store's bound or the tenant's memoryBytes)`,
      );
    }
    if (unused >= this.limits.maxOpen) {
      throw new LimitError(`${fn}: this connection already holds ${unused} unused regions (at most ${this.limits.maxOpen}); upload into them first`);
    }
    return this.#add(nativeAddon().sharedRegionCreate(bytes), bytes, false);
  }

  /**
   * A region holding the layout's arrays, written and sealed, for the client to map; undefined
   * when the client cannot map regions or has too many waiting (the reply goes through the socket).
   */
  offer(layout: Pick<RegionLayout, 'bytes' | 'writes'>): Reservation | undefined {
    if (!this.clientMaps || layout.writes.length === 0) return undefined;
    if (this.repliesWaiting >= MAX_REPLY_REGIONS) return undefined;
    const addon = nativeAddon();
    const fd = this.#takeSpare(layout.bytes) ?? addon.sharedRegionCreate(layout.bytes);
    try {
      for (const { array, offset } of layout.writes) {
        const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, offset + done);
      }
      addon.sharedRegionSeal(fd);
    } catch (e) {
      addon.sharedRegionClose(fd);
      throw e;
    }
    this.#prepareSpare(layout.bytes);
    return this.#add(fd, layout.bytes, true);
  }

  /**
   * A region of `bytes` bytes whose pages are already allocated, made after the last reply of
   * that size went out: a reply written into fresh shared pages pays for allocating and zeroing
   * each one first (2 MiB: 350-450 us in C on the development VM, 226 us into allocated pages).
   * One spare a connection, of the last reply's size (a client repeating a run gets the same);
   * made on the next turn of the event loop, after the reply has been handed to the socket, and
   * closed when unused for `limits.seconds` or when the connection leaves.
   */
  #takeSpare(bytes: number): number | undefined {
    const spare = this.#spare;
    if (!spare || spare.bytes !== bytes) return undefined;
    this.#spare = undefined;
    clearTimeout(spare.timer);
    return spare.fd;
  }

  #prepareSpare(bytes: number): void {
    if (this.#spareQueued || this.#spare?.bytes === bytes) return;
    this.#spareQueued = true;
    setImmediate(() => {
      this.#spareQueued = false;
      if (this.#closed) return;
      this.#dropSpare();
      let fd: number;
      try {
        fd = nativeAddon().sharedRegionCreate(bytes, true);
      } catch {
        return; // no memory for a spare now: the next reply makes its region as before
      }
      const timer = setTimeout(() => this.#dropSpare(), this.limits.seconds * 1000);
      timer.unref?.();
      this.#spare = { fd, bytes, timer };
    });
  }

  #dropSpare(): void {
    const spare = this.#spare;
    if (!spare) return;
    this.#spare = undefined;
    clearTimeout(spare.timer);
    nativeAddon().sharedRegionClose(spare.fd);
  }

  /** Reply regions waiting for the client to map them. */
  get repliesWaiting(): number {
    let waiting = 0;
    for (const r of this.#open.values()) if (r.reply) waiting++;
    return waiting;
  }

  /** `close-regions`: the client mapped these replies' regions (or will not upload into these). */
  closeRegions(fn: string, regions: unknown): number {
    if (!Array.isArray(regions) || regions.length > 1024 || !regions.every((r) => typeof r === 'number')) {
      throw new InvalidArgumentError(`${fn}: field "regions" must be an array of at most 1024 region numbers, got ${describe(regions)}`);
    }
    let closed = 0;
    for (const r of regions as number[]) if (this.#close(r)) closed++;
    return closed;
  }

  #add(fd: number, bytes: number, reply: boolean): Reservation {
    const region = this.#next++;
    const timer = setTimeout(() => this.#close(region), this.limits.seconds * 1000);
    timer.unref?.();
    this.#open.set(region, { fd, bytes, timer, reply });
    return { region, path: `/proc/${process.pid}/fd/${fd}`, bytes };
  }

  /**
   * The region's content, sealed and mapped; the region is used up (a second upload from it is refused).
   * @throws {InvalidArgumentError} for a region this connection does not hold; {AccessError} when its writer still maps it for writing.
   */
  take(fn: string, region: unknown): ArrayBuffer {
    const open = typeof region === 'number' ? this.#open.get(region) : undefined;
    if (!open || open.reply) {
      throw new InvalidArgumentError(
        `${fn}: field "region": ${describe(region)} is not a region this connection reserved and has not used (regions expire after ${this.limits.seconds} s)`,
      );
    }
    this.#open.delete(region as number);
    clearTimeout(open.timer);
    return nativeAddon().sharedRegionMap(open.fd);
  }

  /** Close every region not used yet (the connection left). */
  closeAll(): void {
    this.#closed = true;
    this.#dropSpare();
    for (const region of [...this.#open.keys()]) this.#close(region);
  }

  #close(region: number): boolean {
    const open = this.#open.get(region);
    if (!open) return false;
    this.#open.delete(region);
    clearTimeout(open.timer);
    nativeAddon().sharedRegionClose(open.fd);
    return true;
  }
}

// Uploads through shared memory: a client on the same machine (a Unix-socket client, so the same
// user) asks for a region of N bytes (`reserve`), writes its matrix's arrays into it through the
// region's /proc path, and sends `upload` naming the region and where each array lies in it. The
// server seals the region against further writes and maps it: the arrays are never copied through
// the socket, the frame decoder or the heap (native/src/shared_memory.cc says why sealing makes
// the content safe to hash and share). A connection holds few regions at a time, each for a
// bounded time; whatever it has not used is closed when it expires or the connection leaves.

import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import { nativeAddon } from '../native/addon.js';
import { isRecord } from './protocol.js';

/** A region as `reserve` returns it: its number on this connection and the path to write it through. */
export interface Reservation {
  readonly region: number;
  readonly path: string;
  readonly bytes: number;
}

/** Where an array lies in a region, as the client sends it in place of the array. */
export interface SharedArray {
  readonly type: SharedArrayType;
  /** Byte offset in the region (a multiple of the element size). */
  readonly offset: number;
  /** Elements. */
  readonly length: number;
}

const ARRAY_TYPES = { Int32Array, BigInt64Array, Float32Array, Float64Array } as const;
export type SharedArrayType = keyof typeof ARRAY_TYPES;
export const SHARED_ARRAY_TYPES = Object.keys(ARRAY_TYPES) as SharedArrayType[];

/** Arrays start at multiples of this in a region (a cache line: no array shares one with another). */
export const SHARED_ALIGN = 64;

/** Whether this process can make regions (Linux, and an addon that has them), and why not. */
export function sharedRegionsAvailable(): { available: boolean; reason: string } {
  try {
    const addon = nativeAddon();
    if (typeof addon.sharedRegionInfo !== 'function') return { available: false, reason: 'the native addon predates shared-memory regions' };
    return addon.sharedRegionInfo();
  } catch (e) {
    return { available: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

interface OpenRegion {
  readonly fd: number;
  readonly bytes: number;
  readonly timer: NodeJS.Timeout;
}

/** One connection's regions. */
export class SharedRegions {
  readonly #open = new Map<number, OpenRegion>();
  #next = 1;

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
    for (const r of this.#open.values()) held += r.bytes;
    if (held + bytes > maxBytes) {
      throw new LimitError(
        `${fn}: a region of ${bytes} bytes${held > 0 ? `, beside the ${held} bytes of this connection's unused regions,` : ''} is more than one upload may hold here (${maxBytes} bytes: the store's bound or the tenant's memoryBytes)`,
      );
    }
    if (this.#open.size >= this.limits.maxOpen) {
      throw new LimitError(`${fn}: this connection already holds ${this.#open.size} unused regions (at most ${this.limits.maxOpen}); upload into them first`);
    }
    const fd = nativeAddon().sharedRegionCreate(bytes);
    const region = this.#next++;
    const timer = setTimeout(() => this.#close(region), this.limits.seconds * 1000);
    timer.unref?.();
    this.#open.set(region, { fd, bytes, timer });
    return { region, path: `/proc/${process.pid}/fd/${fd}`, bytes };
  }

  /**
   * The region's content, sealed and mapped; the region is used up (a second upload from it is refused).
   * @throws {InvalidArgumentError} for a region this connection does not hold; {AccessError} when its writer still maps it for writing.
   */
  take(fn: string, region: unknown): ArrayBuffer {
    const open = typeof region === 'number' ? this.#open.get(region) : undefined;
    if (!open) {
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
    for (const region of [...this.#open.keys()]) this.#close(region);
  }

  #close(region: number): void {
    const open = this.#open.get(region);
    if (!open) return;
    this.#open.delete(region);
    clearTimeout(open.timer);
    nativeAddon().sharedRegionClose(open.fd);
  }
}

/**
 * The matrix of an upload from a region: each array field given as {@link SharedArray} becomes a
 * view of the region (checked: a known type, aligned, inside the region); other fields pass as
 * they are, for the usual validation.
 * @throws {InvalidArgumentError} naming the field.
 */
export function viewsInRegion(fn: string, matrix: unknown, buffer: ArrayBuffer): unknown {
  if (!isRecord(matrix)) return matrix;
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(matrix)) {
    out[name] = isRecord(v) && 'offset' in v ? arrayView(fn, `matrix.${name}`, v, buffer) : v;
  }
  return out;
}

function arrayView(fn: string, field: string, v: Readonly<Record<string, unknown>>, buffer: ArrayBuffer): ArrayBufferView {
  for (const k of Object.keys(v)) {
    if (k !== 'type' && k !== 'offset' && k !== 'length') {
      throw new InvalidArgumentError(`${fn}: field "${field}.${k}" is not part of an array in a region (fields: type, offset, length)`);
    }
  }
  const type = v['type'];
  if (typeof type !== 'string' || !(SHARED_ARRAY_TYPES as string[]).includes(type)) {
    throw new InvalidArgumentError(`${fn}: field "${field}.type" must be one of ${SHARED_ARRAY_TYPES.join(', ')}, got ${describe(type)}`);
  }
  const Ctor = ARRAY_TYPES[type as SharedArrayType];
  const offset = v['offset'];
  const length = v['length'];
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0 || offset % Ctor.BYTES_PER_ELEMENT !== 0) {
    throw new InvalidArgumentError(`${fn}: field "${field}.offset" must be a non-negative multiple of ${Ctor.BYTES_PER_ELEMENT}, got ${describe(offset)}`);
  }
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0 || offset + length * Ctor.BYTES_PER_ELEMENT > buffer.byteLength) {
    throw new InvalidArgumentError(
      `${fn}: field "${field}.length" must be a count of elements that ends inside the region of ${buffer.byteLength} bytes (offset ${offset}), got ${describe(length)}`,
    );
  }
  return new Ctor(buffer, offset, length);
}

// Where arrays lie in a shared-memory region, for both directions: a client's upload (its matrix's
// arrays) and a server's reply (a run's large outputs). Each array starts at a cache-line
// boundary and is described in the message by its type, byte offset and length; the receiver
// turns each description back into a view of the region it mapped, checking all three.

import { describe, InvalidArgumentError } from '../errors.js';
import { isRecord } from './protocol.js';

const ARRAY_TYPES = { Int32Array, BigInt64Array, Float32Array, Float64Array } as const;
export type SharedArrayType = keyof typeof ARRAY_TYPES;
export const SHARED_ARRAY_TYPES = Object.keys(ARRAY_TYPES) as SharedArrayType[];

/** Where an array lies in a region, sent in place of the array. */
export interface SharedArray {
  readonly type: SharedArrayType;
  /** Byte offset in the region (a multiple of the element size). */
  readonly offset: number;
  /** Elements. */
  readonly length: number;
}

/** Arrays start at multiples of this in a region (a cache line: no array shares one with another). */
export const SHARED_ALIGN = 64;

/** Below this many bytes an array goes through the socket: a region costs a round trip or a system call more. */
export const SHARED_MIN_BYTES = 256 * 1024;

/** A message with some of its arrays placed in a region: the message to send, and what to write where. */
export interface RegionLayout {
  readonly bytes: number;
  readonly message: Record<string, unknown>;
  readonly writes: readonly { readonly array: ArrayBufferView; readonly offset: number }[];
}

/**
 * Place the typed arrays of `message` (and of the maps directly in it, for a run's outputs) of at
 * least `minBytes` bytes in one region; the rest stay in the message.
 */
export function regionLayout(message: Readonly<Record<string, unknown>>, minBytes = 0): RegionLayout {
  const { bytes, messages, writes } = regionLayouts([message], minBytes);
  return { bytes, message: messages[0]!, writes };
}

/** Several messages' arrays (as {@link regionLayout} places one's) in one region: a stream's results' outputs. */
export function regionLayouts(
  messages: readonly Readonly<Record<string, unknown>>[],
  minBytes = 0,
): { readonly bytes: number; readonly messages: Record<string, unknown>[]; readonly writes: RegionLayout['writes'] } {
  const writes: { array: ArrayBufferView; offset: number }[] = [];
  let bytes = 0;
  const place = (v: ArrayBufferView): SharedArray => {
    const offset = Math.ceil(bytes / SHARED_ALIGN) * SHARED_ALIGN;
    writes.push({ array: v, offset });
    bytes = offset + v.byteLength;
    return { type: v.constructor.name as SharedArrayType, offset, length: (v as Int32Array).length };
  };
  const placed = (v: unknown): unknown => (ArrayBuffer.isView(v) && v.constructor.name in ARRAY_TYPES && v.byteLength >= minBytes ? place(v) : v);
  const laid = messages.map((message) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(message)) {
      out[k] = isRecord(v) ? Object.fromEntries(Object.entries(v).map(([f, a]) => [f, placed(a)])) : placed(v);
    }
    return out;
  });
  return { bytes, messages: laid, writes };
}

/**
 * The message with each {@link SharedArray} in it (or in a map directly in it) made a view of
 * `buffer`, checked: a known type, aligned, inside the region.
 * @throws {InvalidArgumentError} naming the field.
 */
export function viewsInRegion(fn: string, field: string, message: unknown, buffer: ArrayBuffer): unknown {
  if (!isRecord(message)) return message;
  const resolve = (name: string, v: unknown): unknown => (isRecord(v) && 'offset' in v ? arrayView(fn, name, v, buffer) : v);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(message)) {
    const name = `${field}.${k}`;
    out[k] = isRecord(v) && !('offset' in v) ? Object.fromEntries(Object.entries(v).map(([f, a]) => [f, resolve(`${name}.${f}`, a)])) : resolve(name, v);
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

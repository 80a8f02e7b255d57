// The wire format of `dype serve`: each message is one frame, a 4-byte big-endian length and
// that many bytes of msgpack. The length is checked against the limit before anything is kept,
// and an oversized frame is skipped byte for byte (never buffered), so the connection stays usable.

import { Packr, RESERVE_START_SPACE, Unpackr } from 'msgpackr';
import { describe, FormatError, LimitError } from '../errors.js';

/** Bytes of the length prefix. */
export const HEADER_BYTES = 4;
/** Largest frame accepted by default: 256 MiB (a 30M-entry CSR with values fits). */
export const DEFAULT_MAX_FRAME_BYTES = 256 * 2 ** 20;
/** The most a length prefix can say. */
export const MAX_FRAME_LIMIT = 2 ** 32 - 1;

/**
 * One codec per connection: msgpackr's records keep state between messages, so they are off, and
 * a codec is never shared, so one peer's bytes cannot change how another's are read.
 * `moreTypes` carries typed arrays as themselves (decoded into fresh, aligned buffers).
 */
export class MessageCodec {
  readonly #packr = new Packr({ moreTypes: true, useRecords: false });
  readonly #unpackr = new Unpackr({ moreTypes: true, useRecords: false, mapsAsObjects: true });

  /** The frame of `message`: prefix and body. @throws {LimitError} when the body exceeds `maxBytes`. */
  encode(fn: string, message: unknown, maxBytes: number): Buffer {
    // The prefix's bytes are reserved in front of the body as it is packed, so the frame is not
    // copied again (a 2 MiB reply cost as much to copy as to pack). Packr starts each message after
    // the last in its buffer, or in a new one: a frame still being written is never overwritten.
    const frame = this.#packr.pack(message, RESERVE_START_SPACE | HEADER_BYTES);
    const bytes = frame.length - HEADER_BYTES;
    if (bytes > maxBytes) {
      throw new LimitError(`${fn}: the message is ${bytes} bytes, more than the frame limit of ${maxBytes} bytes`);
    }
    frame.writeUInt32BE(bytes, 0);
    return frame;
  }

  /** The message of a frame's body. @throws {FormatError} on anything that is not exactly one msgpack value. */
  decode(fn: string, body: Buffer): unknown {
    if (body.length === 0) throw new FormatError(fn, '<frame>', 0, 'the frame is empty (a message is one msgpack value)');
    try {
      return this.#unpackr.unpack(body);
    } catch (e) {
      const why = e instanceof Error ? e.message : describe(e);
      throw new FormatError(fn, '<frame>', 0, `not a valid msgpack message (${body.length} bytes): ${why}`, { cause: e });
    }
  }
}

/** What the reader found: a whole frame's body, or a frame refused for its size (its bytes are being skipped). */
export type FrameEvent = { readonly state: 'frame'; readonly body: Buffer } | { readonly state: 'oversized'; readonly bytes: number; readonly limit: number };

/**
 * Splits a byte stream into frames. Memory held is at most what was received of the current frame
 * (a peer that announces 256 MiB and sends 10 bytes costs 10 bytes), never the announced length.
 */
export class FrameReader {
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** Bytes of an oversized frame still to be dropped. */
  #skipping = 0;

  constructor(readonly maxBytes: number) {}

  /** Feed received bytes; returns the frames (and refusals) they complete, in order. */
  push(chunk: Buffer): FrameEvent[] {
    const events: FrameEvent[] = [];
    let data = chunk;
    while (data.length > 0) {
      if (this.#skipping > 0) {
        const drop = Math.min(this.#skipping, data.length);
        this.#skipping -= drop;
        data = data.subarray(drop);
        continue;
      }
      this.#chunks.push(data);
      this.#buffered += data.length;
      data = Buffer.alloc(0);
      while (this.#buffered >= HEADER_BYTES) {
        const head = this.#peekHeader();
        if (head > this.maxBytes) {
          events.push({ state: 'oversized', bytes: head, limit: this.maxBytes });
          const rest = this.#take(this.#buffered).subarray(HEADER_BYTES);
          const drop = Math.min(head, rest.length);
          this.#skipping = head - drop;
          data = rest.subarray(drop);
          break;
        }
        if (this.#buffered < HEADER_BYTES + head) break;
        const frame = this.#take(HEADER_BYTES + head);
        events.push({ state: 'frame', body: frame.subarray(HEADER_BYTES) });
      }
    }
    return events;
  }

  /** Bytes received of a frame not yet complete. */
  get pending(): number {
    return this.#buffered;
  }

  #peekHeader(): number {
    if (this.#chunks[0]!.length < HEADER_BYTES) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0]!.readUInt32BE(0);
  }

  /** Remove and return the first `n` buffered bytes as one buffer. */
  #take(n: number): Buffer {
    const all = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#buffered);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#buffered = rest.length;
    return out;
  }
}

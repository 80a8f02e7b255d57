// Frames: split and joined across chunks in any way, sizes refused from the prefix before the
// body is kept, an oversized frame skipped so the next one reads, and bodies that are not one
// msgpack value refused with a FormatError.

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { FormatError, LimitError } from '../../src/errors.js';
import { FrameReader, MessageCodec } from '../../src/service/frames.js';

const codec = new MessageCodec();

it('reads frames however the stream is cut', () => {
  fc.assert(
    // (msgpackr renames a "__proto__" key on decoding, against prototype pollution: left out here.)
    fc.property(
      fc.array(
        fc.jsonValue().filter((v) => !JSON.stringify(v).includes('__proto__')),
        { minLength: 1, maxLength: 6 },
      ),
      fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 20 }),
      (messages, cuts) => {
        const stream = Buffer.concat(messages.map((m) => codec.encode('t', m, 1 << 20)));
        const reader = new FrameReader(1 << 20);
        const got: unknown[] = [];
        let at = 0;
        let i = 0;
        while (at < stream.length) {
          const n = cuts[i++ % cuts.length]!;
          for (const ev of reader.push(stream.subarray(at, at + n))) if (ev.state === 'frame') got.push(codec.decode('t', ev.body));
          at += n;
        }
        expect(got).toEqual(messages.map((m) => JSON.parse(JSON.stringify(m)) as unknown));
        expect(reader.pending).toBe(0);
      },
    ),
    { numRuns: 200 },
  );
});

it('refuses an oversized frame from its prefix, keeps none of it, and reads the next frame', () => {
  const reader = new FrameReader(1024);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(1_000_000, 0);
  const events = reader.push(Buffer.concat([head, Buffer.alloc(500, 7)]));
  expect(events).toEqual([{ state: 'oversized', bytes: 1_000_000, limit: 1024 }]);
  expect(reader.pending).toBe(0);
  expect(reader.push(Buffer.alloc(1_000_000 - 500 - 10, 7))).toEqual([]);
  const next = codec.encode('t', { ok: 1 }, 1024);
  const evs = reader.push(Buffer.concat([Buffer.alloc(10, 7), next]));
  expect(evs.length).toBe(1);
  expect(codec.decode('t', (evs[0] as { body: Buffer }).body)).toEqual({ ok: 1 });
});

it('refuses to encode past the limit and to decode what is not one msgpack value', () => {
  expect(() => codec.encode('send', { big: new Float64Array(1000) }, 100)).toThrow(LimitError);
  expect(() => codec.decode('serve', Buffer.alloc(0))).toThrow(FormatError);
  const two = Buffer.concat([codec.encode('t', 1, 10).subarray(4), codec.encode('t', 2, 10).subarray(4)]);
  expect(() => codec.decode('serve', two)).toThrow(/not a valid msgpack message/);
  expect(() => codec.decode('serve', Buffer.from([0xa5, 0x61]))).toThrow(FormatError); // a 5-byte string cut after 1
});

it('round-trips typed arrays into aligned copies', () => {
  const body = codec.encode('t', { a: new Float64Array([1.5, -2]), b: new Int32Array([3]) }, 1 << 10).subarray(4);
  const m = codec.decode('t', Buffer.concat([Buffer.alloc(1), body]).subarray(1)) as { a: Float64Array; b: Int32Array };
  expect(m.a).toBeInstanceOf(Float64Array);
  expect([...m.a]).toEqual([1.5, -2]);
  expect(m.a.byteOffset % 8).toBe(0);
  expect([...m.b]).toEqual([3]);
});

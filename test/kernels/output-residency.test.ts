// A call's output is mapped page by page before its clock starts (native/src/prefault.h), not
// judged by one page: a buffer carved from glibc's heap has its last page mapped (the next chunk's
// header) and the rest fresh, and its faults then fell inside the timed kernel. Large dense arrays
// start on a 2 MiB boundary, mapped when allocated (src/data/aligned.ts).

import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/native/addon.js';
import { HUGE_FROM_BYTES, HUGE_PAGE_BYTES, newDenseArray } from '../../src/data/aligned.js';

// Above glibc's largest mmap threshold (32 MiB), so the buffer is a fresh mapping, none of it touched.
const FRESH_BYTES = 40 << 20;

describe('output residency before the clock', () => {
  it('maps every page of a buffer whose last page alone was written', () => {
    const buffer = new ArrayBuffer(FRESH_BYTES);
    const bytes = new Uint8Array(buffer);
    // The last pages mapped (128 KiB: the last whole page for any page size up to 64 KiB), as a
    // heap chunk's neighbour header leaves it, and one in the middle.
    bytes.fill(7, FRESH_BYTES - (128 << 10));
    bytes[12_345] = 9;
    const { mapped, pages } = nativeAddon().provisionPages(buffer, 0, FRESH_BYTES);
    expect(pages).toBeGreaterThan(FRESH_BYTES / 65_536 - 2); // whole pages of any size up to 64 KiB
    expect(mapped).toBe(pages);
    // Contents unchanged, the rest still zero.
    expect(bytes[FRESH_BYTES - 1]).toBe(7);
    expect(bytes[FRESH_BYTES - (128 << 10)]).toBe(7);
    expect(bytes[12_345]).toBe(9);
    expect(bytes[FRESH_BYTES >> 1]).toBe(0);
  });

  it('maps only the range it is given, at any offset', () => {
    const buffer = new ArrayBuffer(FRESH_BYTES);
    const { mapped, pages } = nativeAddon().provisionPages(buffer, 100_001, 3 << 20);
    expect(mapped).toBe(pages);
    const after = nativeAddon().provisionPages(buffer, 24 << 20, 0);
    expect(after).toEqual({ mapped: 0, pages: 0 });
  });

  it('starts a large dense array on a 2 MiB boundary, its pages mapped and zero', () => {
    for (const n of [HUGE_FROM_BYTES / 4, (5 << 20) / 4 + 3]) {
      const a = newDenseArray('f32', n);
      expect(a.length).toBe(n);
      expect(nativeAddon().alignmentPad(a.buffer as ArrayBuffer, HUGE_PAGE_BYTES)).toBe(a.byteOffset);
      const { mapped, pages } = nativeAddon().provisionPages(a.buffer as ArrayBuffer, a.byteOffset, a.byteLength);
      expect(mapped).toBe(pages);
      expect(a.every((v) => v === 0)).toBe(true);
    }
  });

  it('keeps a small dense array on a 64-byte boundary', () => {
    const a = newDenseArray('f64', 10_000);
    expect(nativeAddon().alignmentPad(a.buffer as ArrayBuffer, 64)).toBe(a.byteOffset);
  });

  it('refuses a range outside the buffer and a boundary that is not a power of two, naming the function', () => {
    const buffer = new ArrayBuffer(1 << 16);
    expect(() => nativeAddon().provisionPages(buffer, 1 << 15, 1 << 16)).toThrow(/provisionPages: byteLength/);
    expect(() => nativeAddon().provisionPages(buffer, -1, 10)).toThrow(/provisionPages: byteOffset/);
    expect(() => nativeAddon().alignmentPad(buffer, 3)).toThrow(/alignmentPad: boundary/);
    expect(() => nativeAddon().alignmentPad(buffer, 4 << 20)).toThrow(/alignmentPad: boundary/);
  });
});

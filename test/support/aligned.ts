// Whether a typed array's data starts on a 64-byte boundary, as dype places its own dense arrays
// (src/data/aligned.ts): its buffer's pad to the boundary equals its offset, modulo 64.

import { DENSE_ALIGN_BYTES } from '../../src/data/aligned.js';
import { nativeAddon } from '../../src/native/addon.js';

export function onLineBoundary(a: Float32Array | Float64Array): boolean {
  return (a.byteOffset - nativeAddon().alignmentPad(a.buffer as ArrayBuffer)) % DENSE_ALIGN_BYTES === 0;
}

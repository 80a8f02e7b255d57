// The client's half of uploads through shared memory (the server's is shared-regions.ts): lay a
// matrix's arrays out in one region, each at a cache-line boundary, and write them into it
// through the path the server gave. The arrays are written straight from their own memory: one
// copy in all, where the socket path copies them through the encoder, the socket and the decoder.

import { open } from 'node:fs/promises';
import { SHARED_ALIGN, type SharedArray, type SharedArrayType } from './shared-regions.js';
import type { WireMatrix } from './wire-values.js';

/** Below this many bytes a matrix goes through the socket: a region costs a round trip more. */
export const SHARED_MIN_BYTES = 256 * 1024;

/** A matrix's arrays placed in one region: the matrix to send (arrays replaced by where they lie), and what to write. */
export interface RegionLayout {
  readonly bytes: number;
  readonly matrix: Record<string, unknown>;
  readonly writes: readonly { readonly array: ArrayBufferView; readonly offset: number }[];
}

export function regionLayout(wire: WireMatrix): RegionLayout {
  const matrix: Record<string, unknown> = {};
  const writes: { array: ArrayBufferView; offset: number }[] = [];
  let bytes = 0;
  for (const [name, v] of Object.entries(wire)) {
    if (!ArrayBuffer.isView(v)) {
      matrix[name] = v;
      continue;
    }
    const offset = Math.ceil(bytes / SHARED_ALIGN) * SHARED_ALIGN;
    const at: SharedArray = { type: v.constructor.name as SharedArrayType, offset, length: (v as Int32Array).length };
    matrix[name] = at;
    writes.push({ array: v, offset });
    bytes = offset + v.byteLength;
  }
  return { bytes, matrix, writes };
}

/** Write the layout's arrays into the region at `path`. @throws the file system's error where the path cannot be opened or written. */
export async function writeRegion(path: string, layout: RegionLayout): Promise<void> {
  const file = await open(path, 'r+');
  try {
    for (const { array, offset } of layout.writes) {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      let done = 0;
      while (done < bytes.length) {
        const { bytesWritten } = await file.write(bytes, done, bytes.length - done, offset + done);
        done += bytesWritten;
      }
    }
  } finally {
    await file.close();
  }
}

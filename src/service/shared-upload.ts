// The client's half of shared memory with the server (the server's is shared-regions.ts): a probe
// at connect that the server's regions open from here, uploads written into a region straight from
// the arrays' own memory (one copy in all, where the socket copies them through the encoder, the
// socket and the decoder), and replies whose large outputs come in a region this process maps.

import { open } from 'node:fs/promises';
import { describe, FormatError } from '../errors.js';
import { nativeAddon } from '../native/addon.js';
import { isRecord } from './protocol.js';
import { type RegionLayout, regionLayout, viewsInRegion } from './region-layout.js';
import type { Reservation } from './shared-regions.js';
import type { WireMatrix } from './wire-values.js';

/** A region's path as the server names it: /proc/PID/fd/N. */
const REGION_PATH = /^\/proc\/\d+\/fd\/\d+$/;

/** Write the layout's arrays into the region at `path`. @throws the file system's error where the path cannot be opened or written. */
async function writeRegion(path: string, layout: RegionLayout): Promise<void> {
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

type Call = (type: 'reserve' | 'close-regions', fields: Record<string, unknown>) => Promise<unknown>;

/** An upload's fields with the matrix's arrays written into a reserved region; undefined where the region cannot be written from here. */
export async function fieldsInRegion(call: Call, matrix: WireMatrix): Promise<Record<string, unknown> | undefined> {
  const layout = regionLayout({ matrix });
  const { region, path } = (await call('reserve', { bytes: layout.bytes })) as Reservation;
  try {
    await writeRegion(path, layout);
  } catch {
    return undefined;
  }
  return { ...layout.message, region };
}

/**
 * Whether this process can open the server's regions (another PID or mount namespace cannot):
 * reserves one byte, opens it, and tells the server (which then may send replies in regions).
 */
export async function probeRegions(call: Call): Promise<boolean> {
  const { region, path } = (await call('reserve', { bytes: 1 })) as Reservation;
  let maps = false;
  try {
    await (await open(path, 'r+')).close();
    maps = REGION_PATH.test(path);
  } catch {
    // not reachable from here: everything goes through the socket
  }
  await call('close-regions', { regions: [region], ...(maps ? { maps: true } : {}) });
  return maps;
}

/** The region a reply names, mapped here once (the server is told it may close its side); undefined where the reply came whole through the socket. */
function replyRegion(fn: string, reply: Readonly<Record<string, unknown>>, closed: (region: number) => void): ArrayBuffer | undefined {
  const at = reply['region'];
  if (!isRecord(at)) return undefined;
  const path = at['path'];
  if (typeof path !== 'string' || !REGION_PATH.test(path) || typeof at['region'] !== 'number') {
    throw new FormatError(fn, '<reply>', 0, `the server named a region ${describe(at['region'])} at ${describe(path)}, not a /proc/PID/fd/N path`);
  }
  const buffer = nativeAddon().sharedRegionOpen(path);
  closed(at['region']);
  return buffer;
}

/** A run's reply with the outputs the server put in a region made views of it. */
export function outputsFromRegion(fn: string, reply: Record<string, unknown>, closed: (region: number) => void): Record<string, unknown> {
  const buffer = replyRegion(fn, reply, closed);
  if (!buffer) return { ...reply, outputsVia: 'socket' };
  const { region: _r, ...rest } = reply;
  return { ...rest, outputs: viewsInRegion(fn, 'outputs', reply['outputs'], buffer), outputsVia: 'shared-memory' };
}

/** A stream's reply with each result's outputs made views of the one region the server put them in. */
export function streamOutputsFromRegion(fn: string, reply: Record<string, unknown>, closed: (region: number) => void): Record<string, unknown> {
  const buffer = replyRegion(fn, reply, closed);
  const { region: _r, ...rest } = reply;
  const results = Array.isArray(reply['results']) ? (reply['results'] as unknown[]) : [];
  const via = buffer ? 'shared-memory' : 'socket';
  return {
    ...rest,
    results: results.map((r, i) =>
      isRecord(r) ? { ...r, outputs: buffer ? viewsInRegion(fn, `results.${i}.outputs`, r['outputs'], buffer) : r['outputs'], outputsVia: via } : r,
    ),
  };
}

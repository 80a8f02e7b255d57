// A connection keeps one region made ahead, pages allocated, for its next reply of the same size
// (service/shared-regions.ts): the reply after the first is written into it, a reply of another
// size is not, and nothing is left open when the connection leaves.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { regionLayouts } from '../../src/service/region-layout.js';
import { SharedRegions, sharedRegionsAvailable } from '../../src/service/shared-regions.js';

const available = sharedRegionsAvailable().available;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
const fdOf = (path: string): number => Number(path.split('/').pop());
const layoutOf = (values: number) => regionLayouts([{ y: Float32Array.from({ length: values }, (_, i) => i) }]);
/** This process's open regions (memfds named as the addon names them). */
function regionFds(): Set<number> {
  const out = new Set<number>();
  for (const name of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${name}`).startsWith('/memfd:dype-upload')) out.add(Number(name));
    } catch {
      // closed while listing
    }
  }
  return out;
}

describe.skipIf(!available)('reply regions made ahead', () => {
  it('writes the next reply of the same size into the region made after the last; another size gets its own', async () => {
    const before = regionFds();
    const regions = new SharedRegions({ maxOpen: 4, seconds: 60 });
    regions.clientMaps = true;
    const first = regions.offer(layoutOf(1 << 16))!;
    await turn();
    const spares = [...regionFds()].filter((fd) => !before.has(fd) && fd !== fdOf(first.path));
    expect(spares).toHaveLength(1);
    const second = regions.offer(layoutOf(1 << 16))!;
    expect(fdOf(second.path)).toBe(spares[0]);
    const content = new Float32Array(readFileSync(second.path).buffer.slice(0));
    expect(content[3]).toBe(3);
    expect(content[(1 << 16) - 1]).toBe((1 << 16) - 1);
    await turn();
    const third = regions.offer(layoutOf(1 << 15))!;
    expect([fdOf(first.path), fdOf(second.path)]).not.toContain(fdOf(third.path));
    await turn();
    regions.closeAll();
    expect([...regionFds()].filter((fd) => !before.has(fd))).toEqual([]);
  });

  it('makes no spare once the connection has left', async () => {
    const before = regionFds();
    const regions = new SharedRegions({ maxOpen: 4, seconds: 60 });
    regions.clientMaps = true;
    regions.offer(layoutOf(1 << 16));
    regions.closeAll();
    await turn();
    expect([...regionFds()].filter((fd) => !before.has(fd))).toEqual([]);
  });
});

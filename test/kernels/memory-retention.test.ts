// Freed memory kept in the process (native/src/memory_retention.cc): with glibc, once the addon
// loads, arrays up to 32 MiB come from the heap, which keeps what is freed, so a run's next output
// reuses pages already backed instead of mapping fresh ones (2-12 us a page on a virtual machine).
// DYPE_KEEP_FREED_MEMORY=0, or the user's own malloc thresholds in GLIBC_TUNABLES, leave glibc alone.
// Each case runs in a child process: the setting is made once per process, when the addon loads.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/native/addon.js';

const addonPath = process.env['DYPE_NATIVE_ADDON'] ?? join(packageRoot, 'build', 'Release', 'dype_native.node');
/** Whether this Node runs on glibc (the report's header names its version there). */
function onGlibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return process.platform === 'linux' && Boolean(report?.header?.glibcVersionRuntime);
}
const glibc = onGlibc();
// scripts/test-asan.sh runs the tests with the sanitisers' runtime preloaded and the addon built with them.
const sanitised = (process.env['LD_PRELOAD'] ?? '').includes('asan');

/** Run `body` in a fresh Node with the addon loaded as `addon`; what it prints, parsed as JSON. */
function inChild(body: string, env: Record<string, string> = {}): unknown {
  const script = `const addon = require(${JSON.stringify(addonPath)}); ${body}`;
  const base = { ...process.env };
  delete base['GLIBC_TUNABLES'];
  delete base['DYPE_KEEP_FREED_MEMORY'];
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { ...base, ...env }, encoding: 'utf8' }));
}

// The size of the process's [heap] mapping, read around one 8 MiB allocation: the array is on the heap when the heap grew by it.
const HEAP_GROWTH = `
  const heap = () => { const l = require('fs').readFileSync('/proc/self/maps', 'utf8').split('\\n').find((s) => s.endsWith('[heap]'));
    if (!l) return 0; const [a, b] = l.split(' ')[0].split('-'); return parseInt(b, 16) - parseInt(a, 16); };
  const before = heap(); const kept = new ArrayBuffer(8 << 20); new Uint8Array(kept)[0] = 1;
  console.log(JSON.stringify({ grew: heap() - before, retention: addon.memoryRetention() }));`;

describe.runIf(glibc && !sanitised)('freed memory kept in the process (glibc)', () => {
  it('is on once the addon loads, with its bounds stated', () => {
    const r = inChild('console.log(JSON.stringify(addon.memoryRetention()))') as { applied: boolean; heapBelowBytes: number; keepFreeBytes: number };
    expect(r).toMatchObject({ applied: true, heapBelowBytes: 32 << 20, keepFreeBytes: 256 << 20, reason: '' });
  });

  it('puts an 8 MiB array on the heap, not in a fresh mapping of its own', () => {
    const on = inChild(HEAP_GROWTH) as { grew: number };
    expect(on.grew).toBeGreaterThanOrEqual(8 << 20);
    // glibc's own default maps it apart (its threshold starts at 128 KiB).
    const off = inChild(HEAP_GROWTH, { DYPE_KEEP_FREED_MEMORY: '0' }) as { grew: number };
    expect(off.grew).toBeLessThan(8 << 20);
  });

  it('DYPE_KEEP_FREED_MEMORY=0 leaves glibc alone, and says so', () => {
    const r = inChild('console.log(JSON.stringify(addon.memoryRetention()))', { DYPE_KEEP_FREED_MEMORY: '0' });
    expect(r).toEqual({ applied: false, heapBelowBytes: 0, keepFreeBytes: 0, reason: 'DYPE_KEEP_FREED_MEMORY=0' });
  });

  it("a user's own malloc thresholds in GLIBC_TUNABLES are not overridden", () => {
    const r = inChild('console.log(JSON.stringify(addon.memoryRetention()))', { GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=1048576' }) as {
      applied: boolean;
      reason: string;
    };
    expect(r.applied).toBe(false);
    expect(r.reason).toMatch(/GLIBC_TUNABLES/);
  });
});

describe.runIf(!glibc || sanitised)("freed memory kept in the process (other allocators, AddressSanitizer's included)", () => {
  it('is not applied, and says why', () => {
    const r = inChild('console.log(JSON.stringify(addon.memoryRetention()))') as { applied: boolean; reason: string };
    expect(r.applied).toBe(false);
    expect(r.reason.length).toBeGreaterThan(0);
  });
});

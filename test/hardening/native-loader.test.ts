// The two modules dype loads by path (the native addon and the WebAssembly module) fail with a
// NativeError that says what to rebuild when the file is missing, and the addon loader refuses
// a module of another ABI (a stale build) instead of calling into it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

it('a missing addon is a NativeError naming the path and the rebuild command', async () => {
  vi.stubEnv('DYPE_NATIVE_ADDON', '/nonexistent/dype_native.node');
  // Fresh modules for each test (the loaders cache what they load), so the error class is fresh too.
  const { nativeThreads, NativeError } = await import('../../src/index.js');
  expect(() => nativeThreads()).toThrow(NativeError);
  expect(() => nativeThreads()).toThrow(/^nativeAddon: cannot load the native addon from \/nonexistent\/dype_native\.node [\s\S]*npm run build:native/);
});

it('an addon of another ABI is refused before anything calls into it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dype-abi-'));
  const stale = join(dir, 'stale.cjs');
  writeFileSync(stale, 'module.exports = { abiVersion: 4, threads() { throw new Error("called a stale addon"); } };\n');
  vi.stubEnv('DYPE_NATIVE_ADDON', stale);
  const { nativeAddon } = await import('../../src/native/addon.js');
  try {
    expect(() => nativeAddon()).toThrow(/^nativeAddon: addon ABI 4 does not match \d+; rebuild with `npm run build:native`/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a missing WebAssembly module is a NativeError naming the build command', async () => {
  vi.stubEnv('DYPE_WASM', '/nonexistent/dype.wasm');
  const { wasmModule } = await import('../../src/webassembly/module.js');
  const { NativeError } = await import('../../src/errors.js');
  expect(() => wasmModule()).toThrow(NativeError);
  expect(() => wasmModule()).toThrow(/^wasmModule: cannot read \/nonexistent\/dype\.wasm; build it with `npm run build:wasm`/);
});

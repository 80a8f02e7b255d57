// The cache folder is $DYPE_CACHE_DIR, else $XDG_CACHE_HOME/dype (absolute only), else
// ~/.cache/dype.

import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calibrationDir } from '../../src/cost/cache.js';

const NAMES = ['DYPE_CACHE_DIR', 'XDG_CACHE_HOME', 'HOME'] as const;

describe('calibrationDir', () => {
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const n of NAMES) saved[n] = process.env[n];
    process.env['HOME'] = '/home/tester';
  });
  afterEach(() => {
    for (const n of NAMES) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  });

  it('prefers DYPE_CACHE_DIR over everything', () => {
    process.env['DYPE_CACHE_DIR'] = '/tmp/dype-own';
    process.env['XDG_CACHE_HOME'] = '/tmp/xdg';
    expect(calibrationDir()).toBe('/tmp/dype-own');
    process.env['DYPE_CACHE_DIR'] = 'relative/cache';
    expect(calibrationDir()).toBe(resolve('relative/cache'));
  });

  it('uses XDG_CACHE_HOME/dype next, ignoring a relative one', () => {
    delete process.env['DYPE_CACHE_DIR'];
    process.env['XDG_CACHE_HOME'] = '/tmp/xdg';
    expect(calibrationDir()).toBe('/tmp/xdg/dype');
    process.env['XDG_CACHE_HOME'] = 'not/absolute';
    expect(calibrationDir()).toBe(join('/home/tester', '.cache', 'dype'));
  });

  it('falls back to ~/.cache/dype, treating empty variables as unset', () => {
    process.env['DYPE_CACHE_DIR'] = '';
    process.env['XDG_CACHE_HOME'] = '';
    expect(calibrationDir()).toBe('/home/tester/.cache/dype');
    delete process.env['DYPE_CACHE_DIR'];
    delete process.env['XDG_CACHE_HOME'];
    expect(calibrationDir()).toBe('/home/tester/.cache/dype');
  });
});

// cooToCsr's `caller` option names the function in every message, so it must itself be a
// non-empty string: found by the options fuzz (a caller of [5, 3] produced messages "5,3: ...").

import { expect, it } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { InvalidArgumentError } from '../../src/errors.js';

const coo = { rows: 2, cols: 2, rowIdx: Int32Array.of(0), colIdx: Int32Array.of(5) };

it('refuses a caller that is not a non-empty string, naming cooToCsr', () => {
  for (const caller of [[5, 3], 5, '', null, {}]) {
    expect(() => cooToCsr(coo, { caller } as never)).toThrow(InvalidArgumentError);
    expect(() => cooToCsr(coo, { caller } as never)).toThrow(/^cooToCsr: caller must be a non-empty string/);
  }
});

it('a string caller names the function in later messages', () => {
  expect(() => cooToCsr(coo, { caller: 'parseThing' })).toThrow(/^parseThing: /);
});

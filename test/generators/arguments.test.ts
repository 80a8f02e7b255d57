import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { bandedMatrix } from '../../src/generators/banded.js';
import { denseFeatures } from '../../src/generators/dense.js';
import { erdosRenyiGraph } from '../../src/generators/erdos-renyi.js';
import { gridGraph } from '../../src/generators/grid.js';
import { kroneckerGraph } from '../../src/generators/kronecker.js';

type Call = (options: never) => unknown;

const GENERATORS: Array<[string, Call, Record<string, unknown>]> = [
  ['kroneckerGraph', kroneckerGraph, { scale: 4 }],
  ['erdosRenyiGraph', erdosRenyiGraph, { n: 10, m: 5 }],
  ['gridGraph', gridGraph, { rows: 3, cols: 3 }],
  ['bandedMatrix', bandedMatrix, { n: 10, halfBandwidth: 2 }],
  ['denseFeatures', denseFeatures, { rows: 3, cols: 3 }],
];

/** [generator, options, message] for a value each generator must refuse. */
const BAD: Array<[string, Record<string, unknown>, RegExp]> = [
  ['kroneckerGraph', { scale: 4.5 }, /scale must be an integer, got 4\.5/],
  ['kroneckerGraph', { scale: -1 }, /scale must be at least 0, got -1/],
  ['kroneckerGraph', { edgeFactor: 4 }, /scale must be an integer, got undefined/],
  ['kroneckerGraph', { scale: 4, edgeFactor: 0 }, /edgeFactor must be at least 1/],
  ['kroneckerGraph', { scale: 4, a: 1.2 }, /a must be a number in \[0, 1\], got 1\.2/],
  ['kroneckerGraph', { scale: 4, a: 0.5, b: 0.3, c: 0.3 }, /a \+ b \+ c must be at most 1/],
  ['kroneckerGraph', { scale: 4, directed: 'yes' }, /directed must be a boolean, got "yes"/],
  ['kroneckerGraph', { scale: 4, weights: 'f16' }, /weights must be one of "f32", "f64", got "f16"/],
  ['kroneckerGraph', { scale: 4, seed: -3 }, /seed must be an integer in \[0, 4294967295\] or a string, got -3/],
  ['erdosRenyiGraph', { n: 10 }, /m must be an integer, got undefined/],
  ['erdosRenyiGraph', { n: '10', m: 1 }, /n must be an integer, got "10"/],
  ['gridGraph', { rows: 0, cols: 3 }, /rows must be at least 1, got 0/],
  ['gridGraph', { rows: 3, cols: 3, deleteFraction: 1.5 }, /deleteFraction must be a number in \[0, 1\]/],
  ['gridGraph', { rows: 3, cols: 3, deleteFraction: Number.NaN }, /deleteFraction must be a number in \[0, 1\], got NaN/],
  ['bandedMatrix', { n: 10, halfBandwidth: 2, fill: -0.1 }, /fill must be a number in \[0, 1\]/],
  ['bandedMatrix', { n: 10, halfBandwidth: 2, precision: 'double' }, /precision must be one of "f32", "f64"/],
  ['bandedMatrix', { n: 10, halfBandwidth: 2, weights: 'f32' }, /unknown option "weights"/],
  ['denseFeatures', { rows: -1, cols: 3 }, /rows must be in \[0, 2147483647\], got -1/],
  ['denseFeatures', { rows: 2, cols: 3, seed: 0.5 }, /seed must be an integer/],
];

describe('generator arguments', () => {
  for (const [name, call, good] of GENERATORS) {
    it(`${name} names itself, refuses non-objects and misspelled options`, () => {
      expect(() => call(null as never)).toThrow(new RegExp(`^${name}: options must be an object, got null`));
      expect(() => call([] as never)).toThrow(InvalidArgumentError);
      const key = Object.keys(good)[0]!;
      const typo = { ...good, [`${key}s`]: 1 };
      expect(() => call(typo as never)).toThrow(new RegExp(`^${name}: unknown option "${key}s" \\(did you mean "${key}"\\?\\)`));
      expect(() => call({ ...good, seed: 'any string' } as never)).not.toThrow();
    });
  }

  for (const [name, options, message] of BAD) {
    it(`${name} refuses ${JSON.stringify(options)}`, () => {
      const call = GENERATORS.find(([n]) => n === name)![1];
      expect(() => call(options as never)).toThrow(InvalidArgumentError);
      expect(() => call(options as never)).toThrow(new RegExp(`^${name}: ${message.source}`));
    });
  }
});

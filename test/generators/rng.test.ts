import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { randomPermutation, Rng, seedToU32 } from '../../src/generators/rng.js';

describe('Rng', () => {
  it('implements xoshiro128** (reference outputs from state 1, 2, 3, 4)', () => {
    const rng = new Rng(0);
    [rng.s0, rng.s1, rng.s2, rng.s3] = [1, 2, 3, 4];
    const out = Array.from({ length: 6 }, () => rng.nextU32());
    expect(out).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it('pins the stream of a few seeds (seeding must never change)', () => {
    const first = (seed: number | string, stream = 0) => {
      const rng = new Rng(seed, stream);
      return Array.from({ length: 3 }, () => rng.nextU32());
    };
    expect(first(0)).toEqual(PINNED.seed0);
    expect(first(1)).toEqual(PINNED.seed1);
    expect(first(1, 1)).toEqual(PINNED.seed1stream1);
    expect(first('graph')).toEqual(PINNED.graph);
  });

  it('gives the same stream for the same seed and stream, different ones otherwise', () => {
    const draw = (rng: Rng) => Array.from({ length: 8 }, () => rng.nextU32());
    expect(draw(new Rng(42))).toEqual(draw(new Rng(42)));
    expect(draw(new Rng(42))).not.toEqual(draw(new Rng(43)));
    expect(draw(new Rng(42, 0))).not.toEqual(draw(new Rng(42, 1)));
    expect(draw(new Rng('a'))).not.toEqual(draw(new Rng('b')));
  });

  it('nextFloat and nextFloat24 are in [0, 1) on an exact grid', () => {
    const rng = new Rng(5);
    const doubles = Array.from({ length: 2000 }, () => rng.nextFloat());
    const floats = Array.from({ length: 2000 }, () => rng.nextFloat24());
    expect(Math.min(...doubles)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...doubles)).toBeLessThan(1);
    expect(doubles.every((x) => Number.isInteger(x * 2 ** 53))).toBe(true);
    expect(doubles.some((x) => !Number.isInteger(x * 2 ** 40))).toBe(true); // low bits are used
    expect(Math.min(...floats)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...floats)).toBeLessThan(1);
    expect(floats.every((y) => Math.fround(y) === y && Number.isInteger(y * 2 ** 24))).toBe(true);
  });

  it('nextInt is in range and roughly uniform (chi-square), for small and 53-bit bounds', () => {
    const rng = new Rng(9);
    const k = 7;
    const counts = new Array<number>(k).fill(0);
    const draws = 70000;
    for (let i = 0; i < draws; i++) counts[rng.nextInt(k)]!++;
    const expected = draws / k;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(30); // 6 degrees of freedom: p < 1e-4
    expect(rng.nextInt(1)).toBe(0);
    for (const n of [2 ** 32, 2 ** 32 + 1, 3 * 2 ** 40, 2 ** 53]) {
      for (let i = 0; i < 200; i++) {
        const v = rng.nextInt(n);
        expect(Number.isInteger(v) && v >= 0 && v < n).toBe(true);
      }
    }
    // The top half of a 2^40 range must be reachable.
    let high = 0;
    for (let i = 0; i < 200; i++) if (rng.nextInt(2 ** 40) >= 2 ** 39) high++;
    expect(high).toBeGreaterThan(60);
    expect(high).toBeLessThan(140);
  });

  it('nextBool follows its probability', () => {
    const rng = new Rng(3);
    let hits = 0;
    for (let i = 0; i < 10000; i++) if (rng.nextBool(0.3)) hits++;
    expect(Math.abs(hits - 3000)).toBeLessThan(5 * Math.sqrt(10000 * 0.3 * 0.7));
    expect(rng.nextBool(0)).toBe(false);
    expect(rng.nextBool(1)).toBe(true);
  });

  it('randomPermutation is a permutation and depends on the stream', () => {
    const p = randomPermutation(new Rng(1), 1000);
    expect(Array.from(p).sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(p).not.toEqual(randomPermutation(new Rng(2), 1000));
    expect(randomPermutation(new Rng(1), 0).length).toBe(0);
  });

  it('refuses bad seeds, streams and bounds', () => {
    expect(() => new Rng(-1)).toThrow(InvalidArgumentError);
    expect(() => new Rng(2 ** 32)).toThrow(/seed must be an integer in \[0, 4294967295\] or a string/);
    expect(() => new Rng(1.5)).toThrow(InvalidArgumentError);
    expect(() => new Rng(null as unknown as number)).toThrow(InvalidArgumentError);
    expect(() => new Rng(1, -1)).toThrow(/stream/);
    for (const n of [2 ** 53 + 2, 0, -1, 2.5, Number.NaN]) expect(() => new Rng(1).nextInt(n)).toThrow(/^Rng.nextInt: n must be an integer/);
    expect(() => randomPermutation(new Rng(1), -1)).toThrow(/^randomPermutation/);
  });

  it('hashes string seeds with FNV-1a over UTF-8', () => {
    expect(seedToU32('')).toBe(0x811c9dc5);
    expect(seedToU32('a')).toBe(0xe40c292c);
    expect(seedToU32('é')).not.toBe(seedToU32('e'));
    expect(seedToU32(7)).toBe(7);
  });
});

// Computed once with this implementation and pinned: every generator's output derives from these.
const PINNED = {
  seed0: [2799969642, 1481358267, 2421748670],
  seed1: [2656874215, 1035534200, 2035829113],
  seed1stream1: [3265472726, 1259498866, 1073644715],
  graph: [768749088, 584809799, 1380514560],
};

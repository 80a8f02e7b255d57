import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/generators/rng.js';
import { hypervolume } from '../../src/scheduler/pareto.js';
import { randomPoints } from './helpers.js';

const all = (n: number): Int32Array => Int32Array.from({ length: n }, (_, i) => i);
const hv = (points: number[][], reference: number[]): number => hypervolume(new Float64Array(points.flat()), reference.length, all(points.length), reference);

/**
 * Exact reference by brute force: the measure of the cells of the grid spanned by every
 * point's coordinates and the reference, counting a cell when some point is <= its low corner.
 */
function gridVolume(v: Float64Array, m: number, reference: number[]): number {
  const n = v.length / m;
  const inside = Array.from({ length: n }, (_, i) => i).filter((i) => reference.every((r, k) => v[i * m + k]! < r));
  const axes = reference.map((r, k) => [...new Set([...inside.map((i) => v[i * m + k]!), r])].sort((a, b) => a - b));
  let total = 0;
  const corner = new Array<number>(m).fill(0);
  const walk = (k: number, size: number): void => {
    if (k === m) {
      if (inside.some((i) => corner.every((c, j) => v[i * m + j]! <= c))) total += size;
      return;
    }
    const axis = axes[k]!;
    for (let a = 0; a + 1 < axis.length; a++) {
      corner[k] = axis[a]!;
      walk(k + 1, size * (axis[a + 1]! - axis[a]!));
    }
  };
  walk(0, 1);
  return total;
}

describe('hypervolume', () => {
  it('matches hand-computed areas in 2-D', () => {
    expect(
      hv(
        [
          [1, 3],
          [2, 2],
          [3, 1],
        ],
        [4, 4],
      ),
    ).toBe(6);
    expect(hv([[0, 0]], [2, 3])).toBe(6);
    expect(hv([], [2, 3])).toBe(0);
    // A dominated point, a duplicate, points on or beyond the reference, and NaN add nothing.
    expect(
      hv(
        [
          [1, 3],
          [2, 2],
          [3, 1],
          [3, 3],
          [2, 2],
          [4, 0],
          [0, 4],
          [5, -1],
          [NaN, 0],
        ],
        [4, 4],
      ),
    ).toBe(6);
    expect(hv([[-1, -1]], [1, 1])).toBe(4);
  });

  it('matches hand-computed volumes in 3-D', () => {
    expect(hv([[0, 0, 0]], [1, 2, 3])).toBe(6);
    expect(
      hv(
        [
          [0, 0, 1],
          [1, 1, 0],
        ],
        [2, 2, 2],
      ),
    ).toBe(5); // 4 + 2 - the shared unit cube
    expect(
      hv(
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        [2, 2, 2],
      ),
    ).toBe(7); // 12 - 3 * 2 + 1
    expect(
      hv(
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
          [1, 1, 1],
          [0, 0, 1],
          [2, 0, 0],
        ],
        [2, 2, 2],
      ),
    ).toBe(7);
    expect(
      hv(
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        [1, 1, 1],
      ),
    ).toBe(0); // every box is flat
  });

  it('equals the brute-force grid measure on random integer and real points', () => {
    const rng = new Rng(21);
    for (const m of [2, 3] as const) {
      for (const [n, levels] of [
        [30, 8],
        [40, undefined],
        [120, 5],
        [1500, 16],
      ] as const) {
        const v = randomPoints(rng, n, m, levels);
        const reference = new Array<number>(m).fill(levels ?? 1).map((r, k) => r - (k === 1 ? 0.5 : 0));
        const exact = gridVolume(v, m, reference);
        expect(hypervolume(v, m, all(n), reference)).toBeCloseTo(exact, 10);
      }
    }
  });

  it('only counts the listed rows', () => {
    const v = new Float64Array([0, 0, 1, 3, 2, 2, 3, 1]);
    expect(hypervolume(v, 2, new Int32Array([1, 2, 3]), [4, 4])).toBe(6);
    expect(hypervolume(v, 2, new Int32Array([2]), [4, 4])).toBe(4);
  });
});

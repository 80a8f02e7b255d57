import { describe, expect, it } from 'vitest';
import { denseFeatures } from '../../src/generators/dense.js';

describe('denseFeatures', () => {
  it('fills f32 and f64 matrices uniformly in [-1, 1) on an exact grid', () => {
    for (const precision of ['f32', 'f64'] as const) {
      const x = denseFeatures({ rows: 100, cols: 50, precision, seed: 1 });
      expect(x.rows).toBe(100);
      expect(x.cols).toBe(50);
      expect(x.precision).toBe(precision);
      const data = Array.from(x.data);
      expect(Math.min(...data)).toBeGreaterThanOrEqual(-1);
      expect(Math.max(...data)).toBeLessThan(1);
      const mean = data.reduce((s, v) => s + v, 0) / data.length;
      expect(Math.abs(mean)).toBeLessThan(5 * Math.sqrt(1 / 3 / data.length));
      const bits = precision === 'f32' ? 2 ** 23 : 2 ** 52;
      expect(data.every((v) => Number.isInteger(v * bits))).toBe(true);
    }
  });

  it('defaults to f32 and is deterministic per seed', () => {
    const a = denseFeatures({ rows: 8, cols: 8 });
    expect(a.data).toBeInstanceOf(Float32Array);
    expect(denseFeatures({ rows: 8, cols: 8 }).data).toEqual(a.data);
    expect(denseFeatures({ rows: 8, cols: 8, seed: 1 }).data).not.toEqual(a.data);
    expect(denseFeatures({ rows: 0, cols: 8 }).data.length).toBe(0);
  });
});

// A generated fill that is finite as a double but overflows single precision is refused in
// bindWorkload's name (the fuzzer's mutated PageRank once reached DenseMatrix with -Infinity).

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { gridGraph } from '../../src/generators/grid.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { defineWorkload } from '../../src/workloads/definition.js';
import { layerDefinition, thrownBy } from './workload-helpers.js';

const graph = gridGraph({ rows: 5, cols: 6 });

function withFill(fill: string): ReturnType<typeof defineWorkload> {
  const d = layerDefinition();
  d['inputs'].X.generate = { fill };
  return defineWorkload(d);
}

describe('bindWorkload fills', () => {
  it('refuses a fill beyond f32 at f32, naming the input and the fill', () => {
    const e = thrownBy(() => bindWorkload(withFill('-3.4028235677973366e+38'), graph, { precision: 'f32' }));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toBe("bindWorkload: input X's fill -3.4028235677973366e+38 is outside the range of f32; bind at f64 or scale the fill");
  });

  it('binds the same fill at f64, and the largest f32 at f32', () => {
    const big = bindWorkload(withFill('-3.4028235677973366e+38'), graph, { precision: 'f64' });
    expect(big.values.find((v) => v.name === 'X')?.precision).toBe('f64');
    const edge = bindWorkload(withFill('3.4028234663852886e+38'), graph, { precision: 'f32' });
    const x = edge.values.find((v) => v.name === 'X')?.data as { data: Float32Array };
    expect(x.data[0]).toBe(3.4028234663852886e38);
  });
});

// The shipped pagerank.json is exactly what pagerankDefinition(4) builds, so the file and the
// code that documents how it was made cannot drift apart.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/native/addon.js';
import { pagerankDefinition } from '../../src/workloads/builder.js';
import { defineWorkload } from '../../src/workloads/definition.js';

describe('pagerankDefinition', () => {
  it('with 4 iterations deep-equals workloads/pagerank.json', () => {
    const file: unknown = JSON.parse(readFileSync(join(packageRoot, 'workloads', 'pagerank.json'), 'utf8'));
    expect(pagerankDefinition(4)).toStrictEqual(file);
    expect(pagerankDefinition()).toStrictEqual(file);
  });

  it('unrolls one spmv and one affine step per iteration, the damping a param', () => {
    const d = pagerankDefinition(2, 0.5);
    expect(d.params).toEqual({ damping: 0.5 });
    expect(d.operators.map((o) => `${o.id}:${o.kind}(${o.inputs.join(',')})`)).toEqual(['p1:spmv(P,x0)', 'x1:affine(p1)', 'p2:spmv(P,x1)', 'x2:affine(p2)']);
    expect(d.outputs).toEqual(['x2']);
    expect(defineWorkload(d).order).toEqual([0, 1, 2, 3]);
  });
});

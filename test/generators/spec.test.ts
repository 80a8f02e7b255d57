import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { formatGeneratorSpec, generate, GENERATOR_KINDS, GENERATORS, type GeneratorSpec, parseGeneratorSpec } from '../../src/generators/index.js';
import { fingerprint } from './helpers.js';

describe('parseGeneratorSpec', () => {
  it('parses each kind with typed values', () => {
    expect(parseGeneratorSpec('kronecker:scale=16,edgeFactor=16,seed=1')).toEqual({ kind: 'kronecker', scale: 16, edgeFactor: 16, seed: 1 });
    expect(parseGeneratorSpec('grid:rows=300,cols=300,deleteFraction=0.1')).toEqual({ kind: 'grid', rows: 300, cols: 300, deleteFraction: 0.1 });
    expect(parseGeneratorSpec(' erdos-renyi : n=1_000_000, m=4e6, directed, weights=f32 ')).toEqual({
      kind: 'erdos-renyi',
      n: 1_000_000,
      m: 4_000_000,
      directed: true,
      weights: 'f32',
    });
    expect(parseGeneratorSpec('banded:n=100,halfBandwidth=3,precision=f32,seed=fem,fill=.5')).toEqual({
      kind: 'banded',
      n: 100,
      halfBandwidth: 3,
      precision: 'f32',
      seed: 'fem',
      fill: 0.5,
    });
    expect(parseGeneratorSpec('kronecker:scale=4,directed=false')).toEqual({ kind: 'kronecker', scale: 4, directed: false });
  });

  it('round-trips through formatGeneratorSpec and generates the same graph as the object spec', () => {
    const spec: GeneratorSpec = { kind: 'kronecker', scale: 9, edgeFactor: 8, seed: 'x1', directed: true };
    const text = formatGeneratorSpec(spec);
    expect(text).toBe('kronecker:scale=9,edgeFactor=8,directed=true,seed=x1');
    expect(parseGeneratorSpec(text)).toEqual(spec);
    expect(fingerprint(generate(parseGeneratorSpec(text)))).toBe(fingerprint(generate(spec)));
    expect(() => formatGeneratorSpec({ kind: 'grid', rows: 2, cols: 2, seed: '42' })).toThrow(/would not read back/);
  });

  it('names unknown kinds and parameters with a suggestion', () => {
    expect(() => parseGeneratorSpec('kroneker:scale=3')).toThrow(/^parseGeneratorSpec: unknown generator kind "kroneker" \(did you mean "kronecker"\?\)/);
    expect(() => parseGeneratorSpec('torus:n=3')).toThrow(/known kinds: kronecker, erdos-renyi, grid, banded/);
    expect(() => parseGeneratorSpec('kronecker:scale=3,edgefactor=4')).toThrow(/kronecker has no parameter "edgefactor" \(did you mean "edgeFactor"\?\)/);
    expect(() => parseGeneratorSpec('grid:rows=3,cols=3,toString=1')).toThrow(/grid has no parameter "toString"/);
    expect(() => parseGeneratorSpec('grid:rows=3,cols=3,zzzzzzzz=1')).toThrow(/parameters: rows, cols, deleteFraction, seed, weights/);
  });

  it('refuses bad values, repeats and missing parameters', () => {
    const cases: Array<[string, RegExp]> = [
      ['grid:rows=x,cols=2', /grid: rows must be an integer, got "x"/],
      ['grid:rows=2.5,cols=2', /rows must be an integer, got "2.5"/],
      ['grid:rows=,cols=2', /rows must be an integer, got ""/],
      ['grid:rows=3,cols=3,deleteFraction=lots', /deleteFraction must be a number, got "lots"/],
      ['kronecker:scale=4,directed=maybe', /directed must be true or false/],
      ['kronecker:scale', /scale needs a value/],
      ['kronecker:scale=4,scale=5', /scale is given twice/],
      ['kronecker:seed=1', /kronecker needs scale \(e\.g\. "kronecker:scale=\.\.\."\)/],
      ['erdos-renyi:n=10', /erdos-renyi needs m/],
      ['banded:n=3,halfBandwidth=1,precision=f16', /precision must be one of f32, f64, got "f16" \(did you mean "f32"\?\)/],
      ['kronecker:scale=3,seed=99999999999', /seed must be an integer in \[0, 4294967295\] or a word/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseGeneratorSpec(text), text).toThrow(InvalidArgumentError);
      expect(() => parseGeneratorSpec(text), text).toThrow(message);
    }
    expect(() => parseGeneratorSpec(3 as unknown as string)).toThrow(/expected a string, got 3/);
  });
});

describe('generate', () => {
  it('dispatches on kind, and every kind in the table is generated', () => {
    expect(generate({ kind: 'grid', rows: 3, cols: 4 }).rows).toBe(12);
    for (const kind of GENERATOR_KINDS) {
      expect(GENERATORS[kind].description.length).toBeGreaterThan(10);
      const spec = parseGeneratorSpec(`${kind}:${GENERATORS[kind].required.map((k) => `${k}=${k === 'halfBandwidth' ? 1 : 4}`).join(',')}`);
      expect(generate(spec).rows).toBeGreaterThan(0);
    }
  });

  it('refuses unknown kinds and passes option errors through from the generator', () => {
    expect(() => generate({ kind: 'grip', rows: 2, cols: 2 } as unknown as GeneratorSpec)).toThrow(
      /^generate: unknown generator kind "grip" \(did you mean "grid"\?\)/,
    );
    expect(() => generate(null as unknown as GeneratorSpec)).toThrow(/^generate: options must be an object/);
    expect(() => generate({ kind: 'grid', rows: 2, cols: 2, colums: 3 } as unknown as GeneratorSpec)).toThrow(
      /^gridGraph: unknown option "colums" \(did you mean "cols"\?\)/,
    );
  });
});

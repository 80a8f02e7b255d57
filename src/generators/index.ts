// The generator registry: one table from kind to generator and parameters, a dispatcher over
// typed specs, and the parser for CLI strings such as "kronecker:scale=16,seed=1".

import type { CsrMatrix } from '../data/csr.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkSpecObject } from './common.js';
import { type BandedOptions, bandedMatrix } from './banded.js';
import { type ErdosRenyiOptions, erdosRenyiGraph } from './erdos-renyi.js';
import { type GridOptions, gridGraph } from './grid.js';
import { type KroneckerOptions, kroneckerGraph } from './kronecker.js';
import { MAX_SEED } from './rng.js';
import { suggest } from '../validate.js';

export { bandedMatrix, type BandedOptions } from './banded.js';
export { denseFeatures, type DenseFeaturesOptions } from './dense.js';
export { erdosRenyiGraph, type ErdosRenyiOptions } from './erdos-renyi.js';
export { gridGraph, type GridOptions } from './grid.js';
export { kroneckerGraph, type KroneckerOptions, MAX_KRONECKER_SCALE } from './kronecker.js';
export { randomPermutation, Rng, type Seed, seedToU32 } from './rng.js';
export { type GraphOptions, MAX_GENERATED_ENTRIES } from './common.js';

/** What to generate: the generator's options plus the `kind` that picks it. */
export type GeneratorSpec =
  | ({ readonly kind: 'kronecker' } & KroneckerOptions)
  | ({ readonly kind: 'erdos-renyi' } & ErdosRenyiOptions)
  | ({ readonly kind: 'grid' } & GridOptions)
  | ({ readonly kind: 'banded' } & BandedOptions);

export type GeneratorKind = GeneratorSpec['kind'];

/** How a parameter is written in a spec string. */
type ParamKind = 'int' | 'number' | 'boolean' | 'seed' | readonly string[];

interface GeneratorEntry {
  readonly description: string;
  /** Parameters in the order they are documented; the required ones first. */
  readonly params: Readonly<Record<string, ParamKind>>;
  readonly required: readonly string[];
  readonly build: (options: never) => CsrMatrix;
}

const PRECISION: readonly string[] = ['f32', 'f64'];

/** Every generator, by kind. */
export const GENERATORS: Readonly<Record<GeneratorKind, GeneratorEntry>> = {
  kronecker: {
    description: 'R-MAT/Kronecker power-law graph as in Graph500 (2^scale vertices)',
    params: { scale: 'int', edgeFactor: 'int', a: 'number', b: 'number', c: 'number', directed: 'boolean', tail: 'int', seed: 'seed', weights: PRECISION },
    required: ['scale'],
    build: kroneckerGraph,
  },
  'erdos-renyi': {
    description: 'Erdős–Rényi G(n, m) uniform random graph (exactly m edges)',
    params: { n: 'int', m: 'int', directed: 'boolean', seed: 'seed', weights: PRECISION },
    required: ['n', 'm'],
    build: erdosRenyiGraph,
  },
  grid: {
    description: 'road-like 2D lattice (4-neighbour) with a fraction of edges deleted',
    params: { rows: 'int', cols: 'int', deleteFraction: 'number', seed: 'seed', weights: PRECISION },
    required: ['rows', 'cols'],
    build: gridGraph,
  },
  banded: {
    description: 'symmetric banded FEM-like matrix, diagonally dominant, with values',
    params: { n: 'int', halfBandwidth: 'int', fill: 'number', precision: PRECISION, seed: 'seed' },
    required: ['n', 'halfBandwidth'],
    build: bandedMatrix,
  },
};

export const GENERATOR_KINDS = Object.keys(GENERATORS) as readonly GeneratorKind[];

function checkKind(fn: string, kind: unknown): GeneratorKind {
  if (typeof kind !== 'string' || !Object.hasOwn(GENERATORS, kind)) {
    const hint = typeof kind === 'string' ? suggest(kind, GENERATOR_KINDS) : undefined;
    throw new InvalidArgumentError(
      `${fn}: unknown generator kind ${describe(kind)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (known kinds: ${GENERATOR_KINDS.join(', ')})`),
    );
  }
  return kind as GeneratorKind;
}

/**
 * Run the generator that `spec.kind` names with the rest of `spec` as its options.
 *
 * @throws {InvalidArgumentError} on an unknown kind, or whatever the generator refuses
 *   (messages name the generator function, e.g. `kroneckerGraph: ...`).
 * @throws {LimitError} when the requested graph is too large to generate.
 * @example
 * const g = generate({ kind: 'grid', rows: 300, cols: 300, deleteFraction: 0.1 });
 * const h = generate(parseGeneratorSpec('kronecker:scale=16,seed=1'));
 */
export function generate(spec: GeneratorSpec): CsrMatrix {
  checkSpecObject('generate', spec);
  const { kind, ...options } = spec;
  return GENERATORS[checkKind('generate', kind)].build(options as never);
}

/**
 * Parse a generator spec from the command line: `kind:key=value,key=value`. Integers may use
 * `_` separators and exponents (`n=1_000_000`, `m=4e6`); a boolean may be written as its bare
 * name (`directed` for `directed=true`); a seed is an integer or any other word (hashed).
 * Types are checked here, ranges when the spec is generated.
 *
 * @throws {InvalidArgumentError} on an unknown kind or parameter (with a suggestion for near
 *   misses), a value of the wrong type, a repeated parameter or a missing required one.
 * @example
 * parseGeneratorSpec('grid:rows=300,cols=300,deleteFraction=0.1');
 * // { kind: 'grid', rows: 300, cols: 300, deleteFraction: 0.1 }
 */
export function parseGeneratorSpec(text: string): GeneratorSpec {
  const fn = 'parseGeneratorSpec';
  if (typeof text !== 'string') throw new InvalidArgumentError(`${fn}: expected a string, got ${describe(text)}`);
  const colon = text.indexOf(':');
  const kind = checkKind(fn, (colon < 0 ? text : text.slice(0, colon)).trim());
  const entry = GENERATORS[kind];
  const known = Object.keys(entry.params);
  const spec: Record<string, unknown> = { kind };
  const body = colon < 0 ? '' : text.slice(colon + 1);
  for (const raw of body.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const kindOf = Object.hasOwn(entry.params, key) ? entry.params[key] : undefined;
    if (kindOf === undefined) {
      const hint = suggest(key, known);
      throw new InvalidArgumentError(
        `${fn}: ${kind} has no parameter ${JSON.stringify(key)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (parameters: ${known.join(', ')})`),
      );
    }
    if (Object.hasOwn(spec, key)) throw new InvalidArgumentError(`${fn}: ${kind}: ${key} is given twice`);
    if (eq < 0 && kindOf !== 'boolean') {
      throw new InvalidArgumentError(`${fn}: ${kind}: ${key} needs a value (${key}=...)`);
    }
    spec[key] = eq < 0 ? true : parseValue(fn, kind, key, kindOf, part.slice(eq + 1).trim());
  }
  const missing = entry.required.filter((k) => !Object.hasOwn(spec, k));
  if (missing.length > 0) {
    throw new InvalidArgumentError(`${fn}: ${kind} needs ${missing.join(' and ')} (e.g. "${kind}:${entry.required.map((k) => `${k}=...`).join(',')}")`);
  }
  return spec as unknown as GeneratorSpec;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function parseValue(fn: string, kind: string, key: string, type: ParamKind, text: string): unknown {
  const bad = (what: string, hint?: string): never => {
    throw new InvalidArgumentError(
      `${fn}: ${kind}: ${key} must be ${what}, got ${JSON.stringify(text)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''),
    );
  };
  if (Array.isArray(type)) {
    return type.includes(text) ? text : bad(`one of ${type.join(', ')}`, suggest(text, type));
  }
  switch (type) {
    case 'boolean':
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      return bad('true or false');
    case 'seed': {
      if (/^\d+$/.test(text)) {
        const v = Number(text);
        return v <= MAX_SEED ? v : bad(`an integer in [0, ${MAX_SEED}] or a word`);
      }
      return text === '' ? bad('an integer or a word') : text;
    }
    default: {
      const clean = text.replace(/(?<=\d)_(?=\d)/g, '');
      const v = NUMBER.test(clean) ? Number(clean) : NaN;
      if (type === 'int' && !Number.isSafeInteger(v)) return bad('an integer');
      if (!Number.isFinite(v)) return bad('a number');
      return v;
    }
  }
}

/**
 * The spec string that {@link parseGeneratorSpec} reads back to `spec` (a stable label for
 * datasets, caches and reports; parameters in the table's order).
 *
 * @throws {InvalidArgumentError} on an unknown kind or parameter.
 * @example
 * formatGeneratorSpec({ kind: 'kronecker', scale: 16, seed: 1 }); // "kronecker:scale=16,seed=1"
 */
export function formatGeneratorSpec(spec: GeneratorSpec): string {
  const fn = 'formatGeneratorSpec';
  checkSpecObject(fn, spec);
  const kind = checkKind(fn, spec.kind);
  const params = GENERATORS[kind].params;
  const record = spec as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'kind' && !Object.hasOwn(params, key)) {
      throw new InvalidArgumentError(`${fn}: ${kind} has no parameter ${JSON.stringify(key)}`);
    }
  }
  const seed = record['seed'];
  if (typeof seed === 'string' && (/^\d*$/.test(seed) || /[,=:\s]/.test(seed))) {
    throw new InvalidArgumentError(`${fn}: string seed ${JSON.stringify(seed)} would not read back as the same seed`);
  }
  const parts = Object.keys(params)
    .filter((k) => record[k] !== undefined)
    .map((k) => `${k}=${String(record[k])}`);
  return parts.length === 0 ? kind : `${kind}:${parts.join(',')}`;
}

// Mutations of a valid JSON description (workload, system): a value anywhere replaced by a
// hostile one (wrong type, negative, huge, non-finite, empty, deeply nested), a key removed, a
// misspelled or unknown key added, an array emptied or one element repeated.

import fc from 'fast-check';

const HOSTILE_VALUES: unknown[] = [
  null,
  undefined,
  -1,
  0,
  0.5,
  1e308,
  -1e308,
  NaN,
  Infinity,
  2 ** 53,
  '',
  'x',
  'spmm',
  '$k',
  'A.cols',
  '$nope',
  [],
  [1],
  {},
  { a: 1 },
  true,
  'x'.repeat(5000),
  [[[[[[[[[[]]]]]]]]]],
  { __proto__: { polluted: true } },
  Object.create(null),
];

export type JsonMutation =
  | { kind: 'replace'; path: number; value: unknown }
  | { kind: 'remove'; path: number }
  | { kind: 'addKey'; path: number; key: string }
  | { kind: 'emptyArray'; path: number }
  | { kind: 'repeat'; path: number };

export const jsonMutation: fc.Arbitrary<JsonMutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), path: fc.nat(), value: fc.constantFrom(...HOSTILE_VALUES) }),
  fc.record({ kind: fc.constant('replace' as const), path: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant('remove' as const), path: fc.nat() }),
  fc.record({
    kind: fc.constant('addKey' as const),
    path: fc.nat(),
    key: fc.constantFrom('nmae', 'kind', 'inputz', '__proto__', 'constructor', 'toString', 'extra'),
  }),
  fc.record({ kind: fc.constant('emptyArray' as const), path: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), path: fc.nat() }),
);

/** Every container and value position in `root`, depth first. */
function positions(root: unknown): { parent: Record<string, unknown> | unknown[]; key: string | number }[] {
  const out: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push({ parent: v, key: i });
        walk(x);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        out.push({ parent: v as Record<string, unknown>, key: k });
        walk((v as Record<string, unknown>)[k]);
      }
    }
  };
  walk(root);
  return out;
}

/**
 * A deep copy of arrays and of objects whose prototype is Object.prototype or null (fc.jsonValue
 * makes null-prototype objects, with keys such as "__proto__"), keeping each object's prototype
 * and every own key as an own property; other values as they are.
 */
function freshCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(freshCopy);
  if (v === null || typeof v !== 'object') return v;
  const proto = Object.getPrototypeOf(v) as object | null;
  if (proto !== Object.prototype && proto !== null) return v;
  const copy = Object.create(proto) as Record<string, unknown>;
  for (const k of Object.keys(v))
    Object.defineProperty(copy, k, { value: freshCopy((v as Record<string, unknown>)[k]), enumerable: true, configurable: true, writable: true });
  return copy;
}

/** A mutated deep copy of `value`. */
export function mutateJson(value: unknown, ms: readonly JsonMutation[]): unknown {
  const root = { root: structuredClone(value) };
  for (const m of ms) {
    const ps = positions(root);
    if (ps.length === 0) break;
    const p = ps[m.path % ps.length]!;
    const parent = p.parent as Record<string | number, unknown>;
    const target = parent[p.key];
    switch (m.kind) {
      case 'replace':
        // A fresh copy: fast-check may hand the same instance to two mutations, and inserting a
        // value into itself would make a cycle no JSON file can hold.
        parent[p.key] = freshCopy(m.value);
        break;
      case 'remove':
        if (Array.isArray(parent)) parent.splice(p.key as number, 1);
        else delete parent[p.key];
        break;
      case 'addKey':
        if (target !== null && typeof target === 'object' && !Array.isArray(target))
          Object.defineProperty(target, m.key, { value: 1, enumerable: true, configurable: true, writable: true });
        break;
      case 'emptyArray':
        if (Array.isArray(target)) target.length = 0;
        break;
      case 'repeat':
        if (Array.isArray(target) && target.length > 0) target.push(structuredClone(target[0]));
        break;
    }
  }
  return root.root;
}

export const jsonMutations = fc.array(jsonMutation, { minLength: 1, maxLength: 3 });

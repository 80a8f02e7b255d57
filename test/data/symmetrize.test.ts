import { describe, expect, it } from 'vitest';
import { symmetrize, type SymmetrizePolicy } from '../../src/data/convert.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { randomCsr, triples } from './helpers.js';

/** Reference: every (i, j) stored in A or A^T once; values combined in order A's, then A^T's. */
function reference(a: CsrMatrix, policy: SymmetrizePolicy): string[] {
  const cells = new Map<string, number[]>();
  const add = (i: number, j: number, v: number) => {
    const key = `${i},${j}`;
    cells.set(key, [...(cells.get(key) ?? []), v]);
  };
  const own: Array<[number, number, number]> = [];
  const mirrored: Array<[number, number, number]> = [];
  for (const t of triples(a)) {
    const [i, j, v] = t.split(',').map(Number) as [number, number, number];
    own.push([i, j, v]);
    mirrored.push([j, i, v]);
  }
  // Mirrored entries of row i arrive in order of A's rows (the transpose's order).
  mirrored.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  // A's own entries come before the mirrored ones.
  for (const [i, j, v] of own) add(i, j, v);
  for (const [i, j, v] of mirrored) add(i, j, v);
  const out: string[] = [];
  for (const [key, list] of cells) {
    let v = list[0]!;
    for (const x of list.slice(1)) {
      v = policy === 'sum' ? v + x : policy === 'max' ? Math.max(v, x) : policy === 'min' ? Math.min(v, x) : policy === 'first' ? v : x;
    }
    out.push(`${key},${a.values === undefined ? 1 : v}`);
  }
  return out.sort();
}

describe('symmetrize', () => {
  const POLICIES: SymmetrizePolicy[] = ['max', 'sum', 'min', 'first', 'last'];
  for (const policy of POLICIES) {
    it(`matches the reference with duplicates = ${policy}`, () => {
      for (let seed = 1; seed <= 4; seed++) {
        const a = randomCsr(9 + seed, 9 + seed, seed, { values: seed % 2 === 0 ? 'f32' : 'f64', density: 0.25 });
        const s = symmetrize(a, { duplicates: policy });
        expect(s.symmetric).toBe(true);
        expect(s.sortedColumns).toBe(true);
        expect(triples(s).sort()).toEqual(reference(a, policy));
      }
    });
  }

  it('handles unsorted rows with duplicates and 64-bit row pointers', () => {
    const a = randomCsr(10, 10, 7, { messy: true, density: 0.4 });
    expect(triples(symmetrize(a, { duplicates: 'sum' })).sort()).toEqual(reference(a, 'sum'));
    const w = randomCsr(10, 10, 8, { wide: true });
    expect(triples(symmetrize(w)).sort()).toEqual(reference(w, 'max'));
  });

  it("defaults to 'max': the diagonal is kept as is and symmetric input comes back unchanged", () => {
    const a = randomCsr(12, 12, 3, { values: 'f64', density: 0.3 });
    const s = symmetrize(a);
    expect(triples(s).sort()).toEqual(reference(a, 'max'));
    const again = symmetrize(s);
    expect(again.colIdx).toEqual(s.colIdx);
    expect(again.values).toEqual(s.values);
  });

  it('gives a pattern matrix for a pattern matrix', () => {
    const a = randomCsr(15, 15, 11, { values: 'pattern', density: 0.2 });
    const s = symmetrize(a);
    expect(s.values).toBeUndefined();
    expect(triples(s).sort()).toEqual(reference(a, 'max'));
  });

  it('refuses non-square matrices, unknown options and policies, and non-matrices', () => {
    const rect = randomCsr(3, 4, 1);
    expect(() => symmetrize(rect)).toThrow(/^symmetrize: A must be square, got 3x4/);
    const sq = randomCsr(3, 3, 1);
    expect(() => symmetrize(sq, { duplicate: 'sum' } as never)).toThrow(/did you mean "duplicates"/);
    expect(() => symmetrize(sq, { duplicates: 'error' as never })).toThrow(InvalidArgumentError);
    expect(() => symmetrize([] as unknown as CsrMatrix)).toThrow(/^symmetrize: expected a CsrMatrix/);
  });
});

// Against scipy itself, where Python with scipy is installed: files written by
// scipy.sparse.save_npz (CSR, CSC, COO; compressed and not; float32, int64 and bool data; sparse
// arrays and matrices) load to the matrix scipy reads back. Skipped without scipy.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNpz } from '../../src/io/index.js';
import { tempFolder } from '../support/temp.js';

function haveScipy(): boolean {
  try {
    execFileSync('python3', ['-c', 'import scipy.sparse'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

const SCRIPT = `
import json, sys
import numpy as np
import scipy.sparse as sp
out = sys.argv[1]
rng = np.random.default_rng(7)
cases = {}
def add(name, m, compressed):
    sp.save_npz(f"{out}/{name}.npz", m, compressed=compressed)
    d = m.toarray()
    cases[name] = {"shape": list(d.shape), "dense": d.astype(float).tolist()}
base = sp.random(7, 5, density=0.4, format="csr", random_state=3, dtype=np.float64)
add("csr", base, True)
add("csc_stored", base.tocsc(), False)
add("coo_f32", base.tocoo().astype(np.float32), True)
add("int64", sp.csr_matrix(np.array([[0, 3], [-4, 0]], dtype=np.int64)), True)
add("bool", sp.csr_matrix(np.array([[True, False, True]], dtype=bool)), False)
add("array_coo", sp.coo_array(np.array([[0, 1.5], [2.5, 0]])), True)
add("empty", sp.csr_matrix((3, 4)), True)
json.dump(cases, open(f"{out}/cases.json", "w"))
`;

describe.skipIf(!haveScipy())('.npz files written by scipy', () => {
  it('load as scipy reads them', async () => {
    const dir = tempFolder('dype-scipy-');
    execFileSync('python3', ['-c', SCRIPT, dir], { stdio: 'pipe', timeout: 60_000 });
    const cases = JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as Record<string, { shape: [number, number]; dense: number[][] }>;
    expect(Object.keys(cases).length).toBe(7);
    for (const [name, c] of Object.entries(cases)) {
      const a = await loadNpz(join(dir, `${name}.npz`), { precision: name === 'coo_f32' ? 'f32' : 'f64' });
      expect([a.rows, a.cols], name).toEqual(c.shape);
      const dense = Array.from({ length: a.rows }, () => new Array<number>(a.cols).fill(0));
      for (let r = 0; r < a.rows; r++) for (let p = a.rowStart(r); p < a.rowStart(r + 1); p++) dense[r]![a.colIdx[p]!] = a.values ? a.values[p]! : 1;
      expect(dense, name).toEqual(c.dense.map((row) => row.map((v) => (name === 'coo_f32' ? Math.fround(v) : v))));
    }
  }, 90_000);
});

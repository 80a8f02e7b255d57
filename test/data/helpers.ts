// Small random CSR matrices and plain references (dense arrays, triple lists) for the
// conversion tests. Uses its own LCG so a bug in the library's generators cannot hide here.

import { CsrMatrix, type ValueArray } from '../../src/data/csr.js';

export type ValueKind = 'pattern' | 'f32' | 'f64';

function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface RandomCsrOptions {
  readonly density?: number;
  readonly values?: ValueKind;
  /** Shuffle each row and repeat some entries (CSR that cooToCsr would not produce). */
  readonly messy?: boolean;
  readonly wide?: boolean;
  readonly symmetric?: boolean;
}

/** A random rows x cols CSR matrix; values are small integers, so sums are exact in f32. */
export function randomCsr(rows: number, cols: number, seed: number, options: RandomCsrOptions = {}): CsrMatrix {
  const rnd = lcg(seed);
  const density = options.density ?? 0.3;
  const kind = options.values ?? 'f64';
  const ptr = [0];
  const colList: number[] = [];
  const valList: number[] = [];
  for (let i = 0; i < rows; i++) {
    const row: Array<[number, number]> = [];
    for (let j = 0; j < cols; j++) {
      if (rnd() < density) row.push([j, Math.floor(rnd() * 19) - 9]);
    }
    if (options.messy === true) {
      for (const e of row.slice()) if (rnd() < 0.2) row.push([e[0], Math.floor(rnd() * 19) - 9]);
      for (let k = row.length - 1; k > 0; k--) {
        const r = Math.floor(rnd() * (k + 1));
        [row[k], row[r]] = [row[r]!, row[k]!];
      }
    }
    for (const [j, v] of row) {
      colList.push(j);
      valList.push(v);
    }
    ptr.push(colList.length);
  }
  const values: ValueArray | undefined = kind === 'pattern' ? undefined : kind === 'f32' ? Float32Array.from(valList) : Float64Array.from(valList);
  return new CsrMatrix({
    rows,
    cols,
    rowPtr: options.wide === true ? BigInt64Array.from(ptr, BigInt) : Int32Array.from(ptr),
    colIdx: Int32Array.from(colList),
    values,
  });
}

/** Dense row-major copy (pattern entries count 1; duplicates are summed). */
export function toDense(a: CsrMatrix): Float64Array {
  const out = new Float64Array(a.rows * a.cols);
  for (let i = 0; i < a.rows; i++) {
    for (let p = a.rowStart(i); p < a.rowStart(i + 1); p++) {
      out[i * a.cols + a.colIdx[p]!]! += a.values === undefined ? 1 : a.values[p]!;
    }
  }
  return out;
}

/** Entries as "row,col,value" strings in storage order. */
export function triples(a: CsrMatrix): string[] {
  const out: string[] = [];
  for (let i = 0; i < a.rows; i++) {
    for (let p = a.rowStart(i); p < a.rowStart(i + 1); p++) {
      out.push(`${i},${a.colIdx[p]},${a.values === undefined ? 1 : a.values[p]}`);
    }
  }
  return out;
}

/** Dense transpose of a row-major rows x cols array. */
export function denseTranspose(d: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = d[i * cols + j]!;
  return out;
}

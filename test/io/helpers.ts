// Shared helpers for the io tests: temporary files and assertions on FormatError positions.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { FormatError } from '../../src/errors.js';
import type { CsrMatrix } from '../../src/data/csr.js';

/** A fresh temporary directory and a function that removes it. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'dype-io-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Run `f`, expect a FormatError at `file`:`line`, and return it for further checks. */
export function expectFormatError(f: () => unknown, line: number, file = '<buffer>'): FormatError {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  const e = checkFormatError(caught, line, file);
  expect(e.code).toBe('ERR_FORMAT');
  return e;
}

export async function expectFormatErrorAsync(f: () => Promise<unknown>, line: number, file: string): Promise<FormatError> {
  let caught: unknown;
  try {
    await f();
  } catch (e) {
    caught = e;
  }
  return checkFormatError(caught, line, file);
}

/** The checks both of the above make on what was thrown. */
function checkFormatError(caught: unknown, line: number, file: string): FormatError {
  expect(caught).toBeInstanceOf(FormatError);
  const e = caught as FormatError;
  expect({ file: e.file, line: e.line, message: e.message }).toMatchObject({ file, line });
  return e;
}

/** Dense row-major copy of a small CSR matrix (0 where nothing is stored, 1 for pattern entries). */
export function toDense(a: CsrMatrix): number[][] {
  const out = Array.from({ length: a.rows }, () => new Array<number>(a.cols).fill(0));
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.rowStart(r); p < a.rowStart(r + 1); p++) out[r]![a.colIdx[p]!] = a.values ? a.values[p]! : 1;
  }
  return out;
}

/** Index of the first element where two array-likes differ (Object.is, so -0 != 0), or -1. */
export function firstDifference(a: ArrayLike<number | bigint>, b: ArrayLike<number | bigint>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(Number(a[i]), Number(b[i]))) return i;
  return -1;
}

/** Exact equality of two CSR matrices' shape and arrays (values bit for bit, -0 included). */
export function expectSameCsr(a: CsrMatrix, b: CsrMatrix): void {
  expect([a.rows, a.cols, a.nnz]).toEqual([b.rows, b.cols, b.nnz]);
  expect(firstDifference(a.rowPtr, b.rowPtr), 'first differing rowPtr').toBe(-1);
  expect(firstDifference(a.colIdx, b.colIdx), 'first differing colIdx').toBe(-1);
  expect(a.values === undefined).toBe(b.values === undefined);
  if (a.values !== undefined && b.values !== undefined) {
    expect(a.values.constructor).toBe(b.values.constructor);
    expect(firstDifference(a.values, b.values), 'first differing value').toBe(-1);
  }
}

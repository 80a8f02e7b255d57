// Matrices of arrays received from elsewhere (a server's uploads), their O(n) checks run on a
// libuv worker instead of the calling thread: the CSR structure check and the finiteness scans
// (native/src/input_scans.cc). A server validating a 64 MiB upload held its event loop 3-8 ms for
// them, and every other tenant's request with it. The constructors' own checks still run (the
// cheap ones, and the scans wherever the worker found a fault, so the error names it as always);
// the arrays must not change until the promise settles.

import { optionalAddon } from '../native/addon.js';
import { withFiniteArrays } from '../validate.js';
import { type CsrInit, CsrMatrix, NATIVE_CHECK_FROM, withScannedStructure } from './csr.js';
import { DenseMatrix } from './dense.js';

/** A CsrMatrix of `init`, checked as the constructor checks it, the long scans off the JS thread. */
export async function csrOffThread(init: CsrInit): Promise<CsrMatrix> {
  const addon = optionalAddon();
  const { rows, cols, rowPtr, colIdx, values } = init;
  if (!addon || !(colIdx instanceof Int32Array) || colIdx.length < NATIVE_CHECK_FROM) return new CsrMatrix(init);
  let verdict: number;
  let firstBad: number;
  try {
    [verdict, firstBad] = await Promise.all([
      addon.csrCheckOffThread(rows, cols, rowPtr, colIdx).then((r) => r.verdict),
      values ? addon.firstNonFiniteOffThread(values).then((r) => r.index) : -1,
    ]);
  } catch {
    return new CsrMatrix(init); // a malformed argument: the constructor says which
  }
  if (verdict < 0 || firstBad >= 0) return new CsrMatrix(init);
  return withScannedStructure({ rows, cols, rowPtr, colIdx, verdict }, () => withFiniteArrays(values ? [values] : [], () => new CsrMatrix(init)));
}

/** A DenseMatrix of `data`, checked as the constructor checks it, the finiteness scan off the JS thread. */
export async function denseOffThread(rows: number, cols: number, data: Float32Array | Float64Array): Promise<DenseMatrix> {
  const addon = optionalAddon();
  if (!addon || !(data instanceof Float32Array || data instanceof Float64Array) || data.length < NATIVE_CHECK_FROM) return new DenseMatrix(rows, cols, data);
  let firstBad: number;
  try {
    firstBad = (await addon.firstNonFiniteOffThread(data)).index;
  } catch {
    return new DenseMatrix(rows, cols, data);
  }
  if (firstBad >= 0) return new DenseMatrix(rows, cols, data);
  return withFiniteArrays([data], () => new DenseMatrix(rows, cols, data));
}

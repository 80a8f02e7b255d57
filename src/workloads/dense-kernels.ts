// The dense operators of workload DAGs (GEMM, element-wise maps, SDDMM, column reductions) as
// plain TypeScript loops, each restricted to a range of output rows: the reference the native
// kernels (src/kernels/dense.ts) are checked against, and what simulated devices compute with.
//
// Conventions shared by every kernel:
// - `range` is `[begin, end)` of output rows (default: all); the result holds those rows only,
//   computed exactly as the full call would compute them, so parts join bit for bit.
// - Sums and products are accumulated in double precision and rounded once into the output,
//   whose precision is the inputs' (f32 and f64 inputs are never mixed).
// - Outputs are not re-scanned for finiteness: an f32 result may overflow to +-Infinity, as IEEE
//   arithmetic does (sddmm excepted: a CsrMatrix must hold finite values).

export { gemm } from './dense/gemm.js';
export { add, affine, relu } from './dense/elementwise.js';
export { sddmm } from './dense/sddmm.js';
export { combineReduce, finishReduce, reduce, reducePartial, type ReduceOp } from './dense/reduce.js';
export { concatCsrRows, concatRows, type RowPart } from './dense/concat.js';

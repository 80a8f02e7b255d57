// The operator kinds shipped with dype, in the order they are listed.

import { bfs, msbfs } from './bfs/index.js';
import { edgeSoftmaxKind } from './edge-softmax/index.js';
import { add, affine, relu } from './elementwise/index.js';
import { gemm } from './gemm/index.js';
import type { OperatorKind } from './kind.js';
import { reduce } from './reduce/index.js';
import { sddmm } from './sddmm/index.js';
import { spmm, spmv } from './spmm/index.js';

export const BUILTIN_OPERATORS: readonly OperatorKind[] = [spmm, spmv, sddmm, gemm, relu, affine, add, reduce, bfs, msbfs, edgeSoftmaxKind];

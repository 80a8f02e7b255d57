// dype's CUDA kernels: SpMM/SpMV in two strategies (row split and nnz split), direction-optimising
// BFS and bit-parallel multi-source BFS. See kernels.cuh for the contracts.
//
// One translation unit, split by concern into the files it includes: the addon's nvcc rule
// (binding.gyp) and the GPU benchmark harness (bench/gpu/run.ts) both compile this one file, and
// the shared device helpers in kernels/common.cuh stay internal to it.
#include "kernels/common.cuh"
#include "kernels/spmm.cuh"
#include "kernels/bfs.cuh"
#include "kernels/msbfs.cuh"

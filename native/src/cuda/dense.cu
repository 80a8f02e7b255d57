// The dense operators on the card: GEMM through cuBLAS (cublas.cu), element-wise maps, column-
// reduction partials and SDDMM as kernels of our own. Each checks on the host what it reads (the
// binding checked the lengths), moves its operands to the device unless they are resident, runs
// on the operator's own stream and times with events, as the sparse operators do (operators.cu).
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "cublas_loader.cuh"
#include "runtime_internal.cuh"

namespace dype {
namespace gpu {
namespace {

using namespace rt;

constexpr int kThreads = 256;

// Blocks for a grid-stride pass over n elements: enough to fill the card a few times over.
unsigned blocks_for(int64_t n) {
  const int64_t want = (n + kThreads - 1) / kThreads;
  const int64_t cap = static_cast<int64_t>(probe().sms) * 8;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(want, std::max<int64_t>(cap, 1))));
}

// relu, affine and add exactly as the CPU kernels compute them: relu keeps -0 and NaN (neither
// is < 0); affine rounds scale * x + shift once from FP64 (the _rn intrinsics forbid the fused
// multiply-add nvcc would otherwise contract it into); add rounds the sum once.
template <typename T>
__global__ void map_kernel(int op, const T* __restrict__ x, const T* __restrict__ z, double scale, double shift,
                           T* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const T v = x[i];
    if (op == 0) y[i] = v < T(0) ? T(0) : v;
    else if (op == 1) y[i] = static_cast<T>(__dadd_rn(__dmul_rn(scale, static_cast<double>(v)), shift));
    else y[i] = v + z[i];
  }
}

// Maximum by compare-and-swap: NaN never replaces a maximum (v > acc is false), as on the CPU.
__device__ void atomic_max_double(double* at, double v) {
  auto* word = reinterpret_cast<unsigned long long*>(at);
  unsigned long long old = *word;
  while (v > __longlong_as_double(static_cast<long long>(old))) {
    const unsigned long long seen = atomicCAS(word, old, static_cast<unsigned long long>(__double_as_longlong(v)));
    if (seen == old) break;
    old = seen;
  }
}

// A 32 x 8 block: 32 columns, 8 row lanes striding over the rows; the 8 partials of each column
// are combined in shared memory and added to acc (FP64) with one atomic per column per block.
constexpr int kReduceRows = 8;
template <typename T>
__global__ void reduce_kernel(int op, const T* __restrict__ x, int64_t rows, int64_t cols, double* __restrict__ acc) {
  __shared__ double part[kReduceRows][32];
  const int64_t c = blockIdx.x * 32LL + threadIdx.x;
  double a = op == 1 ? -INFINITY : 0.0;
  if (c < cols) {
    for (int64_t r = blockIdx.y * static_cast<int64_t>(kReduceRows) + threadIdx.y; r < rows;
         r += static_cast<int64_t>(gridDim.y) * kReduceRows) {
      const double v = static_cast<double>(x[r * cols + c]);
      if (op == 1) a = v > a ? v : a;
      else a += op == 2 ? v * v : v;
    }
  }
  part[threadIdx.y][threadIdx.x] = a;
  __syncthreads();
  if (threadIdx.y != 0 || c >= cols) return;
  for (int i = 1; i < kReduceRows; ++i) {
    const double v = part[i][threadIdx.x];
    if (op == 1) a = v > a ? v : a;
    else a += v;
  }
  if (op == 1) atomic_max_double(&acc[c], a);
  else atomicAdd(&acc[c], a);
}

__global__ void fill_kernel(double* p, int64_t n, double v) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    p[i] = v;
}

// The smallest index that faulted, kept with atomicMin (no fault: INT64_MAX).
__device__ void keep_first(unsigned long long* at, int64_t p) { atomicMin(at, static_cast<unsigned long long>(p)); }

// The row of entry p: the last r with rp[r] <= p (empty rows, where rp[r] == rp[r + 1], are passed).
__device__ int64_t row_of(const int64_t* __restrict__ rp, int64_t m, int64_t p) {
  int64_t lo = 0, hi = m;  // the answer is in [lo, hi)
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (rp[mid] <= p) lo = mid;
    else hi = mid;
  }
  return lo;
}

// SDDMM, G lanes per stored entry (G the power of two >= k, at most 32), every entry alike
// whatever its row's length, so power-law rows do not serialise one warp: the group finds its
// entry's row by bisection, shares the dot product over k (FP64 partials combined by shuffles),
// and its first lane scales and stores it. Every thread runs the same number of rounds, so the
// shuffles always have the whole warp. Column indices are checked as read.
template <typename T, int G>
__global__ void sddmm_kernel(const int64_t* __restrict__ rp, const int32_t* __restrict__ ci, const T* __restrict__ val,
                             const T* __restrict__ u, const T* __restrict__ v, int64_t m, int64_t cols, int64_t k, int64_t nnz,
                             T* __restrict__ out, unsigned long long* bad_col, unsigned long long* bad_value) {
  const int64_t thread = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  const int64_t groups = static_cast<int64_t>(gridDim.x) * blockDim.x / G;
  const int lane = threadIdx.x % G;
  for (int64_t base = 0; base < nnz; base += groups) {
    const int64_t p = base + thread / G;
    const bool active = p < nnz;
    const int32_t col = active ? ci[p] : 0;
    const bool ok = active && col >= 0 && col < cols;
    double s = 0;
    if (ok) {
      const T* ur = u + row_of(rp, m, p) * k;
      const T* vr = v + static_cast<int64_t>(col) * k;
      for (int64_t t = lane; t < k; t += G) s += static_cast<double>(ur[t]) * static_cast<double>(vr[t]);
    }
    for (int o = G / 2; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (!active || lane != 0) continue;
    if (!ok) {
      keep_first(bad_col, p);
      continue;
    }
    if (val) s *= static_cast<double>(val[p]);
    const T stored = static_cast<T>(s);
    out[p] = stored;
    if (!isfinite(stored)) keep_first(bad_value, p);
  }
}

template <typename T, int G>
void launch_sddmm(cudaStream_t stream, const int64_t* rp, const int32_t* ci, const T* val, const T* u, const T* v, int64_t m,
                  int64_t cols, int64_t k, int64_t nnz, T* out, unsigned long long* bad) {
  sddmm_kernel<T, G><<<blocks_for(nnz * G), kThreads, 0, stream>>>(rp, ci, val, u, v, m, cols, k, nnz, out, bad, bad + 1);
}

// The group width for k: the smallest power of two >= k, at most a warp.
template <typename T>
void sddmm_for_k(cudaStream_t stream, const int64_t* rp, const int32_t* ci, const T* val, const T* u, const T* v, int64_t m,
                 int64_t cols, int64_t k, int64_t nnz, T* out, unsigned long long* bad) {
  if (k <= 1) launch_sddmm<T, 1>(stream, rp, ci, val, u, v, m, cols, k, nnz, out, bad);
  else if (k <= 2) launch_sddmm<T, 2>(stream, rp, ci, val, u, v, m, cols, k, nnz, out, bad);
  else if (k <= 4) launch_sddmm<T, 4>(stream, rp, ci, val, u, v, m, cols, k, nnz, out, bad);
  else if (k <= 8) launch_sddmm<T, 8>(stream, rp, ci, val, u, v, m, cols, k, nnz, out, bad);
  else if (k <= 16) launch_sddmm<T, 16>(stream, rp, ci, val, u, v, m, cols, k, nnz, out, bad);
  else launch_sddmm<T, 32>(stream, rp, ci, val, u, v, m, cols, k, nnz, out, bad);
}

// A device copy of elements [offset, offset + count) of the host array `whole` (of whole_count
// elements): inside its resident copy when the whole array was prefetched, else copied.
template <typename T>
Status input_range(Context& ctx, const T** out, const T* whole, size_t whole_count, size_t offset, size_t count, const char* what) {
  if (std::shared_ptr<DeviceBuffer> r = Context::find(whole, whole_count)) {
    *out = ctx.adopt<T>(std::move(r), whole_count) + offset;
    return Status{};
  }
  return ctx.input(out, whole + offset, count, what);
}

// Bytes an input will take on the device: none when it is resident.
template <typename T>
double device_bytes(const T* whole, size_t whole_count, size_t count) {
  return Context::find(whole, whole_count) ? 0.0 : static_cast<double>(count) * sizeof(T);
}

Status range_status(const char* fn, int64_t begin, int64_t end, int64_t rows) {
  if (begin < 0 || end < begin || end > rows) {
    return Status::invalid(std::string(fn) + ": row range [" + std::to_string(begin) + ", " + std::to_string(end) + ") is outside [0, " +
                           std::to_string(rows) + "]");
  }
  return Status{};
}

template <typename T>
Status gemm_typed(const char* fn, const GemmArgs& a, Run* run) {
  const int64_t m = a.row_end - a.row_begin, k = a.x.cols, n = a.w.cols;
  const size_t x_all = static_cast<size_t>(a.x.rows * k), w_all = static_cast<size_t>(k * n), y_all = static_cast<size_t>(m * n);
  if (y_all == 0) return Status{};
  if (k == 0) {
    std::memset(a.y, 0, y_all * sizeof(T));  // an empty sum
    return Status{};
  }
  Blas& blas = cublas();
  if (!blas_probe().available) return Status{false, "ERR_UNSUPPORTED", std::string(fn) + ": " + blas_probe().reason};
  Context ctx(fn);
  DYPE_OK(ctx.open());
  DYPE_OK(ctx.reserve(device_bytes(static_cast<const T*>(a.x.data), x_all, static_cast<size_t>(m * k)) +
                      device_bytes(static_cast<const T*>(a.w.data), w_all, w_all) + static_cast<double>(y_all) * sizeof(T) + 64));
  const T* d_x = nullptr;
  const T* d_w = nullptr;
  T* d_y = nullptr;
  DYPE_OK(ctx.alloc(&d_y, y_all, "allocating Y"));
  DYPE_OK(ctx.mark(0));
  DYPE_OK(input_range(ctx, &d_x, static_cast<const T*>(a.x.data), x_all, static_cast<size_t>(a.row_begin * k), static_cast<size_t>(m * k), "allocating X"));
  DYPE_OK(ctx.input(&d_w, static_cast<const T*>(a.w.data), w_all, "allocating W"));
  DYPE_OK(ctx.mark(1));
  // Row-major Y = X W is column-major Y^T = W^T X^T: cuBLAS multiplies W (n x k) by X (k x m).
  DYPE_OK(blas.gemm<T>(fn, ctx.stream(), static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), d_w, d_x, d_y));
  DYPE_OK(ctx.mark(2));
  DYPE_OK(ctx.to_host(a.y, d_y, y_all * sizeof(T)));
  DYPE_OK(ctx.mark(3));
  DYPE_OK(ctx.sync());
  ctx.finish(run);
  return Status{};
}

template <typename T>
Status map_typed(const char* fn, const MapArgs& a, Run* run) {
  const int64_t cols = a.x.cols, n = (a.row_end - a.row_begin) * cols;
  if (n == 0) return Status{};
  const size_t all = static_cast<size_t>(a.x.rows * cols), offset = static_cast<size_t>(a.row_begin * cols);
  const T* x = static_cast<const T*>(a.x.data);
  const T* z = static_cast<const T*>(a.z);
  Context ctx(fn);
  DYPE_OK(ctx.open());
  DYPE_OK(ctx.reserve(device_bytes(x, all, static_cast<size_t>(n)) + (z ? device_bytes(z, all, static_cast<size_t>(n)) : 0.0) +
                      static_cast<double>(n) * sizeof(T) + 64));
  const T* d_x = nullptr;
  const T* d_z = nullptr;
  T* d_y = nullptr;
  DYPE_OK(ctx.alloc(&d_y, static_cast<size_t>(n), "allocating the output"));
  DYPE_OK(ctx.mark(0));
  DYPE_OK(input_range(ctx, &d_x, x, all, offset, static_cast<size_t>(n), "allocating x"));
  if (z) DYPE_OK(input_range(ctx, &d_z, z, all, offset, static_cast<size_t>(n), "allocating y"));
  DYPE_OK(ctx.mark(1));
  const int op = a.op == MapOp::kRelu ? 0 : a.op == MapOp::kAffine ? 1 : 2;
  map_kernel<T><<<blocks_for(n), kThreads, 0, ctx.stream()>>>(op, d_x, d_z, a.scale, a.shift, d_y, n);
  DYPE_CUDA_TRY(fn, "launching the element-wise kernel", cudaGetLastError());
  DYPE_OK(ctx.mark(2));
  DYPE_OK(ctx.to_host(a.y, d_y, static_cast<size_t>(n) * sizeof(T)));
  DYPE_OK(ctx.mark(3));
  DYPE_OK(ctx.sync());
  ctx.finish(run);
  return Status{};
}

template <typename T>
Status reduce_typed(const char* fn, const ReduceArgs& a, Run* run) {
  const int64_t rows = a.row_end - a.row_begin, cols = a.x.cols;
  const bool is_max = a.op == ReduceOp::kMax;
  if (cols == 0) return Status{};
  if (rows == 0) {
    for (int64_t c = 0; c < cols; ++c) a.acc[c] = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
    return Status{};
  }
  const size_t all = static_cast<size_t>(a.x.rows * cols);
  const T* x = static_cast<const T*>(a.x.data);
  Context ctx(fn);
  DYPE_OK(ctx.open());
  DYPE_OK(ctx.reserve(device_bytes(x, all, static_cast<size_t>(rows * cols)) + static_cast<double>(cols) * 8 + 64));
  const T* d_x = nullptr;
  double* d_acc = nullptr;
  DYPE_OK(ctx.alloc(&d_acc, static_cast<size_t>(cols), "allocating the accumulator"));
  DYPE_OK(ctx.mark(0));
  DYPE_OK(input_range(ctx, &d_x, x, all, static_cast<size_t>(a.row_begin * cols), static_cast<size_t>(rows * cols), "allocating x"));
  DYPE_OK(ctx.mark(1));
  fill_kernel<<<blocks_for(cols), kThreads, 0, ctx.stream()>>>(d_acc, cols, is_max ? -INFINITY : 0.0);
  const int64_t col_blocks = (cols + 31) / 32;
  // Row blocks to fill the card about four times over, each at least 64 rows deep.
  const int64_t want = std::max<int64_t>(1, static_cast<int64_t>(probe().sms) * 4 / std::max<int64_t>(col_blocks, 1));
  const int64_t row_blocks = std::min<int64_t>(want, std::max<int64_t>(1, rows / 64));
  const int op = is_max ? 1 : a.op == ReduceOp::kNorm2 ? 2 : 0;
  reduce_kernel<T><<<dim3(static_cast<unsigned>(col_blocks), static_cast<unsigned>(std::min<int64_t>(row_blocks, 65535))),
                     dim3(32, kReduceRows), 0, ctx.stream()>>>(op, d_x, rows, cols, d_acc);
  DYPE_CUDA_TRY(fn, "launching the reduction", cudaGetLastError());
  DYPE_OK(ctx.mark(2));
  DYPE_OK(ctx.to_host(a.acc, d_acc, static_cast<size_t>(cols) * sizeof(double)));
  DYPE_OK(ctx.mark(3));
  DYPE_OK(ctx.sync());
  ctx.finish(run);
  return Status{};
}

template <typename T>
Status sddmm_typed(const char* fn, const SddmmArgs& s, Run* run) {
  const Csr& a = s.a;
  const int64_t base = a.ptr(s.row_begin), nnz = a.ptr(s.row_end) - base, m = s.row_end - s.row_begin, k = s.k;
  if (nnz != s.out_length) {
    return Status::invalid(std::string(fn) + ": out has length " + std::to_string(s.out_length) + ", expected the range's " +
                           std::to_string(nnz) + " entries");
  }
  if (nnz == 0) return Status{};
  const std::vector<int64_t> rp = local_row_ptr(a, s.row_begin, s.row_end, nullptr);
  const T* u = static_cast<const T*>(s.u);
  const T* v = static_cast<const T*>(s.v);
  const T* values = static_cast<const T*>(a.values);
  const size_t total = static_cast<size_t>(a.nnz), u_all = static_cast<size_t>(a.rows * k), v_all = static_cast<size_t>(a.cols * k);
  Context ctx(fn);
  DYPE_OK(ctx.open());
  DYPE_OK(ctx.reserve(static_cast<double>(rp.size()) * 8 + device_bytes(a.col_idx, total, static_cast<size_t>(nnz)) +
                      (values ? device_bytes(values, total, static_cast<size_t>(nnz)) : 0.0) +
                      device_bytes(u, u_all, static_cast<size_t>(m * k)) + device_bytes(v, v_all, v_all) +
                      static_cast<double>(nnz) * sizeof(T) + 64));
  int64_t* d_rp = nullptr;
  const int32_t* d_ci = nullptr;
  const T* d_val = nullptr;
  const T* d_u = nullptr;
  const T* d_v = nullptr;
  T* d_out = nullptr;
  unsigned long long* d_bad = nullptr;
  unsigned long long* h_bad = nullptr;
  DYPE_OK(ctx.alloc(&d_rp, rp.size(), "allocating row pointers"));
  DYPE_OK(ctx.alloc(&d_out, static_cast<size_t>(nnz), "allocating the output"));
  DYPE_OK(ctx.alloc(&d_bad, 2, "allocating the fault words"));
  DYPE_OK(ctx.pinned(&h_bad, 2));
  DYPE_OK(ctx.mark(0));
  DYPE_OK(ctx.to_device(d_rp, rp.data(), rp.size() * sizeof(int64_t)));
  DYPE_OK(input_range(ctx, &d_ci, a.col_idx, total, static_cast<size_t>(base), static_cast<size_t>(nnz), "allocating column indices"));
  if (values) DYPE_OK(input_range(ctx, &d_val, values, total, static_cast<size_t>(base), static_cast<size_t>(nnz), "allocating values"));
  DYPE_OK(input_range(ctx, &d_u, u, u_all, static_cast<size_t>(s.row_begin * k), static_cast<size_t>(m * k), "allocating u"));
  DYPE_OK(ctx.input(&d_v, v, v_all, "allocating v"));
  DYPE_CUDA_TRY(fn, "clearing the fault words", cudaMemsetAsync(d_bad, 0xff, 2 * sizeof(unsigned long long), ctx.stream()));
  DYPE_OK(ctx.mark(1));
  sddmm_for_k<T>(ctx.stream(), d_rp, d_ci, d_val, d_u, d_v, m, a.cols, k, nnz, d_out, d_bad);
  DYPE_CUDA_TRY(fn, "launching SDDMM", cudaGetLastError());
  DYPE_OK(ctx.mark(2));
  DYPE_OK(ctx.to_host(s.out, d_out, static_cast<size_t>(nnz) * sizeof(T)));
  DYPE_OK(ctx.to_host(h_bad, d_bad, 2 * sizeof(unsigned long long)));
  DYPE_OK(ctx.mark(3));
  DYPE_OK(ctx.sync());
  ctx.finish(run);
  // The kernel's indices are local to the range; the messages name the whole matrix's entry.
  const unsigned long long none = ~0ULL;
  if (h_bad[0] != none) return sddmm_column_fault(fn, s, base + static_cast<int64_t>(h_bad[0]));
  if (h_bad[1] != none) {
    const int64_t p = static_cast<int64_t>(h_bad[1]);
    return sddmm_value_fault(fn, s, base + p, static_cast<double>(static_cast<const T*>(s.out)[p]));
  }
  return Status{};
}

}  // namespace

Status gemm(const char* fn, const GemmArgs& a, Run* run) {
  DYPE_OK(range_status(fn, a.row_begin, a.row_end, a.x.rows));
  if (a.x.cols > INT32_MAX || a.w.cols > INT32_MAX || a.row_end - a.row_begin > INT32_MAX) {
    return Status::invalid(std::string(fn) + ": a dimension exceeds cuBLAS's 32-bit sizes");
  }
  return a.type == DenseType::kF32 ? gemm_typed<float>(fn, a, run) : gemm_typed<double>(fn, a, run);
}

Status map(const char* fn, const MapArgs& a, Run* run) {
  DYPE_OK(range_status(fn, a.row_begin, a.row_end, a.x.rows));
  if (a.op == MapOp::kAdd && a.z == nullptr && a.row_end > a.row_begin && a.x.cols > 0) return Status::invalid(std::string(fn) + ": y is missing");
  if (a.op == MapOp::kAffine && !(std::isfinite(a.scale) && std::isfinite(a.shift))) {
    return Status::invalid(std::string(fn) + ": scale and shift must be finite");
  }
  return a.type == DenseType::kF32 ? map_typed<float>(fn, a, run) : map_typed<double>(fn, a, run);
}

Status reduce_partial(const char* fn, const ReduceArgs& a, Run* run) {
  DYPE_OK(range_status(fn, a.row_begin, a.row_end, a.x.rows));
  return a.type == DenseType::kF32 ? reduce_typed<float>(fn, a, run) : reduce_typed<double>(fn, a, run);
}

Status sddmm(const char* fn, const SddmmArgs& s, Run* run) {
  DYPE_OK(range_status(fn, s.row_begin, s.row_end, s.a.rows));
  DYPE_OK(check_row_ptr(fn, s.a, s.row_begin, s.row_end));
  return s.type == DenseType::kF32 ? sddmm_typed<float>(fn, s, run) : sddmm_typed<double>(fn, s, run);
}

}  // namespace gpu
}  // namespace dype

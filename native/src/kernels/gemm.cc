// GEMM on the CPU. With OpenBLAS (found at build time: DYPE_HAVE_OPENBLAS), each block of output
// rows is one single-threaded cblas_?gemm call on dype's thread pool, so GEMM uses exactly the
// pool's threads (DYPE_THREADS) and co-executes with other kernels as SpMM does; without it, or
// when OpenBLAS picked kernels older than this CPU (see blas_core_fits), the built-in blocked
// kernel (gemm_builtin.h) runs on the same blocks.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "../thread_pool.h"
#include "dense.h"
#include "gemm_builtin.h"
#include "populate.h"

#ifdef DYPE_HAVE_OPENBLAS
#include <cblas.h>
#include <openblas_config.h>
#endif

#ifndef DYPE_BLAS_OFF
#define DYPE_BLAS_OFF 0
#endif

namespace dype {

namespace {

// Rows below which one more block is not worth a pool hand-off: a block of 64 rows of a 64 x 64
// product is half a million flops, tens of microseconds.
constexpr int64_t kMinBlockRows = 64;

// Blocks of [0, rows): a few per participant so uneven progress balances, none under kMinBlockRows;
// one alone on one thread (each block is a BLAS call that packs W again).
int64_t blocks_for(int64_t rows, int64_t flops, int participants) {
  if (flops < (int64_t{1} << 20) || participants == 1) return 1;
  return std::max<int64_t>(1, std::min<int64_t>(participants * 4, rows / kMinBlockRows));
}

#ifdef DYPE_HAVE_OPENBLAS
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Whether OpenBLAS's kernels use this CPU's vector units. A DYNAMIC_ARCH OpenBLAS that does not
// know the CPU model falls back to its oldest x86-64 kernels: Debian's 0.3.21 calls the Xeon
// (family 6, model 207, AVX-512) this was developed on "Prescott" and runs SSE3 code, 3-4x slower
// than the built-in kernel there (docs/dense.md). OPENBLAS_CORETYPE=SkylakeX corrects it.
// Built for AVX-512 (this CPU has it), the built-in kernel also outruns OpenBLAS's AVX2 kernels:
// Debian's 0.3.21 gives an AMD Zen 5 its Haswell kernels, and the built-in one ran GNN-shaped
// products (16384-65536 rows, 16-64 columns) 1.7-2.1x faster on one thread and on two.
bool blas_core_fits() {
#if defined(__x86_64__) || defined(__i386__)
  if (!__builtin_cpu_supports("avx2")) return true;
  const char* name = openblas_get_corename();
  const std::string core = lower(name ? name : "");
  for (const char* ok : {"skylakex", "cooperlake", "sapphirerapids"}) {
    if (core == ok) return true;
  }
#if defined(__AVX512F__)
  return false;
#else
  return core == "haswell" || core == "zen";
#endif
#else
  return true;
#endif
}

// DYPE_GEMM=builtin takes the built-in kernel even where OpenBLAS fits (to compare the two).
bool use_blas() {
  static const bool yes = [] {
    const char* v = std::getenv("DYPE_GEMM");
    return !(v != nullptr && std::strcmp(v, "builtin") == 0) && blas_core_fits();
  }();
  return yes;
}

// OpenBLAS's thread count is process-wide; dype's blocks want it at 1. Set it when it is not (a
// benchmark's direct OpenBLAS call may have changed it), before the blocks start.
void single_threaded_blas() {
  if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
}

// Whether OpenBLAS has small-matrix kernels for this CPU: its SkylakeX-class cores take a
// product of at most 1e6 multiply-adds (M x N x K) through a kernel that skips packing. For
// GNN-shaped blocks (k x n up to 8,192) it ran 1.2-1.5x faster per row than the packed path in
// FP32 and 1.3-2x in FP64 on the Intel VM (OpenBLAS 0.3.21, one thread, 16,384 rows in calls of
// 32 to 4,096 rows), and a GraphSAGE projection of 4,039 x 64 x 32 took 108 us in eight blocks of
// 505 rows against 72 us for 3,904 rows in blocks of 488: the blocks cross the bound there.
bool blas_small_kernels() {
  static const bool yes = [] {
    const char* name = openblas_get_corename();
    const std::string core = lower(name ? name : "");
    return core == "skylakex" || core == "cooperlake" || core == "sapphirerapids";
  }();
  return yes;
}

// Largest k x n for which blocks are cut to OpenBLAS's small-matrix bound: wider products ran
// their packed path as fast or faster (k x n = 16,384: 0.9-1.15x either way).
constexpr int64_t kSmallKernelMaxKN = 8192;
constexpr double kSmallKernelMaxMNK = 1e6;

// The blocks of a BLAS product: as blocks_for, and where OpenBLAS has small-matrix kernels and
// the product is narrow, at least enough that each block stays within their bound.
int64_t blas_blocks(int64_t rows, int64_t k, int64_t n, int participants) {
  const int64_t base = blocks_for(rows, 2 * rows * k * n, participants);
  if (!blas_small_kernels() || k * n > kSmallKernelMaxKN || k * n == 0) return base;
  const int64_t block_rows = std::max<int64_t>(1, static_cast<int64_t>(kSmallKernelMaxMNK / static_cast<double>(k * n)));
  return std::max(base, (rows + block_rows - 1) / block_rows);
}

// DYPE_GEMM_THREADING=blas: let OpenBLAS thread each call itself instead (read once).
bool blas_threads_itself() {
  static const bool yes = [] {
    const char* v = std::getenv("DYPE_GEMM_THREADING");
    return v != nullptr && std::strcmp(v, "blas") == 0;
  }();
  return yes;
}

void blas_rows(const float* x, int64_t rows, int64_t k, const float* w, int64_t n, float* y) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(rows), static_cast<blasint>(n),
              static_cast<blasint>(k), 1.0f, x, static_cast<blasint>(k), w, static_cast<blasint>(n), 0.0f, y,
              static_cast<blasint>(n));
}

void blas_rows(const double* x, int64_t rows, int64_t k, const double* w, int64_t n, double* y) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(rows), static_cast<blasint>(n),
              static_cast<blasint>(k), 1.0, x, static_cast<blasint>(k), w, static_cast<blasint>(n), 0.0, y,
              static_cast<blasint>(n));
}
#endif

template <typename T>
Status gemm_typed(const GemmArgs& a) {
  const int64_t rows = a.row_end - a.row_begin;
  const int64_t k = a.x.cols;
  const int64_t n = a.w.cols;
  T* y = static_cast<T*>(a.y);
  if (rows == 0 || n == 0) return Status{};
  if (k == 0) {
    // An empty sum; also keeps BLAS away from lda = 0, which it rejects.
    std::fill(y, y + rows * n, T(0));
    return Status{};
  }
  const T* x = static_cast<const T*>(a.x.data) + a.row_begin * k;
  const T* w = static_cast<const T*>(a.w.data);
  populate_for_write(a.y, static_cast<size_t>(rows * n) * sizeof(T));
  ThreadPool& pool = ThreadPool::instance();
#ifdef DYPE_HAVE_OPENBLAS
  if (use_blas()) {
    if (blas_threads_itself()) {
      // One call, OpenBLAS's own threads (as many as the pool has): the alternative measured
      // against the default (docs/dense.md, "GEMM threading").
      if (openblas_get_num_threads() != pool.participants()) openblas_set_num_threads(pool.participants());
      blas_rows(x, rows, k, w, n, y);
      return Status{};
    }
    single_threaded_blas();
    const int64_t blocks = blas_blocks(rows, k, n, pool.participants());
    pool.parallel_for(blocks, [&](int64_t b) {
      const int64_t r0 = rows / blocks * b + std::min(b, rows % blocks);
      const int64_t r1 = r0 + rows / blocks + (b < rows % blocks ? 1 : 0);
      if (r1 > r0) blas_rows(x + r0 * k, r1 - r0, k, w, n, y + r0 * n);
    });
    return Status{};
  }
#endif
  const BuiltinGemm<T> packed(w, k, n);
  const int64_t blocks = blocks_for(rows, 2 * rows * k * n, pool.participants());
  pool.parallel_for(blocks, [&](int64_t b) {
    const int64_t r0 = rows / blocks * b + std::min(b, rows % blocks);
    const int64_t r1 = r0 + rows / blocks + (b < rows % blocks ? 1 : 0);
    if (r1 > r0) packed.rows(x + r0 * k, r1 - r0, y + r0 * n);
  });
  return Status{};
}

}  // namespace

Status gemm(const char* fn, const GemmArgs& a) {
  if (a.row_begin < 0 || a.row_end < a.row_begin || a.row_end > a.x.rows) {
    return Status::invalid(std::string(fn) + ": row range [" + std::to_string(a.row_begin) + ", " + std::to_string(a.row_end) +
                           ") is outside [0, " + std::to_string(a.x.rows) + "]");
  }
  if (a.x.cols != a.w.rows) {
    return Status::invalid(std::string(fn) + ": x is " + std::to_string(a.x.rows) + "x" + std::to_string(a.x.cols) + " and w is " +
                           std::to_string(a.w.rows) + "x" + std::to_string(a.w.cols) + "; x.cols must equal w.rows");
  }
  return a.type == DenseType::kF32 ? gemm_typed<float>(a) : gemm_typed<double>(a);
}

GemmInfo gemm_info() {
  GemmInfo info;
  info.threads = ThreadPool::instance().participants();
  info.library = "builtin";
  info.threading = "dype's blocked kernel on dype's pool";
#ifdef DYPE_HAVE_OPENBLAS
  std::string version = OPENBLAS_VERSION;
  version.erase(0, version.find_first_not_of(' '));
  version.erase(version.find_last_not_of(' ') + 1);
  if (version.rfind("OpenBLAS ", 0) == 0) version.erase(0, 9);
  const char* config = openblas_get_config();
  const char* core = openblas_get_corename();
  info.config = config ? config : "";
  if (use_blas()) {
    info.library = "openblas";
    info.version = version;
    info.threading = blas_threads_itself() ? std::string("OpenBLAS's own threads, one call (DYPE_GEMM_THREADING=blas)")
                                           : std::string("single-threaded calls on dype's pool, one block of rows each");
  } else {
    info.reason = "OpenBLAS " + version + " was found but chose its " + (core ? core : "?") +
                  " kernels, older than this CPU's vector units, and the built-in kernel uses them; set OPENBLAS_CORETYPE to a core that does (SkylakeX for AVX-512, Haswell for AVX2) to use it";
  }
#else
  switch (DYPE_BLAS_OFF) {
    case 1: info.reason = "OpenBLAS's cblas.h was not found at build time"; break;
    case 2: info.reason = "libopenblas was not found at build time"; break;
    case 3: info.reason = "DYPE_BLAS=0 at build time"; break;
    default: info.reason = "built without OpenBLAS"; break;
  }
#endif
  return info;
}

}  // namespace dype

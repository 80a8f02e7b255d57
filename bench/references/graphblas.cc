// SuiteSparse:GraphBLAS references, compiled into the benchmark-only addon only where the
// GraphBLAS header and library exist (binding.gyp): C = A * X with GrB_mxm over the PLUS_TIMES
// semiring (FP32 and FP64), and the textbook level-synchronous BFS (GrB_vxm over ANY_PAIR with
// the complemented structure of the visited set as mask). Each is an object that converts our
// CSR once, outside any timing, and is then run repeatedly.
#include <napi.h>

// GraphBLAS.h declares its C API without extern "C" (its C++ complex types sit in extern "C++").
extern "C" {
#include <GraphBLAS.h>
}

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "graphblas.h"

namespace {

void Check(Napi::Env env, GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS && info != GrB_NO_VALUE) {
    throw Napi::Error::New(env, std::string("GraphBLAS: ") + what + " failed with GrB_Info " + std::to_string(static_cast<int>(info)));
  }
}

template <typename T>
T* DataOf(const Napi::Value& v) {
  auto a = v.As<Napi::TypedArray>();
  return reinterpret_cast<T*>(static_cast<uint8_t*>(a.ArrayBuffer().Data()) + a.ByteOffset());
}

size_t LengthOf(const Napi::Value& v) { return v.As<Napi::TypedArray>().ElementLength(); }

void* CheckedMalloc(Napi::Env env, size_t bytes) {
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr) throw Napi::Error::New(env, "GraphBLAS reference: out of memory");
  return p;
}

/**
 * A GrB_Matrix from our CSR arrays: packed (GraphBLAS takes over 64-bit copies) when every row's
 * column indices strictly increase, built from tuples (duplicates summed) otherwise, so that a
 * matrix with duplicate entries never reaches GraphBLAS in a shape it does not allow.
 * `values` null means a Boolean pattern (iso true).
 */
GrB_Matrix CsrToGrB(Napi::Env env, int rows, int cols, const int* rp, const int* ci, const void* values, GrB_Type type, size_t elem) {
  const int64_t nnz = rp[rows];
  bool sortedUnique = true;
  for (int r = 0; r < rows && sortedUnique; ++r) {
    for (int p = rp[r] + 1; p < rp[r + 1]; ++p) {
      if (ci[p] <= ci[p - 1]) { sortedUnique = false; break; }
    }
  }
  GrB_Matrix a = nullptr;
  Check(env, GrB_Matrix_new(&a, type, rows, cols), "GrB_Matrix_new");
  if (sortedUnique) {
    auto* ap = static_cast<GrB_Index*>(CheckedMalloc(env, sizeof(GrB_Index) * (rows + 1)));
    auto* aj = static_cast<GrB_Index*>(CheckedMalloc(env, sizeof(GrB_Index) * nnz));
    for (int r = 0; r <= rows; ++r) ap[r] = static_cast<GrB_Index>(rp[r]);
    for (int64_t p = 0; p < nnz; ++p) aj[p] = static_cast<GrB_Index>(ci[p]);
    const bool iso = values == nullptr;
    const size_t axBytes = iso ? elem : elem * nnz;
    void* ax = CheckedMalloc(env, axBytes);
    if (iso) {
      *static_cast<bool*>(ax) = true;
    } else {
      std::memcpy(ax, values, axBytes);
    }
    Check(env, GxB_Matrix_pack_CSR(a, &ap, &aj, &ax, sizeof(GrB_Index) * (rows + 1), sizeof(GrB_Index) * nnz, axBytes, iso, false, nullptr),
          "GxB_Matrix_pack_CSR");
    return a;
  }
  std::vector<GrB_Index> ii(nnz), jj(nnz);
  for (int r = 0; r < rows; ++r) {
    for (int p = rp[r]; p < rp[r + 1]; ++p) { ii[p] = r; jj[p] = ci[p]; }
  }
  if (values == nullptr) {
    std::vector<uint8_t> ones(nnz, 1);
    Check(env, GrB_Matrix_build_BOOL(a, ii.data(), jj.data(), reinterpret_cast<const bool*>(ones.data()), nnz, GrB_LOR), "GrB_Matrix_build_BOOL");
  } else if (type == GrB_FP32) {
    Check(env, GrB_Matrix_build_FP32(a, ii.data(), jj.data(), static_cast<const float*>(values), nnz, GrB_PLUS_FP32), "GrB_Matrix_build_FP32");
  } else {
    Check(env, GrB_Matrix_build_FP64(a, ii.data(), jj.data(), static_cast<const double*>(values), nnz, GrB_PLUS_FP64), "GrB_Matrix_build_FP64");
  }
  return a;
}

// new GraphblasSpmm(rowPtr, colIdx, values, cols, x, k): A and X converted once; run() computes
// C = A * X into a C kept between calls and waits for it; read(y) copies C into a row-major y.
class GraphblasSpmm : public Napi::ObjectWrap<GraphblasSpmm> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "GraphblasSpmm",
                       {InstanceMethod("run", &GraphblasSpmm::Run), InstanceMethod("read", &GraphblasSpmm::Read),
                        InstanceMethod("free", &GraphblasSpmm::Free)});
  }

  explicit GraphblasSpmm(const Napi::CallbackInfo& info) : Napi::ObjectWrap<GraphblasSpmm>(info) {
    Napi::Env env = info.Env();
    const int rows = static_cast<int>(LengthOf(info[0])) - 1;
    const int cols = info[3].As<Napi::Number>().Int32Value();
    k_ = info[5].As<Napi::Number>().Int32Value();
    single_ = info[2].As<Napi::TypedArray>().TypedArrayType() == napi_float32_array;
    const size_t elem = single_ ? 4 : 8;
    GrB_Type type = single_ ? GrB_FP32 : GrB_FP64;
    a_ = CsrToGrB(env, rows, cols, DataOf<int>(info[0]), DataOf<int>(info[1]), DataOf<uint8_t>(info[2]), type, elem);
    const size_t xBytes = elem * static_cast<size_t>(cols) * k_;
    void* xv = CheckedMalloc(env, xBytes);
    std::memcpy(xv, DataOf<uint8_t>(info[4]), xBytes);
    Check(env, GrB_Matrix_new(&x_, type, cols, k_), "GrB_Matrix_new (X)");
    Check(env, GxB_Matrix_pack_FullR(x_, &xv, xBytes, false, nullptr), "GxB_Matrix_pack_FullR");
    Check(env, GrB_Matrix_new(&c_, type, rows, k_), "GrB_Matrix_new (C)");
    rows_ = rows;
  }

  ~GraphblasSpmm() override { Release(); }

 private:
  void Release() {
    if (a_ != nullptr) GrB_Matrix_free(&a_);
    if (x_ != nullptr) GrB_Matrix_free(&x_);
    if (c_ != nullptr) GrB_Matrix_free(&c_);
  }

  void Live(Napi::Env env) const {
    if (a_ == nullptr) throw Napi::Error::New(env, "GraphblasSpmm: used after free()");
  }

  Napi::Value Run(const Napi::CallbackInfo& info) {
    Live(info.Env());
    Check(info.Env(), GrB_mxm(c_, nullptr, nullptr, single_ ? GrB_PLUS_TIMES_SEMIRING_FP32 : GrB_PLUS_TIMES_SEMIRING_FP64, a_, x_, nullptr), "GrB_mxm");
    Check(info.Env(), GrB_Matrix_wait(c_, GrB_MATERIALIZE), "GrB_Matrix_wait");
    return info.Env().Undefined();
  }

  Napi::Value Read(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Live(env);
    GrB_Index n = 0;
    Check(env, GrB_Matrix_nvals(&n, c_), "GrB_Matrix_nvals");
    std::vector<GrB_Index> ii(n), jj(n);
    const size_t len = static_cast<size_t>(rows_) * k_;
    if (single_) {
      float* y = DataOf<float>(info[0]);
      std::fill(y, y + len, 0.0f);
      std::vector<float> xs(n);
      Check(env, GrB_Matrix_extractTuples_FP32(ii.data(), jj.data(), xs.data(), &n, c_), "GrB_Matrix_extractTuples_FP32");
      for (GrB_Index p = 0; p < n; ++p) y[ii[p] * k_ + jj[p]] = xs[p];
    } else {
      double* y = DataOf<double>(info[0]);
      std::fill(y, y + len, 0.0);
      std::vector<double> xs(n);
      Check(env, GrB_Matrix_extractTuples_FP64(ii.data(), jj.data(), xs.data(), &n, c_), "GrB_Matrix_extractTuples_FP64");
      for (GrB_Index p = 0; p < n; ++p) y[ii[p] * k_ + jj[p]] = xs[p];
    }
    return env.Undefined();
  }

  Napi::Value Free(const Napi::CallbackInfo& info) {
    Release();
    return info.Env().Undefined();
  }

  GrB_Matrix a_ = nullptr, x_ = nullptr, c_ = nullptr;
  int rows_ = 0, k_ = 0;
  bool single_ = true;
};

// new GraphblasBfs(rowPtr, colIdx): the adjacency as a Boolean pattern; run(source) searches
// along rows (out-edges) and returns the number of levels; read(depth) writes depths (-1: unreached).
class GraphblasBfs : public Napi::ObjectWrap<GraphblasBfs> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "GraphblasBfs",
                       {InstanceMethod("run", &GraphblasBfs::Run), InstanceMethod("read", &GraphblasBfs::Read),
                        InstanceMethod("free", &GraphblasBfs::Free)});
  }

  explicit GraphblasBfs(const Napi::CallbackInfo& info) : Napi::ObjectWrap<GraphblasBfs>(info) {
    Napi::Env env = info.Env();
    n_ = static_cast<int>(LengthOf(info[0])) - 1;
    a_ = CsrToGrB(env, n_, n_, DataOf<int>(info[0]), DataOf<int>(info[1]), nullptr, GrB_BOOL, 1);
    Check(env, GrB_Vector_new(&depth_, GrB_INT32, n_), "GrB_Vector_new (depth)");
    Check(env, GrB_Vector_new(&frontier_, GrB_BOOL, n_), "GrB_Vector_new (frontier)");
  }

  ~GraphblasBfs() override { Release(); }

 private:
  void Release() {
    if (a_ != nullptr) GrB_Matrix_free(&a_);
    if (depth_ != nullptr) GrB_Vector_free(&depth_);
    if (frontier_ != nullptr) GrB_Vector_free(&frontier_);
  }

  Napi::Value Run(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (a_ == nullptr) throw Napi::Error::New(env, "GraphblasBfs: used after free()");
    const int source = info[0].As<Napi::Number>().Int32Value();
    Check(env, GrB_Vector_clear(depth_), "GrB_Vector_clear");
    Check(env, GrB_Vector_clear(frontier_), "GrB_Vector_clear");
    Check(env, GrB_Vector_setElement_BOOL(frontier_, true, source), "GrB_Vector_setElement_BOOL");
    GrB_Index frontierSize = 1;
    int32_t level = 0;
    while (frontierSize > 0) {
      // depth<frontier> = level, then frontier<!struct(depth), replace> = frontier' * A
      Check(env, GrB_Vector_assign_INT32(depth_, frontier_, nullptr, level, GrB_ALL, n_, GrB_DESC_S), "GrB_Vector_assign_INT32");
      Check(env, GrB_vxm(frontier_, depth_, nullptr, GxB_ANY_PAIR_BOOL, frontier_, a_, GrB_DESC_RSC), "GrB_vxm");
      Check(env, GrB_Vector_nvals(&frontierSize, frontier_), "GrB_Vector_nvals");
      ++level;
    }
    Check(env, GrB_Vector_wait(depth_, GrB_MATERIALIZE), "GrB_Vector_wait");
    return Napi::Number::New(env, level);
  }

  Napi::Value Read(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (a_ == nullptr) throw Napi::Error::New(env, "GraphblasBfs: used after free()");
    int32_t* depth = DataOf<int32_t>(info[0]);
    std::fill(depth, depth + n_, -1);
    GrB_Index n = 0;
    Check(env, GrB_Vector_nvals(&n, depth_), "GrB_Vector_nvals");
    std::vector<GrB_Index> ii(n);
    std::vector<int32_t> xs(n);
    Check(env, GrB_Vector_extractTuples_INT32(ii.data(), xs.data(), &n, depth_), "GrB_Vector_extractTuples_INT32");
    for (GrB_Index p = 0; p < n; ++p) depth[ii[p]] = xs[p];
    return env.Undefined();
  }

  Napi::Value Free(const Napi::CallbackInfo& info) {
    Release();
    return info.Env().Undefined();
  }

  GrB_Matrix a_ = nullptr;
  GrB_Vector depth_ = nullptr, frontier_ = nullptr;
  int n_ = 0;
};

// graphblasThreads(n): GraphBLAS's global thread count (GxB_NTHREADS), set to dype's.
Napi::Value SetThreads(const Napi::CallbackInfo& info) {
  Check(info.Env(), GxB_Global_Option_set(GxB_GLOBAL_NTHREADS, info[0].As<Napi::Number>().Int32Value()), "GxB_Global_Option_set(GxB_NTHREADS)");
  return info.Env().Undefined();
}

}  // namespace

void InitGraphBLAS(Napi::Env env, Napi::Object exports) {
  Check(env, GrB_init(GrB_NONBLOCKING), "GrB_init");
  exports.Set("GraphblasSpmm", GraphblasSpmm::Define(env));
  exports.Set("GraphblasBfs", GraphblasBfs::Define(env));
  exports.Set("graphblasThreads", Napi::Function::New(env, SetThreads));
  exports.Set("graphblasVersion", Napi::String::New(env, std::to_string(GxB_IMPLEMENTATION_MAJOR) + "." + std::to_string(GxB_IMPLEMENTATION_MINOR) + "." +
                                                             std::to_string(GxB_IMPLEMENTATION_SUB)));
}

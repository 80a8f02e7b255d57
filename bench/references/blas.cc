// OpenBLAS called directly, for the dense suite: one cblas_?gemm on the whole product with
// OpenBLAS's own threads, the way a C program (or numpy) calls it. Built only where
// scripts/blas-config.cjs finds OpenBLAS. Shares the process's one OpenBLAS with the dype addon,
// so it sets the thread count on every call (dype sets its own back).
#include <napi.h>
#include <cblas.h>

namespace {

// blasGemm(m, k, n, x, w, y, threads): y = x * w, row-major, all Float32Array or all Float64Array.
Napi::Value BlasGemm(const Napi::CallbackInfo& info) {
  const int m = info[0].As<Napi::Number>().Int32Value();
  const int k = info[1].As<Napi::Number>().Int32Value();
  const int n = info[2].As<Napi::Number>().Int32Value();
  const int threads = info[6].As<Napi::Number>().Int32Value();
  if (openblas_get_num_threads() != threads) openblas_set_num_threads(threads);
  Napi::TypedArray x = info[3].As<Napi::TypedArray>();
  if (x.TypedArrayType() == napi_float32_array) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, info[3].As<Napi::Float32Array>().Data(), k,
                info[4].As<Napi::Float32Array>().Data(), n, 0.0f, info[5].As<Napi::Float32Array>().Data(), n);
  } else {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, info[3].As<Napi::Float64Array>().Data(), k,
                info[4].As<Napi::Float64Array>().Data(), n, 0.0, info[5].As<Napi::Float64Array>().Data(), n);
  }
  return info.Env().Undefined();
}

}  // namespace

void InitBlas(Napi::Env env, Napi::Object exports) {
  exports.Set("blasGemm", Napi::Function::New(env, BlasGemm));
  const char* core = openblas_get_corename();
  exports.Set("blasCore", Napi::String::New(env, core ? core : "?"));
  exports.Set("blasConfig", Napi::String::New(env, openblas_get_config()));
}

// The scans every matrix dype accepts passes, for large inputs (src/validate.ts, src/data/csr.ts):
// in TypeScript they run at about 2 GB/s, here at memory speed.
// firstNonFinite(array): the index of the first NaN or infinity in a Float32Array or Float64Array,
// or -1. The test is on the exponent bits (all ones only for NaN and infinities), which the
// compiler vectorises, over blocks so a bad value stops the scan early.
// csrCheck(rows, cols, rowPtr, colIdx): whether CSR arrays are well formed (row pointers from 0,
// non-decreasing, ending at colIdx's length; every column in [0, cols)): -1 when not (the caller's
// own check then names the first fault), else 1 when every row's columns strictly increase, 0
// when some row's do not.
// firstNonFiniteOffThread and csrCheckOffThread: the same scans on a libuv worker, for a server
// that must not hold its event loop while it validates an upload; each resolves with
// { seconds, index } or { seconds, verdict }. The caller keeps the arrays unchanged until then.
#include <napi.h>

#include <cstdint>
#include <cstring>

#include "async_call.h"
#include "napi_util.h"

namespace dype {
namespace {

using namespace napi;

template <class Bits>
int64_t first_non_finite(const Bits* bits, int64_t n, Bits exponent) {
  constexpr int64_t kBlock = 4096;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t end = start + kBlock < n ? start + kBlock : n;
    Bits any = 0;
    // Branch-free over the block: set when some element's exponent is all ones.
    for (int64_t i = start; i < end; ++i) any |= static_cast<Bits>((bits[i] & exponent) == exponent);
    if (any == 0) continue;
    for (int64_t i = start; i < end; ++i) {
      if ((bits[i] & exponent) == exponent) return i;
    }
  }
  return -1;
}

int64_t first_non_finite_of(const Borrowed& a) {
  const int64_t n = static_cast<int64_t>(a.length);
  return a.type == napi_float32_array ? first_non_finite(static_cast<const uint32_t*>(a.data), n, uint32_t{0x7f800000u})
                                      : first_non_finite(static_cast<const uint64_t*>(a.data), n, uint64_t{0x7ff0000000000000ull});
}

Napi::Value FirstNonFinite(const Napi::CallbackInfo& info) {
  const char* fn = "firstNonFinite";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const Borrowed a = get_array(info, 0, fn, "array", {napi_float32_array, napi_float64_array});
    return Napi::Number::New(info.Env(), static_cast<double>(first_non_finite_of(a)));
  });
}

Napi::Value FirstNonFiniteOffThread(const Napi::CallbackInfo& info) {
  const char* fn = "firstNonFiniteOffThread";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const Borrowed a = get_array(info, 0, fn, "array", {napi_float32_array, napi_float64_array});
    return launch<int64_t>(
        info.Env(), fn, 0, Pins::args(info, 1),
        [a](const char*, int64_t& at) -> Status {
          at = first_non_finite_of(a);
          return Status{};
        },
        [](Napi::Object& o, const int64_t& at) { o.Set("index", Napi::Number::New(o.Env(), static_cast<double>(at))); });
  });
}

template <class Ptr>
int csr_check(int64_t rows, int64_t cols, const Ptr* row_ptr, const int32_t* col, int64_t nnz) {
  if (row_ptr[0] != 0) return -1;
  bool sorted = true;
  int64_t prev = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t end = static_cast<int64_t>(row_ptr[r + 1]);
    if (end < prev || end > nnz) return -1;
    int64_t last = -1;
    bool out = false;
    for (int64_t p = prev; p < end; ++p) {
      const int64_t c = col[p];
      out |= static_cast<uint64_t>(c) >= static_cast<uint64_t>(cols);
      sorted &= c > last;
      last = c;
    }
    if (out) return -1;
    prev = end;
  }
  if (prev != nnz) return -1;
  return sorted ? 1 : 0;
}

struct CsrArgs {
  int64_t rows = 0;
  int64_t cols = 0;
  Borrowed rp;
  Borrowed ci;
  int verdict() const {
    const int64_t nnz = static_cast<int64_t>(ci.length);
    const int32_t* col = static_cast<const int32_t*>(ci.data);
    return rp.type == napi_int32_array ? csr_check(rows, cols, static_cast<const int32_t*>(rp.data), col, nnz)
                                       : csr_check(rows, cols, static_cast<const int64_t*>(rp.data), col, nnz);
  }
};

CsrArgs csr_args(const Napi::CallbackInfo& info, const char* fn) {
  CsrArgs a;
  a.rows = get_int(info, 0, fn, "rows", 0, INT32_MAX);
  a.cols = get_int(info, 1, fn, "cols", 0, INT32_MAX);
  a.rp = get_array(info, 2, fn, "rowPtr", {napi_int32_array, napi_bigint64_array});
  a.ci = get_array(info, 3, fn, "colIdx", {napi_int32_array});
  if (static_cast<int64_t>(a.rp.length) != a.rows + 1) throw ArgError{arg_name(fn, "rowPtr") + " must have rows + 1 entries"};
  return a;
}

Napi::Value CsrCheck(const Napi::CallbackInfo& info) {
  const char* fn = "csrCheck";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value { return Napi::Number::New(info.Env(), csr_args(info, fn).verdict()); });
}

Napi::Value CsrCheckOffThread(const Napi::CallbackInfo& info) {
  const char* fn = "csrCheckOffThread";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const CsrArgs a = csr_args(info, fn);
    return launch<int>(
        info.Env(), fn, 0, Pins::args(info, 4),
        [a](const char*, int& verdict) -> Status {
          verdict = a.verdict();
          return Status{};
        },
        [](Napi::Object& o, const int& verdict) { o.Set("verdict", Napi::Number::New(o.Env(), verdict)); });
  });
}

void register_input_scans(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports,
                   {{"firstNonFinite", FirstNonFinite},
                    {"csrCheck", CsrCheck},
                    {"firstNonFiniteOffThread", FirstNonFiniteOffThread},
                    {"csrCheckOffThread", CsrCheckOffThread}});
}

const ExportRegistrar reg(register_input_scans);

}  // namespace
}  // namespace dype

// What every GPU call reports to JavaScript beside its wall time: the kernels' and copies' times
// from CUDA events, the bytes moved, the board power, and what was read from resident copies.
// Shared by the sparse (gpu_binding.cc) and dense (kernels/dense_binding.cc) bindings.
#pragma once

#include <napi.h>

#include "../napi_util.h"
#include "gpu.h"

namespace dype {
namespace gpu {

inline void set_run(Napi::Object& o, const Run& r) {
  napi::set_numbers(o, {{"kernelSeconds", r.kernel_s}, {"h2dSeconds", r.h2d_s}, {"d2hSeconds", r.d2h_s}, {"h2dBytes", r.h2d_bytes},
                        {"d2hBytes", r.d2h_bytes}, {"watts", r.watts}});
  o.Set("energyMeasured", Napi::Boolean::New(o.Env(), r.energy_measured));
  napi::set_numbers(o, {{"levels", static_cast<double>(r.levels)}, {"residentBytes", r.resident_bytes}});
}

}  // namespace gpu
}  // namespace dype

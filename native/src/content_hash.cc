// sha256Chunks(array, chunkBytes, out): Promise; the SHA-256 of each `chunkBytes` piece of an
// array's bytes (the last may be shorter), into `out` (32 bytes a piece), the pieces hashed in
// parallel on the kernel pool, off the JS thread. dype serve names every upload by a hash over
// these digests (src/service/wire-values.ts): one SHA-256 stream runs at about 1.2-1.7 GB/s,
// which made hashing the largest cost of an upload, and it held the server's event loop.
//
// SHA-256 is OpenSSL's, the copy Node itself carries: its functions are looked up in the process
// when first needed, not linked, so an addon loaded by a Node without them still loads (and this
// one call says so; the TypeScript side then hashes the same pieces with node:crypto).
#include <dlfcn.h>
#include <napi.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "async_call.h"
#include "napi_util.h"
#include "thread_pool.h"

namespace dype {
namespace {

using namespace napi;

// OpenSSL's public signatures (openssl/evp.h), with its types kept opaque.
using EvpSha256 = const void* (*)();
using EvpDigest = int (*)(const void* data, size_t count, unsigned char* md, unsigned int* size, const void* type, void* engine);

struct OpenSsl {
  EvpSha256 sha256 = nullptr;
  EvpDigest digest = nullptr;
  bool ok() const { return sha256 != nullptr && digest != nullptr; }
};

const OpenSsl& openssl() {
  static const OpenSsl found = [] {
    OpenSsl o;
    o.sha256 = reinterpret_cast<EvpSha256>(dlsym(RTLD_DEFAULT, "EVP_sha256"));
    o.digest = reinterpret_cast<EvpDigest>(dlsym(RTLD_DEFAULT, "EVP_Digest"));
    return o;
  }();
  return found;
}

Napi::Value Sha256Chunks(const Napi::CallbackInfo& info) {
  const char* fn = "sha256Chunks";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    if (info.Length() < 1 || !info[0].IsTypedArray()) throw ArgError{arg_name(fn, "array") + " must be a typed array"};
    Napi::TypedArray arr = info[0].As<Napi::TypedArray>();
    const uint8_t* data = static_cast<const uint8_t*>(arr.ArrayBuffer().Data()) + arr.ByteOffset();
    const int64_t bytes = static_cast<int64_t>(arr.ByteLength());
    const int64_t chunk = get_int(info, 1, fn, "chunkBytes", 1, INT32_MAX);
    const int64_t pieces = (bytes + chunk - 1) / chunk;
    Borrowed out = get_array(info, 2, fn, "out", {napi_uint8_array});
    if (static_cast<int64_t>(out.length) != pieces * 32) {
      throw ArgError{arg_name(fn, "out") + " must hold 32 bytes for each of the " + std::to_string(pieces) + " pieces"};
    }
    const OpenSsl& o = openssl();
    if (!o.ok()) throw make_error(info.Env(), "ERR_UNSUPPORTED", std::string(fn) + ": this Node does not expose OpenSSL's EVP_Digest to addons");
    uint8_t* digests = static_cast<uint8_t*>(out.data);
    return launch<int>(
        info.Env(), fn, 0, Pins::args(info, 3).output(digests, out.length),
        [data, bytes, chunk, pieces, digests, &o](const char* name, int&) -> Status {
          const void* md = o.sha256();
          std::atomic<bool> failed{false};
          ThreadPool::instance().parallel_for(pieces, [&](int64_t i) {
            const int64_t begin = i * chunk;
            const int64_t length = begin + chunk < bytes ? chunk : bytes - begin;
            unsigned int size = 0;
            if (o.digest(data + begin, static_cast<size_t>(length), digests + 32 * i, &size, md, nullptr) != 1 || size != 32) failed = true;
          });
          if (failed) return Status{false, "ERR_NATIVE", std::string(name) + ": OpenSSL's SHA-256 failed"};
          return Status{};
        },
        [](Napi::Object&, const int&) {});
  });
}

// sha256Info(): { available, reason }.
Napi::Value Sha256Info(const Napi::CallbackInfo& info) {
  Napi::Object o = Napi::Object::New(info.Env());
  const bool ok = openssl().ok();
  set_booleans(o, {{"available", ok}});
  set_strings(o, {{"reason", ok ? "" : "this Node does not expose OpenSSL's EVP_Digest to addons"}});
  return o;
}

void register_content_hash(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports, {{"sha256Chunks", Sha256Chunks}, {"sha256Info", Sha256Info}});
}

const ExportRegistrar reg(register_content_hash);

}  // namespace
}  // namespace dype

// Shared-memory regions for `dype serve`'s uploads (Linux): a client on the same machine writes a
// matrix's arrays into a region the server made, and the server maps it instead of reading the
// bytes through the socket. A region is a sealable memfd. The server creates it with its size
// fixed (no shrink, no grow); the client opens it by its /proc path, writes, and closes; the server
// then seals it against every further write before mapping it, so the content it hashed and
// validated cannot change under it (or under another tenant that uploads the same bytes and is
// handed the same stored matrix). Sealing fails while anyone holds a writable shared mapping of
// it; writes through an open descriptor fail from then on. The mapping is private and writable:
// code that writes into an input array gets its own copy of the page instead of a fault.
// Replies go the other way: the server writes a large output into a region, seals it, and the
// client opens and maps it (sharedRegionOpen), refusing any region not sealed against writes.
#include <napi.h>

#include <cerrno>
#include <cstring>
#include <string>

#ifdef __linux__
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "napi_util.h"

namespace dype {
namespace {

using namespace napi;

// The largest region: the store's bound is checked in TypeScript; this only keeps sizes sane.
constexpr int64_t kMaxRegionBytes = int64_t{1} << 46;

#ifdef __linux__
constexpr int kSizeSeals = F_SEAL_SHRINK | F_SEAL_GROW;

std::string errno_text(int e) { return std::string(std::strerror(e)); }

// The descriptor must be one of ours: a memfd whose size is sealed. Anything else is refused
// untouched (native code trusts no caller with a raw descriptor).
void check_region(Napi::Env env, const char* fn, int fd) {
  const int seals = fcntl(fd, F_GET_SEALS);
  if (seals < 0 || (seals & kSizeSeals) != kSizeSeals) {
    throw make_error(env, "ERR_INVALID_ARGUMENT", std::string(fn) + ": descriptor " + std::to_string(fd) + " is not a region made by sharedRegionCreate");
  }
}
#endif

// sharedRegionCreate(bytes, populate = false): the descriptor of a new region of exactly `bytes`
// bytes (zeros); with `populate` its pages are allocated now (a spare made ahead of a reply, whose
// writer then pays no first-touch), where the file system allows it.
Napi::Value SharedRegionCreate(const Napi::CallbackInfo& info) {
  const char* fn = "sharedRegionCreate";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const int64_t bytes = get_int(info, 0, fn, "bytes", 0, kMaxRegionBytes);
    const bool populate = info.Length() > 1 && info[1].IsBoolean() && info[1].As<Napi::Boolean>().Value();
#ifdef __linux__
    const int fd = memfd_create("dype-upload", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) throw make_error(info.Env(), "ERR_IO", std::string(fn) + ": memfd_create failed: " + errno_text(errno));
    if (ftruncate(fd, static_cast<off_t>(bytes)) != 0 || fcntl(fd, F_ADD_SEALS, kSizeSeals) != 0 ||
        (populate && bytes > 0 && fallocate(fd, 0, 0, static_cast<off_t>(bytes)) != 0 && errno != EOPNOTSUPP)) {
      const int e = errno;
      close(fd);
      throw make_error(info.Env(), e == ENOSPC || e == EFBIG ? "ERR_LIMIT" : "ERR_IO",
                       std::string(fn) + ": cannot size a region of " + std::to_string(bytes) + " bytes: " + errno_text(e));
    }
    return Napi::Number::New(info.Env(), fd);
#else
    (void)bytes;
    (void)populate;
    throw make_error(info.Env(), "ERR_UNSUPPORTED", std::string(fn) + ": shared-memory regions need Linux (memfd)");
#endif
  });
}

#ifdef __linux__
constexpr int kWriteSeals = F_SEAL_WRITE | F_SEAL_SEAL;

// Map a sealed region's descriptor privately and close it (always); the mapping as an
// ArrayBuffer, unmapped when collected.
Napi::Value map_sealed(Napi::Env env, const char* fn, int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int e = errno;
    close(fd);
    throw make_error(env, "ERR_IO", std::string(fn) + ": cannot read the region's size: " + errno_text(e));
  }
  const size_t bytes = static_cast<size_t>(st.st_size);
  if (bytes == 0) {
    close(fd);
    return Napi::ArrayBuffer::New(env, 0);
  }
  // No MAP_POPULATE: on a private writable mapping it would fault every page in for writing, a copy.
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  const int e = errno;
  close(fd);  // the mapping keeps the memory alive
  if (p == MAP_FAILED) throw make_error(env, "ERR_IO", std::string(fn) + ": cannot map " + std::to_string(bytes) + " bytes: " + errno_text(e));
  return Napi::ArrayBuffer::New(
      env, p, bytes, [](Napi::Env, void* data, size_t* length) {
        munmap(data, *length);
        delete length;
      },
      new size_t(bytes));
}

// Seal against every further write; closes the descriptor and throws when that fails.
void seal_writes(Napi::Env env, const char* fn, int fd) {
  if (fcntl(fd, F_ADD_SEALS, kWriteSeals) == 0) return;
  const int e = errno;
  close(fd);
  throw make_error(env, e == EBUSY ? "ERR_ACCESS" : "ERR_IO",
                   std::string(fn) + (e == EBUSY ? ": the region is still mapped for writing by its writer; write it with write(), not a shared mapping"
                                                 : ": cannot seal the region: " + errno_text(e)));
}
#endif

// sharedRegionMap(fd): seal the region against writes, map it, close the descriptor; returns the
// mapping as an ArrayBuffer (unmapped when collected). The descriptor is closed even on failure.
Napi::Value SharedRegionMap(const Napi::CallbackInfo& info) {
  const char* fn = "sharedRegionMap";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const int64_t fd64 = get_int(info, 0, fn, "fd", 0, INT32_MAX);
#ifdef __linux__
    const int fd = static_cast<int>(fd64);
    check_region(info.Env(), fn, fd);
    seal_writes(info.Env(), fn, fd);
    return map_sealed(info.Env(), fn, fd);
#else
    (void)fd64;
    throw make_error(info.Env(), "ERR_UNSUPPORTED", std::string(fn) + ": shared-memory regions need Linux (memfd)");
#endif
  });
}

// sharedRegionSeal(fd): seal a region the caller has written against any further write, keeping
// the descriptor open (a reply region waits so for its reader).
Napi::Value SharedRegionSeal(const Napi::CallbackInfo& info) {
  const char* fn = "sharedRegionSeal";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const int64_t fd64 = get_int(info, 0, fn, "fd", 0, INT32_MAX);
#ifdef __linux__
    check_region(info.Env(), fn, static_cast<int>(fd64));
    if (fcntl(static_cast<int>(fd64), F_ADD_SEALS, kWriteSeals) != 0) {
      throw make_error(info.Env(), "ERR_IO", std::string(fn) + ": cannot seal the region: " + errno_text(errno));
    }
#else
    (void)fd64;
#endif
    return info.Env().Undefined();
  });
}

// sharedRegionOpen(path): map the region another process made and sealed, by its /proc path;
// refused unless it is sealed against writes (its content can no longer change).
Napi::Value SharedRegionOpen(const Napi::CallbackInfo& info) {
  const char* fn = "sharedRegionOpen";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    if (info.Length() < 1 || !info[0].IsString()) throw ArgError{arg_name(fn, "path") + " must be a string"};
    const std::string path = info[0].As<Napi::String>().Utf8Value();
#ifdef __linux__
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw make_error(info.Env(), "ERR_IO", std::string(fn) + ": cannot open " + path + ": " + errno_text(errno));
    const int seals = fcntl(fd, F_GET_SEALS);
    if (seals < 0 || (seals & (kSizeSeals | F_SEAL_WRITE)) != (kSizeSeals | F_SEAL_WRITE)) {
      close(fd);
      throw make_error(info.Env(), "ERR_ACCESS", std::string(fn) + ": " + path + " is not a region sealed against writes");
    }
    return map_sealed(info.Env(), fn, fd);
#else
    throw make_error(info.Env(), "ERR_UNSUPPORTED", std::string(fn) + ": shared-memory regions need Linux (memfd)");
#endif
  });
}

// sharedRegionClose(fd): drop a region that will not be mapped (abandoned, or its connection left).
Napi::Value SharedRegionClose(const Napi::CallbackInfo& info) {
  const char* fn = "sharedRegionClose";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const int64_t fd64 = get_int(info, 0, fn, "fd", 0, INT32_MAX);
#ifdef __linux__
    check_region(info.Env(), fn, static_cast<int>(fd64));
    close(static_cast<int>(fd64));
#else
    (void)fd64;
#endif
    return info.Env().Undefined();
  });
}

// sharedRegionInfo(): { available, reason }.
Napi::Value SharedRegionInfo(const Napi::CallbackInfo& info) {
  Napi::Object o = Napi::Object::New(info.Env());
#ifdef __linux__
  set_booleans(o, {{"available", true}});
  set_strings(o, {{"reason", ""}});
#else
  set_booleans(o, {{"available", false}});
  set_strings(o, {{"reason", "shared-memory regions need Linux (memfd)"}});
#endif
  return o;
}

void register_shared_memory(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports,
                   {{"sharedRegionCreate", SharedRegionCreate},
                    {"sharedRegionMap", SharedRegionMap},
                    {"sharedRegionSeal", SharedRegionSeal},
                    {"sharedRegionOpen", SharedRegionOpen},
                    {"sharedRegionClose", SharedRegionClose},
                    {"sharedRegionInfo", SharedRegionInfo}});
}

const ExportRegistrar reg(register_shared_memory);

}  // namespace
}  // namespace dype

// dype's MPI addon (build/Release/dype_mpi.node): starting and ending MPI over MPI_COMM_WORLD
// when the build found an MPI (scripts/mpi-config.cjs), with the collectives distributed
// operators need in mpi_collectives.cc; otherwise every call but `info` refuses with the reason.
// It is a module of its own so that the main addon never loads libmpi: a process that does not
// run under a launcher pays nothing. Every MPI call is made under one mutex (mpi_shared.h): the
// module asks for MPI_THREAD_SERIALIZED.
#include <napi.h>

#include <cstdint>
#include <mutex>
#include <string>

#ifdef DYPE_HAVE_MPI
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#endif

#include "mpi/mpi_shared.h"

namespace {

using namespace dype::mpi;

#ifndef DYPE_MPI_OFF
#define DYPE_MPI_OFF 0
#endif

constexpr int kAbiVersion = 2;

[[maybe_unused]] const char* off_reason() {
  switch (DYPE_MPI_OFF) {
    case 1:
      return "no MPI was found when the addon was built (no mpicc, no pkg-config ompi-c or mpich; Debian: apt install "
             "libopenmpi-dev openmpi-bin, then npm rebuild)";
    case 2:
      return "the MPI compiler wrapper was found but not mpi.h (Debian: apt install libopenmpi-dev, then npm rebuild)";
    case 3:
      return "DYPE_MPI=0 was set when the addon was built";
    default:
      return "";
  }
}


Napi::Value Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  o.Set("abiVersion", kAbiVersion);
#ifdef DYPE_HAVE_MPI
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);  // callable before MPI_Init
  std::string lib(version, static_cast<size_t>(len));
  const size_t nl = lib.find_first_of("\r\n,");
  o.Set("available", true);
  o.Set("reason", "");
  o.Set("library", lib.substr(0, nl));
#else
  o.Set("available", false);
  o.Set("reason", off_reason());
  o.Set("library", "");
#endif
  return o;
}

#ifdef DYPE_HAVE_MPI

// loads an addon's libraries with local symbols, so libmpi is made global before MPI_Init.
void make_libmpi_global() {
  Dl_info where{};
  if (dladdr(reinterpret_cast<void*>(&MPI_Init_thread), &where) != 0 && where.dli_fname != nullptr)
    dlopen(where.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

const char* level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "single";
    case MPI_THREAD_FUNNELED:
      return "funneled";
    case MPI_THREAD_SERIALIZED:
      return "serialized";
    case MPI_THREAD_MULTIPLE:
      return "multiple";
    default:
      return "unknown";
  }
}


Napi::Value InitMpi(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    std::lock_guard<std::mutex> hold(mpi_lock());
    if (finalised()) throw Fault{"ERR_MPI", "initMpi: MPI was finalised in this process; it cannot start again"};
    if (initialised()) throw Fault{"ERR_MPI", "initMpi: MPI is already initialised in this process"};
    make_libmpi_global();
    int provided = MPI_THREAD_SINGLE;
    const int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    if (rc != MPI_SUCCESS) throw Fault{"ERR_MPI", "initMpi: MPI_Init_thread failed: " + mpi_message(rc)};
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      throw Fault{"ERR_MPI", std::string("initMpi: this MPI grants thread level ") + level_name(provided) +
                                 "; dype needs serialized (its collectives run on worker threads one at a time)"};
    }
    // Errors come back as codes, turned into typed errors here, instead of aborting every rank.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    // Ranks on this host (sharing its memory): with the cores, what decides how a collective waits.
    MPI_Comm local = MPI_COMM_NULL;
    int local_size = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local) == MPI_SUCCESS) {
      MPI_Comm_size(local, &local_size);
      MPI_Comm_free(&local);
    }
    char host[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Get_processor_name(host, &len);
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("rank", rank);
    o.Set("size", size);
    o.Set("threadLevel", level_name(provided));
    o.Set("host", std::string(host, static_cast<size_t>(len)));
    o.Set("localSize", local_size);
    return o;
  });
}

Napi::Value Finalize(const Napi::CallbackInfo& info) {
  std::lock_guard<std::mutex> hold(mpi_lock());
  if (initialised() && !finalised()) MPI_Finalize();
  return info.Env().Undefined();
}

// quit(code): leave at once, without MPI_Finalize, which would wait for ranks that are gone.
// For a rank the launcher is ending (another rank died): nothing more should run or be written.
Napi::Value Quit(const Napi::CallbackInfo& info) {
  const int code = info.Length() > 0 && info[0].IsNumber() ? info[0].As<Napi::Number>().Int32Value() : 1;
  std::fflush(stderr);
  std::fflush(stdout);
  _exit(code);
  return info.Env().Undefined();
}

Napi::Value Abort(const Napi::CallbackInfo& info) {
  const int code = info.Length() > 0 && info[0].IsNumber() ? info[0].As<Napi::Number>().Int32Value() : 1;
  if (initialised() && !finalised()) MPI_Abort(MPI_COMM_WORLD, code);
  return info.Env().Undefined();
}

// A typed array argument: its data, element count and the MPI type of its elements.

// Finalise at teardown if the program did not: a rank that exits without MPI_Finalize makes the
// launcher report the whole job as failed.
void finalize_at_exit(void*) {
  if (initialised() && !finalised()) MPI_Finalize();
}

#else

Napi::Value Unavailable(const Napi::CallbackInfo& info) {
  coded(info.Env(), "ERR_UNAVAILABLE", std::string("dype's MPI addon: ") + off_reason()).ThrowAsJavaScriptException();
  return info.Env().Undefined();
}

#endif

Napi::Object ModuleInit(Napi::Env env, Napi::Object exports) {
  exports.Set("abiVersion", kAbiVersion);
  exports.Set("info", Napi::Function::New(env, Info, "info"));
#ifdef DYPE_HAVE_MPI
  exports.Set("init", Napi::Function::New(env, InitMpi, "init"));
  exports.Set("finalize", Napi::Function::New(env, Finalize, "finalize"));
  exports.Set("abort", Napi::Function::New(env, Abort, "abort"));
  exports.Set("quit", Napi::Function::New(env, Quit, "quit"));
  napi_add_env_cleanup_hook(env, finalize_at_exit, nullptr);
  export_collectives(env, exports, nullptr);
#else
  for (const char* name : {"init", "finalize", "abort", "quit"}) exports.Set(name, Napi::Function::New(env, Unavailable, name));
  export_collectives(env, exports, Unavailable);
#endif
  return exports;
}

}  // namespace

NODE_API_MODULE(dype_mpi, ModuleInit)

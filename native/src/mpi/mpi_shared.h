// What the MPI module's two files share: coded errors, one lock around every MPI call (the
// module asks for MPI_THREAD_SERIALIZED), whether MPI is live, and a guard that turns a Fault
// into the JS exception it names.
#pragma once

#include <napi.h>

#include <mutex>
#include <string>

#ifdef DYPE_HAVE_MPI
// The C API only: Open MPI's and MPICH's mpi.h otherwise pull in the removed C++ bindings.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace dype {
namespace mpi {

inline Napi::Error coded(Napi::Env env, const std::string& code, const std::string& message) {
  Napi::Error e = code == "ERR_INVALID_ARGUMENT" ? Napi::Error(env, Napi::RangeError::New(env, message).Value())
                                                 : Napi::Error::New(env, message);
  e.Set("code", Napi::String::New(env, code));
  return e;
}

struct Fault {
  std::string code;
  std::string message;
};

template <class F>
Napi::Value guarded(Napi::Env env, F&& body) {
  try {
    return body();
  } catch (const Fault& f) {
    coded(env, f.code, f.message).ThrowAsJavaScriptException();
    return env.Undefined();
  }
}

#ifdef DYPE_HAVE_MPI

inline std::mutex& mpi_lock() {
  static std::mutex m;
  return m;
}

inline bool initialised() {
  int flag = 0;
  MPI_Initialized(&flag);
  return flag != 0;
}

inline bool finalised() {
  int flag = 0;
  MPI_Finalized(&flag);
  return flag != 0;
}

inline std::string mpi_message(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(rc);
  return std::string(text, static_cast<size_t>(len));
}

inline void check_live(const char* fn) {
  if (!initialised() || finalised())
    throw Fault{"ERR_MPI", std::string(fn) + ": MPI is not initialised in this process (call initMpi under an MPI launcher)"};
}

// Open MPI loads its components with dlopen, and they resolve MPI's own symbols globally; Node

#endif

// Adds the collectives (alltoallv, allgatherv, allreduce, barrier) to the module's exports, or
// stubs that refuse with `unavailable` where the build has no MPI (mpi_collectives.cc).
void export_collectives(Napi::Env env, Napi::Object exports, Napi::Function::Callback unavailable);

}  // namespace mpi
}  // namespace dype

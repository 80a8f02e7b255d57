// dype's MPI addon (build/Release/dype_mpi.node): the few collectives distributed operators need,
// over MPI_COMM_WORLD, when the build found an MPI (scripts/mpi-config.cjs); otherwise every call
// but `info` refuses with the reason. It is a module of its own so that the main addon never
// loads libmpi: a process that does not run under a launcher pays nothing.
//
// Every MPI call is made under one mutex (the addon asks for MPI_THREAD_SERIALIZED): collectives
// that run on a libuv worker, so that a rank computes while its halo travels, never overlap
// another call from the JS thread. Counts and displacements are checked against the arrays'
// lengths before MPI sees a pointer: a bad count is a typed error, never a read out of bounds.
#include <napi.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#ifdef DYPE_HAVE_MPI
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
// The C API only: Open MPI's and MPICH's mpi.h otherwise pull in the removed C++ bindings.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace {

#ifndef DYPE_MPI_OFF
#define DYPE_MPI_OFF 0
#endif

constexpr int kAbiVersion = 1;

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

Napi::Error coded(Napi::Env env, const std::string& code, const std::string& message) {
  Napi::Error e = code == "ERR_INVALID_ARGUMENT" ? Napi::Error(env, Napi::RangeError::New(env, message).Value())
                                                 : Napi::Error::New(env, message);
  e.Set("code", Napi::String::New(env, code));
  return e;
}

struct Fault {
  std::string code;
  std::string message;
};

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

std::mutex& mpi_lock() {
  static std::mutex m;
  return m;
}

bool initialised() {
  int flag = 0;
  MPI_Initialized(&flag);
  return flag != 0;
}

bool finalised() {
  int flag = 0;
  MPI_Finalized(&flag);
  return flag != 0;
}

std::string mpi_message(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(rc);
  return std::string(text, static_cast<size_t>(len));
}

void check_live(const char* fn) {
  if (!initialised() || finalised())
    throw Fault{"ERR_MPI", std::string(fn) + ": MPI is not initialised in this process (call initMpi under an MPI launcher)"};
}

// Open MPI loads its components with dlopen, and they resolve MPI's own symbols globally; Node
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

template <class F>
Napi::Value guarded(Napi::Env env, F&& body) {
  try {
    return body();
  } catch (const Fault& f) {
    coded(env, f.code, f.message).ThrowAsJavaScriptException();
    return env.Undefined();
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
    char host[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Get_processor_name(host, &len);
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("rank", rank);
    o.Set("size", size);
    o.Set("threadLevel", level_name(provided));
    o.Set("host", std::string(host, static_cast<size_t>(len)));
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
struct Buffer {
  void* data = nullptr;
  int64_t length = 0;
  MPI_Datatype type = MPI_BYTE;
  napi_typedarray_type kind = napi_uint8_array;
  Napi::Object object;
};

Buffer buffer_arg(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what) {
  if (i >= info.Length() || !info[i].IsTypedArray()) throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": " + what + " must be a typed array"};
  Napi::TypedArray a = info[i].As<Napi::TypedArray>();
  Buffer b;
  b.kind = a.TypedArrayType();
  switch (b.kind) {
    case napi_float32_array:
      b.type = MPI_FLOAT;
      break;
    case napi_float64_array:
      b.type = MPI_DOUBLE;
      break;
    case napi_int32_array:
      b.type = MPI_INT32_T;
      break;
    case napi_uint8_array:
      b.type = MPI_UINT8_T;
      break;
    case napi_bigint64_array:
      b.type = MPI_INT64_T;
      break;
    default:
      throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": " + what + " must be a Float32Array, Float64Array, Int32Array, Uint8Array or BigInt64Array"};
  }
  b.data = static_cast<uint8_t*>(a.ArrayBuffer().Data()) + a.ByteOffset();
  b.length = static_cast<int64_t>(a.ElementLength());
  if (b.length > 0 && b.data == nullptr) throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": " + what + " is detached"};
  b.object = a;
  return b;
}

// Per-rank counts and displacements (Int32Array of the communicator's size), each part inside
// `length` elements.
std::vector<int> layout_arg(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what, int size) {
  if (i >= info.Length() || !info[i].IsTypedArray() || info[i].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array)
    throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": " + what + " must be an Int32Array"};
  Napi::TypedArray a = info[i].As<Napi::TypedArray>();
  if (a.ElementLength() != static_cast<size_t>(size))
    throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": " + what + " has length " + std::to_string(a.ElementLength()) +
                                            ", expected one entry per rank (" + std::to_string(size) + ")"};
  const int32_t* p = reinterpret_cast<const int32_t*>(static_cast<uint8_t*>(a.ArrayBuffer().Data()) + a.ByteOffset());
  return std::vector<int>(p, p + size);
}

void check_parts(const char* fn, const char* what, const std::vector<int>& counts, const std::vector<int>& displs, int64_t length) {
  for (size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] < 0 || displs[r] < 0 || static_cast<int64_t>(displs[r]) + counts[r] > length)
      throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": " + what + " part for rank " + std::to_string(r) + " (" +
                                              std::to_string(displs[r]) + " + " + std::to_string(counts[r]) +
                                              " elements) does not fit its array of " + std::to_string(length)};
  }
}

// A collective on a libuv worker: the JS thread goes on (a rank computes its interior rows)
// while the data travels. The arrays stay pinned until it settles.
class CollectiveWorker : public Napi::AsyncWorker {
 public:
  using Body = std::function<int()>;
  CollectiveWorker(Napi::Env env, const char* fn, Body body, std::vector<Napi::Object> pins)
      : Napi::AsyncWorker(env, fn), fn_(fn), body_(std::move(body)), deferred_(Napi::Promise::Deferred::New(env)) {
    for (Napi::Object& o : pins) pins_.push_back(Napi::Persistent(o));
  }
  Napi::Promise promise() { return deferred_.Promise(); }

 protected:
  void Execute() override {
    std::lock_guard<std::mutex> hold(mpi_lock());
    if (!initialised() || finalised()) {
      rc_ = -1;
      return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    rc_ = body_();
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  void OnOK() override {
    Napi::Env env = Env();
    if (rc_ != MPI_SUCCESS) {
      const std::string why = rc_ == -1 ? "MPI was finalised before the call ran" : mpi_message(rc_);
      deferred_.Reject(coded(env, "ERR_MPI", std::string(fn_) + ": " + why).Value());
      return;
    }
    Napi::Object o = Napi::Object::New(env);
    o.Set("seconds", seconds_);
    deferred_.Resolve(o);
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  const char* fn_;
  Body body_;
  Napi::Promise::Deferred deferred_;
  std::vector<Napi::ObjectReference> pins_;
  int rc_ = MPI_SUCCESS;
  double seconds_ = 0;
};

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls): counts in elements of the
// arrays' type (both arrays of one type). Resolves { seconds } once every part has arrived.
Napi::Value Alltoallv(const Napi::CallbackInfo& info) {
  const char* fn = "alltoallv";
  return guarded(info.Env(), [&]() -> Napi::Value {
    check_live(fn);
    const int size = world_size();
    Buffer send = buffer_arg(info, 0, fn, "send");
    std::vector<int> sc = layout_arg(info, 1, fn, "sendCounts", size);
    std::vector<int> sd = layout_arg(info, 2, fn, "sendDispls", size);
    Buffer recv = buffer_arg(info, 3, fn, "recv");
    std::vector<int> rc = layout_arg(info, 4, fn, "recvCounts", size);
    std::vector<int> rd = layout_arg(info, 5, fn, "recvDispls", size);
    if (send.kind != recv.kind) throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": send and recv must have the same element type"};
    check_parts(fn, "send", sc, sd, send.length);
    check_parts(fn, "recv", rc, rd, recv.length);
    auto* w = new CollectiveWorker(
        info.Env(), fn,
        [=]() { return MPI_Alltoallv(send.data, sc.data(), sd.data(), send.type, recv.data, rc.data(), rd.data(), recv.type, MPI_COMM_WORLD); },
        {send.object, recv.object});
    Napi::Promise p = w->promise();
    w->Queue();
    return p;
  });
}

// allgatherv(send, recv, recvCounts, recvDispls): every rank's send (recvCounts[rank] elements)
// lands in every rank's recv at its displacement.
Napi::Value Allgatherv(const Napi::CallbackInfo& info) {
  const char* fn = "allgatherv";
  return guarded(info.Env(), [&]() -> Napi::Value {
    check_live(fn);
    const int size = world_size();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    Buffer send = buffer_arg(info, 0, fn, "send");
    Buffer recv = buffer_arg(info, 1, fn, "recv");
    std::vector<int> rc = layout_arg(info, 2, fn, "recvCounts", size);
    std::vector<int> rd = layout_arg(info, 3, fn, "recvDispls", size);
    if (send.kind != recv.kind) throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": send and recv must have the same element type"};
    if (send.length != rc[static_cast<size_t>(rank)])
      throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": send has " + std::to_string(send.length) + " elements but recvCounts[" +
                                              std::to_string(rank) + "] says " + std::to_string(rc[static_cast<size_t>(rank)])};
    check_parts(fn, "recv", rc, rd, recv.length);
    const int count = static_cast<int>(send.length);
    auto* w = new CollectiveWorker(
        info.Env(), fn, [=]() { return MPI_Allgatherv(send.data, count, send.type, recv.data, rc.data(), rd.data(), recv.type, MPI_COMM_WORLD); },
        {send.object, recv.object});
    Napi::Promise p = w->promise();
    w->Queue();
    return p;
  });
}

// allreduce(buffer, op): in place, op one of 'sum', 'max', 'min'. On a worker like the others, so
// the JS thread stays free (a watchdog timer and the launcher's SIGTERM can still be handled).
Napi::Value Allreduce(const Napi::CallbackInfo& info) {
  const char* fn = "allreduce";
  return guarded(info.Env(), [&]() -> Napi::Value {
    check_live(fn);
    Buffer b = buffer_arg(info, 0, fn, "buffer");
    if (b.length > INT32_MAX) throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": buffer is over 2^31 - 1 elements"};
    const std::string op = info.Length() > 1 && info[1].IsString() ? info[1].As<Napi::String>().Utf8Value() : "";
    MPI_Op mop = op == "sum" ? MPI_SUM : op == "max" ? MPI_MAX : op == "min" ? MPI_MIN : MPI_OP_NULL;
    if (mop == MPI_OP_NULL) throw Fault{"ERR_INVALID_ARGUMENT", std::string(fn) + ": op must be 'sum', 'max' or 'min', got '" + op + "'"};
    const int count = static_cast<int>(b.length);
    auto* w = new CollectiveWorker(
        info.Env(), fn, [=]() { return MPI_Allreduce(MPI_IN_PLACE, b.data, count, b.type, mop, MPI_COMM_WORLD); }, {b.object});
    Napi::Promise p = w->promise();
    w->Queue();
    return p;
  });
}

// barrier(): resolves once every rank has called it.
Napi::Value Barrier(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    check_live("barrier");
    auto* w = new CollectiveWorker(info.Env(), "barrier", []() { return MPI_Barrier(MPI_COMM_WORLD); }, {});
    Napi::Promise p = w->promise();
    w->Queue();
    return p;
  });
}

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
  exports.Set("barrier", Napi::Function::New(env, Barrier, "barrier"));
  exports.Set("abort", Napi::Function::New(env, Abort, "abort"));
  exports.Set("quit", Napi::Function::New(env, Quit, "quit"));
  exports.Set("alltoallv", Napi::Function::New(env, Alltoallv, "alltoallv"));
  exports.Set("allgatherv", Napi::Function::New(env, Allgatherv, "allgatherv"));
  exports.Set("allreduce", Napi::Function::New(env, Allreduce, "allreduce"));
  napi_add_env_cleanup_hook(env, finalize_at_exit, nullptr);
#else
  for (const char* name : {"init", "finalize", "barrier", "abort", "quit", "alltoallv", "allgatherv", "allreduce"})
    exports.Set(name, Napi::Function::New(env, Unavailable, name));
#endif
  return exports;
}

}  // namespace

NODE_API_MODULE(dype_mpi, ModuleInit)

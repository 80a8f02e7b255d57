// The collectives of dype's MPI module, each on a libuv worker under the module's one lock, so
// the JS thread stays free (a rank computes while its halo travels, and a watchdog timer or the
// launcher's SIGTERM can still be handled). Counts and displacements are checked against the
// arrays' lengths before MPI sees a pointer: a bad count is a typed error, never a read out of
// bounds.
#include "mpi/mpi_shared.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace dype {
namespace mpi {

#ifdef DYPE_HAVE_MPI
namespace {

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

// Queue a collective; the caller gets its Promise. `w` must come from new and is consumed.
Napi::Promise queue(CollectiveWorker* w) {
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

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
    return queue(new CollectiveWorker(
        info.Env(), fn,
        [=]() { return MPI_Alltoallv(send.data, sc.data(), sd.data(), send.type, recv.data, rc.data(), rd.data(), recv.type, MPI_COMM_WORLD); },
        {send.object, recv.object}));
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
    return queue(new CollectiveWorker(
        info.Env(), fn, [=]() { return MPI_Allgatherv(send.data, count, send.type, recv.data, rc.data(), rd.data(), recv.type, MPI_COMM_WORLD); },
        {send.object, recv.object}));
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
    return queue(new CollectiveWorker(
        info.Env(), fn, [=]() { return MPI_Allreduce(MPI_IN_PLACE, b.data, count, b.type, mop, MPI_COMM_WORLD); }, {b.object}));
  });
}

// barrier(): resolves once every rank has called it.
Napi::Value Barrier(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    check_live("barrier");
    return queue(new CollectiveWorker(info.Env(), "barrier", []() { return MPI_Barrier(MPI_COMM_WORLD); }, {}));
  });
}

}  // namespace
#endif

void export_collectives(Napi::Env env, Napi::Object exports, Napi::Function::Callback unavailable) {
#ifdef DYPE_HAVE_MPI
  (void)unavailable;
  exports.Set("alltoallv", Napi::Function::New(env, Alltoallv, "alltoallv"));
  exports.Set("allgatherv", Napi::Function::New(env, Allgatherv, "allgatherv"));
  exports.Set("allreduce", Napi::Function::New(env, Allreduce, "allreduce"));
  exports.Set("barrier", Napi::Function::New(env, Barrier, "barrier"));
#else
  for (const char* name : {"alltoallv", "allgatherv", "allreduce", "barrier"}) exports.Set(name, Napi::Function::New(env, unavailable, name));
#endif
}

}  // namespace mpi
}  // namespace dype

// The collectives of dype's MPI module, each on a libuv worker under the module's one lock, so
// the JS thread stays free (a rank computes while its halo travels, and a watchdog timer or the
// launcher's SIGTERM can still be handled). Counts and displacements are checked against the
// arrays' lengths before MPI sees a pointer: a bad count is a typed error, never a read out of
// bounds.
#include "mpi/mpi_shared.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
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

// How a collective waits for the other ranks. Started on the JS thread (so every rank starts its
// collectives in its program's order, as MPI requires of nonblocking ones), it completes on a
// libuv worker that tests it. A blocking MPI call busy-polls until the last rank arrives, and
// where the host's ranks' kernel threads outnumber its cores (mpi.ts, waitPolicy) the polling
// takes the core the last rank needs to get there: a 15 KB halo exchange took 1.4-14 ms, moving
// its bytes 0.06. There the waiting worker tests for `spin` microseconds, then sleeps between
// tests, from kFirstNap up to kLongestNap microseconds; with spin negative it never sleeps.
std::atomic<int64_t> g_spin_micros{-1};
// How long the JS thread itself tests a collective it has just started before handing the wait
// to a worker (0: at once). Where a rank's exchanges do not overlap its compute (mpi.ts,
// waitPolicy) its JS thread has nothing else to do, and the worker's wake-up cost an exchange
// whose ranks arrived together 100-200 us on the development VMs, its bytes moving in 20.
std::atomic<int64_t> g_sync_micros{0};
constexpr int64_t kFirstNap = 10;
constexpr int64_t kLongestNap = 200;

double now_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// What a completed collective resolves to: { seconds, enteredAt, completedAt }.
Napi::Object timing(Napi::Env env, double entered, double completed) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("seconds", completed - entered);
  o.Set("enteredAt", entered);
  o.Set("completedAt", completed);
  return o;
}

// A started collective's request, tested on a libuv worker until it completes: the JS thread goes
// on (a rank computes its interior rows) while the data travels. The arrays stay pinned until it
// settles. Resolves { seconds, enteredAt, completedAt }: this rank's call and the moment it saw the
// collective complete, seconds on the host's monotonic clock.
class CollectiveWorker : public Napi::AsyncWorker {
 public:
  CollectiveWorker(Napi::Env env, const char* fn, MPI_Request request, double entered, std::vector<Napi::Object> pins, std::shared_ptr<void> keep)
      : Napi::AsyncWorker(env, fn), fn_(fn), request_(request), entered_(entered), keep_(std::move(keep)), deferred_(Napi::Promise::Deferred::New(env)) {
    for (Napi::Object& o : pins) pins_.push_back(Napi::Persistent(o));
  }
  Napi::Promise promise() { return deferred_.Promise(); }

 protected:
  void Execute() override {
    const int64_t spin = g_spin_micros.load(std::memory_order_relaxed);
    const auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(spin < 0 ? 0 : spin);
    int64_t nap = kFirstNap;
    for (;;) {
      int done = 0;
      {
        std::lock_guard<std::mutex> hold(mpi_lock());
        if (!initialised() || finalised()) {
          rc_ = -1;
          return;
        }
        rc_ = MPI_Test(&request_, &done, MPI_STATUS_IGNORE);
      }
      if (rc_ != MPI_SUCCESS || done) break;
      if (spin < 0 || std::chrono::steady_clock::now() < spin_until) continue;
      std::this_thread::sleep_for(std::chrono::microseconds(nap));
      nap = std::min(kLongestNap, 2 * nap);
    }
    completed_ = now_seconds();
  }
  void OnOK() override {
    Napi::Env env = Env();
    if (rc_ != MPI_SUCCESS) {
      const std::string why = rc_ == -1 ? "MPI was finalised before the call completed" : mpi_message(rc_);
      deferred_.Reject(coded(env, "ERR_MPI", std::string(fn_) + ": " + why).Value());
      return;
    }
    deferred_.Resolve(timing(env, entered_, completed_));
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  const char* fn_;
  MPI_Request request_;
  double entered_;
  // What MPI reads until the collective completes besides the arrays: its counts and displacements.
  std::shared_ptr<void> keep_;
  double completed_ = 0;
  Napi::Promise::Deferred deferred_;
  std::vector<Napi::ObjectReference> pins_;
  int rc_ = MPI_SUCCESS;
};

// Start a collective (`start` posts it and fills the request) on this thread, under the lock, and
// queue the wait; the caller gets its Promise. `keep` holds what MPI may read until completion.
Napi::Promise start_collective(Napi::Env env, const char* fn, const std::function<int(MPI_Request*)>& start, std::vector<Napi::Object> pins,
                               std::shared_ptr<void> keep = nullptr) {
  MPI_Request request = MPI_REQUEST_NULL;
  const double entered = now_seconds();
  int rc;
  {
    std::lock_guard<std::mutex> hold(mpi_lock());
    rc = start(&request);
  }
  if (rc != MPI_SUCCESS) throw Fault{"ERR_MPI", std::string(fn) + ": " + mpi_message(rc)};
  const int64_t sync = g_sync_micros.load(std::memory_order_relaxed);
  if (sync > 0) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(sync);
    int done = 0;
    do {
      std::lock_guard<std::mutex> hold(mpi_lock());
      rc = MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    } while (rc == MPI_SUCCESS && !done && std::chrono::steady_clock::now() < until);
    if (rc != MPI_SUCCESS) throw Fault{"ERR_MPI", std::string(fn) + ": " + mpi_message(rc)};
    if (done) {
      Napi::Promise::Deferred d = Napi::Promise::Deferred::New(env);
      d.Resolve(timing(env, entered, now_seconds()));
      return d.Promise();
    }
  }
  auto* w = new CollectiveWorker(env, fn, request, entered, std::move(pins), std::move(keep));
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
    auto layouts = std::make_shared<std::array<std::vector<int>, 4>>(std::array<std::vector<int>, 4>{sc, sd, rc, rd});
    auto& l = *layouts;
    return start_collective(
        info.Env(), fn,
        [&](MPI_Request* r) {
          return MPI_Ialltoallv(send.data, l[0].data(), l[1].data(), send.type, recv.data, l[2].data(), l[3].data(), recv.type, MPI_COMM_WORLD, r);
        },
        {send.object, recv.object}, layouts);
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
    auto layouts = std::make_shared<std::array<std::vector<int>, 2>>(std::array<std::vector<int>, 2>{rc, rd});
    auto& l = *layouts;
    return start_collective(
        info.Env(), fn,
        [&](MPI_Request* r) { return MPI_Iallgatherv(send.data, count, send.type, recv.data, l[0].data(), l[1].data(), recv.type, MPI_COMM_WORLD, r); },
        {send.object, recv.object}, layouts);
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
    return start_collective(
        info.Env(), fn, [&](MPI_Request* r) { return MPI_Iallreduce(MPI_IN_PLACE, b.data, count, b.type, mop, MPI_COMM_WORLD, r); }, {b.object});
  });
}

// barrier(): resolves once every rank has called it.
Napi::Value Barrier(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    check_live("barrier");
    return start_collective(info.Env(), "barrier", [](MPI_Request* r) { return MPI_Ibarrier(MPI_COMM_WORLD, r); }, {});
  });
}

// waitPolicy(spinMicros, syncMicros): how long a waiting worker tests without sleeping (-1: never
// sleeps), and how long the JS thread tests a collective it started before handing it to one.
Napi::Value WaitPolicy(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    auto micros = [&](size_t i, const char* what, double lowest) {
      const double v = info.Length() > i && info[i].IsNumber() ? info[i].As<Napi::Number>().DoubleValue() : -2;
      if (!(v >= lowest && v <= 1e9) || v != static_cast<double>(static_cast<int64_t>(v)))
        throw Fault{"ERR_INVALID_ARGUMENT", std::string("waitPolicy: ") + what + " must be an integer in [" + std::to_string(static_cast<int>(lowest)) + ", 1e9]"};
      return static_cast<int64_t>(v);
    };
    const int64_t spin = micros(0, "spinMicros", -1);
    const int64_t sync = micros(1, "syncMicros", 0);
    g_spin_micros.store(spin);
    g_sync_micros.store(sync);
    return info.Env().Undefined();
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
  exports.Set("waitPolicy", Napi::Function::New(env, WaitPolicy, "waitPolicy"));
#else
  for (const char* name : {"alltoallv", "allgatherv", "allreduce", "barrier", "waitPolicy"}) exports.Set(name, Napi::Function::New(env, unavailable, name));
#endif
}

}  // namespace mpi
}  // namespace dype

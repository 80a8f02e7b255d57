// The local work of one level of a distributed BFS (src/distributed/bfs.ts), on the thread pool.
// A rank's rows are its own vertices 0..own-1; its columns are those vertices followed by its halo
// (the remote vertices it reads, own..own+halo-1). The exchanges between ranks stay with MPI in
// TypeScript; these steps do what the rank's own rows ask between them. Every row pointer, column
// and frontier entry is checked as it is read: the arrays come from JS, which could have changed
// them since the rank built them, and native code reads nothing out of bounds. The search reuses
// its arrays level after level, so no output is declared for provisioning (prefault.h): mapping
// checks on 2 MB of outputs a call made 900 thin levels of a grid 2x the plain loop's time.
#include <napi.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "../async_call.h"
#include "../napi_util.h"
#include "../thread_pool.h"

namespace dype {
namespace {

using namespace napi;

// Frontier edges (top-down) or rows (bottom-up) below which a level runs in one chunk: a pool job
// costs a wake-up that a thin level does not repay.
constexpr int64_t kSerialWork = 1 << 15;  // SINGLE_CHUNK_WORK in src/native/addon.ts
// Work per chunk above that: small enough that a hub's row or an uneven stretch of rows balances.
constexpr int64_t kChunkWork = 4096;

struct LocalGraph {
  int64_t own = 0;
  int64_t halo = 0;
  int64_t nnz = 0;
  const int32_t* rp = nullptr;
  const int32_t* ci = nullptr;
};

// The first fault any chunk met, for the call's error (later ones are dropped).
class Fault {
 public:
  bool seen() const { return seen_.load(std::memory_order_relaxed); }
  void set(std::string message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!seen_.exchange(true)) message_ = std::move(message);
  }
  Status status() const { return seen() ? Status::invalid(message_) : Status{}; }

 private:
  std::atomic<bool> seen_{false};
  std::mutex mutex_;
  std::string message_;
};

// Row v's edges [begin, end), or a fault where its pointers decrease or leave colIdx.
inline bool row_edges(const char* fn, const LocalGraph& g, int64_t v, int64_t& begin, int64_t& end, Fault& fault) {
  begin = g.rp[v];
  end = g.rp[v + 1];
  if (0 <= begin && begin <= end && end <= g.nnz) return true;
  fault.set(std::string(fn) + ": rowPtr[" + std::to_string(v) + ".." + std::to_string(v + 1) + "] = " + std::to_string(begin) + ", " +
            std::to_string(end) + " is not a range inside colIdx's " + std::to_string(g.nnz) + " entries");
  return false;
}

inline void bad_column(const char* fn, const LocalGraph& g, int64_t e, int32_t c, Fault& fault) {
  fault.set(std::string(fn) + ": colIdx[" + std::to_string(e) + "] = " + std::to_string(c) + " is outside the rank's " +
            std::to_string(g.own) + " rows and " + std::to_string(g.halo) + " halo columns");
}

// Concatenate the chunks' lists into `out` in chunk order; their count, or -1 where they hold more
// than `capacity` (only if JS rewrote depths or flags while the step ran: each entry is claimed once).
int64_t gather(const std::vector<std::vector<int32_t>>& lists, int32_t* out, int64_t capacity) {
  int64_t size = 0;
  for (const auto& l : lists) size += static_cast<int64_t>(l.size());
  if (size > capacity) return -1;
  size = 0;
  for (const auto& l : lists) {
    if (!l.empty()) std::memcpy(out + size, l.data(), l.size() * sizeof(int32_t));
    size += static_cast<int64_t>(l.size());
  }
  return size;
}

Status overflowed(const char* fn) { return Status::invalid(std::string(fn) + ": depths or flags were changed while the step ran"); }

struct TopDownArgs {
  LocalGraph g;
  int32_t* depths = nullptr;
  const int32_t* frontier = nullptr;
  int64_t frontier_size = 0;
  uint8_t* halo_sent = nullptr;
  int32_t level = 0;
  int32_t* next = nullptr;
  int32_t* outbox = nullptr;
};

struct StepOut {
  int64_t next_size = 0;
  int64_t out_size = 0;
};

// A list written straight into the caller's array (a level in one chunk: no copy, no allocation).
struct ArraySink {
  int32_t* data;
  int64_t capacity;
  int64_t size = 0;
  bool overflow = false;
  void push_back(int32_t x) {
    if (size < capacity) data[size++] = x;
    else overflow = true;
  }
};

// Expand the frontier: an own vertex not yet reached gets depth level + 1 and joins `next`
// (claimed by compare-and-swap, so each joins once); a halo column not yet sent this search goes to
// `outbox` as its halo position, once.
Status top_down(const char* fn, const TopDownArgs& a, StepOut& out) {
  const LocalGraph& g = a.g;
  Fault fault;
  // Frontier edges before each entry, so chunks hold equal edges (a hub's row is one chunk's work).
  std::vector<int64_t> before(static_cast<size_t>(a.frontier_size) + 1, 0);
  for (int64_t f = 0; f < a.frontier_size; ++f) {
    const int32_t v = a.frontier[f];
    int64_t b = 0;
    int64_t e = 0;
    if (v < 0 || v >= g.own) {
      fault.set(std::string(fn) + ": frontier[" + std::to_string(f) + "] = " + std::to_string(v) + " is not one of the rank's " +
                std::to_string(g.own) + " rows");
      return fault.status();
    }
    if (!row_edges(fn, g, v, b, e, fault)) return fault.status();
    before[f + 1] = before[f] + (e - b);
  }
  const int32_t depth = a.level + 1;
  // `shared`: other chunks run at once, so a vertex or a halo flag is claimed atomically.
  auto expand = [&](int64_t from, int64_t to, auto& next, auto& sent, bool shared) {
    for (int64_t f = from; f < to && !fault.seen(); ++f) {
      const int32_t v = a.frontier[f];
      int64_t b = 0;
      int64_t e = 0;
      if (v < 0 || v >= g.own || !row_edges(fn, g, v, b, e, fault)) {
        fault.set(std::string(fn) + ": frontier[" + std::to_string(f) + "] changed during the step");
        return;
      }
      for (; b < e; ++b) {
        const int32_t col = g.ci[b];
        if (col >= 0 && col < g.own) {
          int32_t unreached = -1;
          if (!shared) {
            if (a.depths[col] == -1) {
              a.depths[col] = depth;
              next.push_back(col);
            }
          } else if (__atomic_load_n(&a.depths[col], __ATOMIC_RELAXED) == -1 &&
                     __atomic_compare_exchange_n(&a.depths[col], &unreached, depth, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            next.push_back(col);
          }
        } else if (col >= g.own && col - g.own < g.halo) {
          uint8_t* flag = &a.halo_sent[col - g.own];
          if (!shared) {
            if (*flag == 0) {
              *flag = 1;
              sent.push_back(static_cast<int32_t>(col - g.own));
            }
          } else if (__atomic_load_n(flag, __ATOMIC_RELAXED) == 0 && __atomic_exchange_n(flag, uint8_t{1}, __ATOMIC_RELAXED) == 0) {
            sent.push_back(static_cast<int32_t>(col - g.own));
          }
        } else {
          bad_column(fn, g, b, col, fault);
          return;
        }
      }
    }
  };
  const int64_t edges = before[a.frontier_size];
  if (edges < kSerialWork || ThreadPool::instance().participants() == 1) {
    ArraySink next{a.next, g.own};
    ArraySink sent{a.outbox, g.halo};
    expand(0, a.frontier_size, next, sent, false);
    if (fault.seen()) return fault.status();
    if (next.overflow || sent.overflow) return overflowed(fn);
    out.next_size = next.size;
    out.out_size = sent.size;
    return Status{};
  }
  const int64_t chunks = std::min<int64_t>(edges / kChunkWork, 64 * ThreadPool::instance().participants());
  std::vector<std::vector<int32_t>> nexts(chunks);
  std::vector<std::vector<int32_t>> outs(chunks);
  ThreadPool::instance().parallel_for(chunks, [&](int64_t c) {
    // This chunk's frontier entries: those whose edges start in its share of the edges.
    const int64_t lo = std::lower_bound(before.begin(), before.end() - 1, edges * c / chunks) - before.begin();
    const int64_t hi = c == chunks - 1 ? a.frontier_size : std::lower_bound(before.begin(), before.end() - 1, edges * (c + 1) / chunks) - before.begin();
    expand(lo, hi, nexts[c], outs[c], true);
  });
  if (fault.seen()) return fault.status();
  out.next_size = gather(nexts, a.next, g.own);
  out.out_size = gather(outs, a.outbox, g.halo);
  return out.next_size < 0 || out.out_size < 0 ? overflowed(fn) : Status{};
}

struct BottomUpArgs {
  LocalGraph g;
  int32_t* depths = nullptr;
  const uint8_t* in_frontier = nullptr;
  const uint8_t* halo_frontier = nullptr;
  int32_t level = 0;
  int32_t* next = nullptr;
};

// Each own vertex not yet reached looks for a parent in the frontier (its own rows' flags, then
// the halo's as exchanged) and stops at the first; found, it gets depth level + 1 and joins `next`.
// A vertex is written only by the chunk that holds it.
Status bottom_up(const char* fn, const BottomUpArgs& a, StepOut& out) {
  const LocalGraph& g = a.g;
  Fault fault;
  const int32_t depth = a.level + 1;
  auto search = [&](int64_t lo, int64_t hi, auto& next) {
    for (int64_t v = lo; v < hi && !fault.seen(); ++v) {
      if (a.depths[v] != -1) continue;
      int64_t b = 0;
      int64_t e = 0;
      if (!row_edges(fn, g, v, b, e, fault)) return;
      for (; b < e; ++b) {
        const int32_t col = g.ci[b];
        uint8_t in = 0;
        if (col >= 0 && col < g.own) in = a.in_frontier[col];
        else if (col >= g.own && col - g.own < g.halo) in = a.halo_frontier[col - g.own];
        else {
          bad_column(fn, g, b, col, fault);
          return;
        }
        if (in != 0) {
          a.depths[v] = depth;
          next.push_back(static_cast<int32_t>(v));
          break;
        }
      }
    }
  };
  if (g.own < kSerialWork || ThreadPool::instance().participants() == 1) {
    ArraySink next{a.next, g.own};
    search(0, g.own, next);
    if (fault.seen()) return fault.status();
    out.next_size = next.size;
    return next.overflow ? overflowed(fn) : Status{};
  }
  const int64_t chunks = std::min<int64_t>(g.own / kChunkWork, 64 * ThreadPool::instance().participants());
  std::vector<std::vector<int32_t>> nexts(chunks);
  ThreadPool::instance().parallel_for(chunks, [&](int64_t c) { search(g.own * c / chunks, g.own * (c + 1) / chunks, nexts[c]); });
  if (fault.seen()) return fault.status();
  out.next_size = gather(nexts, a.next, g.own);
  return out.next_size < 0 ? overflowed(fn) : Status{};
}

// The rank's rows, from positions [i, i + 4): own, halo, rowPtr (own + 1), colIdx.
LocalGraph get_local_graph(const Napi::CallbackInfo& info, size_t i, const char* fn) {
  LocalGraph g;
  g.own = get_int(info, i, fn, "own", 0, INT32_MAX - 1);
  g.halo = get_int(info, i + 1, fn, "halo", 0, INT32_MAX - 1 - g.own);
  Borrowed rp = get_array(info, i + 2, fn, "rowPtr", {napi_int32_array});
  Borrowed ci = get_array(info, i + 3, fn, "colIdx", {napi_int32_array});
  if (static_cast<int64_t>(rp.length) != g.own + 1)
    throw ArgError{arg_name(fn, "rowPtr") + " has length " + std::to_string(rp.length) + ", expected own + 1 = " + std::to_string(g.own + 1)};
  g.rp = static_cast<const int32_t*>(rp.data);
  g.ci = static_cast<const int32_t*>(ci.data);
  g.nnz = static_cast<int64_t>(ci.length);
  return g;
}

template <typename T>
T* sized(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what, napi_typedarray_type type, int64_t length) {
  Borrowed b = get_array(info, i, fn, what, {type});
  if (static_cast<int64_t>(b.length) != length)
    throw ArgError{arg_name(fn, what) + " has length " + std::to_string(b.length) + ", expected " + std::to_string(length)};
  return static_cast<T*>(b.data);
}

void report_step(Napi::Object& o, const StepOut& s) {
  o.Set("nextSize", Napi::Number::New(o.Env(), static_cast<double>(s.next_size)));
  o.Set("outSize", Napi::Number::New(o.Env(), static_cast<double>(s.out_size)));
}

// distBfsTopDown(own, halo, rowPtr, colIdx, depths, frontier, frontierSize, haloSent, level, next,
//   outbox, inline?): Promise<{ seconds, nextSize, outSize }>
Napi::Value DistBfsTopDown(const Napi::CallbackInfo& info) {
  const char* fn = "distBfsTopDown";
  return with_arg_errors(info.Env(), [&] {
    TopDownArgs a;
    a.g = get_local_graph(info, 0, fn);
    a.depths = sized<int32_t>(info, 4, fn, "depths", napi_int32_array, a.g.own);
    a.frontier = sized<int32_t>(info, 5, fn, "frontier", napi_int32_array, a.g.own);
    a.frontier_size = get_int(info, 6, fn, "frontierSize", 0, a.g.own);
    a.halo_sent = sized<uint8_t>(info, 7, fn, "haloSent", napi_uint8_array, a.g.halo);
    a.level = static_cast<int32_t>(get_int(info, 8, fn, "level", 0, INT32_MAX - 1));
    a.next = sized<int32_t>(info, 9, fn, "next", napi_int32_array, a.g.own);
    a.outbox = sized<int32_t>(info, 10, fn, "outbox", napi_int32_array, a.g.halo);
    if (a.next == a.frontier) throw ArgError{arg_name(fn, "next") + " must not alias frontier"};
    return launch<StepOut>(info.Env(), fn, get_inline(info, 11), Pins::args(info, 11), [a](const char* fn, StepOut& s) { return top_down(fn, a, s); },
                           report_step, Runs::kOnHostLane);
  });
}

// distBfsBottomUp(own, halo, rowPtr, colIdx, depths, inFrontier, haloFrontier, level, next,
//   inline?): Promise<{ seconds, nextSize, outSize: 0 }>
Napi::Value DistBfsBottomUp(const Napi::CallbackInfo& info) {
  const char* fn = "distBfsBottomUp";
  return with_arg_errors(info.Env(), [&] {
    BottomUpArgs a;
    a.g = get_local_graph(info, 0, fn);
    a.depths = sized<int32_t>(info, 4, fn, "depths", napi_int32_array, a.g.own);
    a.in_frontier = sized<uint8_t>(info, 5, fn, "inFrontier", napi_uint8_array, a.g.own);
    a.halo_frontier = sized<uint8_t>(info, 6, fn, "haloFrontier", napi_uint8_array, a.g.halo);
    a.level = static_cast<int32_t>(get_int(info, 7, fn, "level", 0, INT32_MAX - 1));
    a.next = sized<int32_t>(info, 8, fn, "next", napi_int32_array, a.g.own);
    return launch<StepOut>(info.Env(), fn, get_inline(info, 9), Pins::args(info, 9), [a](const char* fn, StepOut& s) { return bottom_up(fn, a, s); },
                           report_step, Runs::kOnHostLane);
  });
}

void register_dist_bfs(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports, {{"distBfsTopDown", DistBfsTopDown}, {"distBfsBottomUp", DistBfsBottomUp}});
}

const ExportRegistrar reg(register_dist_bfs);

}  // namespace
}  // namespace dype

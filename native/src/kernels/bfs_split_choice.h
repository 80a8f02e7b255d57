// Whether a top-down level big enough to split across the pool's threads is split, measured by
// the search itself instead of assumed. A split level pays for waking the workers, for
// compare-and-swap on every discovery and for the depth array's lines moving between the cores;
// on a VM whose two vCPUs sit far apart (a core-to-core round trip of 475 ns on the Zen 5 VM of
// 30 November 2026, 160-190 ns on another instance of the same class) a mesh's or an FEM graph's
// split levels took longer than the same levels on one thread (bcsstk25: two threads 0.54-0.58 of
// the textbook serial BFS's speed, one thread 0.78-0.84), where on a machine with near cores they
// gain. So each search times its candidate levels both ways, per size class, and keeps the
// faster way, trying the other again now and then.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace dype {
namespace search {

class SplitChoice {
 public:
  // Levels of at least `floor` frontier edges are candidates; classes of doubling size from there.
  explicit SplitChoice(int64_t floor) : floor_(floor) {}

  // Whether to split a candidate level of `edges` frontier edges.
  bool split(int64_t edges) {
    if (forced() >= 0) return forced() == 1;
    const int c = size_class(edges);
    if (c < 0) return true;  // large enough that splitting wins anywhere
    const int64_t seen = ++seen_[c];
    // A search with few candidate levels of this size (a power-law graph's one or two) keeps the
    // default; one with many (a mesh's, a road network's) measures both ways.
    if (seen < kDefaultLevels || split_[c].samples == 0) return true;
    if (serial_[c].samples == 0) return false;
    const bool faster_split = split_[c].ns_per_edge <= serial_[c].ns_per_edge;
    return seen % kRetryEvery == 0 ? !faster_split : faster_split;
  }

  // A candidate level's wall time, the way it ran.
  void record(int64_t edges, bool was_split, double seconds) {
    const int c = size_class(edges);
    if (c < 0 || edges <= 0) return;
    Cost& cost = was_split ? split_[c] : serial_[c];
    const double ns = seconds * 1e9 / static_cast<double>(edges);
    // A moving mean: one level preempted by another thread must not settle the choice alone.
    cost.ns_per_edge = cost.samples == 0 ? ns : 0.75 * cost.ns_per_edge + 0.25 * ns;
    ++cost.samples;
  }

 private:
  static constexpr int kClasses = 6;
  static constexpr int64_t kDefaultLevels = 2;
  static constexpr int64_t kRetryEvery = 32;
  struct Cost {
    double ns_per_edge = 0;
    int64_t samples = 0;
  };

  // 0 for [floor, 2 floor), 1 for [2 floor, 4 floor), ...; -1 from floor << kClasses on.
  int size_class(int64_t edges) const {
    int c = 0;
    for (int64_t bound = floor_ * 2; edges >= bound; bound *= 2) {
      if (++c >= kClasses) return -1;
    }
    return c;
  }

  // DYPE_BFS_SPLIT=1 splits every candidate level (the rule before the measurement), 0 none; to
  // test both paths and compare them on one machine.
  static int forced() {
    static const int value = [] {
      const char* v = std::getenv("DYPE_BFS_SPLIT");
      return v != nullptr && (v[0] == '0' || v[0] == '1') && v[1] == '\0' ? v[0] - '0' : -1;
    }();
    return value;
  }

  int64_t floor_;
  Cost serial_[kClasses], split_[kClasses];
  int64_t seen_[kClasses] = {};
};

}  // namespace search
}  // namespace dype

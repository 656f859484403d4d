// Pipeline stage splits (stage_split.hpp): pure arithmetic on layer counts.
#include "moeplan/cluster/stage_split.hpp"

#include <algorithm>

namespace moeplan {

int StageSplit::most() const { return std::max({first, middle, last}); }

std::optional<StageSplit> stage_split(int layers, int pp, int first_stage_layers,
                                      int last_stage_layers, bool allow_uneven) {
  if (pp < 1 || layers < pp) return std::nullopt;
  if (pp == 1) return StageSplit{layers, layers, layers};
  const int f = first_stage_layers, l = last_stage_layers;
  if (f < 0 || l < 0) return std::nullopt;
  if (f > 0 || l > 0) {  // Megatron's --decoder-first/last-pipeline-num-layers
    if (pp == 2) {
      const int first = f > 0 ? f : layers - l;
      const int last = l > 0 ? l : layers - f;
      if (first < 1 || last < 1 || first + last != layers) return std::nullopt;
      return StageSplit{first, std::max(first, last), last};
    }
    const int others = pp - 2 + (f > 0 ? 0 : 1) + (l > 0 ? 0 : 1);
    const int rest = layers - f - l;
    if (rest < others || rest % others != 0) return std::nullopt;
    const int middle = rest / others;
    return StageSplit{f > 0 ? f : middle, middle, l > 0 ? l : middle};
  }
  if (layers % pp == 0) return StageSplit{layers / pp, layers / pp, layers / pp};
  if (!allow_uneven) return std::nullopt;
  // Middle stages ceil(L/pp); the first and last share what is left, each at least one
  // layer and, as ceil(L/pp) * pp >= L, at most the middle count.
  const int middle = (layers + pp - 1) / pp;
  const int ends = layers - (pp - 2) * middle;
  if (ends < 2) return std::nullopt;
  return StageSplit{ends / 2, middle, ends - ends / 2};
}

std::optional<StageSplit> accounted_stage_split(int layers, int pp, int vpp, bool embedding, bool loss) {
  if (pp < 2 || vpp < 1) return std::nullopt;
  const int counted = layers + (embedding ? 1 : 0) + (loss ? 1 : 0);
  if (counted % (pp * vpp) != 0) return std::nullopt;
  const int per_rank = counted / pp;  // VPP k
  const StageSplit s{per_rank - (embedding ? 1 : 0), per_rank, per_rank - (loss ? 1 : 0)};
  if (s.first < 1 || s.last < 1 || (vpp > 1 && counted / (pp * vpp) < 2 && (embedding || loss))) return std::nullopt;
  return s;
}

std::optional<StageSplit> balanced_stage_split(int layers, int pp, double last_extra) {
  if (pp < 2 || layers < pp) return std::nullopt;
  std::optional<StageSplit> best;
  double best_load = 0;
  const auto consider = [&](int first, int middle, int last) {
    const StageSplit s{first, middle, last};
    const double load = s.load(last_extra);
    if (!best || load < best_load - 1e-9 || (load < best_load + 1e-9 && first < best->first)) {
      best = s;
      best_load = load;
    }
  };
  if (pp == 2) {
    for (int last = 1; last < layers; ++last) consider(layers - last, std::max(layers - last, last), last);
    return best;
  }
  // Megatron's rule with both ends given: the pp - 2 other stages share the rest evenly; the
  // ends carry at least one layer and no more than a middle stage.
  for (int middle = 1; (pp - 2) * middle <= layers - 2; ++middle) {
    const int ends = layers - (pp - 2) * middle;
    if (ends > 2 * middle) continue;
    for (int last = std::max(1, ends - middle); last <= std::min(middle, ends - 1); ++last) {
      consider(ends - last, middle, last);
    }
  }
  return best;
}

}  // namespace moeplan

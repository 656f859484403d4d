// PLACEHOLDER (branch cluster-time): a minimal ParallelLayout so the cluster library links
// while step_time.cpp and layout_search.cpp are written. The real file comes from the
// memory branch (wt-mem) at merge; nothing of step time or the layout search lives here.
#include "moeplan/cluster/parallel_layout.hpp"

#include <fmt/format.h>

namespace moeplan {

const char* to_string(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
}

long long ParallelLayout::microbatches() const {
  const long long per = static_cast<long long>(micro_batch) * dp;
  return per > 0 ? global_batch / per : 0;
}

std::string ParallelLayout::describe() const {
  std::string s = fmt::format("TP {}", tp);
  if (cp > 1) s += fmt::format(" · CP {}", cp);
  s += fmt::format(" · PP {}", pp);
  if (vpp > 1) s += fmt::format(" (v{})", vpp);
  if (ep > 1) s += fmt::format(" · EP {}", ep);
  if (etp > 1) s += fmt::format(" · ETP {}", etp);
  s += fmt::format(" · DP {} · mb {} · {}", dp, micro_batch, to_string(recompute));
  return s;
}

}  // namespace moeplan

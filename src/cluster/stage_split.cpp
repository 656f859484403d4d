// Pipeline stage splits (stage_split.hpp): pure arithmetic on layer counts.
#include "moeplan/cluster/stage_split.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <fmt/format.h>

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

namespace {

// The longest unrolled layout accepted: a hostile "(t|)*999999999" is an error, not an
// allocation (a real layout has PP·VPP stages of a few layers: thousands of characters).
constexpr std::size_t k_max_layout_chars = 1 << 20;

// parse_str_to_list's two substitutions, in its order: "(...)*n" (the group holds no ')'),
// then "x*n" for any one character; what matches neither stays as written.
std::expected<std::string, std::string> unroll(std::string_view text, bool groups) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t body_begin = i, body_end = i + 1, star = i + 1;
    if (groups) {
      const std::size_t close = text[i] == '(' ? text.find(')', i + 1) : std::string_view::npos;
      if (close != std::string_view::npos && close > i + 1) {
        body_begin = i + 1;
        body_end = close;
        star = close + 1;
      } else {
        star = std::string_view::npos;
      }
    }
    std::size_t digits = star;
    if (star != std::string_view::npos && star < text.size() && text[star] == '*') {
      digits = star + 1;
      while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) ++digits;
    }
    if (star == std::string_view::npos || digits <= star + 1) {
      out += text[i++];
      continue;
    }
    const std::string_view count_text = text.substr(star + 1, digits - star - 1);
    if (count_text.size() > 7) return std::unexpected(fmt::format("repeat count {} is too large", count_text));
    const std::size_t count = std::stoul(std::string(count_text));
    const std::string_view body = text.substr(body_begin, body_end - body_begin);
    if (out.size() + body.size() * count > k_max_layout_chars) {
      return std::unexpected(fmt::format("unrolls to more than {} characters", k_max_layout_chars));
    }
    for (std::size_t k = 0; k < count; ++k) out += body;
    i = digits;
  }
  return out;
}

}  // namespace

namespace {
// The stages of a layout string, unrolled, each a string of E, t, m, L; or why not.
std::expected<std::vector<std::string>, std::string> layout_stages(std::string_view text) {
  std::string flat;
  for (char c : text) {
    if (c != ',') flat += c;  // "purely cosmetic commas"
  }
  auto groups = unroll(flat, true);
  if (!groups) return std::unexpected(groups.error());
  auto unrolled = unroll(*groups, false);
  if (!unrolled) return std::unexpected(unrolled.error());
  std::vector<std::string> stages(1);
  for (char c : *unrolled) {
    if (c == '|') {
      stages.emplace_back();
    } else if (c == 'E' || c == 'L' || c == 't' || c == 'm') {
      stages.back() += c;
    } else {
      return std::unexpected(fmt::format("'{}' is not a layer (E embedding, t decoder layer, m MTP layer, L loss, "
                                         "| between stages, (...)*n and x*n repeats)", c));
    }
  }
  return stages;
}
}  // namespace

std::optional<std::string> pipeline_layout_syntax_problem(std::string_view text) {
  if (auto stages = layout_stages(text); !stages) return stages.error();
  return std::nullopt;
}

std::expected<PipelineLayout, std::string> parse_pipeline_layout(std::string_view text, int pp, int layers, int mtp) {
  auto parsed = layout_stages(text);
  if (!parsed) return std::unexpected(parsed.error());
  const std::vector<std::string>& stages = *parsed;
  if (pp < 1 || stages.size() % static_cast<std::size_t>(pp) != 0) {
    return std::unexpected(fmt::format("{} stages are not a multiple of PP {}", stages.size(), pp));
  }
  PipelineLayout out;
  out.vpp = static_cast<int>(stages.size()) / pp;
  const std::string all = [&] {
    std::string a;
    for (const std::string& st : stages) a += st;
    return a;
  }();
  if (all.empty() || all.front() != 'E') return std::unexpected("the first layer must be the embedding E");
  if (all.back() != 'L') return std::unexpected("the last layer must be the loss L");
  if (std::count(all.begin(), all.end(), 'E') != 1) return std::unexpected("the embedding E must appear once");
  if (std::count(all.begin(), all.end(), 'L') != 1) return std::unexpected("the loss L must appear once");
  const auto decoders = std::count(all.begin(), all.end(), 't');
  if (decoders != layers) {
    return std::unexpected(fmt::format("{} decoder layers t, the model has {}", decoders, layers));
  }
  const auto mtps = std::count(all.begin(), all.end(), 'm');
  if (mtps != mtp) return std::unexpected(fmt::format("{} MTP layers m, the run trains {}", mtps, mtp));
  if (mtps > 0 && all.find('t', all.find('m')) != std::string::npos) {
    return std::unexpected("decoder layers must be placed before MTP layers");
  }
  if (mtps > 0 && std::count(stages.back().begin(), stages.back().end(), 'm') != mtps) {
    return std::unexpected("moeplan times the MTP layers on the last rank's last virtual stage; the layout puts them "
                           "elsewhere");
  }
  // Decoder layers per PP rank: stage i belongs to rank i % PP.
  std::vector<int> per_rank(static_cast<std::size_t>(pp), 0);
  for (std::size_t i = 0; i < stages.size(); ++i) {
    per_rank[i % static_cast<std::size_t>(pp)] +=
        static_cast<int>(std::count(stages[i].begin(), stages[i].end(), 't'));
  }
  out.split.first = per_rank.front();
  out.split.last = per_rank.back();
  out.split.middle = pp > 2 ? per_rank[1] : std::max(out.split.first, out.split.last);
  for (int r = 1; r + 1 < pp; ++r) {
    if (per_rank[static_cast<std::size_t>(r)] != out.split.middle) {
      return std::unexpected(fmt::format("PP rank {} holds {} decoder layers and rank 1 {}: moeplan's stage model "
                                         "takes layouts whose middle ranks hold the same number",
                                         r, per_rank[static_cast<std::size_t>(r)], out.split.middle));
    }
  }
  if (out.split.first < 1 || out.split.last < 1) {
    return std::unexpected(fmt::format("PP rank {} holds no decoder layer: moeplan's stage model needs one on every rank",
                                       out.split.first < 1 ? 0 : pp - 1));
  }
  out.mtp_layers = static_cast<int>(mtps);
  return out;
}

}  // namespace moeplan

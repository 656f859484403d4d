// The learning rate and batch of one run, from paper 002 Table 4 or paper 000 Eq. 5.
#include <algorithm>
#include <cmath>

#include "moeplan/laws/law_set.hpp"

namespace moeplan {

TrainingHyperparameters training_hyperparameters(const LawSet& laws, Flops C, Tokens D, int seq_len) {
  TrainingHyperparameters h;
  const double c = C.value();
  if (!(c > 0) || !std::isfinite(c) || seq_len <= 0) return h;
  h.compute = c;
  const auto& rows = laws.holistic_training.learning_rate.points;
  const bool inside_table4 = !rows.empty() && c >= rows.front().first && c <= rows.back().first;
  if (inside_table4) {
    h.learning_rate = laws.holistic_training.learning_rate.at(c);
    h.global_batch_size = std::max(1LL, std::llround(laws.holistic_training.batch_size.at(c)));
  } else {
    // Paper 000 Eq. 5: B_opt is in tokens (presets/laws/efficiency_leverage.toml), so
    // B_opt / S sequences of the run's S.
    h.source = HyperparameterSource::leverage_eq5;
    h.learning_rate = laws.leverage_training.learning_rate(c);
    const double sequences = laws.leverage_training.batch_tokens(c) / seq_len;
    if (sequences < 9e18) h.global_batch_size = std::max(1LL, std::llround(sequences));
  }
  // Past ~9e18 sequences llround overflows; no run is that long, so none is given then.
  if (const double samples = D.value() / seq_len; samples >= 0 && samples < 9e18) {
    h.train_samples = std::max(1LL, std::llround(samples));
  }
  return h;
}

}  // namespace moeplan

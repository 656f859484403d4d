#include "moeplan/cluster/whole_training.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace moeplan {

namespace {

/// The loss that costs most, and the next one too when it is within k_costliest_tie of it.
std::string costliest_of(const WholeTraining& w) {
  std::pair<double, const char*> losses[] = {{w.restart_seconds, "restarts"},
                                             {w.lost_work_seconds, "lost work"},
                                             {w.checkpoint_seconds, "checkpoint saves"},
                                             {w.eval_seconds, "evaluations"}};
  std::stable_sort(std::begin(losses), std::end(losses), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (!(losses[0].first > 0)) return "none";
  if (losses[1].first > 0 && losses[1].first >= (1.0 - k_costliest_tie) * losses[0].first) {
    return fmt::format("{}, {}", losses[0].second, losses[1].second);
  }
  return losses[0].second;
}

}  // namespace

WholeTraining whole_training(double steady_seconds, double step_seconds, double steps, int gpus,
                             double checkpoint_bytes_per_gpu, const WholeTrainingOptions& o) {
  WholeTraining w;
  w.steady_seconds = steady_seconds;
  w.checkpoint_bytes_per_gpu = checkpoint_bytes_per_gpu;
  const double rate = o.interruptions_per_gpu_hour * gpus / 3600.0;  // λ, per second of the job
  w.checkpoint_write_seconds =
      o.checkpoint_write_gb_per_s > 0 ? checkpoint_bytes_per_gpu / (o.checkpoint_write_gb_per_s * 1e9) : 0;
  // Asynchronous: training blocks for the copy to host memory only, at the host link's rate,
  // whatever the storage writes at.
  const double copy = o.host_copy_gb_per_s > 0 ? checkpoint_bytes_per_gpu / (o.host_copy_gb_per_s * 1e9) : 0;
  const double blocking = o.async_checkpoint ? copy : w.checkpoint_write_seconds;
  w.checkpoint_save_seconds = blocking;
  w.interval_from_young_daly = !o.checkpoint_interval_minutes;
  if (o.checkpoint_interval_minutes) {
    w.checkpoint_interval_seconds = *o.checkpoint_interval_minutes * 60.0;
    if (w.checkpoint_interval_seconds < step_seconds) {
      // Megatron saves between steps (--save-interval counts steps): at most one save a step.
      w.interval_note = fmt::format("--checkpoint-interval {:g} min is under one step ({:.4g} s): one save a step "
                                    "(Megatron saves at step boundaries; --save-interval counts steps)",
                                    *o.checkpoint_interval_minutes, step_seconds);
      w.checkpoint_interval_seconds = step_seconds;
    }
  } else if (rate > 0) {
    // Young–Daly: the interval that minimises saves plus lost work, sqrt(2 × save × MTBF),
    // at least one step (a save falls between steps), at most the run (one save at its end);
    // asynchronous, at least the background write (a sooner save would wait for it).
    const double least = o.async_checkpoint ? std::max(step_seconds, w.checkpoint_write_seconds) : step_seconds;
    const double young_daly = std::sqrt(2.0 * blocking / rate);
    w.checkpoint_interval_seconds = std::clamp(young_daly, least, std::max(least, steady_seconds));
    if (o.async_checkpoint && young_daly < least && least > step_seconds) {
      w.interval_note = fmt::format("Young-Daly's {:.4g} s raised to the background write's {:.4g} s: an "
                                    "asynchronous save waits for the previous write to end",
                                    young_daly, least);
    }
  } else {
    w.checkpoint_interval_seconds = steady_seconds;  // nothing fails: one save at the end
  }
  const double tau = std::max(w.checkpoint_interval_seconds, 1e-9);
  if (o.async_checkpoint && w.checkpoint_write_seconds > tau && tau < steady_seconds) {
    // Megatron's async save finalizes the previous save before it starts the next: training
    // waits for the rest of a write longer than the interval.
    w.checkpoint_save_seconds = copy + (w.checkpoint_write_seconds - tau);
    w.interval_note = fmt::format("{}{}each asynchronous save waits {:.4g} s for the previous write ({:.4g} s, longer "
                                  "than the {:.4g} s interval; Megatron's async save ends the previous one first)",
                                  w.interval_note, w.interval_note.empty() ? "" : "; ",
                                  w.checkpoint_write_seconds - tau, w.checkpoint_write_seconds, tau);
  }
  const double saves = std::floor(steady_seconds / tau);
  w.evaluations = o.eval_interval_steps > 0 ? std::floor(steps / double(o.eval_interval_steps)) : 0.0;
  const double restart = o.restart_minutes * 60.0;
  // An interruption loses the work since the last save: half an interval on average, and no
  // more than half the run when the interval is longer than the run.
  const double lost = std::min(tau, steady_seconds) / 2.0;
  const double denominator = 1.0 - rate * (restart + lost);
  if (!(denominator > 0)) {
    w.makes_progress = false;
    return w;
  }
  w.checkpoint_seconds = saves * w.checkpoint_save_seconds;
  w.eval_seconds = w.evaluations * o.eval_minutes * 60.0;
  w.wall_seconds = (steady_seconds + w.checkpoint_seconds + w.eval_seconds) / denominator;
  w.interruptions = rate * w.wall_seconds;
  w.restart_seconds = w.interruptions * restart;
  w.lost_work_seconds = w.interruptions * lost;
  w.wall_days = w.wall_seconds / 86400.0;
  w.wall_gpu_hours = w.wall_seconds * gpus / 3600.0;
  w.goodput = w.wall_seconds > 0 ? steady_seconds / w.wall_seconds : 1.0;
  w.costliest = costliest_of(w);
  return w;
}

}  // namespace moeplan

#include "moeplan/cluster/whole_training.hpp"

#include <algorithm>
#include <cmath>

namespace moeplan {

WholeTraining whole_training(double steady_seconds, double step_seconds, int gpus, double checkpoint_bytes_per_gpu,
                             const WholeTrainingOptions& o) {
  WholeTraining w;
  w.steady_seconds = steady_seconds;
  w.checkpoint_bytes_per_gpu = checkpoint_bytes_per_gpu;
  const double rate = o.interruptions_per_gpu_hour * gpus / 3600.0;  // λ, per second of the job
  const double sync_save = o.checkpoint_write_gb_per_s > 0 ? checkpoint_bytes_per_gpu / (o.checkpoint_write_gb_per_s * 1e9) : 0;
  w.checkpoint_save_seconds = o.async_checkpoint ? sync_save * k_async_blocking_fraction : sync_save;
  w.interval_from_young_daly = !o.checkpoint_interval_minutes;
  if (o.checkpoint_interval_minutes) {
    w.checkpoint_interval_seconds = *o.checkpoint_interval_minutes * 60.0;
  } else if (rate > 0) {
    // Young–Daly: the interval that minimises saves plus lost work, sqrt(2 × save × MTBF),
    // at least one step (a save falls between steps), at most the run (one save at its end).
    w.checkpoint_interval_seconds = std::clamp(std::sqrt(2.0 * w.checkpoint_save_seconds / rate), step_seconds,
                                               std::max(step_seconds, steady_seconds));
  } else {
    w.checkpoint_interval_seconds = steady_seconds;  // nothing fails: one save at the end
  }
  const double tau = std::max(w.checkpoint_interval_seconds, 1e-9);
  const double saves = std::floor(steady_seconds / tau);
  const double evals = o.eval_interval_steps > 0 && step_seconds > 0
                           ? std::floor(steady_seconds / step_seconds / double(o.eval_interval_steps))
                           : 0.0;
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
  w.eval_seconds = evals * o.eval_minutes * 60.0;
  w.wall_seconds = (steady_seconds + w.checkpoint_seconds + w.eval_seconds) / denominator;
  w.interruptions = rate * w.wall_seconds;
  w.restart_seconds = w.interruptions * restart;
  w.lost_work_seconds = w.interruptions * lost;
  w.wall_days = w.wall_seconds / 86400.0;
  w.wall_gpu_hours = w.wall_seconds * gpus / 3600.0;
  w.goodput = w.wall_seconds > 0 ? steady_seconds / w.wall_seconds : 1.0;
  const std::pair<double, const char*> losses[] = {{w.restart_seconds, "restarts"},
                                                   {w.lost_work_seconds, "lost work"},
                                                   {w.checkpoint_seconds, "checkpoint saves"},
                                                   {w.eval_seconds, "evaluations"}};
  const auto* most = std::max_element(std::begin(losses), std::end(losses),
                                      [](const auto& a, const auto& b) { return a.first < b.first; });
  w.costliest = most->first > 0 ? most->second : "none";
  return w;
}

}  // namespace moeplan

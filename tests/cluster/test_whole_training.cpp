// A whole training's wall time (src/cluster/whole_training.cpp, docs/cluster.md "Whole
// training"): interruptions, restarts, lost work, checkpoint saves and evaluations on top of
// the steady state, each checked by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "moeplan/cluster/whole_training.hpp"

using namespace moeplan;

TEST_CASE("whole training: Young-Daly interval, saves, restarts and lost work, by hand") {
  // 1,000 GPUs at 1e-4 interruptions per GPU-hour: λ = 0.1 an hour, MTBF 36,000 s. A save of
  // 60e9 bytes per GPU at 1 GB/s blocks 60 s; Young-Daly τ = sqrt(2 × 60 × 36,000) = 2,078.46 s.
  // 10 days of steps (864,000 s) hold floor(864,000 / 2,078.46) = 415 saves, 24,900 s; each
  // interruption costs 600 s of restart and τ/2 = 1,039.23 s of lost work:
  // W = (864,000 + 24,900) / (1 − (600 + 1,039.23) / 36,000) = 888,900 / 0.954466 = 931,306 s.
  WholeTrainingOptions o;
  o.interruptions_per_gpu_hour = 1e-4;
  o.restart_minutes = 10;
  o.checkpoint_write_gb_per_s = 1.0;
  const WholeTraining w = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, o);
  REQUIRE(w.makes_progress);
  const double tau = std::sqrt(2.0 * 60.0 * 36000.0);
  CHECK(w.checkpoint_save_seconds == doctest::Approx(60.0));
  CHECK(w.checkpoint_interval_seconds == doctest::Approx(tau));
  CHECK(tau == doctest::Approx(2078.46).epsilon(1e-5));
  CHECK(w.interval_from_young_daly);
  CHECK(w.checkpoint_seconds == doctest::Approx(415 * 60.0));
  const double wall = 888900.0 / (1.0 - (600.0 + tau / 2.0) / 36000.0);
  CHECK(wall == doctest::Approx(931306).epsilon(1e-5));
  CHECK(w.wall_seconds == doctest::Approx(wall));
  CHECK(w.interruptions == doctest::Approx(wall / 36000.0));
  CHECK(w.restart_seconds == doctest::Approx(wall / 36000.0 * 600.0));
  CHECK(w.lost_work_seconds == doctest::Approx(wall / 36000.0 * tau / 2.0));
  // The parts add up to the wall time.
  CHECK(w.steady_seconds + w.checkpoint_seconds + w.restart_seconds + w.lost_work_seconds + w.eval_seconds ==
        doctest::Approx(w.wall_seconds));
  CHECK(w.goodput == doctest::Approx(864000.0 / wall));
  CHECK(w.wall_days == doctest::Approx(wall / 86400));
  CHECK(w.wall_gpu_hours == doctest::Approx(wall * 1000 / 3600));
  // 25.9 interruptions: 26,900 s of lost work beat 15,500 s of restarts and 24,900 s of saves.
  CHECK(w.costliest == "lost work");
}

TEST_CASE("whole training: a given interval, asynchronous saves, evaluations, no failures") {
  WholeTrainingOptions o;
  o.interruptions_per_gpu_hour = 1e-4;
  o.checkpoint_write_gb_per_s = 1.0;
  o.checkpoint_interval_minutes = 60;
  o.async_checkpoint = true;
  const WholeTraining w = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, o);
  REQUIRE(w.makes_progress);
  CHECK_FALSE(w.interval_from_young_daly);
  CHECK(w.checkpoint_interval_seconds == doctest::Approx(3600));
  // --async-save blocks for the copy to host at 26.0 GB/s (NeMo Automodel PR 635: 14.05 GB a
  // GPU in 0.54 s): 60 GB in 2.306 s, whatever the storage writes at; the 60 s write ends long
  // before the next save, an hour later.
  CHECK(WholeTrainingOptions{}.host_copy_gb_per_s == doctest::Approx(26.02).epsilon(1e-3));
  CHECK(w.checkpoint_save_seconds == doctest::Approx(60e9 / (112.4e9 / 8 / 0.54)));
  CHECK(w.checkpoint_save_seconds == doctest::Approx(2.306).epsilon(1e-3));
  CHECK(w.checkpoint_seconds == doctest::Approx(240 * 2.306).epsilon(1e-3));
  CHECK(w.interval_note.empty());
  o.checkpoint_write_gb_per_s = 100.0;  // a faster store: the same blocking copy
  CHECK(whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, o).checkpoint_save_seconds ==
        doctest::Approx(w.checkpoint_save_seconds));
  // An evaluation of 5 minutes every 1,000 steps of 10 s: 86 of them.
  WholeTrainingOptions e;
  e.interruptions_per_gpu_hour = 0;
  e.checkpoint_write_gb_per_s = 1.0;
  e.eval_interval_steps = 1000;
  e.eval_minutes = 5;
  const WholeTraining v = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, e);
  REQUIRE(v.makes_progress);
  CHECK(v.eval_seconds == doctest::Approx(86 * 300.0));
  CHECK(v.interruptions == 0);
  CHECK(v.lost_work_seconds == 0);
  CHECK(v.checkpoint_seconds == doctest::Approx(60.0));  // nothing fails: one save, at the end
  CHECK(v.wall_seconds == doctest::Approx(864000.0 + 86 * 300.0 + 60.0));
  CHECK(v.costliest == "evaluations");
}

TEST_CASE("whole training: the default rate is Llama 3's, and a cluster that fails faster than it restarts makes no progress") {
  // Llama 3 (arXiv 2407.21783, Sec. 3.3.4): 419 unexpected interruptions in 54 days on 16,384
  // H100: one per 50,700 GPU-hours.
  CHECK(1.0 / WholeTrainingOptions{}.interruptions_per_gpu_hour == doctest::Approx(50700).epsilon(0.001));
  // On Llama 3's cluster and days with 10-minute restarts: 419 interruptions' restarts alone
  // are 70 of the 1,296 hours, and the goodput stays above Llama 3's "> 90 %" only with
  // checkpoints this cheap.
  const WholeTraining llama = whole_training(54 * 86400.0 * 0.93, 10.0, 54 * 8640.0 * 0.93, 16384, 4e9, WholeTrainingOptions{});
  REQUIRE(llama.makes_progress);
  CHECK(llama.goodput > 0.9);
  CHECK(llama.goodput < 0.97);
  WholeTrainingOptions broken;
  broken.interruptions_per_gpu_hour = 0.01;  // 16,384 GPUs: one every 22 s, a restart takes 600
  const WholeTraining stuck = whole_training(86400.0, 10.0, 8640.0, 16384, 4e9, broken);
  CHECK_FALSE(stuck.makes_progress);
  // The checkpoint does not depend on failures: its size and save time are still given.
  CHECK(stuck.checkpoint_bytes_per_gpu == 4e9);
  CHECK(stuck.checkpoint_save_seconds == doctest::Approx(4e9 / (WholeTrainingOptions{}.checkpoint_write_gb_per_s * 1e9)));
}

TEST_CASE("whole training: an interval longer than the run loses at most half the run, and Young-Daly stops at the run") {
  // 355 minutes of steps, --checkpoint-interval 10,000 minutes: an interruption loses half the
  // run on average (177.5 minutes), not half the interval; no save falls inside it.
  WholeTrainingOptions o;
  o.interruptions_per_gpu_hour = 1e-4;
  o.checkpoint_interval_minutes = 1e4;
  const double T = 355 * 60.0;
  const WholeTraining w = whole_training(T, 1.0, T, 16, 1e9, o);
  REQUIRE(w.makes_progress);
  CHECK(w.checkpoint_seconds == 0);
  CHECK(w.lost_work_seconds == doctest::Approx(w.interruptions * T / 2));
  // A failure rate so small that Young-Daly's interval passes the run: one save, at its end.
  WholeTrainingOptions rare;
  rare.interruptions_per_gpu_hour = 1e-300;
  const WholeTraining r = whole_training(T, 1.0, T, 16, 1e9, rare);
  CHECK(r.checkpoint_interval_seconds == doctest::Approx(T));
  CHECK(r.goodput <= 1.0);
  // More failures never raise the goodput.
  WholeTrainingOptions often = rare;
  often.interruptions_per_gpu_hour = 1e-5;
  CHECK(whole_training(T, 1.0, T, 16, 1e9, often).goodput <= r.goodput);
}

TEST_CASE("whole training: a given interval under a step is one step, and an async save waits for a longer write") {
  // 10 days of 10 s steps, --checkpoint-interval 0.01 min (0.6 s): one save a step, not 1.44
  // million: 86,400 saves of 60 s (60 GB at 1 GB/s) = 5,184,000 s.
  WholeTrainingOptions o;
  o.interruptions_per_gpu_hour = 0;
  o.checkpoint_write_gb_per_s = 1.0;
  o.checkpoint_interval_minutes = 0.01;
  const WholeTraining w = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, o);
  REQUIRE(w.makes_progress);
  CHECK(w.checkpoint_interval_seconds == 10.0);
  CHECK(w.checkpoint_seconds == doctest::Approx(86400 * 60.0));
  CHECK(w.interval_note.find("under one step") != std::string::npos);
  // Asynchronous, every step: each save copies for 2.306 s, then waits for the rest of the
  // previous 60 s write, 60 - 10 = 50 s (Megatron's async save ends the previous one first):
  // 86,400 x 52.306 s.
  o.async_checkpoint = true;
  const WholeTraining a = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, o);
  CHECK(a.checkpoint_write_seconds == doctest::Approx(60.0));
  CHECK(a.checkpoint_save_seconds == doctest::Approx(2.306 + 50.0).epsilon(1e-4));
  CHECK(a.checkpoint_seconds == doctest::Approx(86400 * 52.306).epsilon(1e-4));
  CHECK(a.interval_note.find("waits 50 s for the previous write") != std::string::npos);
  // Young-Daly under async saves is at least the write: 1,000 GPUs at 1e-4 an hour (MTBF
  // 36,000 s), sqrt(2 x 2.306 x 36,000) = 407.5 s, above the 60 s write: kept. At a write of
  // 600 s (0.1 GB/s) it is raised to 600 s and said so.
  WholeTrainingOptions y;
  y.interruptions_per_gpu_hour = 1e-4;
  y.checkpoint_write_gb_per_s = 1.0;
  y.async_checkpoint = true;
  const WholeTraining yd = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, y);
  CHECK(yd.checkpoint_interval_seconds == doctest::Approx(std::sqrt(2 * 2.306 * 36000.0)).epsilon(1e-4));
  CHECK(yd.interval_note.empty());
  y.checkpoint_write_gb_per_s = 0.1;
  const WholeTraining slow = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, y);
  CHECK(slow.checkpoint_interval_seconds == doctest::Approx(600.0));
  CHECK(slow.checkpoint_save_seconds == doctest::Approx(2.306).epsilon(1e-3));  // no wait at the write's pace
  CHECK(slow.interval_note.find("raised to the background write") != std::string::npos);
}

TEST_CASE("whole training: evaluations are counted from the run's steps, and near-equal losses are both named") {
  // 864,000 s of steps, but 90,000 of them (a batch ramp's shorter steps among them): an
  // evaluation every 1,000 steps is 90, not floor(864,000 / 10 / 1,000) = 86.
  WholeTrainingOptions e;
  e.interruptions_per_gpu_hour = 0;
  e.eval_interval_steps = 1000;
  e.eval_minutes = 5;
  const WholeTraining v = whole_training(864000.0, 10.0, 90000.0, 1000, 60e9, e);
  CHECK(v.evaluations == 90);
  CHECK(v.eval_seconds == doctest::Approx(90 * 300.0));
  // Nothing fails: one 60 s save at the end (60 GB at 1 GB/s) and 86 evaluations (86,400
  // steps / 1,000). Evaluations of 3,600 s in all cost most alone; of 58 s in all they are
  // within 5 % of the save (57 s or more) and both are named, the larger first.
  WholeTrainingOptions t;
  t.interruptions_per_gpu_hour = 0;
  t.checkpoint_write_gb_per_s = 1.0;
  t.eval_interval_steps = 1000;
  t.eval_minutes = 3600.0 / 86.0 / 60.0;
  const WholeTraining one = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, t);
  CHECK(one.eval_seconds == doctest::Approx(3600.0));
  CHECK(one.costliest == "evaluations");
  t.eval_minutes = 58.0 / 86.0 / 60.0;
  const WholeTraining tie = whole_training(864000.0, 10.0, 86400.0, 1000, 60e9, t);
  CHECK(tie.checkpoint_seconds == doctest::Approx(60.0));
  CHECK(tie.eval_seconds == doctest::Approx(58.0));
  CHECK(tie.costliest == "checkpoint saves, evaluations");
}

// src/io/megatron_model_check.cpp: a launch script's model-size flags against the scored model,
// each judged as Megatron-LM builds the model from it (arguments.py, core_v0.15.0).
#include <doctest/doctest.h>

#include <string>

#include "moeplan/io/megatron_args.hpp"

#include "model/small_moe.hpp"

using namespace moeplan;

namespace {

// d 512, 8 layers (2 dense of width 1536), 16 experts of 128, top-2, one shared, 8 / 2 heads of 64.
ModelConfig checked_moe() { return test::small_moe(); }

std::optional<InputError> mismatch_for(const ModelConfig& m, const std::string& script) {
  const auto a = read_megatron_args(script, "run.sh");
  REQUIRE(a.has_value());
  return megatron_model_mismatch(*a, m, "run.sh");
}

std::optional<InputError> mismatch_of(const std::string& script) { return mismatch_for(checked_moe(), script); }

}  // namespace

TEST_CASE("megatron model check: the flags of the same model agree, the first that differs is named") {
  CHECK_FALSE(mismatch_of("--num-layers 8 --hidden-size 512 --num-attention-heads 8 --kv-channels 64\n"
                          "--ffn-hidden-size 1536 --num-experts 16 --moe-router-topk 2 --moe-ffn-hidden-size 128\n")
                  .has_value());
  const auto topk = mismatch_of("--num-layers 8\n--moe-router-topk 4 --hidden-size 1024\n");
  REQUIRE(topk.has_value());
  CHECK(topk->line == 2);
  CHECK(topk->key == "--moe-router-topk");
  CHECK(topk->reason == "4 but the scored model has 2 (K); is the script for another model?");
  // One shared expert of width 128: Megatron's SharedExpertMLP is one MLP of all of them.
  const auto shared = mismatch_of("--moe-shared-expert-intermediate-size 256\n");
  REQUIRE(shared.has_value());
  CHECK(shared->reason.starts_with("256 but the scored model has 128 (1 shared experts x 128)"));
}

TEST_CASE("megatron model check: a flag Megatron would not read is not judged") {
  // --num-query-groups is read only with --group-query-attention (one group per head without).
  CHECK_FALSE(mismatch_of("--num-query-groups 4\n").has_value());
  const auto gqa = mismatch_of("--group-query-attention --num-query-groups 4\n");
  REQUIRE(gqa.has_value());
  CHECK(gqa->key == "--num-query-groups");
  CHECK(gqa->reason.starts_with("4 but the scored model has 2 key/value heads"));
}

TEST_CASE("megatron model check: the output gate, RoPE's base and the norms' epsilon where the model states them") {
  ModelConfig m = checked_moe();
  const auto check = [&](const std::string& script) { return mismatch_for(m, script); };
  // A gate on a model without one, named at its line.
  const auto extra = check("--num-layers 8\n--attention-output-gate\n");
  REQUIRE(extra.has_value());
  CHECK(extra->key == "--attention-output-gate");
  CHECK(extra->line == 2);
  // A gated model: a script that states the shape must state the gate; one that states no shape
  // (a layout-only script) is not judged.
  m.gated_attention = true;
  CHECK_FALSE(check("--num-layers 8\n--attention-output-gate\n").has_value());
  const auto missing = check("--num-layers 8 --hidden-size 512\n");
  REQUIRE(missing.has_value());
  CHECK(missing->key == "--attention-output-gate");
  CHECK(missing->reason.starts_with("missing: the script states the model (--num-layers ...)"));
  CHECK_FALSE(check("--tensor-model-parallel-size 2\n").has_value());
  // RoPE's base and the epsilon: judged where both sides state them.
  m.rope_theta = 1e6;
  m.norm_eps = 1e-6;
  CHECK_FALSE(check("--rotary-base 1000000 --norm-epsilon 1e-06\n").has_value());
  CHECK_FALSE(check("--tensor-model-parallel-size 2\n").has_value());  // Megatron's defaults: not stated, not judged
  const auto base = check("--rotary-base 10000\n");
  REQUIRE(base.has_value());
  CHECK(base->key == "--rotary-base");
  CHECK(base->reason == "10000 but the scored model's RoPE base is 1000000 (rope_theta); is the script for another model?");
  const auto eps = check("--norm-epsilon 1e-5\n");
  REQUIRE(eps.has_value());
  CHECK(eps->key == "--norm-epsilon");
  // A second base for the sliding layers: Megatron's one base is not judged.
  m.rope_local_theta = 1e4;
  CHECK_FALSE(check("--rotary-base 10000\n").has_value());
  // Not a number of Megatron's type: the reader refuses it.
  CHECK_FALSE(read_megatron_args("--rotary-base 1e6\n", "run.sh").has_value());
  CHECK_FALSE(read_megatron_args("--norm-epsilon abc\n", "run.sh").has_value());
  CHECK_FALSE(read_megatron_args("--attention-output-gate true\n", "run.sh").has_value());
}

TEST_CASE("megatron model check: a script that states the shape without the base or the epsilon trains Megatron's defaults") {
  ModelConfig m = checked_moe();
  const auto check = [&](const std::string& script) { return mismatch_for(m, script); };
  const std::string shape = "--num-layers 8 --hidden-size 512\n";
  // The model states Megatron's own defaults (10000, 1e-5): nothing to say.
  m.rope_theta = 1e4;
  m.norm_eps = 1e-5;
  CHECK_FALSE(check(shape).has_value());
  // Another base: the script that leaves it out trains with 10000, named at the shape's line.
  m.rope_theta = 1e6;
  const auto base = check("--seq-length 4096\n" + shape);
  REQUIRE(base.has_value());
  CHECK(base->key == "--rotary-base");
  CHECK(base->line == 2);
  CHECK(base->reason == "missing: the script states the model (--num-layers ...) without it, so Megatron's default "
                        "10000 applies, but the scored model's RoPE base is 1000000 (rope_theta); is the script for "
                        "another model?");
  CHECK_FALSE(check(shape + "--rotary-base 1000000\n").has_value());
  CHECK_FALSE(check("--tensor-model-parallel-size 2\n").has_value());  // a layout-only script is not judged
  // Another epsilon, likewise.
  m.rope_theta = 1e4;
  m.norm_eps = 1e-6;
  const auto eps = check(shape);
  REQUIRE(eps.has_value());
  CHECK(eps->key == "--norm-epsilon");
  CHECK(eps->reason.starts_with("missing: the script states the model (--num-layers ...) without it, so Megatron's "
                                "default 1e-05 applies, but the scored model's norms use 1e-06"));
  CHECK_FALSE(check(shape + "--norm-epsilon 1e-6\n").has_value());
  // A fractional base no script can state (--rotary-base is an int; --emit megatron writes none
  // and says so): not judged, so the export reads back.
  m.norm_eps.reset();
  m.rope_theta = 1000000.5;
  CHECK_FALSE(check(shape).has_value());
  // A model that states no base, or two (Gemma 3's sliding layers), or no RoPE: not judged.
  m.norm_eps.reset();
  m.rope_theta = 1e6;
  m.rope_local_theta = 1e4;
  CHECK_FALSE(check(shape).has_value());
  m.rope_local_theta.reset();
  m.rope_theta.reset();
  CHECK_FALSE(check(shape).has_value());
}

TEST_CASE("megatron args: numbers as Python's int() and float() read them, a '+' and underscores between digits") {
  const auto a = read_megatron_args("--rotary-base 1_000_000 --norm-epsilon +1e-6 --num-layers +8\n", "run.sh");
  REQUIRE(a.has_value());
  CHECK(a->rotary_base == 1000000);
  CHECK(a->norm_epsilon == doctest::Approx(1e-6));
  CHECK(a->model_flags.front().value == 8);
  for (const char* bad : {"--rotary-base 1__000\n", "--rotary-base _1000\n", "--rotary-base 1000_\n",
                          "--norm-epsilon 1e-6_\n", "--rotary-base ++1000\n"}) {
    CAPTURE(bad);
    CHECK_FALSE(read_megatron_args(bad, "run.sh").has_value());
  }
}

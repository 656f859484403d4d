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

std::optional<InputError> mismatch_of(const std::string& script) {
  const auto a = read_megatron_args(script, "run.sh");
  REQUIRE(a.has_value());
  return megatron_model_mismatch(*a, checked_moe(), "run.sh");
}

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

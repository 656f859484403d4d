// Megatron-LM's --pipeline-model-parallel-layout grammar (pipeline_parallel_layer_layout.py,
// parse_str_to_list and validate_layer_layout), read into moeplan's stage split by hand.
#include <doctest/doctest.h>

#include "moeplan/cluster/stage_split.hpp"

using namespace moeplan;

TEST_CASE("pipeline layout: DeepSeek-V3's Et|(tt|)*30mL on PP 8 is VPP 4, ranks of 7, 8 and 6 layers") {
  // 32 stages: "Et", 30 x "tt", "mL". Stage i is VPP rank i / 8 of PP rank i % 8: rank 0 holds
  // stages 0, 8, 16, 24 (1 + 2 + 2 + 2 = 7 layers), rank 7 stages 7, 15, 23, 31 (2 + 2 + 2 + 0 = 6
  // and the MTP layer), ranks 1-6 four stages of 2 = 8. 7 + 6 x 8 + 6 = 61 = L.
  const auto p = parse_pipeline_layout("Et|(tt|)*30mL", 8, 61, 1);
  REQUIRE_MESSAGE(p.has_value(), p.error());
  CHECK(p->vpp == 4);
  CHECK(p->split.first == 7);
  CHECK(p->split.middle == 8);
  CHECK(p->split.last == 6);
  CHECK(p->mtp_layers == 1);
  // Megatron's docstring example, commas cosmetic: "Ettt|(tt|)*29,m|L" is 32 stages too, its MTP
  // layer alone on stage 30 (PP rank 6, "MTP standalone" in Megatron): moeplan times MTP on the
  // last rank, so it says so rather than time it there.
  const auto doc = parse_pipeline_layout("Ettt|(tt|)*29,m|L", 8, 61, 1);
  REQUIRE_FALSE(doc.has_value());
  CHECK(doc.error().find("MTP layers on the last rank's last virtual stage") != std::string::npos);
  // Without the MTP layer its stage 30 is empty: rank 6 holds 6 layers, ranks 1-5 8.
  const auto doc_plain = parse_pipeline_layout("Ettt|(tt|)*29,|L", 8, 61, 0);
  REQUIRE_FALSE(doc_plain.has_value());
  CHECK(doc_plain.error().find("PP rank 6 holds 6 decoder layers and rank 1 8") != std::string::npos);
  // "t*3" repeats one character: E t t t | t t t | ... on PP 2.
  const auto stars = parse_pipeline_layout("Et*3|t*3L", 2, 6, 0);
  REQUIRE_MESSAGE(stars.has_value(), stars.error());
  CHECK(stars->vpp == 1);
  CHECK(stars->split.first == 3);
  CHECK(stars->split.last == 3);
}

TEST_CASE("pipeline layout: each rule Megatron checks, and moeplan's own, fails by name") {
  const auto why = [](std::string_view text, int pp, int layers, int mtp) {
    const auto p = parse_pipeline_layout(text, pp, layers, mtp);
    return p ? std::string() : p.error();
  };
  CHECK(why("Et|(tt|)*29mL", 8, 61, 1).find("31 stages are not a multiple of PP 8") != std::string::npos);
  CHECK(why("tE|tL", 2, 2, 0).find("first layer must be the embedding") != std::string::npos);
  CHECK(why("Et|Lt", 2, 2, 0).find("last layer must be the loss") != std::string::npos);
  CHECK(why("Et|tt|L", 3, 4, 0).find("3 decoder layers t, the model has 4") != std::string::npos);
  CHECK(why("Et|tmL", 2, 2, 0).find("1 MTP layers m, the run trains 0") != std::string::npos);
  CHECK(why("Em|ttL", 2, 2, 1).find("decoder layers must be placed before MTP layers") != std::string::npos);
  CHECK(why("Et|Xt|L", 3, 2, 0).find("'X' is not a layer") != std::string::npos);
  // Middle ranks of different sizes: Megatron builds them; moeplan's stage model cannot hold them.
  CHECK(why("Et|t|tt|tL", 4, 5, 0).find("PP rank 2 holds 2 decoder layers and rank 1 1") != std::string::npos);
  CHECK(why("E|tt|tL", 3, 3, 0).find("PP rank 0 holds no decoder layer") != std::string::npos);
  // A hostile repeat is an error, not an allocation.
  CHECK(why("E(t|)*9999999L", 2, 2, 0).find("more than") != std::string::npos);
  CHECK(why("E(t|)*99999999L", 2, 2, 0).find("too large") != std::string::npos);
}

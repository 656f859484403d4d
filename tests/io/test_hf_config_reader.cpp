// src/io/hf_config_reader.cpp: the central config.json reader's errors point at the file's own
// key and line (moved from test_hf_config.cpp).
#include <doctest/doctest.h>

#include <string>

#include "moeplan/io/hf_config.hpp"

TEST_CASE("a nested model_type (DBRX's attn_config) is not the one the error points at") {
  // databricks/dbrx-base's config.json (keys sorted as published): attn_config and ffn_config
  // carry a model_type of their own before the top-level "model_type": "dbrx" on line 18.
  const std::string text = R"({
  "architectures": ["DbrxForCausalLM"],
  "attn_config": {
    "clip_qkv": 8,
    "kv_n_heads": 8,
    "model_type": "",
    "rope_theta": 500000
  },
  "d_model": 6144,
  "ffn_config": {
    "ffn_hidden_size": 10752,
    "model_type": "",
    "moe_jitter_eps": 0.01,
    "moe_loss_weight": 0.05,
    "moe_num_experts": 16,
    "moe_top_k": 4
  },
  "model_type": "dbrx",
  "n_heads": 48,
  "n_layers": 40,
  "tie_word_embeddings": false,
  "vocab_size": 100352
})";
  const auto dbrx = moeplan::parse_hf_config_json(text, "dbrx.json", "dbrx");
  REQUIRE(dbrx.has_value());  // read by model_type dbrx (its keys nested in attn_config, ffn_config)
  CHECK(dbrx->num_key_value_heads == 8);
  // The same file under a family moeplan does not read: the top-level key is the one named.
  std::string unknown = text;
  unknown.replace(unknown.find("\"model_type\": \"dbrx\""), 20, "\"model_type\": \"mpt\"");
  const auto m = moeplan::parse_hf_config_json(unknown, "mpt.json", "mpt");
  REQUIRE(!m.has_value());
  CHECK(m.error().key == "model_type");
  CHECK(m.error().line == 18);
  CHECK(m.error().column == 3);
  CHECK(m.error().reason.find("'mpt' is not a family moeplan can count") != std::string::npos);
  // Keys inside Llama 4's text_config are found there, not at the top level.
  const auto llama4 = moeplan::parse_hf_config_json(R"({
  "model_type": "llama4",
  "hidden_size": 5120,
  "text_config": {
    "model_type": "llama4_text",
    "hidden_size": true
  }
})", "llama4.json", "x");
  REQUIRE(!llama4.has_value());
  CHECK(llama4.error().key == "text_config.hidden_size");  // named with its object
  CHECK(llama4.error().line == 6);
}

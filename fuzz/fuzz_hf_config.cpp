// libFuzzer target: HuggingFace config.json, as `moeplan score config.json` reads it.
// Invariants: a parse that succeeds gives a config that validates; a failure names a reason
// and its source; a config `--emit hf-config` can write reads back with the same counts
// (N, N_a, embeddings and what the class builds beside N).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "moeplan/io/hf_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto m = moeplan::parse_hf_config_json(text, "fuzz.json", "fuzz");
  if (!m) {
    FUZZ_CHECK(!m.error().reason.empty(), "an input error has a reason");
    FUZZ_CHECK(m.error().source == "fuzz.json", "an input error names its source");
    return 0;
  }
  FUZZ_CHECK(!m->problem().has_value(), "a config that parses validates");
  const auto json = moeplan::to_hf_config_json(*m);
  if (!json) return 0;  // no class builds it: refused with a reason, never a wrong file
  const auto back = moeplan::parse_hf_config_json(*json, "export.json", "export");
  FUZZ_CHECK(back.has_value(), "an exported config.json reads back");
  const auto a = moeplan::count_parameters(*m);
  const auto b = moeplan::count_parameters(*back);
  FUZZ_CHECK(a.N == b.N && a.N_a == b.N_a && a.embedding == b.embedding, "the export counts the same");
  FUZZ_CHECK(moeplan::count_beside_n(*m).total == moeplan::count_beside_n(*back).total,
             "the export builds the same weights beside N");
  return 0;
}

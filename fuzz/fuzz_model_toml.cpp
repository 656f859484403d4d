// libFuzzer target: model config TOML (schema moeplan-model/1), as `moeplan score FILE` reads it.
// Invariants: a parse that succeeds gives a config that validates (problem() empty) and
// that every law and the GEMM shape derivation accept without crashing; a failure names a
// reason and its source.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "moeplan/model/gemm_shapes.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/planner/model_score.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto m = moeplan::parse_model_config(text, "fuzz.toml");
  if (!m) {
    FUZZ_CHECK(!m.error().reason.empty(), "an input error has a reason");
    FUZZ_CHECK(m.error().source == "fuzz.toml", "an input error names its source");
    (void)m.error().to_string();
    return 0;
  }
  FUZZ_CHECK(!m->problem().has_value(), "a config that parses validates");
  // Everything `score` computes from it.
  const moeplan::ModelScore s = moeplan::score_model(moeplan::builtin_laws(), *m);
  (void)s;
  (void)moeplan::model_gemms(*m, 8192);
  return 0;
}

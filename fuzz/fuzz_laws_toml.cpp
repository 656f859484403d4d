// libFuzzer target: laws TOML (docs/laws-schema.md), as `--laws FILE` reads it, overlaid on
// the built-in set. Invariants: a failure names a reason and its source; a success keeps
// every section's provenance and still evaluates the holistic law (paper 002) at a budget.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "moeplan/laws/laws_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const moeplan::LawSet& base = moeplan::builtin_laws();
  auto laws = moeplan::parse_laws(text, "fuzz.toml", base);
  if (!laws) {
    FUZZ_CHECK(!laws.error().reason.empty(), "an input error has a reason");
    FUZZ_CHECK(laws.error().source == "fuzz.toml", "an input error names its source");
    (void)laws.error().to_string();
  } else {
    FUZZ_CHECK(laws->provenance.size() >= base.provenance.size(),
               "an overlay never drops a section's provenance");
    (void)laws->holistic_sources();
  }
  // The complete paper-002 form is a second parser over the same text.
  auto holistic = moeplan::parse_holistic_laws(text, "fuzz.toml");
  if (!holistic) {
    FUZZ_CHECK(!holistic.error().reason.empty(), "an input error has a reason");
  }
  return 0;
}

// Free text from the user's files reaches the table, CSV and diagnostics without its control
// characters (issue 22, item 12): a model name with NUL, ESC or a line break shows escaped.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "output/printable.hpp"

using moeplan::cli::printable;

namespace {

bool has_control(const std::string& s, bool allow_newline) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n' && allow_newline) continue;
    if (c < 0x20 || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
      return true;
    }
  }
  return false;
}

// moe-mini with a name of NUL, ESC (a colour code), a line break and the C1 CSI.
std::filesystem::path evil_model() {
  const Run preset = run_moeplan({"presets", "show", "moe-mini"});
  REQUIRE(preset.code == 0);
  const std::string name_line = "name = \"MoE-mini\"";
  std::string text = preset.out;
  const auto at = text.find(name_line);
  REQUIRE(at != std::string::npos);
  text.replace(at, name_line.size(), R"(name = "evil\u0000x\u001b[31mred\nline\u009bz")");
  const auto path = temp_path("evil-name.toml");
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("printable: control characters become escapes, text and UTF-8 stay") {
  CHECK(printable("plain") == "plain");
  CHECK(printable(std::string("a\0b", 3)) == "a\\u0000b");
  CHECK(printable("\x1b[31mred") == "\\u001b[31mred");
  CHECK(printable("a\nb\tc\rd") == "a\\nb\\tc\\rd");
  CHECK(printable("a\nb", true) == "a\nb");
  CHECK(printable("\x7f") == "\\u007f");
  CHECK(printable("x\xc2\x9by") == "x\\u009by");            // C1 CSI, in UTF-8
  CHECK(printable("Gr\xc3\xb6\xc3\x9f" "e") == "Gr\xc3\xb6\xc3\x9f" "e");  // not C1: kept
  CHECK(printable("\xc2\xa0") == "\xc2\xa0");              // U+00A0 is not a control
}

TEST_CASE("a model name with control characters reaches table, CSV and stderr escaped") {
  const auto path = evil_model();
  const Run table = run_moeplan({"score", path.string()});
  REQUIRE_MESSAGE(table.code == 0, table.err);
  CHECK_FALSE(has_control(table.out, true));
  CHECK(table.out.find("evil\\u0000x\\u001b[31mred\\nline\\u009bz") != std::string::npos);
  CHECK_FALSE(has_control(table.err, true));
  CHECK(table.err.find("note: evil\\u0000x") != std::string::npos);
  CHECK(table.err.find("\nline") == std::string::npos);  // the name's line break stays escaped

  const Run side_by_side = run_moeplan({"score", path.string(), "moe-mini"});
  REQUIRE(side_by_side.code == 0);
  CHECK_FALSE(has_control(side_by_side.out, true));

  const Run csv = run_moeplan({"score", path.string(), "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK_FALSE(has_control(csv.out, true));
  CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == 2);  // header + one row, unsplit

  // JSON keeps the exact name: it escapes, and a parser gives the bytes back.
  const Run json = run_moeplan({"score", path.string(), "--format", "json"});
  REQUIRE(json.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  CHECK(doc[0]["model"]["name"].get<std::string>() == std::string("evil") + '\0' + "x\x1b[31mred\nline\xc2\x9b" + "z");
  std::filesystem::remove(path);
}

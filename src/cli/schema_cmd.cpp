// `moeplan schema [COMMAND]`: the JSON Schema (draft 2020-12) of a command's JSON output, as
// shipped in share/moeplan/schemas/ and compiled into the binary; without COMMAND the list.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app.hpp"
#include "command.hpp"
#include "schema_files.hpp"

namespace moeplan::cli {

namespace {

constexpr std::string_view k_schema_suffix = ".schema.json";

/// The command a schema file describes: its name less ".schema.json".
std::string schema_name(const EmbeddedFile& f) {
  const std::string_view path = f.path;
  return std::string(path.substr(0, path.size() - k_schema_suffix.size()));
}

/// The "title" of a schema, read from its text (each file states it on one line).
std::string schema_title(const EmbeddedFile& f) {
  constexpr std::string_view key = "\"title\": \"";
  const auto at = f.text.find(key);
  if (at == std::string_view::npos) return "";
  const auto from = at + key.size();
  return std::string(f.text.substr(from, f.text.find('"', from) - from));
}

int run_schema(const std::string& name, Io& io) {
  const std::vector<EmbeddedFile>& files = detail::embedded_schema_files();
  if (name.empty()) {
    for (const EmbeddedFile& f : files) io.out << fmt::format("{:<8} {}\n", schema_name(f), schema_title(f));
    return static_cast<int>(ExitStatus::ok);
  }
  std::vector<std::string> names;
  for (const EmbeddedFile& f : files) {
    if (schema_name(f) == name) {
      io.out << f.text;
      return static_cast<int>(ExitStatus::ok);
    }
    names.push_back(schema_name(f));
  }
  return fail(io, ExitStatus::usage,
              fmt::format("schema: no schema for '{}'; there are: {}", name, fmt::join(names, ", ")));
}

}  // namespace

Command schema_command() {
  return {"schema", "Print the JSON Schema of a command's JSON output (schema COMMAND), or list them",
          [](CLI::App& sub) -> std::function<int(Io&)> {
            auto name = std::make_shared<std::string>();
            sub.add_option("command", *name, "Command whose JSON output the schema describes (suggest, score, ...)");
            sub.footer(
                "Each number has its unit (the keyword \"unit\"; \"1\" a pure number) and a description.\n"
                "Examples:\n"
                "  moeplan schema\n"
                "  moeplan schema suggest > suggest.schema.json\n"
                "  moeplan schema score | jq '.[\"$defs\"].memory.properties.total'");
            return [name](Io& io) { return run_schema(*name, io); };
          }};
}

}  // namespace moeplan::cli

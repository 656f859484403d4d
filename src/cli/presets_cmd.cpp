// `moeplan presets [show NAME]`: list the laws and models compiled into the binary, or print
// one so a user can copy and edit it (then pass it with --laws or to score/bench).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>
#include <sstream>
#include <toml++/toml.h>

#include "app.hpp"
#include "command.hpp"
#include "common_flags.hpp"
#include "moeplan/base/presets.hpp"
#include "output/emitters.hpp"
#include "output_file.hpp"

namespace moeplan::cli {

namespace {

struct PresetsFlags {
  std::string format = "table";
  std::string show;  ///< NAME of `presets show NAME`
  std::string output = "-";
};

struct PresetEntry {
  std::string kind;         ///< "laws" or "models"
  std::string name;         ///< file stem: what `show`, `score` and `bench` accept
  std::string path;         ///< relative to presets/
  std::string description;  ///< the file's own description key
};

std::vector<PresetEntry> entries() {
  std::vector<PresetEntry> out;
  for (const EmbeddedFile& f : embedded_presets()) {
    PresetEntry e;
    e.path = std::string(f.path);
    const auto slash = e.path.find('/');
    e.kind = e.path.substr(0, slash);
    e.name = e.path.substr(slash + 1, e.path.rfind(".toml") - slash - 1);
    // Embedded presets are parsed by the test suite, so this cannot fail in a release.
    try {
      const toml::table doc = toml::parse(f.text, e.path);
      e.description = doc["description"].value_or(std::string());
    } catch (const toml::parse_error&) {
      e.description = "(unreadable)";
    }
    out.push_back(std::move(e));
  }
  return out;
}

/// NAME, KIND/NAME or the path with .toml: one preset, or nullptr.
const EmbeddedFile* find(const std::string& name) {
  for (const EmbeddedFile& f : embedded_presets()) {
    const std::string path(f.path);
    const std::string stem = path.substr(0, path.rfind(".toml"));
    if (name == path || name == stem || name == stem.substr(stem.find('/') + 1)) return &f;
  }
  return nullptr;
}

int run_presets(const PresetsFlags& f, Io& io) {
  const std::vector<PresetEntry> list = entries();  // parses every preset once
  std::string text;
  if (!f.show.empty()) {
    // A preset is its TOML, as embedded: no other format is made of it (the list has four).
    if (f.format != "table" && f.format != "toml") {
      return fail(io, ExitStatus::usage,
                  fmt::format("presets show prints the preset's TOML as embedded: --format toml (or table, the "
                              "default); --format {} lists the presets, without show",
                              f.format));
    }
    const EmbeddedFile* p = find(f.show);
    if (!p) {
      std::string names;
      for (const PresetEntry& e : list) names += (names.empty() ? "" : ", ") + e.name;
      return fail(io, ExitStatus::usage,
                  fmt::format("presets show: no preset named '{}'; there are: {}", f.show, names));
    }
    text = std::string(p->text);
  } else {
    Report report;
    for (const PresetEntry& e : list) {
      report.sections.push_back({e.kind + "." + e.name, fmt::format("{} ({})", e.name, e.kind),
                                 {{"kind", "", "", e.kind, ""},
                                  {"name", "", "", e.name, "for presets show, score, bench"},
                                  {"path", "", "", e.path, "inside the binary (presets/)"},
                                  {"description", "", "", e.description, ""}}});
    }
    std::ostringstream out;
    if (parse_format(f.format) == Format::table) {
      // One line per preset reads better than a section each.
      for (const PresetEntry& e : list) {
        out << fmt::format("{:<7} {:<20} {}\n", e.kind, e.name, e.description);
      }
    } else {
      emit(report, parse_format(f.format), out);
    }
    text = out.str();
  }
  return deliver(f.output, text, io);
}

}  // namespace

Command presets_command() {
  return {"presets", "List the embedded laws and model presets, or print one (presets show NAME)",
          [](CLI::App& sub) -> std::function<int(Io&)> {
            auto f = std::make_shared<PresetsFlags>();
            add_format_flags(sub, f->format, f->output);
            CLI::App* show = sub.add_subcommand("show", "Print one preset's TOML, to copy and edit");
            show->add_option("name", f->show, "Preset name (e.g. holistic, deepseek-v3.1)")
                ->required()
                ->check(CLI::Validator(
                    [](const std::string& name) { return name.empty() ? std::string("a preset name, not empty") : std::string(); },
                    "NAME"));
            sub.require_subcommand(0, 1);
            sub.footer(
                "Examples:\n"
                "  moeplan presets\n"
                "  moeplan presets show holistic > my-laws.toml   # edit, then --laws my-laws.toml\n"
                "  moeplan presets show moe-mini > my-model.toml  # edit, then score my-model.toml");
            return [f](Io& io) { return run_presets(*f, io); };
          }};
}

}  // namespace moeplan::cli

#include "typos.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace moeplan::cli {

namespace {

// "No_Bench" and "no-bench" are one word to a person: lower case, separators dropped.
std::string normalised(std::string_view word) {
  std::string out;
  for (char c : word) {
    if (c != '-' && c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// Every long name (without "--") of `app`'s options and those of its nested subcommands.
void collect_long_names(const CLI::App& app, std::vector<std::string>& names) {
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) names.push_back(l);
  }
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
    collect_long_names(*s, names);
  }
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> nearest_words(std::string_view word, const std::vector<std::string>& known) {
  std::vector<std::string> same, prefixed, near;
  std::size_t best = 3;  // at most 2 edits away
  for (const std::string& k : known) {
    if (k == word) continue;  // not a typo of itself
    if (normalised(k) == normalised(word)) {
      same.push_back(k);
    } else if (!word.empty() && k.starts_with(word)) {
      prefixed.push_back(k);
    } else if (const std::size_t d = edit_distance(word, k); d < best && d < word.size()) {
      best = d;
      near = {k};
    } else if (d == best && best < 3 && d < word.size()) {  // 3 is the bar, not a match
      near.push_back(k);
    }
  }
  const std::vector<std::string>& pick = !same.empty() ? same : !prefixed.empty() ? prefixed : near;
  std::vector<std::string> out;
  for (const std::string& w : pick) {
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);  // -o and --output share a name
  }
  return out;
}

std::string either_of(const std::vector<std::string>& words, std::string_view prefix) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    out += fmt::format("{}{}{}", i == 0 ? "" : i + 1 == words.size() ? " or " : ", ", prefix, words[i]);
  }
  return out;
}

const CLI::App* named_subcommand(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word.starts_with('-')) continue;  // the global flags before it take no value
    for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
      if (s->get_name() == word) return s;
    }
    return nullptr;
  }
  return nullptr;
}

std::string unknown_flag_problem(const CLI::App& app, const CLI::App& sub, int argc,
                                 const char* const* argv) {
  std::vector<std::string> known;
  for (const CLI::Option* o : app.get_options()) {  // --help, --version, --quiet, --verbose
    for (const std::string& l : o->get_lnames()) known.push_back(l);
  }
  collect_long_names(sub, known);
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;  // what follows is positional
    if (!arg.starts_with("--") || arg.size() == 2) continue;
    const std::string_view name = arg.substr(2, arg.find('=') == std::string_view::npos ? arg.npos : arg.find('=') - 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::vector<std::string> nearest = nearest_words(name, known);
    return fmt::format("unknown flag --{}{}", name,
                       nearest.empty() ? "" : " (did you mean " + either_of(nearest, "--") + "?)");
  }
  return "";
}

}  // namespace moeplan::cli

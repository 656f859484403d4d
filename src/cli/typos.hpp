#pragma once
// "Did you mean": the nearest known word to a mistyped command or flag, and the check that
// names a flag the subcommand in use does not have before CLI11 gets to report something
// else (a missing --flops hides the mistyped --flop next to it).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace moeplan::cli {

/// Levenshtein distance (insertions, deletions, substitutions).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The words of `known` that `word` most likely meant, best first, in this order of trust:
/// the same word once case, '-' and '_' are ignored ("nobench" -> "no-bench", "topk" ->
/// "top-k"); the words `word` is a prefix of ("flop" -> "flops"); else those nearest within
/// 2 edits ("fromat" -> "format"), never as many edits as `word` has letters. Empty: none.
std::vector<std::string> nearest_words(std::string_view word, const std::vector<std::string>& known);

/// "--flops" or "--top-k or --top": the words, each after `prefix`, for a message.
std::string either_of(const std::vector<std::string>& words, std::string_view prefix);

/// The subcommand named on the command line (the first word that is not a flag, when it
/// names one of `app`'s subcommands), or nullptr.
const CLI::App* named_subcommand(const CLI::App& app, int argc, const char* const* argv);

/// "" when every long flag ("--name" or "--name=value", up to a lone "--") is one that
/// `app` or `sub` (with its nested subcommands) knows; else the message for the first one
/// that is not: "unknown flag --flop (did you mean --flops?)".
std::string unknown_flag_problem(const CLI::App& app, const CLI::App& sub, int argc,
                                 const char* const* argv);

}  // namespace moeplan::cli

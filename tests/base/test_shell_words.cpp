// split_shell_commands: a launch script's words as a POSIX shell splits them, the one splitter
// of the Megatron launch-script and serve-command readers.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "moeplan/base/shell_words.hpp"

using namespace moeplan;

namespace {

std::vector<std::vector<std::string>> texts(const ShellSplit& s) {
  std::vector<std::vector<std::string>> out;
  for (const ShellCommand& c : s.commands) {
    out.emplace_back();
    for (const ShellWord& w : c) out.back().push_back(w.text);
  }
  return out;
}

}  // namespace

TEST_CASE("shell words: quotes group, comments end at the line, a backslash-newline joins lines") {
  const ShellSplit s = split_shell_commands("torchrun pretrain.py \\\n  --lr '3e-4' \"--a b\" # a comment\n--x 1\n");
  using V = std::vector<std::vector<std::string>>;
  CHECK(texts(s) == V{{"torchrun", "pretrain.py", "--lr", "3e-4", "--a b"}, {"--x", "1"}});
  REQUIRE(s.commands.size() == 2);
  CHECK(s.commands[0][2].line == 2);  // --lr, after the continuation
  CHECK(s.commands[1][0].line == 3);
  CHECK(s.unterminated_quote_line == 0);
}

TEST_CASE("shell words: operators end commands, redirections are no words, expansions are marked") {
  const ShellSplit s = split_shell_commands("A=(--tp 2) ; vllm serve m --x $HOME 2>&1 > log.txt && echo ${X}|cat\n");
  using V = std::vector<std::vector<std::string>>;
  CHECK(texts(s) == V{{"A="}, {"--tp", "2"}, {"vllm", "serve", "m", "--x", "$HOME"}, {"echo", "${X}"}, {"cat"}});
  CHECK(s.commands[2][4].expands);
  CHECK_FALSE(s.commands[2][3].expands);
  CHECK(s.commands[3][1].expands);
}

TEST_CASE("shell words: lines count from the first line given, and an open quote is reported") {
  const ShellSplit s = split_shell_commands("x\n'open\nquote", 10);
  REQUIRE(s.commands.size() == 2);
  CHECK(s.commands[0][0].line == 10);
  CHECK(s.commands[1][0].line == 11);
  CHECK(s.unterminated_quote_line == 11);
  // {a,b} outside quotes becomes several words in the shell: marked.
  const ShellSplit b = split_shell_commands("x --f={a,b} '{c,d}'");
  REQUIRE(b.commands.size() == 1);
  CHECK(b.commands[0][1].braces);
  CHECK_FALSE(b.commands[0][2].braces);
}

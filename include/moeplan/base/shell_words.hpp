#pragma once
/// Shell words of a launch script, split as a POSIX shell splits them: one splitter for every
/// reader of command lines (a Megatron-LM launch script, a vLLM or SGLang serve command).
#include <string>
#include <string_view>
#include <vector>

namespace moeplan {

struct ShellWord {
  std::string text;
  int line = 1;
  bool expands = false;  ///< holds a $VAR, ${...}, $(...), $((...)) or `...` the shell would expand
  bool braces = false;   ///< holds unquoted {a,b}: the shell's brace expansion makes it several words
};

/// One simple command: its words, in order.
using ShellCommand = std::vector<ShellWord>;

struct ShellSplit {
  std::vector<ShellCommand> commands;
  int unterminated_quote_line = 0;  ///< the line of a quote the text never closes; 0: none
};

/// Splits `text` into commands as a shell does: an unquoted newline, `;`, `&`, `&&`, `||`, `|`
/// or a parenthesis ends a command; a backslash before the line end joins lines (also before a
/// CRLF); a backslash escapes the next character; quotes group (their text kept, newlines
/// included); an unquoted # at a word's start comments out the rest of the line (not its
/// newline). A redirection (`>`, `>>`, `2>&1`, `<`, `&>`) and its target are no words of the
/// command. Expansions ($VAR, $(...), `...`) are kept as written and marked. Lines count from
/// `first_line`.
ShellSplit split_shell_commands(std::string_view text, int first_line = 1);

}  // namespace moeplan

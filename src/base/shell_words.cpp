// Shell words of a launch script (include/moeplan/base/shell_words.hpp).
#include "moeplan/base/shell_words.hpp"

#include <algorithm>
#include <cctype>

namespace moeplan {

namespace {

// Splits the text into commands as a shell does: an unquoted newline, `;`, `&`, `&&`, `||`, `|`
// or a parenthesis ends a command; a backslash before the line end joins lines (also before a
// CRLF); a backslash escapes the next character; quotes group; an unquoted # at a word's start
// comments out the rest of the line (not its newline). A redirection (`>`, `>>`, `2>&1`, `<`,
// `&>`) and its target are no words of the command. Expansions ($VAR, $(...), `...`) are kept as
// written and marked; an unterminated quote is remembered (unterminated_quote_line).
class ShellCommandSplitter {
 public:
  explicit ShellCommandSplitter(std::string_view t, int first_line) : t_(t), line_(first_line), start_(first_line) {}

  std::vector<ShellCommand> split() {
    for (i_ = 0; i_ < t_.size(); ++i_) {
      const char c = t_[i_];
      if (quote_) {
        in_quote(c);
      } else if (c == '\\') {
        backslash();
      } else if (c == '#' && !in_word_) {
        while (i_ + 1 < t_.size() && t_[i_ + 1] != '\n') ++i_;  // the newline still ends the command
      } else if (c == ' ' || c == '\t' || c == '\r') {
        end_word();
      } else if (c == '\n') {
        end_command();
        ++line_;
      } else if (c == ';' || c == '|' || c == '(' || c == ')' || (c == '&' && next() != '>')) {
        end_command();
        if ((c == '&' || c == '|' || c == ';') && next() == c) ++i_;  // &&, ||, ;;
        if (c == '|' && next() == '&') ++i_;                           // |&
      } else if (c == '>' || c == '<' || c == '&') {
        redirection(c);
      } else if (c == '$' || c == '`') {
        begin_word();
        expansion(c);
      } else {
        if (c == '\'' || c == '"') {
          quote_ = c;
          quote_line_ = line_;
        } else {
          cur_ += c;
          braces(c);
        }
        begin_word();
      }
    }
    end_command();
    return commands_;
  }
  /// The line of a quote left open at the end of the text; 0 when every quote is closed.
  [[nodiscard]] int unterminated_quote_line() const { return quote_ ? quote_line_ : 0; }

 private:
  [[nodiscard]] char next() const { return i_ + 1 < t_.size() ? t_[i_ + 1] : '\0'; }
  void begin_word() {
    if (!in_word_) start_ = line_;
    in_word_ = true;
  }
  void in_quote(char c) {
    if (c == quote_) {
      quote_ = 0;
      return;
    }
    if (c == '\\' && quote_ == '"' && (next() == '"' || next() == '\\' || next() == '$' || next() == '`')) {
      cur_ += t_[++i_];  // inside double quotes a backslash escapes only these
      return;
    }
    if (quote_ == '"' && (c == '$' || c == '`')) {
      expansion(c);
      return;
    }
    if (c == '\n') ++line_;
    cur_ += c;
  }
  void backslash() {
    if (next() == '\n' || (next() == '\r' && i_ + 2 < t_.size() && t_[i_ + 2] == '\n')) {
      i_ += next() == '\r' ? 2 : 1;  // a continuation: the line goes on
      ++line_;
      return;
    }
    if (i_ + 1 < t_.size()) {
      begin_word();
      cur_ += t_[++i_];
    }
  }
  // $NAME, ${...}, $(...), $((...)) and `...`: kept as written (a $(...) whole, so that its
  // parentheses end no command) and the word marked; a $ before anything else is a $.
  void expansion(char c) {
    const char n = next();
    const bool name = std::isalnum(static_cast<unsigned char>(n)) || n == '_' || n == '@' || n == '*' || n == '#' ||
                      n == '?' || n == '!' || n == '$' || n == '-';
    if (c == '$' && !name && n != '{' && n != '(') {
      cur_ += c;
      return;
    }
    expands_ = true;
    if (c == '$' && name) {
      cur_ += c;
      return;
    }
    const char open = c == '`' ? '`' : n, close = c == '`' ? '`' : (n == '{' ? '}' : ')');
    cur_ += c;
    if (c == '$') cur_ += t_[++i_];
    int depth = 1;
    while (depth > 0 && i_ + 1 < t_.size()) {
      const char d = t_[++i_];
      if (d == '\n') ++line_;
      cur_ += d;
      if (d == close) {
        --depth;
      } else if (d == open && open != close) {
        ++depth;
      }
    }
  }
  // {a,b} outside quotes: brace expansion, one word becoming several.
  void braces(char c) {
    if (c == '{') brace_open_ = true;
    if (c == ',' && brace_open_) brace_comma_ = true;
    if (c == '}' && brace_comma_) braces_ = true;
  }
  // `>`, `>>`, `>&`, `>|`, `<`, `<<`, `<&`, `<>`, `&>`, `&>>`: the operator, then its target
  // word, which is no word of the command; a number glued before it (2>) is the descriptor.
  void redirection(char c) {
    const bool descriptor =
        in_word_ && !cur_.empty() && std::all_of(cur_.begin(), cur_.end(), [](char d) { return d >= '0' && d <= '9'; });
    if (descriptor) {
      cur_.clear();
      in_word_ = false;
    }
    end_word();
    if (c == '&') ++i_;  // &> and &>>: the > follows
    while (i_ + 1 < t_.size() && (t_[i_ + 1] == '>' || t_[i_ + 1] == '<' || t_[i_ + 1] == '&' || t_[i_ + 1] == '|')) ++i_;
    skip_next_word_ = true;
  }
  void end_word() {
    if (in_word_) {
      if (skip_next_word_) {
        skip_next_word_ = false;
      } else {
        command_.push_back({cur_, start_, expands_, braces_});
      }
    }
    cur_.clear();
    in_word_ = false;
    expands_ = brace_open_ = brace_comma_ = braces_ = false;
  }
  void end_command() {
    end_word();
    skip_next_word_ = false;
    if (!command_.empty()) commands_.push_back(std::move(command_));
    command_.clear();
  }

  std::string_view t_;
  std::size_t i_ = 0;
  std::vector<ShellCommand> commands_;
  ShellCommand command_;
  std::string cur_;
  bool in_word_ = false, skip_next_word_ = false;
  bool expands_ = false, brace_open_ = false, brace_comma_ = false, braces_ = false;
  int line_ = 1, start_ = 1, quote_line_ = 0;
  char quote_ = 0;
};

}  // namespace

ShellSplit split_shell_commands(std::string_view text, int first_line) {
  ShellCommandSplitter splitter(text, first_line);
  ShellSplit out;
  out.commands = splitter.split();
  out.unterminated_quote_line = splitter.unterminated_quote_line();
  return out;
}

}  // namespace moeplan

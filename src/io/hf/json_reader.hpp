#pragma once
// Private to the config.json reader: typed reads from a parsed config.json whose errors carry
// the file, the line/column of the key and the reason.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "moeplan/base/errors.hpp"

namespace moeplan::hf {

// 1-based line and column of byte `offset` in `text`.
inline std::pair<int, int> line_column(std::string_view text, std::size_t offset) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// Python's json module, which transformers loads config.json with, accepts the bare tokens
// NaN, Infinity and -Infinity (json.loads: parse_constant; NVIDIA's Nemotron-H and Nemotron 3
// Super configs write "time_step_limit": [0.0, Infinity]); nlohmann's parser, like RFC 8259,
// does not. Before parsing, each such token outside a string is rewritten into a string that
// no config.json holds: the escaped NUL of k_non_finite_mark, then the token. It reads as a
// string, so it can never become a count: the typed reads below refuse it by name in a size
// key, and the keys moeplan does not read (time_step_limit) stay as they were meant.
inline constexpr std::string_view k_non_finite_mark{"\0moeplan:", 9};

/// The text with every NaN / Infinity / -Infinity outside strings rewritten, and where each
/// rewrite starts in both texts, so a parser's byte offset maps back to the file's.
struct NonFiniteRewrite {
  struct Edit {
    std::size_t original = 0;   ///< offset of the token in the file
    std::size_t rewritten = 0;  ///< offset of its replacement in `text`
    std::size_t token_length = 0, replacement_length = 0;
  };
  std::string text;
  std::vector<Edit> edits;

  /// The file's offset of byte `offset` of `text` (inside a replacement: the token's start).
  [[nodiscard]] std::size_t original_offset(std::size_t offset) const {
    std::ptrdiff_t shift = 0;
    for (const Edit& e : edits) {
      if (offset < e.rewritten) break;
      if (offset < e.rewritten + e.replacement_length) return e.original;
      shift += static_cast<std::ptrdiff_t>(e.replacement_length) - static_cast<std::ptrdiff_t>(e.token_length);
    }
    return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(offset) - shift);
  }
};

inline NonFiniteRewrite rewrite_non_finite(std::string_view text) {
  NonFiniteRewrite out;
  out.text.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '"') {  // a string, escapes included, is copied as it is
      std::size_t end = i + 1;
      while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
      end = std::min(end + 1, text.size());
      out.text.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    bool replaced = false;
    for (const std::string_view token : {std::string_view("-Infinity"), std::string_view("Infinity"),
                                         std::string_view("NaN")}) {
      if (text.substr(i, token.size()) != token) continue;
      const std::string replacement = "\"\\u0000moeplan:" + std::string(token) + "\"";
      out.edits.push_back({i, out.text.size(), token.size(), replacement.size()});
      out.text += replacement;
      i += token.size();
      replaced = true;
      break;
    }
    if (!replaced) out.text += text[i++];
  }
  return out;
}

/// NaN, Infinity or -Infinity where the file wrote that token, else nullopt.
inline std::optional<std::string> non_finite_token(const nlohmann::json& v) {
  if (!v.is_string()) return std::nullopt;
  const auto& s = v.get_ref<const std::string&>();
  if (!s.starts_with(k_non_finite_mark)) return std::nullopt;
  return s.substr(k_non_finite_mark.size());
}

/// `text` (a message quoting values with json::dump) with each rewritten token shown as the
/// file wrote it.
inline std::string restore_non_finite(std::string text) {
  const std::string mark = "\"\\u0000moeplan:";
  for (std::size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at)) {
    const std::size_t end = text.find('"', at + mark.size());
    if (end == std::string::npos) break;
    text.replace(at, end + 1 - at, text.substr(at + mark.size(), end - at - mark.size()));
  }
  return text;
}

// Like the TOML Reader, the first problem wins. nlohmann keeps no source positions, so a
// key's place is where `"key":` first appears in the text (good enough for config.json).
class JsonReader {
 public:
  JsonReader(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  [[nodiscard]] bool failed() const { return error_.has_value(); }
  [[nodiscard]] const InputError& error() const { return *error_; }

  /// Keys are looked for among the members of the object `key` of the current one (Llama 4's
  /// text_config); fail() then points at its keys.
  /// Errors then name those keys with the object's name ("text_config.num_experts").
  void enter(const std::string& key) {
    scopes_.emplace_back(scope_, prefix_);
    if (const auto at = member_offset(key)) scope_ = *at;
    prefix_ += key + ".";
  }
  /// Where keys are looked for now, and going back there (DBRX reads two nested objects,
  /// attn_config and ffn_config, one after the other).
  [[nodiscard]] std::size_t scope() const { return scope_; }
  void scope(std::size_t at) {
    scope_ = at;
    // The prefix of that scope: the one it was entered from, else none (the document).
    const auto was = std::find_if(scopes_.rbegin(), scopes_.rend(), [at](const auto& s) { return s.first == at; });
    prefix_ = was != scopes_.rend() ? was->second : std::string();
  }

  void fail(const std::string& key, std::string reason) {
    if (error_) return;
    int line = 0;
    int column = 0;
    if (const auto at = member_offset(key)) std::tie(line, column) = line_column(text_, *at);
    error_ = InputError{source_, line, column, prefix_ + key, restore_non_finite(std::move(reason))};
  }

  // Absent or null: nullopt. Present: an integer in [min, 1e9], else an error.
  std::optional<int> integer(const nlohmann::json& j, const std::string& key, int min) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    return checked(*it, key, min);
  }

  int required(const nlohmann::json& j, const std::string& key, int min) {
    if (!j.contains(key) || j[key].is_null()) {
      fail(key, "missing integer");
      return 0;
    }
    return integer(j, key, min).value_or(0);
  }

  // An integer, or a per-layer list of equal integers (Hunyuan writes moe_topk as a list).
  std::optional<int> integer_or_uniform_list(const nlohmann::json& j, const std::string& key, int min) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_array()) return checked(*it, key, min);
    if (it->empty()) {
      fail(key, "is an empty list");
      return std::nullopt;
    }
    std::optional<int> first;
    for (const auto& v : *it) {
      const auto x = checked(v, key, min);
      if (!x) return std::nullopt;
      if (first && *x != *first) {
        fail(key, fmt::format("differs between layers ({} and {}); moeplan counts one layout for all MoE layers",
                              *first, *x));
        return std::nullopt;
      }
      first = x;
    }
    return first;
  }

  std::optional<bool> boolean(const nlohmann::json& j, const std::string& key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_boolean()) {
      fail(key, fmt::format("must be true or false, got {}", type_name(*it)));
      return std::nullopt;
    }
    return it->get<bool>();
  }

  std::optional<std::string> string(const nlohmann::json& j, const std::string& key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_string() || non_finite_token(*it)) {
      fail(key, fmt::format("must be a string, got {}", type_name(*it)));
      return std::nullopt;
    }
    return it->get<std::string>();
  }

 private:
  std::optional<int> checked(const nlohmann::json& v, const std::string& key, int min) {
    if (const auto token = non_finite_token(v)) {
      fail(key, fmt::format("is {}: a size or count must be a finite integer", *token));
      return std::nullopt;
    }
    // An integer literal past 2^64 (31 digits, say) is parsed as a double: out of range, not "a float".
    if (v.is_number_float() && std::abs(v.get<double>()) >= 0x1p64 && std::trunc(v.get<double>()) == v.get<double>()) {
      fail(key, fmt::format("must be in [{}, 1e9], got {}", min, v.dump()));
      return std::nullopt;
    }
    if (!v.is_number_integer()) {
      fail(key, fmt::format("must be an integer, got {}", type_name(v)));
      return std::nullopt;
    }
    // Past 2^63 nlohmann holds an unsigned value; compare as double so it is not wrapped.
    const double x = v.is_number_unsigned() ? static_cast<double>(v.get<std::uint64_t>())
                                             : static_cast<double>(v.get<std::int64_t>());
    if (x < min || x > 1e9) {
      fail(key, fmt::format("must be in [{}, 1e9], got {}", min, v.dump()));
      return std::nullopt;
    }
    return static_cast<int>(x);
  }

  static std::string type_name(const nlohmann::json& v) {
    if (const auto token = non_finite_token(v)) return "the non-finite number " + *token;
    if (v.is_number_float()) return "a float";
    const std::string t = v.type_name();
    return (t == "array" || t == "object" ? "an " : "a ") + t;
  }

  // Where `"key":` is a member of the object that starts at the first '{' from scope_ (the
  // document, or the object entered). nlohmann keeps no source positions, so the text is
  // scanned, counting nesting: a key of the same name inside a nested object (DBRX's
  // attn_config.model_type) is another key. The text has been parsed, so it is valid JSON.
  [[nodiscard]] std::optional<std::size_t> member_offset(const std::string& key) const {
    int depth = 0;
    for (std::size_t i = text_.find('{', scope_); i < text_.size(); ++i) {
      const char c = text_[i];
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return std::nullopt;
      } else if (c == '"') {
        std::size_t end = i + 1;
        while (end < text_.size() && text_[end] != '"') end += text_[end] == '\\' ? 2 : 1;
        std::size_t after = end + 1;
        while (after < text_.size() && (text_[after] == ' ' || text_[after] == '\t' ||
                                        text_[after] == '\n' || text_[after] == '\r')) {
          ++after;
        }
        if (depth == 1 && after < text_.size() && text_[after] == ':' &&
            text_.substr(i + 1, end - i - 1) == key) {
          return i;
        }
        i = end;
      }
    }
    return std::nullopt;
  }

  std::string_view text_;
  std::string source_;
  std::size_t scope_ = 0;
  std::string prefix_;  // "text_config." once entered: errors name the key in its object
  std::vector<std::pair<std::size_t, std::string>> scopes_;  // each enter()'s scope and prefix before it
  std::optional<InputError> error_;
};

}  // namespace moeplan::hf

#pragma once
// Private to the config.json reader: typed reads from a parsed config.json whose errors carry
// the file, the line/column of the key and the reason.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

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

// Like the TOML Reader, the first problem wins. nlohmann keeps no source positions, so a
// key's place is where `"key":` first appears in the text (good enough for config.json).
class JsonReader {
 public:
  JsonReader(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  [[nodiscard]] bool failed() const { return error_.has_value(); }
  [[nodiscard]] const InputError& error() const { return *error_; }

  /// Keys are looked for among the members of the object `key` of the current one (Llama 4's
  /// text_config); fail() then points at its keys.
  void enter(const std::string& key) {
    if (const auto at = member_offset(key)) scope_ = *at;
  }
  /// Where keys are looked for now, and going back there (DBRX reads two nested objects,
  /// attn_config and ffn_config, one after the other).
  [[nodiscard]] std::size_t scope() const { return scope_; }
  void scope(std::size_t at) { scope_ = at; }

  void fail(const std::string& key, std::string reason) {
    if (error_) return;
    int line = 0;
    int column = 0;
    if (const auto at = member_offset(key)) std::tie(line, column) = line_column(text_, *at);
    error_ = InputError{source_, line, column, key, std::move(reason)};
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
    if (!it->is_string()) {
      fail(key, fmt::format("must be a string, got {}", type_name(*it)));
      return std::nullopt;
    }
    return it->get<std::string>();
  }

 private:
  std::optional<int> checked(const nlohmann::json& v, const std::string& key, int min) {
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
  std::optional<InputError> error_;
};

}  // namespace moeplan::hf

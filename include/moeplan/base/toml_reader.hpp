#pragma once
// Private: typed reads from a parsed TOML document with errors that carry the file, the
// line/column of the offending node (or of its table when missing) and the dotted key.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <expected>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <toml++/toml.h>

#include "moeplan/base/errors.hpp"

namespace moeplan {

/// "integer", "table", … for a message about a value of the wrong type.
inline const char* toml_type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "number";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    default: return "value";
  }
}

// The first problem wins.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[nodiscard]] bool failed() const { return error_.has_value(); }
  [[nodiscard]] const InputError& error() const { return *error_; }

  void fail(const toml::source_region& where, std::string key, std::string reason) {
    if (!error_) {
      error_ = InputError{source_, static_cast<int>(where.begin.line),
                          static_cast<int>(where.begin.column), std::move(key),
                          std::move(reason)};
    }
  }

  const toml::table* table(const toml::table& parent, std::string_view key,
                           const std::string& path) {
    const toml::node* n = parent.get(key);
    if (!n) {
      fail(parent.source(), path, "missing table");
      return nullptr;
    }
    if (!n->is_table()) {
      fail(n->source(), path, "must be a table");
      return nullptr;
    }
    return n->as_table();
  }

  // A finite number (TOML integer or float); `positive` also rejects <= 0.
  double number(const toml::table& t, std::string_view key, const std::string& path,
                bool positive) {
    const toml::node* n = t.get(key);
    if (!n) {
      fail(t.source(), path, "missing number");
      return 0;
    }
    const auto v = n->value<double>();
    if (!v || !(n->is_integer() || n->is_floating_point())) {
      fail(n->source(), path, fmt::format("must be a number, got a {}", fmt::streamed(n->type())));
      return 0;
    }
    if (!std::isfinite(*v)) {
      fail(n->source(), path, "must be finite");
      return 0;
    }
    if (positive && !(*v > 0)) {
      fail(n->source(), path, fmt::format("must be positive, got {}", *v));
      return 0;
    }
    return *v;
  }

  int integer(const toml::table& t, std::string_view key, const std::string& path, int min) {
    const toml::node* n = t.get(key);
    if (!n) {
      fail(t.source(), path, "missing integer");
      return 0;
    }
    const auto v = n->value_exact<int64_t>();
    if (!v) {
      fail(n->source(), path, fmt::format("must be an integer, got a {}", fmt::streamed(n->type())));
      return 0;
    }
    if (*v < min || *v > 1'000'000'000) {
      fail(n->source(), path, fmt::format("must be in [{}, 1e9], got {}", min, *v));
      return 0;
    }
    return static_cast<int>(*v);
  }

  std::string string(const toml::table& t, std::string_view key, const std::string& path) {
    const toml::node* n = t.get(key);
    if (!n || !n->is_string()) {
      fail(n ? n->source() : t.source(), path,
           n ? fmt::format("must be a quoted string (found: {})", toml_type_name(*n))
             : "missing (a required string key)");
      return {};
    }
    return std::string(n->as_string()->get());
  }

  // Unknown keys are errors: a typo in a laws file must not silently fall back.
  void only_keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                 const std::string& path) {
    only_keys(t, std::span<const std::string_view>(allowed.begin(), allowed.size()), path);
  }
  void only_keys(const toml::table& t, std::span<const std::string_view> allowed,
                 const std::string& path) {
    for (const auto& [k, v] : t) {
      if (std::find(allowed.begin(), allowed.end(), k.str()) == allowed.end()) {
        fail(v.source(), path.empty() ? std::string(k.str()) : path + "." + std::string(k.str()),
             "unknown key");
      }
    }
  }

  // [[C, value], ...] with C > 0 strictly increasing and value > 0.
  std::vector<std::pair<double, double>> pairs(const toml::table& t, std::string_view key,
                                               const std::string& path) {
    std::vector<std::pair<double, double>> out;
    const toml::node* n = t.get(key);
    if (!n || !n->is_array() || n->as_array()->empty()) {
      fail(n ? n->source() : t.source(), path, "must be a non-empty array of [C, value] pairs");
      return out;
    }
    for (const toml::node& item : *n->as_array()) {
      const toml::array* p = item.as_array();
      std::optional<double> c, v;
      if (p && p->size() == 2) {
        c = (*p)[0].value<double>();
        v = (*p)[1].value<double>();
      }
      if (!c || !v || !std::isfinite(*c) || !std::isfinite(*v) || *c <= 0 || *v <= 0) {
        fail(item.source(), path, "each entry must be [C, value] with both positive and finite");
        return out;
      }
      if (!out.empty() && *c <= out.back().first) {
        fail(item.source(), path, "C must be strictly increasing");
        return out;
      }
      out.emplace_back(*c, *v);
    }
    return out;
  }

 private:
  std::string source_;
  std::optional<InputError> error_;
};


/// Parses TOML text; syntax errors come back with line and column.
std::expected<toml::table, InputError> parse_toml(std::string_view text, const std::string& source);

/// Reads a whole laws file, model TOML or config.json, at most k_max_config_bytes
/// (read_bounded: its errors name the path, and the bound when it is exceeded).
std::expected<std::string, InputError> read_file(const std::string& path);

}  // namespace moeplan

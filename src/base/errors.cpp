#include "moeplan/base/errors.hpp"

#include <fmt/format.h>

namespace moeplan {

std::string InputError::to_string() const {
  // source[:line[:column]]: [key: ]reason
  std::string where = source;
  if (line > 0) {
    where += fmt::format(":{}", line);
    if (column > 0) {
      where += fmt::format(":{}", column);
    }
  }
  return key.empty() ? fmt::format("{}: {}", where, reason)
                     : fmt::format("{}: {}: {}", where, key, reason);
}

}  // namespace moeplan

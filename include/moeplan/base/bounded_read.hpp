#pragma once
/// Every user file is read through read_bounded: a size bound per kind of input, so
/// `score /dev/zero`, an endless pipe or a runaway file is refused (exit 4, naming the file
/// and the bound) after reading at most bound + 1 bytes, instead of growing memory until
/// the machine gives up. The bounds are stated in man moeplan, LIMITS.
#include <cstddef>
#include <expected>
#include <string>
#include <string_view>

#include "moeplan/base/errors.hpp"

namespace moeplan {

/// A laws TOML, a model TOML or a HuggingFace config.json: the largest real ones are a few
/// KiB, so 16 MiB is three orders of magnitude of headroom.
inline constexpr std::size_t k_max_config_bytes = std::size_t{16} << 20;
/// A runs CSV (fit) or a residuals CSV (plot residuals): 10^6 runs of a dozen columns are
/// about 100 MiB.
inline constexpr std::size_t k_max_csv_bytes = std::size_t{256} << 20;

/// "16 MiB", "256 MiB", or "1000 bytes" when not a whole number of MiB.
std::string byte_size_text(std::size_t bytes);

/// The whole content of the file `path`, at most `max_bytes` bytes. Errors name the path:
/// "cannot open file", "is a directory, not a file", "read error: REASON", or "larger than
/// 16 MiB, the limit for WHAT (man moeplan, LIMITS)". A regular file larger than the bound
/// is refused before any of it is read; a device or pipe after bound + 1 bytes.
std::expected<std::string, InputError> read_bounded(const std::string& path, std::size_t max_bytes,
                                                    std::string_view what);

/// The same for standard input (file descriptor 0); errors name "<stdin>".
std::expected<std::string, InputError> read_stdin_bounded(std::size_t max_bytes, std::string_view what);

}  // namespace moeplan

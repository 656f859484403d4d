#include "moeplan/base/bounded_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace moeplan {

std::string byte_size_text(std::size_t bytes) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  return bytes % mib == 0 ? fmt::format("{} MiB", bytes / mib) : fmt::format("{} bytes", bytes);
}

namespace {

// Reads `fd` (closed by the caller) to its end or one byte past `max_bytes`.
std::expected<std::string, InputError> read_fd(int fd, const std::string& source,
                                               std::size_t max_bytes, std::string_view what) {
  const auto failure = [&](std::string reason) {
    return std::unexpected(InputError{source, 0, 0, "", std::move(reason)});
  };
  const auto too_large = [&] {
    return failure(fmt::format("larger than {}, the limit for {} (man moeplan, LIMITS)",
                               byte_size_text(max_bytes), what));
  };
  struct stat st {};
  const bool known = ::fstat(fd, &st) == 0;
  if (known && S_ISDIR(st.st_mode)) return failure("is a directory, not a file");
  // A regular file says its size: refuse it before reading a byte.
  const bool regular = known && S_ISREG(st.st_mode);
  if (regular && static_cast<std::size_t>(st.st_size) > max_bytes) return too_large();
  // Devices and pipes have no size (and a file may grow while it is read): read 1 MiB
  // blocks, so the memory held is what was read (no doubling of one buffer), and stop one
  // byte past the bound.
  std::vector<std::string> blocks;
  std::size_t total = 0;
  while (true) {
    if (blocks.empty() || blocks.back().size() == blocks.back().capacity()) {
      blocks.emplace_back().reserve(std::size_t{1} << 20);
    }
    std::string& block = blocks.back();
    const std::size_t want = std::min(block.capacity() - block.size(), max_bytes + 1 - total);
    const std::size_t at = block.size();
    block.resize(at + want);
    const ssize_t n = ::read(fd, block.data() + at, want);
    block.resize(at + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EISDIR) return failure("is a directory, not a file");
    if (n < 0) return failure(std::string("read error: ") + std::strerror(errno));
    if (n == 0) break;
    total += static_cast<std::size_t>(n);
    if (total > max_bytes) return too_large();
  }
  std::string text;
  text.reserve(total);
  for (const std::string& b : blocks) text += b;
  return text;
}

}  // namespace

std::expected<std::string, InputError> read_bounded(const std::string& path, std::size_t max_bytes,
                                                    std::string_view what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(InputError{path, 0, 0, "", "cannot open file"});
  auto text = read_fd(fd, path, max_bytes, what);
  ::close(fd);
  return text;
}

std::expected<std::string, InputError> read_stdin_bounded(std::size_t max_bytes, std::string_view what) {
  return read_fd(STDIN_FILENO, "<stdin>", max_bytes, what);
}

}  // namespace moeplan

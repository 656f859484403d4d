#include "output_file.hpp"

#include "app.hpp"
#include "interrupt_cleanup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <expected>
#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

#include <fmt/format.h>

namespace moeplan::cli {

namespace {

std::string errno_text() { return std::strerror(errno); }

mode_t current_umask() {
  const mode_t mask = ::umask(0);  // the only way to read it; put it back at once
  ::umask(mask);
  return mask;
}

// Writes all of `text` to `fd`; "" or the reason.
std::string write_all(int fd, const std::string& text, const std::string& name) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return "cannot write " + name + ": " + errno_text();
    }
    done += static_cast<std::size_t>(n);
  }
  return "";
}

// A device, FIFO or socket is written in place: there is nothing to replace atomically,
// and replacing it with a regular file would destroy it (-o /dev/null, -o a FIFO).
std::string write_in_place(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return "cannot open " + path + ": " + errno_text();
  std::string why = write_all(fd, text, path);
  if (::close(fd) != 0 && why.empty()) why = "cannot write " + path + ": " + errno_text();
  return why;
}

/// What a path names whatever it is called: ./runs.csv, a symlink and a hard link to
/// runs.csv are all runs.csv.
struct Identity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const Identity&) const = default;
};

struct Input {
  Identity identity;
  std::string name;  ///< as the user gave it ("-": standard input)
};

/// The regular files among the inputs ("-": what standard input is).
std::vector<Input> input_identities(const InputFiles& inputs) {
  std::vector<Input> ids;
  for (const std::string& in : inputs) {
    struct stat st {};
    const bool known = in == "-" ? ::fstat(STDIN_FILENO, &st) == 0
                                 : !in.empty() && ::stat(in.c_str(), &st) == 0;
    // Only a regular file can be destroyed by renaming over it; `fit /dev/stdin -o
    // /dev/stdout` on a terminal names one device twice and is fine.
    if (known && S_ISREG(st.st_mode)) ids.push_back({{st.st_dev, st.st_ino}, in});
  }
  return ids;
}

// One destination of a command: resolved and checked, then staged, then committed.
struct Staged {
  const OutputFile* file = nullptr;
  std::string target;               ///< symlinks followed
  std::string new_file_key;         ///< a file that does not exist yet: its normalised path
  std::optional<Identity> identity; ///< a file that exists
  mode_t mode = 0;                  ///< of an existing target
  std::string tmp;                  ///< regular files: the written temporary beside the target
  bool to_stdout = false;
  bool in_place = false;  ///< a device, FIFO or socket: written directly at commit

  [[nodiscard]] std::string fail(const std::string& reason) const {
    return file->flag.empty() ? reason : file->flag + ": " + reason;
  }
};

// The file a symlink chain ends in, also when that file does not exist yet: a dangling
// link is written through to the file it names, as a shell redirection would.
std::expected<std::string, std::string> follow_links(const std::string& path) {
  if (char* real = ::realpath(path.c_str(), nullptr)) {
    std::string target = real;
    std::free(real);
    return target;
  }
  struct stat ls {};
  if (::lstat(path.c_str(), &ls) != 0 || !S_ISLNK(ls.st_mode)) return path;
  std::vector<char> buf(4096);
  const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size() - 1);
  if (n <= 0) return std::unexpected("cannot read the link " + path + ": " + errno_text());
  std::string to(buf.data(), static_cast<std::size_t>(n));
  if (to.front() != '/') {
    const auto slash = path.rfind('/');
    if (slash != std::string::npos) to = path.substr(0, slash + 1) + to;
  }
  return to;
}

// A new file's name as one string for every spelling of it (out.csv, ./out.csv,
// dir/../out.csv): its directory resolved, then its base name.
std::string normalised_new_path(const std::string& target) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p = fs::absolute(target, ec).lexically_normal();
  const fs::path dir = fs::weakly_canonical(p.parent_path(), ec);
  return (ec ? p.parent_path() : dir).string() + "/" + p.filename().string();
}

// Phase 0: where the output goes and whether it may go there; nothing is written.
std::string resolve(Staged& s, const std::vector<Input>& inputs) {
  const std::string& path = s.file->path;
  if (path == "-") {
    s.to_stdout = true;
    return "";
  }
  if (path.empty()) return s.fail("an empty file name");  // the flags refuse it first (exit 2)
  auto target = follow_links(path);
  if (!target) return s.fail(target.error());
  s.target = *target;
  struct stat st {};
  if (::stat(s.target.c_str(), &st) != 0) {
    // The temporary goes beside the target: a directory that is missing (or not ours) is
    // known now, before the command does its work.
    const auto slash = s.target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : s.target.substr(0, slash);
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
      return s.fail("cannot create a temporary file beside " + path + ": " + errno_text());
    }
    s.new_file_key = normalised_new_path(s.target);
    return "";
  }
  // A name for this process's own standard output (/dev/stdout, /dev/fd/1, the file a
  // shell redirected it to) is standard output: written through the stream, so `>>` still
  // appends, and a second output there is the same destination as -o -.
  if (struct stat so {}; ::fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == st.st_dev && so.st_ino == st.st_ino) {
    s.to_stdout = true;
    return "";
  }
  s.identity = Identity{st.st_dev, st.st_ino};
  s.mode = st.st_mode;
  if (S_ISDIR(st.st_mode)) return s.fail(path + " is a directory");
  if (!S_ISREG(st.st_mode)) {
    // A device, FIFO or socket is written in place: there is nothing to replace
    // atomically, and a regular file in its stead would destroy it (-o /dev/null, a FIFO).
    if (::access(s.target.c_str(), W_OK) != 0) return s.fail("cannot write " + path + ": " + errno_text());
    s.in_place = true;
    return "";
  }
  for (const Input& in : inputs) {
    if (in.identity == *s.identity) {
      const std::string what = in.name == "-"    ? "standard input"
                               : in.name == path ? "an input file"
                                                 : "the input file " + in.name + " (the same file)";
      return s.fail(path + " is " + what +
                    ": writing it would destroy what was read; give the output another name");
    }
  }
  // The temporary is renamed over the file, which needs only the directory's permission:
  // ask the file itself, as the shell's `>` does. Root may write anything, so for root a
  // file with no write bit at all counts as protected too (chmod 444 keep.json).
  if (::access(s.target.c_str(), W_OK) != 0) {
    return s.fail(fmt::format("cannot write {}: {} (mode {:04o}); it is not replaced", path,
                              errno_text(), st.st_mode & 07777));
  }
  if ((st.st_mode & 0222) == 0) {
    return s.fail(fmt::format("{} is write-protected (mode {:04o}); it is not replaced", path,
                              st.st_mode & 07777));
  }
  return "";
}

// Two outputs into one file would silently leave only the last.
bool same_destination(const Staged& a, const Staged& b) {
  if (a.to_stdout || b.to_stdout) return a.to_stdout && b.to_stdout;
  if (a.identity && b.identity) return *a.identity == *b.identity;
  return !a.identity && !b.identity && a.new_file_key == b.new_file_key;
}

std::string resolve_all(std::vector<Staged>& staged, const InputFiles& inputs) {
  const std::vector<Input> ids = input_identities(inputs);
  for (Staged& s : staged) {
    if (std::string why = resolve(s, ids); !why.empty()) return why;
  }
  for (std::size_t a = 0; a < staged.size(); ++a) {
    for (std::size_t b = a + 1; b < staged.size(); ++b) {
      if (same_destination(staged[a], staged[b])) {
        const auto name = [](const Staged& s) {
          return (s.file->flag.empty() ? "" : s.file->flag + " ") + s.file->path;
        };
        return name(staged[a]) + " and " + name(staged[b]) +
               " are the same file: give each output its own";
      }
    }
  }
  return "";
}

std::vector<Staged> staged_from(const std::vector<OutputFile>& files) {
  std::vector<Staged> staged;
  for (const OutputFile& f : files) {
    Staged s;
    s.file = &f;
    staged.push_back(std::move(s));
  }
  return staged;
}

// Phase 1: a regular file's temporary, written and synced.
std::string stage(Staged& s) {
  if (s.to_stdout || s.in_place) return "";
  const int fd = create_temporary(s.target, s.tmp);
  if (fd < 0) return s.fail("cannot create a temporary file beside " + s.file->path + ": " + errno_text());
  std::string why = write_all(fd, s.file->text, s.tmp);
  // Keep an existing file's mode; a new one gets 0666 less the umask, as open(2) would
  // (mkstemp creates 0600).
  if (why.empty()) ::fchmod(fd, s.identity ? (s.mode & 07777) : (0666 & ~current_umask()));
  if (why.empty() && ::fsync(fd) != 0) why = "cannot write " + s.tmp + ": " + errno_text();
  if (::close(fd) != 0 && why.empty()) why = "cannot write " + s.tmp + ": " + errno_text();
  return why.empty() ? "" : s.fail(why);
}

// Phase 2: rename the temporaries, write devices and stdout.
std::string commit(Staged& s, std::ostream& out) {
  if (s.to_stdout) {
    errno = 0;
    out << s.file->text << std::flush;
    return out ? "" : stdout_failure(errno);
  }
  if (s.in_place) {
    const std::string why = write_in_place(s.target, s.file->text);
    return why.empty() ? "" : s.fail(why);
  }
  if (rename_temporary(s.tmp, s.target) != 0) {
    return s.fail("cannot rename " + s.tmp + " to " + s.target + ": " + errno_text());
  }
  s.tmp.clear();
  return "";
}

}  // namespace

std::string stdout_failure(int saved_errno) {
  return saved_errno == 0 ? "cannot write to standard output"
                          : std::string("cannot write to standard output: ") + std::strerror(saved_errno);
}

std::string check_outputs(const std::vector<OutputFile>& files, const InputFiles& inputs) {
  std::vector<Staged> staged = staged_from(files);
  return resolve_all(staged, inputs);
}

std::string write_outputs(const std::vector<OutputFile>& files, std::ostream& out,
                          const InputFiles& inputs) {
  std::vector<Staged> staged = staged_from(files);
  std::string why = resolve_all(staged, inputs);
  for (Staged& s : staged) {
    if (why.empty()) why = stage(s);
  }
  // What cannot be undone (stdout, devices, FIFOs) goes first: if it fails, no regular file
  // has been renamed into place yet, so the whole set is still all or nothing.
  for (Staged& s : staged) {
    if (why.empty() && (s.to_stdout || s.in_place)) why = commit(s, out);
  }
  for (Staged& s : staged) {
    if (why.empty() && !s.to_stdout && !s.in_place) why = commit(s, out);
    if (!s.tmp.empty()) remove_temporary(s.tmp);  // a failure leaves nothing behind
  }
  return why;
}

std::string write_output(const std::string& path, const std::string& text, std::ostream& out,
                         const InputFiles& inputs) {
  return write_outputs({{path, text}}, out, inputs);
}

int deliver(const std::string& path, const std::string& text, const Io& io, const InputFiles& inputs) {
  if (std::string why = write_output(path, text, io.out, inputs); !why.empty()) {
    io.error(why);
    return static_cast<int>(ExitStatus::output_file);
  }
  return static_cast<int>(ExitStatus::ok);
}

}  // namespace moeplan::cli

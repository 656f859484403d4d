#include "output_file.hpp"

#include "app.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <vector>

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

}  // namespace

namespace {

// One destination of a command, staged before anything is committed.
struct Staged {
  std::string path;     ///< as the user gave it
  std::string target;   ///< symlinks followed
  std::string tmp;      ///< regular files: the written temporary beside the target
  const std::string* text = nullptr;
  bool to_stdout = false;
  bool in_place = false;  ///< a device, FIFO or socket: written directly at commit
};

// Phase 1: check the destination and, for a regular file, write its temporary.
std::string stage(Staged& s) {
  if (s.path.empty() || s.path == "-") {
    s.to_stdout = true;
    return "";
  }
  // Follow a symlink to what it names, so the link stays a link (the target is replaced).
  // A dangling link is written through to the file it names, as a shell redirection would.
  s.target = s.path;
  if (char* real = ::realpath(s.path.c_str(), nullptr)) {
    s.target = real;
    std::free(real);
  } else if (struct stat ls {}; ::lstat(s.path.c_str(), &ls) == 0 && S_ISLNK(ls.st_mode)) {
    std::vector<char> buf(4096);
    const ssize_t n = ::readlink(s.path.c_str(), buf.data(), buf.size() - 1);
    if (n <= 0) return "cannot read the link " + s.path + ": " + errno_text();
    std::string to(buf.data(), static_cast<std::size_t>(n));
    if (to.front() != '/') {
      const auto slash = s.path.rfind('/');
      if (slash != std::string::npos) to = s.path.substr(0, slash + 1) + to;
    }
    s.target = to;
  }
  struct stat st {};
  const bool exists = ::stat(s.target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return s.path + " is a directory";
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, FIFO or socket is written in place: there is nothing to replace
    // atomically, and a regular file in its stead would destroy it (-o /dev/null, a FIFO).
    if (::access(s.target.c_str(), W_OK) != 0) return "cannot write " + s.path + ": " + errno_text();
    s.in_place = true;
    return "";
  }
  std::vector<char> name(s.target.begin(), s.target.end());
  const std::string suffix = ".moeplan-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return "cannot create a temporary file beside " + s.path + ": " + errno_text();
  s.tmp = name.data();
  std::string why = write_all(fd, *s.text, s.tmp);
  // Keep an existing file's mode; a new one gets 0666 less the umask, as open(2) would
  // (mkstemp creates 0600).
  if (why.empty()) ::fchmod(fd, exists ? (st.st_mode & 07777) : (0666 & ~current_umask()));
  if (why.empty() && ::fsync(fd) != 0) why = "cannot write " + s.tmp + ": " + errno_text();
  if (::close(fd) != 0 && why.empty()) why = "cannot write " + s.tmp + ": " + errno_text();
  return why;
}

// Phase 2: rename the temporaries, write devices and stdout.
std::string commit(Staged& s, std::ostream& out) {
  if (s.to_stdout) {
    out << *s.text << std::flush;
    return out ? "" : "cannot write to standard output";
  }
  if (s.in_place) return write_in_place(s.target, *s.text);
  if (std::rename(s.tmp.c_str(), s.target.c_str()) != 0) {
    const std::string why = "cannot rename " + s.tmp + " to " + s.target + ": " + errno_text();
    std::remove(s.tmp.c_str());
    return why;
  }
  s.tmp.clear();
  return "";
}

}  // namespace

std::string write_outputs(const std::vector<OutputFile>& files, std::ostream& out) {
  std::vector<Staged> staged;
  for (const OutputFile& f : files) {
    Staged s;
    s.path = f.path;
    s.text = &f.text;
    staged.push_back(std::move(s));
  }
  std::string why;
  for (Staged& s : staged) {
    if (why = stage(s); !why.empty()) break;
  }
  // Two outputs into one file would silently leave only the last.
  for (std::size_t a = 0; why.empty() && a < staged.size(); ++a) {
    for (std::size_t b = a + 1; b < staged.size(); ++b) {
      const bool same_stdout = staged[a].to_stdout && staged[b].to_stdout;
      if (same_stdout || (!staged[a].to_stdout && staged[a].target == staged[b].target)) {
        why = staged[a].path + " and " + staged[b].path + " are the same file: give each output its own";
        break;
      }
    }
  }
  // What cannot be undone (stdout, devices, FIFOs) goes first: if it fails, no regular file
  // has been renamed into place yet, so the whole set is still all or nothing.
  for (Staged& s : staged) {
    if (why.empty() && (s.to_stdout || s.in_place)) why = commit(s, out);
  }
  for (Staged& s : staged) {
    if (why.empty() && !s.to_stdout && !s.in_place) why = commit(s, out);
    if (!s.tmp.empty()) std::remove(s.tmp.c_str());  // a failure leaves nothing behind
  }
  return why;
}

std::string write_output(const std::string& path, const std::string& text, std::ostream& out) {
  return write_outputs({{path, text}}, out);
}

int deliver(const std::string& path, const std::string& text, const Io& io) {
  if (std::string why = write_output(path, text, io.out); !why.empty()) {
    io.error("-o: " + why);
    return static_cast<int>(ExitStatus::output_file);
  }
  return static_cast<int>(ExitStatus::ok);
}

}  // namespace moeplan::cli

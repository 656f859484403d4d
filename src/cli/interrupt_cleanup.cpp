#include "interrupt_cleanup.hpp"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

namespace moeplan::cli {

namespace {

// The handler may only touch what is async-signal-safe: a fixed array of fixed-size paths
// and lock-free flags (no std::string, no allocation, no lock).
constexpr std::size_t k_slots = 16;        // a command stages at most four files (fit)
constexpr std::size_t k_path_bytes = 4096; // PATH_MAX on Linux
struct Slot {
  std::atomic<bool> used{false};
  char path[k_path_bytes] = {};
};
Slot g_slots[k_slots];
static_assert(std::atomic<bool>::is_always_lock_free);

constexpr int k_signals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[std::size(k_signals)];

extern "C" void remove_temporaries_and_reraise(int sig) {
  for (Slot& s : g_slots) {
    if (s.used.load()) ::unlink(s.path);
  }
  for (std::size_t i = 0; i < std::size(k_signals); ++i) {
    if (k_signals[i] == sig) ::sigaction(sig, &g_previous[i], nullptr);
  }
  // Blocked while this handler runs; delivered with the restored disposition on return.
  ::raise(sig);
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t i = 0; i < std::size(k_signals); ++i) {
      struct sigaction now {};
      ::sigaction(k_signals[i], nullptr, &g_previous[i]);
      if (g_previous[i].sa_handler == SIG_IGN) continue;  // ignored stays ignored
      now.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&now.sa_mask);
      for (int s : k_signals) sigaddset(&now.sa_mask, s);  // one cleanup at a time
      ::sigaction(k_signals[i], &now, nullptr);
    }
  });
}

// Blocks the cleanup signals for the life of the object.
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : k_signals) sigaddset(&set, s);
    ::pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;

 private:
  sigset_t old_;
};

std::mutex g_claim;  // slots are claimed and released by ordinary code only

}  // namespace

int create_temporary(const std::string& target, std::string& path) {
  install_handlers();
  std::vector<char> name(target.begin(), target.end());
  const std::string suffix = ".moeplan-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  const SignalsBlocked blocked;
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return -1;
  path = name.data();
  if (path.size() < k_path_bytes) {
    const std::lock_guard lock(g_claim);
    for (Slot& s : g_slots) {
      if (!s.used.load()) {
        std::memcpy(s.path, path.c_str(), path.size() + 1);
        s.used.store(true);  // after the path is complete: the handler never sees half of it
        break;
      }
    }
  }
  return fd;
}

namespace {

// Called with the signals blocked.
void forget(const std::string& path) {
  const std::lock_guard lock(g_claim);
  for (Slot& s : g_slots) {
    if (s.used.load() && path == s.path) {
      s.used.store(false);
      return;
    }
  }
}

}  // namespace

int rename_temporary(const std::string& path, const std::string& target) {
  const SignalsBlocked blocked;
  const int result = std::rename(path.c_str(), target.c_str());
  if (result == 0) forget(path);
  return result;
}

void remove_temporary(const std::string& path) {
  const SignalsBlocked blocked;
  ::unlink(path.c_str());
  forget(path);
}

std::size_t pending_temporaries() {
  std::size_t n = 0;
  for (const Slot& s : g_slots) n += s.used.load();
  return n;
}

}  // namespace moeplan::cli

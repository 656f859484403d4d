#pragma once
/// Optional parts of moeplan live in modules the binary dlopen()s on first use (the CUDA GEMM
/// path, PLplot drawing), so that no other command maps their libraries at start-up. This
/// finds a module and returns its entry point; each loader checks its own ABI.
#include <string>

namespace moeplan {

struct OpenedModule {
  void* entry = nullptr;  ///< the entry symbol's address; null with `why` when not loaded
  std::string path;       ///< the file opened (for messages)
  std::string why;        ///< "the NAME module ... is not installed (looked in ...)", or why dlopen failed
};

/// Looks for `file` beside the executable, in ../lib/moeplan (installed), then in the
/// ':'-separated `dirs` (the install and build directories CMake compiled in); dlopen()s the
/// first that exists (RTLD_NOW | RTLD_LOCAL; the handle stays open for the process) and
/// returns `entry_symbol`'s address. `what` names the module in messages ("CUDA", "plot").
OpenedModule open_module(const std::string& what, const std::string& file, const std::string& dirs,
                         const char* entry_symbol);

}  // namespace moeplan

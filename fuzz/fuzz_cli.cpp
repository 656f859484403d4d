// libFuzzer target: the whole command line, in-process (moeplan::cli::run), as a user would
// type it. The input is split into argv words on newlines and NULs ("suggest\n--flops\n1e22").
//
// Invariant: the exit status is one of 0, 2, 3, 4, 5 (man moeplan, EXIT STATUS); 1 means an
// unexpected exception ("moeplan: error: internal: ...") and is reported as a crash. A run
// that hangs past libFuzzer's -timeout (scripts/fuzz.sh: 25 s) is a crash too.
//
// Work per input is bounded, so every subcommand but `plot` (which writes images) runs:
//  - `suggest` gets --no-bench (no ~2 s GEMM benchmark);
//  - `fit` gets --starts 2 --max-iterations 100 --bootstrap 0: the optimiser runs, briefly;
//  - `bench` gets --seconds 0.01 --reps 1 --micro-batch-tokens 64 --threads 1 --min-rows 1 --no-gpu.
// Inputs that set those flags themselves are skipped (ours must win, and CLI11 refuses a
// flag given twice), as are inputs that
//  - name `plot`;
//  - carry any flag that writes a file: -o..., --o... (--output, --out, and their = forms),
//    --residuals, --points, --data;
//  - give an absolute path or a ".." component: the only files a command may read are
//    those in the working directory, where scripts/fuzz.sh puts the seed presets and CSVs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app.hpp"

namespace {

bool starts_with_any(std::string_view w, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes) {
    if (w.starts_with(p)) return true;
  }
  return false;
}

bool refused(std::string_view w) {
  if (w == "plot") return true;
  if (starts_with_any(w, {"-o", "--o", "--residuals", "--points", "--data", "--no-bench",
                          "--starts", "--max-iterations", "--bootstrap", "--seconds", "--reps",
                          "--tokens", "--micro-batch-tokens", "--threads", "--min-rows", "--no-gpu", "--bench-seconds"})) {
    return true;
  }
  if (w.starts_with('/') || w.find("..") != std::string_view::npos) return true;
  return false;
}

// Flags that bound a subcommand's work, inserted right after its name.
std::vector<std::string> bounds_for(std::string_view subcommand) {
  if (subcommand == "suggest") return {"--no-bench"};
  if (subcommand == "fit") return {"--starts", "2", "--max-iterations", "100", "--bootstrap", "0"};
  if (subcommand == "bench") {
    return {"--seconds", "0.01", "--reps", "1", "--micro-batch-tokens", "64", "--threads", "1",
            "--min-rows", "1", "--no-gpu"};
  }
  return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> words{"moeplan"};
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i <= size; ++i) {
    const char c = i < size ? static_cast<char>(data[i]) : '\n';
    if (c == '\n' || c == '\0') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      continue;
    }
    word.push_back(c);
    in_word = true;
  }
  if (words.size() > 64) return 0;
  std::vector<std::string> args;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0 && refused(words[i])) return 0;
    args.push_back(words[i]);
    for (std::string& b : bounds_for(words[i])) args.push_back(std::move(b));
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);

  std::ostringstream out, err;
  const int code =
      moeplan::cli::run(static_cast<int>(args.size()), argv.data(), out, err);
  const bool documented = code == 0 || (code >= 2 && code <= 5);
  // app.cpp's catch-all prints this (with exit 1). Messages echo argv words, so the text
  // counts only when no word could have put it there (the fuzzer does learn the string).
  bool internal = err.str().find("moeplan: error: internal") != std::string::npos;
  for (const std::string& a : args) {
    if (a.find("internal") != std::string::npos) internal = false;
  }
  if (!documented || internal) {
    std::fprintf(stderr, "fuzz invariant failed: exit status %d for argv:", code);
    for (const std::string& a : args) std::fprintf(stderr, " '%s'", a.c_str());
    std::fprintf(stderr, "\nstderr:\n%s\n", err.str().c_str());
    std::abort();
  }
  return 0;
}

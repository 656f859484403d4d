#pragma once
// Shell completion scripts generated from the CLI11 definitions, so they cannot drift from
// --help: `moeplan completion bash|zsh` prints one; the build installs both.
#include <string>

namespace CLI {
class App;
}

namespace moeplan::cli {

std::string bash_completion(const CLI::App& root);
std::string zsh_completion(const CLI::App& root);

}  // namespace moeplan::cli

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "app.hpp"
#include "command.hpp"

int main(int argc, char** argv) {
  const auto style = moeplan::cli::terminal_style(isatty(STDOUT_FILENO) != 0, std::getenv("NO_COLOR"),
                                                  std::getenv("TERM"));
  return moeplan::cli::run(argc, argv, std::cout, std::cerr, style);
}

#include <iostream>

#include "app.hpp"

int main(int argc, char** argv) { return moeplan::cli::run(argc, argv, std::cout, std::cerr); }

#pragma once
// Shared by the fuzz targets: an invariant that fails is reported like a crash (abort),
// with the failing check on stderr so the reproducer explains itself.
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond, what)                                                      \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "fuzz invariant failed: %s (%s) at %s:%d\n", what, #cond, \
                   __FILE__, __LINE__);                                             \
      std::abort();                                                                 \
    }                                                                               \
  } while (0)

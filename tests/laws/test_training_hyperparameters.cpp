// src/laws/training_hyperparameters.cpp: a run's learning rate and batch from paper 002's
// Table 4 inside its rows, from paper 000's Eq. 5 outside them. Numbers worked by hand below.
#include <doctest/doctest.h>

#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;

TEST_CASE("training hyperparameters: Table 4's row at C = 1e20, and D / S sequences") {
  const TrainingHyperparameters h = training_hyperparameters(builtin_laws(), Flops(1e20), Tokens(2e11), 4096);
  CHECK(h.source == HyperparameterSource::holistic_table4);
  REQUIRE(h.learning_rate.has_value());
  CHECK(*h.learning_rate == doctest::Approx(5.74e-4));  // paper 002 Table 4, 1e20 row
  CHECK(h.global_batch_size == 208);                    // the same row
  CHECK(h.train_samples == 48828125);                   // 2e11 / 4096, exactly
  CHECK(h.compute == 1e20);
}

TEST_CASE("training hyperparameters: past Table 4, paper 000 Eq. 5 with B_opt in tokens") {
  const TrainingHyperparameters h = training_hyperparameters(builtin_laws(), Flops(1e22), Tokens(1e12), 4096);
  CHECK(h.source == HyperparameterSource::leverage_eq5);
  REQUIRE(h.learning_rate.has_value());
  // eta = 1.1576 C^-0.1529 = 1.1576 x 10^(-3.3638) = 5.009e-4.
  CHECK(*h.learning_rate == doctest::Approx(5.009e-4).epsilon(1e-3));
  // B = 0.0694 C^0.3644 = 0.0694 x 10^8.0168 = 7.2137e6 tokens = 1761.2 sequences of 4096.
  CHECK(h.global_batch_size == 1761);
}

TEST_CASE("training hyperparameters: no budget or no sequence length gives nothing") {
  const TrainingHyperparameters none = training_hyperparameters(builtin_laws(), Flops(0), Tokens(1e12), 4096);
  CHECK_FALSE(none.learning_rate.has_value());
  CHECK_FALSE(none.global_batch_size.has_value());
  CHECK_FALSE(none.train_samples.has_value());
  CHECK_FALSE(training_hyperparameters(builtin_laws(), Flops(1e20), Tokens(1e12), 0).compute.has_value());
}

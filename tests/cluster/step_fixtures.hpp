#pragma once
// The step-time helpers of the step model's tests (test_step_time.cpp, test_step_terms.cpp):
// a layout timed at S = 4096 on a hand-built cluster, and one term's detail line.
#include <string>

#include "cluster/cluster_fixtures.hpp"
#include "moeplan/cluster/step_time.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan::test {

constexpr int k_seq_len = 4096;  // S of these tests (the step model has no S of its own)

inline StepTime time_of(const ModelConfig& m, int world, ParallelLayout l, long long global_batch,
                        StepTimeOptions o = {}) {
  l.global_batch = global_batch;
  if (o.seq_len == 0) o.seq_len = k_seq_len;
  return step_time(m, count_parameters(m), cluster_of(world), l, o);
}

inline std::string detail_of(const StepTime& t, const std::string& name) {
  for (const StepTerm& term : t.terms) {
    if (term.name == name) return term.detail;
  }
  return "";
}

}  // namespace moeplan::test

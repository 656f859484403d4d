#pragma once
// `--emit hf-config|megatron|toml` of `suggest` and `score`: the flag and the dispatch to the
// core's exporters (moeplan/model_export.hpp), shared so both commands behave the same.
#include <cstddef>
#include <string>
#include <vector>

#include "command.hpp"
#include "moeplan/laws/law_set.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/io/model_export.hpp"
#include "moeplan/planner/pipeline.hpp"

namespace CLI {
class App;
}

namespace moeplan::cli {

/// Adds `--emit KIND` (hf-config, megatron or toml); it excludes --format.
void add_emit_flag(CLI::App& sub, std::string& emit);

/// "" when `count` configs can be emitted, else the usage message (exactly one is needed).
std::string emit_count_problem(std::size_t count);

/// Writes `m` as `kind` to `output` ('-' = stdout, else whole or nothing, never over one
/// of the command's `inputs`); the exit status.
/// With a layout (--gpus), `--emit megatron` carries its parallelism flags.
int emit_config(const std::string& kind, const ModelConfig& m, const LawSet& laws,
                const std::string& output, Io& io, const std::vector<std::string>& inputs,
                const MegatronRun* run = nullptr);

}  // namespace moeplan::cli

#pragma once
/// The JSON Schemas of the commands' JSON output (share/moeplan/schemas/NAME.schema.json),
/// compiled in at build time as the presets are (cmake/EmbedFiles.cmake), so `moeplan schema`
/// prints them from any directory.
#include <vector>

#include "moeplan/base/presets.hpp"  // EmbeddedFile

namespace moeplan::cli::detail {
/// Every schema file, sorted by path ("suggest.schema.json", ...): the text as in the source.
const std::vector<EmbeddedFile>& embedded_schema_files();
}  // namespace moeplan::cli::detail

#include "moeplan/cluster/gpu_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "moeplan/base/presets.hpp"
#include "moeplan/base/toml_reader.hpp"
#include "moeplan/base/units.hpp"

namespace moeplan {
namespace {

constexpr std::string_view k_embedded_path = "hardware/gpus.toml";

// Datasheets print TFLOPS, GB and TB/s in decimal units (docs/cluster.md, "Units").
constexpr double k_tera = 1e12;
constexpr double k_giga = 1e9;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Ids are what people type on the command line: lower case, digits, '-', '.', '_'.
bool valid_id(std::string_view id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](unsigned char c) {
    return std::islower(c) || std::isdigit(c) || c == '-' || c == '.' || c == '_';
  });
}

std::vector<std::string> read_aliases(const toml::table& t, const std::string& path, Reader& r) {
  std::vector<std::string> out;
  const toml::node* n = t.get("aliases");
  if (!n) return out;
  const toml::array* a = n->as_array();
  if (!a) {
    r.fail(n->source(), path, "must be an array of quoted ids, e.g. [\"h100\"]");
    return out;
  }
  for (const toml::node& item : *a) {
    const auto s = item.value<std::string>();
    if (!s || !valid_id(*s)) {
      r.fail(item.source(), path, "each alias must be a lower-case id (letters, digits, - . _)");
      return out;
    }
    out.push_back(*s);
  }
  return out;
}

GpuSpec read_gpu(const toml::table& t, const std::string& path, Reader& r) {
  r.only_keys(t,
              {"id", "aliases", "name", "bf16_dense_tflops", "fp8_dense_tflops", "sms", "hbm_gb",
               "hbm_driver_mib", "hbm_tb_per_s", "intra_node_gb_per_s", "network_gb_per_s", "gpus_per_node", "source",
               "host_python_op_us"},
              path);
  GpuSpec g;
  g.id = r.string(t, "id", path + ".id");
  if (!r.failed() && !valid_id(g.id)) {
    r.fail(t.get("id")->source(), path + ".id",
           fmt::format("\"{}\" must be lower case: letters, digits, - . _", g.id));
  }
  g.aliases = read_aliases(t, path + ".aliases", r);
  g.name = r.string(t, "name", path + ".name");
  g.bf16_dense_flops = r.number(t, "bf16_dense_tflops", path + ".bf16_dense_tflops", true) * k_tera;
  // Optional: a GPU without FP8 tensor cores (A100) has none; without an SM count the GEMM
  // model leaves out wave quantization (docs/step-model.md).
  if (t.contains("fp8_dense_tflops")) {
    g.fp8_dense_flops = r.number(t, "fp8_dense_tflops", path + ".fp8_dense_tflops", true) * k_tera;
  }
  if (t.contains("sms")) g.sms = r.integer(t, "sms", path + ".sms", 1);
  g.hbm_datasheet_bytes = r.number(t, "hbm_gb", path + ".hbm_gb", true) * k_giga;
  g.hbm_bytes = g.hbm_datasheet_bytes;
  // Optional: the capacity the driver reports. Datasheets print HBM in round "GB" that are
  // closer to GiB (an H100's 80 GB reads 81,559 MiB), so without a readout the plan keeps the
  // datasheet's smaller decimal reading, on the safe side (docs/cluster.md "Memory capacity").
  if (t.contains("hbm_driver_mib")) {
    g.hbm_bytes = r.number(t, "hbm_driver_mib", path + ".hbm_driver_mib", true) * k_mib;
    g.hbm_from_driver = true;
  }
  g.hbm_bandwidth = r.number(t, "hbm_tb_per_s", path + ".hbm_tb_per_s", true) * k_tera;
  g.intra_node_bandwidth =
      r.number(t, "intra_node_gb_per_s", path + ".intra_node_gb_per_s", true) * k_giga;
  g.network_bandwidth = r.number(t, "network_gb_per_s", path + ".network_gb_per_s", true) * k_giga;
  g.gpus_per_node = r.integer(t, "gpus_per_node", path + ".gpus_per_node", 1);
  g.source = r.string(t, "source", path + ".source");
  // Optional: one PyTorch call's host time measured on this GPU's own system (docs/step-model.md
  // "Host time"); absent, the x86 figure of host_launches.toml.
  if (t.contains("host_python_op_us")) {
    g.host_python_op_seconds = r.number(t, "host_python_op_us", path + ".host_python_op_us", true) * 1e-6;
  }
  // Plausible ranges, so that a unit slip (TFLOP/s given in FLOP/s, GB in TB) is an error,
  // not an MFU of 2e-9: wide enough for any accelerator of the next decade.
  const auto within = [&](const char* key, double value, double lo, double hi, const char* unit) {
    if (!r.failed() && (value < lo || value > hi)) {
      r.fail(t.get(key)->source(), path + "." + key,
             fmt::format("{:g} {} is outside {:g}..{:g} (check the unit)", value, unit, lo, hi));
    }
  };
  within("bf16_dense_tflops", g.bf16_dense_flops / k_tera, 1, 1e5, "TFLOP/s");
  if (g.fp8_dense_flops > 0) within("fp8_dense_tflops", g.fp8_dense_flops / k_tera, 1, 1e5, "TFLOP/s");
  // FP8 tensor cores run at least the bf16 rate (twice it on Hopper and Blackwell): a figure
  // below is a slip (the sparse bf16 figure in the dense fp8 key, say).
  if (g.fp8_dense_flops > 0 && !r.failed() && g.fp8_dense_flops < g.bf16_dense_flops) {
    r.fail(t.get("fp8_dense_tflops")->source(), path + ".fp8_dense_tflops",
           fmt::format("{:g} TFLOP/s is below bf16_dense_tflops = {:g}: fp8 tensor cores run at least the bf16 rate",
                       g.fp8_dense_flops / k_tera, g.bf16_dense_flops / k_tera));
  }
  if (g.sms > 0) within("sms", g.sms, 1, 1e5, "SMs");
  if (g.host_python_op_seconds > 0) within("host_python_op_us", g.host_python_op_seconds * 1e6, 0.1, 1e4, "us a call");
  within("hbm_gb", g.hbm_datasheet_bytes / k_giga, 1, 1e5, "GB");
  // A readout is the same memory counted in MiB: within -10 % .. +20 % of the datasheet's GB,
  // so that GB written as MiB (or the reverse) is an error, not 1000x the memory.
  if (g.hbm_from_driver && !r.failed() &&
      (g.hbm_bytes < 0.9 * g.hbm_datasheet_bytes || g.hbm_bytes > 1.2 * g.hbm_datasheet_bytes)) {
    r.fail(t.get("hbm_driver_mib")->source(), path + ".hbm_driver_mib",
           fmt::format("{:g} MiB is {:.3g} GB, not within -10 %..+20 % of hbm_gb = {:g} (check the unit)",
                       g.hbm_bytes / k_mib, g.hbm_bytes / k_giga, g.hbm_datasheet_bytes / k_giga));
  }
  within("hbm_tb_per_s", g.hbm_bandwidth / k_tera, 0.05, 1e3, "TB/s");
  within("intra_node_gb_per_s", g.intra_node_bandwidth / k_giga, 0.1, 1e5, "GB/s");
  within("network_gb_per_s", g.network_bandwidth / k_giga, 0.1, 1e5, "GB/s");
  within("gpus_per_node", g.gpus_per_node, 1, k_max_gpus_per_node, "GPUs");  // the bound --gpus-per-node has
  // A catalog entry without its provenance is a number nobody can check (STYLE.md).
  if (!r.failed() && g.source.empty()) {
    r.fail(t.get("source")->source(), path + ".source", "must name the datasheet or spec page");
  }
  return g;
}

}  // namespace

const GpuSpec* GpuCatalog::find(std::string_view id) const {
  const std::string key = lower(id);
  for (const GpuSpec& g : gpus) {
    if (g.id == key) return &g;
  }
  for (const GpuSpec& g : gpus) {
    if (std::find(g.aliases.begin(), g.aliases.end(), key) != g.aliases.end()) return &g;
  }
  return nullptr;
}

std::string GpuCatalog::ids() const {
  std::string out;
  for (const GpuSpec& g : gpus) {
    if (!out.empty()) out += ", ";
    out += g.id;
  }
  return out;
}

std::expected<GpuCatalog, InputError> read_gpu_catalog(std::string_view text,
                                                       const std::string& source,
                                                       GpuCatalog base) {
  auto doc = parse_toml(text, source);
  if (!doc) return std::unexpected(doc.error());
  Reader r(source);
  r.only_keys(*doc, {"description", "gpu"}, "");
  const toml::node* list = doc->get("gpu");
  if (!r.failed() && (!list || !list->is_array_of_tables() || list->as_array()->empty())) {
    r.fail(list ? list->source() : doc->source(), "gpu",
           "must be one or more [[gpu]] tables");
  }
  if (r.failed()) return std::unexpected(r.error());

  std::set<std::string> seen;
  std::size_t i = 0;
  for (const toml::node& n : *list->as_array()) {
    const toml::table& t = *n.as_table();
    const std::string path = fmt::format("gpu[{}]", i++);
    GpuSpec g = read_gpu(t, path, r);
    if (r.failed()) return std::unexpected(r.error());
    if (!seen.insert(g.id).second) {
      r.fail(t.get("id")->source(), path + ".id",
             fmt::format("\"{}\" appears twice in this file", g.id));
      return std::unexpected(r.error());
    }
    // Overlay: a known id is replaced where it stands, a new one appended.
    auto same = std::find_if(base.gpus.begin(), base.gpus.end(),
                             [&](const GpuSpec& b) { return b.id == g.id; });
    // An alias may not name another GPU (it would silently lose to that GPU's id).
    for (const std::string& a : g.aliases) {
      for (const GpuSpec& b : base.gpus) {
        if (b.id == g.id) continue;
        if (b.id == a || std::find(b.aliases.begin(), b.aliases.end(), a) != b.aliases.end()) {
          r.fail(t.get("aliases")->source(), path + ".aliases",
                 fmt::format("\"{}\" already names {}", a, b.id));
          return std::unexpected(r.error());
        }
      }
    }
    if (same != base.gpus.end()) {
      if (g.aliases.empty()) g.aliases = same->aliases;  // a replaced GPU keeps its names
      *same = std::move(g);
    } else {
      base.gpus.push_back(std::move(g));
    }
  }
  return base;
}

double GpuSpec::*gpu_peak_field(std::string_view catalog_key) {
  if (catalog_key == "bf16_dense_tflops") return &GpuSpec::bf16_dense_flops;
  if (catalog_key == "fp8_dense_tflops") return &GpuSpec::fp8_dense_flops;
  return nullptr;
}

const GpuCatalog& embedded_gpu_catalog() {
  // Parsed once; the preset is compiled in and tested, so a failure here is a build bug.
  static const GpuCatalog catalog = [] {
    const auto text = find_embedded_preset(k_embedded_path);
    if (!text) throw std::logic_error("embedded preset hardware/gpus.toml is missing");
    auto c = read_gpu_catalog(*text, fmt::format("<embedded:{}>", k_embedded_path));
    if (!c) throw std::logic_error("embedded GPU catalog: " + c.error().to_string());
    return std::move(*c);
  }();
  return catalog;
}

namespace {
/// `part` occurs in `text` as a word of its own: not inside a longer name ("h20" is not in
/// "h200", "b200" not in "gb200").
bool has_word(const std::string& text, const std::string& part) {
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    const std::size_t end = at + part.size();
    if ((at == 0 || !alnum(text[at - 1])) && (end == text.size() || !alnum(text[end]))) return true;
  }
  return false;
}
}  // namespace

bool gpu_is(std::string_view device, const GpuSpec& gpu) {
  const auto lower = [](std::string_view t) {
    std::string out(t);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string dev = lower(device);
  std::string_view id = gpu.id;
  bool first = true;
  while (!id.empty()) {
    const std::size_t dash = id.find('-');
    const std::string part = lower(id.substr(0, dash));
    if ((first || part != "sxm") && !has_word(dev, part)) return false;
    first = false;
    if (dash == std::string_view::npos) break;
    id.remove_prefix(dash + 1);
  }
  return true;
}

}  // namespace moeplan

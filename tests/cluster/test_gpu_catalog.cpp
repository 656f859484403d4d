// The GPU catalog: the embedded preset's entries, the overlay of a user's file, bad files.
#include <doctest/doctest.h>

#include <string>

#include "moeplan/cluster/gpu_catalog.hpp"

using namespace moeplan;

namespace {

const char* const k_one_gpu = R"([[gpu]]
id = "test-gpu"
name = "Test GPU"
bf16_dense_tflops = 100
hbm_gb = 10
hbm_tb_per_s = 1
intra_node_gb_per_s = 100
network_gb_per_s = 10
gpus_per_node = 4
source = "made up for a test"
)";

std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("cluster catalog: every embedded GPU is positive, sourced and the required ones present") {
  const GpuCatalog& c = embedded_gpu_catalog();
  for (const char* id : {"h100-sxm", "h100-pcie", "h200", "h800", "h20", "a100-40gb", "a100-80gb",
                         "b200", "gb200", "mi300x"}) {
    const std::string name = id;
    CAPTURE(name);
    CHECK(c.find(id) != nullptr);
  }
  for (const GpuSpec& g : c.gpus) {
    CAPTURE(g.id);
    CHECK(g.bf16_dense_flops > 0);
    CHECK(g.hbm_bytes > 0);
    CHECK(g.hbm_bandwidth > 0);
    CHECK(g.intra_node_bandwidth > 0);
    CHECK(g.network_bandwidth > 0);
    CHECK(g.gpus_per_node >= 1);
    CHECK(g.source.size() > 20);
    CHECK_FALSE(g.name.empty());
  }
}

TEST_CASE("cluster catalog: H100 SXM carries its datasheet figures in SI units") {
  const GpuSpec* h = embedded_gpu_catalog().find("h100-sxm");
  REQUIRE(h != nullptr);
  // H100 datasheet: 1,979 TFLOPS bf16 with sparsity = 989.5 dense; 80 GB; 3.35 TB/s;
  // NVLink 900 GB/s bidirectional = 450 per direction; 400 Gb/s NIC = 50 GB/s.
  CHECK(h->bf16_dense_flops == doctest::Approx(989.5e12));
  CHECK(h->hbm_datasheet_bytes == doctest::Approx(80e9));
  // The capacity planned with is the driver's readout, 81,559 MiB (nvidia-smi on an H100
  // 80GB HBM3, NVIDIA/nccl #1264), not the datasheet's decimal 80 GB.
  CHECK(h->hbm_from_driver);
  CHECK(h->hbm_bytes == doctest::Approx(81559.0 * 1024 * 1024));
  CHECK(h->hbm_bandwidth == doctest::Approx(3.35e12));
  CHECK(h->intra_node_bandwidth == doctest::Approx(450e9));
  CHECK(h->network_bandwidth == doctest::Approx(50e9));
  CHECK(embedded_gpu_catalog().find("gb200")->gpus_per_node == 72);
}

TEST_CASE("cluster catalog: fp8 peaks and SM counts as the datasheets print them, none for Ampere") {
  const GpuCatalog& c = embedded_gpu_catalog();
  // NVIDIA H100 datasheet: FP8 3,958 (SXM) and 3,026 (PCIe) TFLOPS with sparsity, half dense;
  // H100 architecture whitepaper: 132 SMs (SXM5), 114 (PCIe)
  CHECK(c.find("h100-sxm")->fp8_dense_flops == doctest::Approx(3958e12 / 2));
  CHECK(c.find("h100-sxm")->sms == 132);
  CHECK(c.find("h100-pcie")->fp8_dense_flops == doctest::Approx(3026e12 / 2));
  CHECK(c.find("h100-pcie")->sms == 114);
  CHECK(c.find("h800")->fp8_dense_flops == doctest::Approx(1979e12));
  // HGX B200: 72 PFLOPS fp8 for 8 GPUs with sparsity; GB200 NVL72: 720 for 72
  CHECK(c.find("b200")->fp8_dense_flops == doctest::Approx(72e15 / 8 / 2));
  CHECK(c.find("gb200")->fp8_dense_flops == doctest::Approx(720e15 / 72 / 2));
  // AMD MI300X data sheet: 2,614.9 TFLOPS fp8 dense, 304 CUs
  CHECK(c.find("mi300x")->fp8_dense_flops == doctest::Approx(2614.9e12));
  CHECK(c.find("mi300x")->sms == 304);
  // A100: no fp8 tensor cores; 108 SMs (A100 whitepaper)
  CHECK(c.find("a100-80gb")->fp8_dense_flops == 0);
  CHECK(c.find("a100-80gb")->sms == 108);
}

TEST_CASE("cluster catalog: find is case-insensitive and knows aliases") {
  const GpuCatalog& c = embedded_gpu_catalog();
  REQUIRE(c.find("H100-SXM") != nullptr);
  CHECK(c.find("H100-SXM")->id == "h100-sxm");
  REQUIRE(c.find("h100") != nullptr);
  CHECK(c.find("h100")->id == "h100-sxm");
  CHECK(c.find("MI300X")->id == "mi300x");
  CHECK(c.find("no-such-gpu") == nullptr);
  CHECK(c.ids().find("h100-sxm, h100-pcie") == 0);
}

TEST_CASE("cluster catalog: an overlay file replaces a GPU by id and appends a new one") {
  const GpuCatalog& base = embedded_gpu_catalog();
  const std::string replace = with(with(k_one_gpu, "\"test-gpu\"", "\"h100-sxm\""),
                                   "hbm_gb = 10", "hbm_gb = 96");
  auto c = read_gpu_catalog(replace + "\n" + k_one_gpu, "mine.toml", base);
  REQUIRE_MESSAGE(c.has_value(), c.error().to_string());
  CHECK(c->gpus.size() == base.gpus.size() + 1);
  CHECK(c->find("h100-sxm")->hbm_bytes == doctest::Approx(96e9));
  CHECK(c->gpus.front().id == base.gpus.front().id);  // replaced where it stood
  CHECK(c->gpus.back().id == "test-gpu");
  CHECK(c->find("test-gpu")->gpus_per_node == 4);
  // The replacement has no driver readout: its datasheet GB is the capacity.
  CHECK_FALSE(c->find("h100-sxm")->hbm_from_driver);
  CHECK(c->find("h200")->hbm_bytes == doctest::Approx(143771.0 * 1024 * 1024));  // untouched
}

TEST_CASE("cluster catalog: the embedded driver readouts are nvidia-smi's memory.total, MiB, as their sources print them") {
  // gpus.toml sources: H100 80GB HBM3 81,559 MiB (NVIDIA/nccl #1264; Modal's NVML table), H800
  // the H100 SXM5's (same package, no readout found), H200 143,771 (Modal; this project's H200
  // smi.csv), A100 40,960 and 81,920 (Modal), B200 183,359 (NVIDIA/TensorRT-LLM #10278).
  const struct {
    const char* id;
    double mib;
  } readouts[] = {{"h100-sxm", 81559}, {"h800", 81559}, {"h200", 143771}, {"a100-40gb", 40960},
                  {"a100-80gb", 81920}, {"b200", 183359}};
  for (const auto& [id, mib] : readouts) {
    CAPTURE(id);
    const GpuSpec* g = embedded_gpu_catalog().find(id);
    REQUIRE(g != nullptr);
    CHECK(g->hbm_from_driver);
    CHECK(g->hbm_bytes == doctest::Approx(mib * 1024 * 1024));
  }
  // no published readout: the datasheet's decimal GB
  for (const char* id : {"h100-pcie", "h20", "gb200", "mi300x"}) {
    CAPTURE(id);
    const GpuSpec* g = embedded_gpu_catalog().find(id);
    REQUIRE(g != nullptr);
    CHECK_FALSE(g->hbm_from_driver);
    CHECK(g->hbm_bytes == doctest::Approx(g->hbm_datasheet_bytes));
  }
}

TEST_CASE("cluster catalog: a driver readout is the capacity planned with, the datasheet's GB kept beside it") {
  auto c = read_gpu_catalog(with(k_one_gpu, "hbm_gb = 10", "hbm_gb = 10\nhbm_driver_mib = 10240"), "mine.toml");
  REQUIRE_MESSAGE(c.has_value(), c.error().to_string());
  const GpuSpec& g = c->gpus.front();
  CHECK(g.hbm_from_driver);
  CHECK(g.hbm_bytes == doctest::Approx(10240.0 * 1024 * 1024));  // 10 GiB
  CHECK(g.hbm_datasheet_bytes == doctest::Approx(10e9));
  auto plain = read_gpu_catalog(k_one_gpu, "mine.toml");
  REQUIRE(plain.has_value());
  CHECK_FALSE(plain->gpus.front().hbm_from_driver);
  CHECK(plain->gpus.front().hbm_bytes == doctest::Approx(10e9));
}

TEST_CASE("cluster catalog: bad files name the line, the key and the reason") {
  struct Case {
    const char* what;
    std::string text;
    int line;
    const char* key;
    const char* reason;
  };
  const Case cases[] = {
      {"unknown key", with(k_one_gpu, "hbm_gb = 10", "hbm_gbs = 10"), 5, "gpu[0].hbm_gbs",
       "unknown key"},
      {"missing field", with(k_one_gpu, "hbm_tb_per_s = 1\n", ""), 1, "gpu[0].hbm_tb_per_s",
       "missing"},
      {"negative", with(k_one_gpu, "network_gb_per_s = 10", "network_gb_per_s = -10"), 8,
       "gpu[0].network_gb_per_s", "positive"},
      {"zero", with(k_one_gpu, "bf16_dense_tflops = 100", "bf16_dense_tflops = 0"), 4,
       "gpu[0].bf16_dense_tflops", "positive"},
      {"duplicate id", std::string(k_one_gpu) + "\n" + k_one_gpu, 13, "gpu[1].id", "twice"},
      {"upper-case id", with(k_one_gpu, "\"test-gpu\"", "\"Test-GPU\""), 2, "gpu[0].id",
       "lower case"},
      {"fp8 as a string", with(k_one_gpu, "hbm_gb = 10", "fp8_dense_tflops = \"2000\"\nhbm_gb = 10"), 5,
       "gpu[0].fp8_dense_tflops", "number"},
      {"fp8 unit slip", with(k_one_gpu, "hbm_gb = 10", "fp8_dense_tflops = 2e15\nhbm_gb = 10"), 5,
       "gpu[0].fp8_dense_tflops", "check the unit"},
      {"sms zero", with(k_one_gpu, "hbm_gb = 10", "sms = 0\nhbm_gb = 10"), 5, "gpu[0].sms", "[1, 1e9]"},
      // 10 GB written as 10 MiB, or as 10 GiB in bytes: a unit slip, not a capacity.
      {"driver readout in GB", with(k_one_gpu, "hbm_gb = 10", "hbm_gb = 10\nhbm_driver_mib = 10"), 6,
       "gpu[0].hbm_driver_mib", "check the unit"},
      {"driver readout in bytes", with(k_one_gpu, "hbm_gb = 10", "hbm_gb = 10\nhbm_driver_mib = 10737418240"), 6,
       "gpu[0].hbm_driver_mib", "check the unit"},
      {"driver readout as text", with(k_one_gpu, "hbm_gb = 10", "hbm_gb = 10\nhbm_driver_mib = \"10240\""), 6,
       "gpu[0].hbm_driver_mib", "number"},
  };
  for (const Case& k : cases) {
    const std::string what = k.what;
    CAPTURE(what);
    auto c = read_gpu_catalog(k.text, "mine.toml");
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().source == "mine.toml");
    CHECK(c.error().line == k.line);
    CHECK(c.error().key == k.key);
    CHECK(c.error().reason.find(k.reason) != std::string::npos);
  }
  auto empty = read_gpu_catalog("", "empty.toml");
  REQUIRE_FALSE(empty.has_value());
  CHECK(empty.error().key == "gpu");
}

TEST_CASE("cluster gpu_is: a benchmark's device string is matched to the catalog id it measured") {
  const moeplan::GpuCatalog& c = moeplan::embedded_gpu_catalog();
  REQUIRE(c.find("h100-sxm") != nullptr);
  REQUIRE(c.find("h100-pcie") != nullptr);
  REQUIRE(c.find("a100-40gb") != nullptr);
  CHECK(moeplan::gpu_is("cuda: NVIDIA H100 80GB HBM3, 132 SMs", *c.find("h100-sxm")));
  CHECK(moeplan::gpu_is("cuda: NVIDIA H100 PCIe", *c.find("h100-pcie")));
  CHECK_FALSE(moeplan::gpu_is("cuda: NVIDIA H100 80GB HBM3", *c.find("h100-pcie")));
  CHECK_FALSE(moeplan::gpu_is("cuda: NVIDIA H200", *c.find("h100-sxm")));
  CHECK(moeplan::gpu_is("cuda: NVIDIA A100-SXM4-40GB", *c.find("a100-40gb")));
  CHECK_FALSE(moeplan::gpu_is("cuda: NVIDIA A100-SXM4-80GB", *c.find("a100-40gb")));
  // a name inside a longer one is another GPU
  CHECK_FALSE(moeplan::gpu_is("cuda: NVIDIA H200", *c.find("h20")));
  CHECK(moeplan::gpu_is("cuda: NVIDIA H20", *c.find("h20")));
  CHECK_FALSE(moeplan::gpu_is("cuda: NVIDIA GB200", *c.find("b200")));
  CHECK(moeplan::gpu_is("NVIDIA H200", *c.find("h200")));
  CHECK(moeplan::gpu_is("h100-sxm", *c.find("h100-sxm")));  // a catalog id
}

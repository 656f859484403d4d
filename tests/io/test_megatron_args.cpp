// Reading a Megatron-LM launch script (src/io/megatron_args.cpp): shell words, the flags the
// step and memory models use, VPP from layers per virtual stage, the rest listed, and errors
// naming the line and the flag.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "moeplan/io/megatron_args.hpp"

using namespace moeplan;

TEST_CASE("megatron args: a launch script with continuations, comments, quotes and --flag=value") {
  const std::string script =
      "#!/bin/bash\n"
      "# a comment with --tensor-model-parallel-size 8 in it\n"
      "torchrun --nproc_per_node 8 pretrain_gpt.py \\\n"
      "  --num-layers 48 --hidden-size 2048 \\\n"
      "  --tensor-model-parallel-size 2 \\\n"
      "  --pipeline-model-parallel-size=4 \\\n"
      "  --num-layers-per-virtual-pipeline-stage 6 \\\n"
      "  --expert-model-parallel-size '8' --expert-tensor-parallel-size \"1\" \\\n"
      "  --context-parallel-size 2 --micro-batch-size 2 --global-batch-size 1024 \\\n"
      "  --seq-length 8192 --recompute-activations --bf16 --fp8-format hybrid \\\n"
      "  --moe-token-dispatcher-type flex --moe-enable-deepep \\\n"
      "  --lr 3e-4  # tuned\n"
      "  --lr 1e-4\n";
  const auto a = read_megatron_args(script, "run.sh");
  REQUIRE_MESSAGE(a.has_value(), a.error().to_string());
  CHECK(a->layout.tp == 2);
  CHECK(a->layout.pp == 4);
  CHECK(a->layout.vpp == 2);  // 48 layers / (PP 4 x 6 per virtual stage)
  CHECK(a->layout.ep == 8);
  CHECK(a->layout.etp == 1);
  CHECK(a->layout.cp == 2);
  CHECK(a->layout.micro_batch == 2);
  CHECK(a->layout.recompute == Recompute::selective);
  CHECK(a->precision == Precision::fp8);  // --fp8-format on top of --bf16
  CHECK(a->global_batch == 1024);
  CHECK(a->seq_length == 8192);
  CHECK(a->deepep == true);
  // each unused flag once, in file order; the commented-out one is not read
  CHECK(a->unused == std::vector<std::string>{"--nproc_per_node", "--lr"});
  // the model-size flags are read, to be compared with the scored model
  REQUIRE(a->model_flags.size() == 2);
  CHECK(a->model_flags[0].flag == "--num-layers");
  CHECK(a->model_flags[1].flag == "--hidden-size");
  CHECK(a->model_flags[1].value == 2048);
  CHECK(a->model_flags[1].line == 4);
}

TEST_CASE("megatron args: the flex dispatcher's backend, Megatron-Core 0.20's --moe-flex-dispatcher-backend") {
  const auto deepep = read_megatron_args("--moe-token-dispatcher-type flex --moe-flex-dispatcher-backend deepep", "a.txt");
  REQUIRE_MESSAGE(deepep.has_value(), deepep.error().to_string());
  CHECK(deepep->deepep == true);
  CHECK(deepep->unused.empty());
  const auto hybrid = read_megatron_args("--moe-token-dispatcher-type flex --moe-flex-dispatcher-backend hybridep", "a.txt");
  REQUIRE_MESSAGE(hybrid.has_value(), hybrid.error().to_string());
  CHECK(hybrid->deepep == false);  // not modelled: said, and timed as the NCCL all-to-all
  REQUIRE(hybrid->notes.size() == 1);
  CHECK(hybrid->notes[0].find("--moe-flex-dispatcher-backend hybridep") != std::string::npos);
  const auto bad = read_megatron_args("--bf16\n--moe-flex-dispatcher-backend nccl", "b.txt");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().to_string().find("b.txt:2") != std::string::npos);
  CHECK(bad.error().to_string().find("--moe-flex-dispatcher-backend") != std::string::npos);
}

TEST_CASE("megatron args: DeepEP's SMs, --moe-flex-dispatcher-num-sms over the deprecated --moe-deepep-num-sms") {
  const auto none = read_megatron_args("--moe-token-dispatcher-type flex --moe-flex-dispatcher-backend deepep", "a.txt");
  REQUIRE(none.has_value());
  CHECK_FALSE(none->dispatcher_num_sms.has_value());  // Megatron's unset: 20 (the step model's default)
  const auto both = read_megatron_args("--moe-flex-dispatcher-num-sms 24 --moe-deepep-num-sms 32", "a.txt");
  REQUIRE_MESSAGE(both.has_value(), both.error().to_string());
  CHECK(both->dispatcher_num_sms == 24);  // transformer_config.py: the new name takes precedence
  CHECK(both->unused.empty());
  const auto old_only = read_megatron_args("--moe-deepep-num-sms 32", "a.txt");
  REQUIRE(old_only.has_value());
  CHECK(old_only->dispatcher_num_sms == 32);
  // --moe-hybridep-num-sms is routed the same way (whatever the backend); two deprecated names
  // that disagree are Megatron-Core's ValueError, without the new name to settle them.
  const auto hybrid = read_megatron_args("--moe-hybridep-num-sms 16", "a.txt");
  REQUIRE(hybrid.has_value());
  CHECK(hybrid->dispatcher_num_sms == 16);
  const auto conflict = read_megatron_args("--moe-deepep-num-sms 16\n--moe-hybridep-num-sms 24", "c.txt");
  REQUIRE_FALSE(conflict.has_value());
  CHECK(conflict.error().to_string().find("c.txt:2") != std::string::npos);
  CHECK(conflict.error().to_string().find("conflicting") != std::string::npos);
  const auto settled = read_megatron_args("--moe-deepep-num-sms 16\n--moe-hybridep-num-sms 24\n--moe-flex-dispatcher-num-sms 20", "c.txt");
  REQUIRE(settled.has_value());
  CHECK(settled->dispatcher_num_sms == 20);
  for (const char* v : {"2.5", "3", "0", "abc"}) {
    const auto bad = read_megatron_args(std::string("--bf16\n--moe-flex-dispatcher-num-sms ") + v, "b.txt");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().to_string().find("b.txt:2") != std::string::npos);
    CHECK(bad.error().to_string().find("not an SM count DeepEP takes (even") != std::string::npos);
  }
}

TEST_CASE("megatron args: DeepEP only in the flex dispatcher, one backend, as Megatron-Core 0.20 decides") {
  // The backend is the flex dispatcher's: with alltoall Megatron runs the NCCL all-to-all.
  const auto a2a = read_megatron_args("--moe-token-dispatcher-type alltoall --moe-flex-dispatcher-backend deepep", "a.txt");
  REQUIRE_MESSAGE(a2a.has_value(), a2a.error().to_string());
  CHECK(a2a->deepep == false);
  REQUIRE(a2a->notes.size() == 1);
  CHECK(a2a->notes[0].find("not used by the alltoall dispatcher") != std::string::npos);
  // No dispatcher type: Megatron's default, allgather.
  const auto none = read_megatron_args("--moe-flex-dispatcher-backend deepep", "a.txt");
  REQUIRE(none.has_value());
  CHECK(none->deepep == false);
  // flex alone: its default backend, deepep.
  const auto flex = read_megatron_args("--moe-token-dispatcher-type flex", "a.txt");
  REQUIRE(flex.has_value());
  CHECK(flex->deepep == true);
  // Nothing about the dispatcher: left to the command line.
  const auto silent = read_megatron_args("--bf16", "a.txt");
  REQUIRE(silent.has_value());
  CHECK_FALSE(silent->deepep.has_value());
  // Megatron's errors: --moe-enable-deepep without flex, and with another backend.
  const auto enable = read_megatron_args("--moe-token-dispatcher-type alltoall\n--moe-enable-deepep", "c.sh");
  REQUIRE_FALSE(enable.has_value());
  CHECK(enable.error().to_string().find("c.sh:2") != std::string::npos);
  CHECK(enable.error().to_string().find("flex") != std::string::npos);
  const auto two = read_megatron_args(
      "--moe-token-dispatcher-type flex --moe-enable-deepep\n--moe-flex-dispatcher-backend hybridep", "d.sh");
  REQUIRE_FALSE(two.has_value());
  CHECK(two.error().to_string().find("d.sh:2") != std::string::npos);
  CHECK(two.error().to_string().find("one backend") != std::string::npos);
}

TEST_CASE("megatron args: layers per virtual stage count the embedding and the loss when the account-for flags say so") {
  // Llama 3.1 405B as moeplan writes it: 126 + 2 = 128 layers, 8 a rank of PP 16, 2 a virtual
  // stage: VPP 4 (arguments.py adds the accounted layers before dividing).
  const auto a = read_megatron_args(
      "--num-layers 126 --pipeline-model-parallel-size 16 --num-layers-per-virtual-pipeline-stage 2 "
      "--account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split",
      "e.sh");
  REQUIRE_MESSAGE(a.has_value(), a.error().to_string());
  CHECK(a->layout.vpp == 4);
  // Without them 126 does not divide over 16 x 2.
  CHECK_FALSE(read_megatron_args("--num-layers 126 --pipeline-model-parallel-size 16 "
                                 "--num-layers-per-virtual-pipeline-stage 2",
                                 "f.sh")
                  .has_value());
}

TEST_CASE("megatron args: full recompute, --num-virtual-stages-per-pipeline-rank, the alltoall dispatcher") {
  const auto a = read_megatron_args(
      "--recompute-granularity full --pipeline-model-parallel-size 8 --num-virtual-stages-per-pipeline-rank 3 "
      "--moe-token-dispatcher-type alltoall --bf16",
      "args.txt");
  REQUIRE(a.has_value());
  CHECK(a->layout.recompute == Recompute::full);
  CHECK(a->layout.vpp == 3);
  CHECK(a->deepep == false);
  CHECK(a->precision == Precision::bf16);
  CHECK_FALSE(a->layout.tp.has_value());  // not in the file: the search's
  CHECK(a->unused.empty());
}

TEST_CASE("megatron args: the data-parallel overlaps are read as Megatron-LM's switches, off when absent") {
  const auto on = read_megatron_args("--use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather", "a.sh");
  REQUIRE(on.has_value());
  CHECK(on->overlap_grad_reduce);
  CHECK(on->overlap_param_gather);
  CHECK(on->unused.empty());  // read, not listed as ignored
  const auto off = read_megatron_args("--use-distributed-optimizer --overlap-grad-reduce", "a.sh");
  REQUIRE(off.has_value());
  CHECK(off->overlap_grad_reduce);
  CHECK_FALSE(off->overlap_param_gather);
  // arguments.py's asserts: the all-gather's overlap needs the reduction's and the distributed optimizer.
  const auto alone = read_megatron_args("--use-distributed-optimizer\n--overlap-param-gather", "a.sh");
  REQUIRE_FALSE(alone.has_value());
  CHECK(alone.error().line == 2);
  CHECK(alone.error().key == "--overlap-param-gather");
  CHECK(alone.error().reason.find("needs --overlap-grad-reduce") != std::string::npos);
  const auto no_dist = read_megatron_args("--overlap-grad-reduce --overlap-param-gather", "a.sh");
  REQUIRE_FALSE(no_dist.has_value());
  CHECK(no_dist.error().reason.find("needs --use-distributed-optimizer") != std::string::npos);
}

TEST_CASE("megatron args: full recompute's method, uniform read as every layer, block refused unless every layer") {
  const auto uniform = read_megatron_args(
      "--recompute-granularity full --recompute-method uniform --recompute-num-layers 2", "a.sh");
  REQUIRE(uniform.has_value());
  CHECK(uniform->layout.recompute == Recompute::full);
  CHECK(uniform->unused.empty());
  // Block over 4 of a stage's 8 layers (64 over PP 8): not what full recompute counts.
  const auto some = read_megatron_args(
      "--num-layers 64 --pipeline-model-parallel-size 8\n--recompute-granularity full\n--recompute-method block "
      "--recompute-num-layers 4",
      "a.sh");
  REQUIRE_FALSE(some.has_value());
  CHECK(some.error().line == 3);
  CHECK(some.error().key == "--recompute-method");
  CHECK(some.error().reason.find("not modelled") != std::string::npos);
  // Block over all 8 of them: every layer, full recompute.
  const auto all = read_megatron_args(
      "--num-layers 64 --pipeline-model-parallel-size 8 --recompute-granularity full --recompute-method block "
      "--recompute-num-layers 8",
      "a.sh");
  REQUIRE(all.has_value());
  CHECK(all->layout.recompute == Recompute::full);
  CHECK(read_megatron_args("--recompute-method blocks", "a.sh").error().reason.find("neither uniform nor block") !=
        std::string::npos);
}

namespace {
constexpr char k_with_nul[] = "--num-layers 32\n\n--bf16 a\0b\n";  // a binary file
}  // namespace

TEST_CASE("megatron args: a value moeplan cannot read names the file, line and flag") {
  struct Case {
    std::string text;
    int line;
    const char* flag;
    const char* reason;
  };
  const Case cases[] = {
      {"--num-layers 32\n--tensor-model-parallel-size $TP\n", 2, "--tensor-model-parallel-size",
       "a variable the file does not set"},
      {std::string(k_with_nul, sizeof k_with_nul - 1), 3, "", "a NUL byte"},
      {"--pipeline-model-parallel-size 0", 1, "--pipeline-model-parallel-size", "not a positive integer"},
      {"--micro-batch-size 1.5", 1, "--micro-batch-size", "not a positive integer"},
      {"--expert-model-parallel-size", 1, "--expert-model-parallel-size", "needs a positive integer"},
      {"\n\n--recompute-granularity sometimes", 3, "--recompute-granularity", "neither full nor selective"},
      {"--fp8-format e5m2", 1, "--fp8-format", "neither e4m3 nor hybrid"},
      {"--moe-token-dispatcher-type nccl", 1, "--moe-token-dispatcher-type", "none of alltoall"},
      {"--bf16=true", 1, "--bf16", "switch"},
      {"--num-layers 61 --pipeline-model-parallel-size 16\n--num-layers-per-virtual-pipeline-stage 2", 2,
       "--num-layers-per-virtual-pipeline-stage", "does not divide --num-layers 61"},
      {"--num-layers-per-virtual-pipeline-stage 2", 1, "--num-layers-per-virtual-pipeline-stage",
       "needs --num-layers and --pipeline-model-parallel-size"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const auto a = read_megatron_args(c.text, "run.sh");
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().source == "run.sh");
    CHECK(a.error().line == c.line);
    CHECK(a.error().key == c.flag);
    CHECK(a.error().reason.find(c.reason) != std::string::npos);
  }
}

TEST_CASE("megatron args: variables the file sets, flags kept in a quoted variable, switches at a line end") {
  // Megatron's older examples/pretrain_gpt.sh style: the flags in a quoted string, $VARs set above
  const std::string script =
      "#!/bin/bash\n"
      "TP=2\n"
      "EP=${EP:-8}\n"
      "GPT_ARGS=\"\n"
      "    --tensor-model-parallel-size $TP \\\n"
      "    --pipeline-model-parallel-size 2 \\\n"
      "    --fp16\n"
      "\"\n"
      "torchrun pretrain_gpt.py $GPT_ARGS --expert-model-parallel-size ${EP} --encoder-seq-length 2048 --recompute-activations\n"
      "--micro-batch-size 4\n";
  const auto a = read_megatron_args(script, "old.sh");
  REQUIRE(a.has_value() == false);  // EP=${EP:-8} is not a plain value: ${EP} is unknown
  CHECK(a.error().key == "--expert-model-parallel-size");
  CHECK(a.error().line == 9);
  const std::size_t at = script.find("${EP:-8}");
  const auto b = read_megatron_args(script.substr(0, at) + "8" + script.substr(at + 8), "old.sh");
  REQUIRE_MESSAGE(b.has_value(), b.error().to_string());
  CHECK(b->layout.tp == 2);           // $TP inside the quoted flags
  CHECK(b->layout.pp == 2);
  CHECK(b->layout.ep == 8);           // ${EP}
  CHECK(b->precision == Precision::bf16);  // --fp16 runs at the bf16 rates, and says so
  CHECK(b->notes.size() == 1);
  CHECK(b->seq_length == 2048);       // --encoder-seq-length
  CHECK(b->layout.recompute == Recompute::selective);  // a switch: the next line is not its value
  CHECK(b->layout.micro_batch == 4);
  CHECK(b->unused.empty());
  // one flag alone in a quoted variable is read where it is set, as several are
  const auto one = read_megatron_args("RECOMPUTE=\"--recompute-activations\"\nGRADS='--grad-reduce-in-bf16'\n"
                                      "torchrun pretrain_gpt.py $RECOMPUTE $GRADS --tensor-model-parallel-size 2\n",
                                      "one.sh");
  REQUIRE_MESSAGE(one.has_value(), one.error().to_string());
  CHECK(one->layout.recompute == Recompute::selective);
  CHECK(one->grad_reduce_in_bf16);
  CHECK(one->layout.tp == 2);
  // a bash array, on one line or several
  for (const char* array_script : {"A=(--tensor-model-parallel-size 2 --pipeline-model-parallel-size 4)\n"
                             "torchrun pretrain_gpt.py \"${A[@]}\"\n",
                             "A=(\n  --tensor-model-parallel-size 2\n  --pipeline-model-parallel-size 4\n)\n"
                             "torchrun pretrain_gpt.py \"${A[@]}\"\n"}) {
    CAPTURE(array_script);
    const auto arr = read_megatron_args(array_script, "array.sh");
    REQUIRE_MESSAGE(arr.has_value(), arr.error().to_string());
    CHECK(arr->layout.tp == 2);
    CHECK(arr->layout.pp == 4);
  }
  // nothing it uses: a note, not an error
  const auto none = read_megatron_args("echo hello\n", "x.sh");
  REQUIRE(none.has_value());
  REQUIRE(none->notes.size() == 1);
  CHECK(none->notes[0].find("no flag moeplan uses") != std::string::npos);
}

TEST_CASE("megatron args: PP without a VPP flag is Megatron's non-interleaved schedule, a repeated flag is said") {
  const auto plain = read_megatron_args("pretrain_gpt.py --pipeline-model-parallel-size 4 --num-layers 48\n", "run.sh");
  REQUIRE_MESSAGE(plain.has_value(), plain.error().to_string());
  CHECK(plain->layout.vpp == 1);  // not left to the search
  const auto interleaved =
      read_megatron_args("pretrain_gpt.py --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 3\n",
                         "run.sh");
  REQUIRE(interleaved.has_value());
  CHECK(interleaved->layout.vpp == 3);
  // a pipeline layout is read: its stages set VPP (parse_pipeline_layout), not the script's default
  const auto custom = read_megatron_args(
      "pretrain_gpt.py --pipeline-model-parallel-size 4 --pipeline-model-parallel-layout 'Et*3|(tt|)*22t|tL'\n", "run.sh");
  REQUIRE(custom.has_value());
  CHECK_FALSE(custom->layout.vpp.has_value());
  CHECK(custom->layout.pipeline_layout == "Et*3|(tt|)*22t|tL");
  CHECK(std::find(custom->unused.begin(), custom->unused.end(), "--pipeline-model-parallel-layout") == custom->unused.end());
  // no PP: nothing about VPP either
  const auto none = read_megatron_args("pretrain_gpt.py --tensor-model-parallel-size 2\n", "run.sh");
  REQUIRE(none.has_value());
  CHECK_FALSE(none->layout.vpp.has_value());
  // the last of a repeated flag is read, and the repetition is noted with both lines
  const auto twice = read_megatron_args(
      "pretrain_gpt.py \\\n  --tensor-model-parallel-size 4 \\\n  --tensor-model-parallel-size 8 --lr 1 --lr 2\n",
      "run.sh");
  REQUIRE(twice.has_value());
  CHECK(twice->layout.tp == 8);
  REQUIRE(twice->notes.size() == 1);  // --lr is not read: its repetition is no concern of moeplan's
  CHECK(twice->notes[0].find("--tensor-model-parallel-size given 2 times (lines 2 and 3)") != std::string::npos);
}

TEST_CASE("megatron args: a flag given 100,000 times is one note naming a few lines, each note said once") {
  std::string script;
  for (int i = 0; i < 100000; ++i) script += "--tensor-model-parallel-size 2\n";
  for (int i = 0; i < 3; ++i) script += "--fp16 --recompute-granularity selective --recompute-modules moe\n";
  const auto a = read_megatron_args(script, "many.sh");
  REQUIRE_MESSAGE(a.has_value(), a.error().to_string());
  CHECK(a->layout.tp == 2);
  std::size_t bytes = 0;
  for (const std::string& n : a->notes) bytes += n.size();
  CAPTURE(a->notes.size());
  CHECK(bytes < 2000);
  // one note per repeated flag, and each other note once: --fp16, --recompute-modules moe
  REQUIRE(a->notes.size() == 6);
  const auto count = [&](const std::string& text) {
    return std::count_if(a->notes.begin(), a->notes.end(),
                         [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  CHECK(count("--tensor-model-parallel-size given 100000 times (lines 1, 2, 3, ..., 100000): the last one is read") == 1);
  CHECK(count("--fp16 given 3 times (lines 100001, 100002, 100003)") == 1);
  CHECK(count("--recompute-modules given 3 times") == 1);
  CHECK(count("--recompute-granularity given 3 times") == 1);
  CHECK(count("--fp16: timed at the bf16 rates") == 1);
  CHECK(count("--recompute-modules moe: not modelled") == 1);
}

TEST_CASE("megatron args: 200,000 distinct unknown flags are each listed once, in file order") {
  std::string script = "torchrun pretrain_gpt.py --tensor-model-parallel-size 2 \\\n";
  for (int i = 0; i < 200000; ++i) script += "  --unknown-flag-" + std::to_string(i) + " " + std::to_string(i) + " \\\n";
  script += "  --unknown-flag-7 again\n";  // a repeat of an unused flag: still listed once
  const auto a = read_megatron_args(script, "wide.sh");
  REQUIRE_MESSAGE(a.has_value(), a.error().to_string());
  REQUIRE(a->unused.size() == 200000);
  CHECK(a->unused.front() == "--unknown-flag-0");
  CHECK(a->unused.back() == "--unknown-flag-199999");
  CHECK(a->notes.empty());
  CHECK(a->layout.tp == 2);
}

TEST_CASE("megatron args: a file that is not text (a NUL byte, bytes that are not UTF-8) names the file and line") {
  // 64 KiB of bytes 0x01..0xff with no NUL: a binary file moeplan read as text before
  std::string binary;
  for (std::size_t i = 0; binary.size() < 65536; ++i) binary += static_cast<char>(1 + (i * 97) % 255);
  const auto b = read_megatron_args(binary, "blob.bin");
  REQUIRE_FALSE(b.has_value());
  CHECK(b.error().source == "blob.bin");
  CHECK(b.error().line >= 1);
  CHECK(b.error().reason.find("not a text file") != std::string::npos);
  CHECK(b.error().reason.find("not UTF-8") != std::string::npos);
  // the first bad byte's line: a Latin-1 comment on line 3
  const auto latin1 = read_megatron_args("--tensor-model-parallel-size 2\n\n# Gr\xf6\xdf" "e\n", "latin1.sh");
  REQUIRE_FALSE(latin1.has_value());
  CHECK(latin1.error().line == 3);
  CHECK(latin1.error().reason.find("byte 0xf6 at offset 36 is not UTF-8") != std::string::npos);
  // overlong forms and surrogates are not UTF-8 either; well-formed UTF-8 is text
  for (const char* bad : {"--bf16 \xc0\xaf", "--bf16 \xed\xa0\x80", "--bf16 \xf4\x90\x80\x80", "--bf16 \xe2\x82"}) {
    CAPTURE(bad);
    CHECK_FALSE(read_megatron_args(bad, "bad.sh").has_value());
  }
  const auto utf8 = read_megatron_args("# Größe: 8 × H100 — ok\n--tensor-model-parallel-size 2 # ☃ 🚀\n", "utf8.sh");
  REQUIRE_MESSAGE(utf8.has_value(), utf8.error().to_string());
  CHECK(utf8->layout.tp == 2);
}

TEST_CASE("megatron args: a quote never closed is refused at its line, not read as the rest of the file") {
  const auto r = read_megatron_args(
      "pretrain_gpt.py --tensor-model-parallel-size 2 \\\n  --pipeline-model-parallel-layout 'Et|(tt|)*30mL\n  --lr 1\n",
      "run.sh");
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().line == 2);
  CHECK(r.error().to_string().find("run.sh:2") != std::string::npos);
  CHECK(r.error().reason == "a quote that is never closed");
  // Closed, the same lines read.
  const auto ok = read_megatron_args(
      "pretrain_gpt.py --tensor-model-parallel-size 2 \\\n  --pipeline-model-parallel-layout 'Et|(tt|)*30mL' \\\n  --lr 1\n",
      "run.sh");
  REQUIRE_MESSAGE(ok.has_value(), ok.error().to_string());
  CHECK(ok->layout.pipeline_layout == "Et|(tt|)*30mL");
}

// --serve-args: a vLLM or SGLang command line read as the engine reads it (issue 50).
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "moeplan/serving/serve_args.hpp"

using namespace moeplan;

TEST_CASE("serve args: a vllm serve script with continuations, comments and --flag=value") {
  const std::string text =
      "#!/bin/bash\n"
      "# serve Qwen3 on four GPUs\n"
      "CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve Qwen/Qwen3-235B-A22B-FP8 \\\n"
      "  --tensor-parallel-size 4 --gpu-memory-utilization=0.85 \\\n"
      "  --max_num_seqs 64 --max-model-len 32768 --kv-cache-dtype fp8 \\\n"
      "  --enable-expert-parallel --port 8000 --host 0.0.0.0 --port 8001\n";
  const auto a = read_serve_args(text, "serve.sh");
  REQUIRE(a.has_value());
  CHECK(a->engine == ServeEngine::vllm);
  CHECK(a->model == "Qwen/Qwen3-235B-A22B-FP8");
  CHECK(a->tp == 4);
  CHECK(a->gpus() == 4);
  CHECK(a->memory_fraction == 0.85);
  CHECK(a->max_seqs == 64);
  CHECK(a->context == 32768);
  CHECK(a->kv == ServePrecision::fp8);
  CHECK(a->expert_parallel);
  // The flags not modelled, once each, in order.
  REQUIRE(a->unused.size() == 2);
  CHECK(a->unused[0] == "--port");
  CHECK(a->unused[1] == "--host");
}

TEST_CASE("serve args: an SGLang launch with TP, DP attention and its fraction") {
  const auto a = read_serve_args(
      "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --dp 8 "
      "--enable-dp-attention --mem-fraction-static 0.8 --context-length 65536 --max-running-requests 128 "
      "--trust-remote-code",
      "launch.sh");
  REQUIRE(a.has_value());
  CHECK(a->engine == ServeEngine::sglang);
  CHECK(a->model == "deepseek-ai/DeepSeek-V3");
  CHECK(a->tp == 8);
  CHECK(a->dp == 8);
  CHECK(a->dp_attention);
  CHECK(a->memory_fraction == 0.8);
  CHECK(a->context == 65536);
  CHECK(a->max_seqs == 128);
  CHECK_FALSE(a->max_batched_tokens.has_value());
  REQUIRE(a->unused.size() == 1);
  CHECK(a->unused[0] == "--trust-remote-code");
}

TEST_CASE("serve args: bad values name the file, line and flag") {
  const auto frac = read_serve_args("vllm serve m \\\n --gpu-memory-utilization 1.5", "s.sh");
  REQUIRE_FALSE(frac.has_value());
  CHECK(frac.error().line == 2);
  CHECK(frac.error().key == "--gpu-memory-utilization");
  const auto tp = read_serve_args("vllm serve m --tensor-parallel-size four", "s.sh");
  REQUIRE_FALSE(tp.has_value());
  CHECK(tp.error().key == "--tensor-parallel-size");
  const auto tokens = read_serve_args("vllm serve m --max-num-batched-tokens 0", "s.sh");
  REQUIRE_FALSE(tokens.has_value());
  CHECK(tokens.error().key == "--max-num-batched-tokens");
  const auto none = read_serve_args("torchrun train.py --lr 1e-4", "s.sh");
  REQUIRE_FALSE(none.has_value());
  CHECK(none.error().reason.find("vllm serve") != std::string::npos);
}

TEST_CASE("serve args: flags that replace the engine's memory plan are refused, not listed as unused") {
  for (const char* line : {"vllm serve m --cpu-offload-gb 10",
                           "vllm serve m --num-gpu-blocks-override 100", "vllm serve m --kv-cache-memory 1000000",
                           "python -m sglang.launch_server --model-path m --max-total-tokens 4096",
                           "python -m sglang.launch_server --model-path m --page-size 64"}) {
    CAPTURE(line);
    const auto a = read_serve_args(line, "s.sh");
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().reason.find("memory plan") != std::string::npos);
  }
  // The same words under the other engine are its own business: SGLang has no --num-gpu-blocks-override.
  const auto other = read_serve_args("python -m sglang.launch_server --model-path m --num-gpu-blocks-override 1", "s.sh");
  REQUIRE(other.has_value());
  CHECK(other->unused == std::vector<std::string>{"--num-gpu-blocks-override"});
}

TEST_CASE("serve args: a newline, a semicolon or & ends the command, and later commands' flags are not the engine's") {
  // curl's and echo's flags after the engine's command (issue 50 review, args/l2.sh, c2.sh, l.sh).
  for (const char* text : {"vllm serve X -tp 8 --max-model-len 16384\ncurl localhost:8000/v1/models --max-num-seqs 4\n",
                           "vllm serve X -tp 8 --max-model-len 16384 ; echo --max-num-seqs 4",
                           "vllm serve X -tp 8 --max-model-len 16384;echo --max-num-seqs 4",
                           "vllm serve X -tp 8 --max-model-len 16384 && echo --max-num-seqs 4",
                           "vllm serve X -tp 8 --max-model-len 16384 > log.txt 2>&1 &\nsleep 5 | echo --max-num-seqs 4"}) {
    CAPTURE(text);
    const auto a = read_serve_args(text, "s.sh");
    REQUIRE(a.has_value());
    CHECK(a->tp == 8);
    CHECK(a->context == 16384);
    CHECK_FALSE(a->max_seqs.has_value());
    CHECK(a->unused.empty());  // neither the redirection's target nor curl's words
  }
  // A glued `8;` is 8, then a command end (the review's "got '8;'").
  const auto glued = read_serve_args("vllm serve X --tensor-parallel-size 8; echo done", "s.sh");
  REQUIRE(glued.has_value());
  CHECK(glued->tp == 8);
  // A backslash continuation (also before a CRLF) keeps the command going; a comment line does not end it early.
  const auto crlf = read_serve_args("vllm serve X \\\r\n  --tensor-parallel-size 8 \\\r\n  --max-model-len 4096\r\n", "s.sh");
  REQUIRE(crlf.has_value());
  CHECK(crlf->tp == 8);
  CHECK(crlf->context == 4096);
  CHECK(crlf->unused.empty());
  // A flag alone on the next line (no continuation) is another command: not read (args/b15.sh).
  const auto split = read_serve_args("vllm serve X --tensor-parallel-size 8\n--max-model-len 16384\n", "s.sh");
  REQUIRE(split.has_value());
  CHECK_FALSE(split->context.has_value());
  // Setup lines before the engine's command are other commands.
  const auto setup = read_serve_args("pip install vllm==0.10.1 --max-model-len 9\nexport TP=8\nnohup vllm serve X -tp 4\n",
                                     "s.sh");
  REQUIRE(setup.has_value());
  CHECK(setup->tp == 4);
  CHECK_FALSE(setup->context.has_value());
}

TEST_CASE("serve args: two engine commands in one file are refused, naming both lines") {
  // args/d1.sh: a vLLM line then an SGLang line; args/c4.sh: two vllm serve commands on one line.
  const auto two = read_serve_args("vllm serve X --tensor-parallel-size 8\npython -m sglang.launch_server --model-path X --tp 4\n",
                                   "d1.sh");
  REQUIRE_FALSE(two.has_value());
  CHECK(two.error().source == "d1.sh");
  CHECK(two.error().line == 2);
  CHECK(two.error().reason.find("`sglang.launch_server`") != std::string::npos);
  CHECK(two.error().reason.find("`vllm serve`, is on line 1") != std::string::npos);
  const auto same_line = read_serve_args("vllm serve X --tensor-parallel-size 8;  vllm serve Y --tensor-parallel-size 4", "c4.sh");
  REQUIRE_FALSE(same_line.has_value());
  CHECK(same_line.error().line == 1);
  CHECK(same_line.error().reason.find("second engine command") != std::string::npos);
}

TEST_CASE("serve args: an unterminated quote, a missing value and shell expansions say so") {
  // args/a5.sh: the quote runs to the end of the file.
  const auto quote = read_serve_args("vllm serve X \\\n  --tensor-parallel-size 8 --max-model-len '32768\n", "a5.sh");
  REQUIRE_FALSE(quote.has_value());
  CHECK(quote.error().line == 2);
  CHECK(quote.error().reason.starts_with("unterminated quote"));
  // args/g5.sh, g4.sh: a flag followed by another flag, or by nothing.
  const auto missing = read_serve_args("vllm serve X --max-model-len --gpu-memory-utilization 0.8", "g5.sh");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().key == "--max-model-len");
  CHECK(missing.error().reason == "missing value: expected a whole number of tokens");
  const auto last = read_serve_args("vllm serve X --tensor-parallel-size 8 --gpu-memory-utilization", "g4.sh");
  REQUIRE_FALSE(last.has_value());
  CHECK(last.error().reason.starts_with("missing value: expected a fraction"));
  // args/b4.sh, g2.sh: variables and arithmetic are not expanded, quoted or not.
  for (const char* text : {"TP=8\nvllm serve X --tensor-parallel-size $TP", "vllm serve X -tp \"${TP}\"",
                           "vllm serve X -tp $(nproc)", "vllm serve X -tp `nproc`"}) {
    CAPTURE(text);
    const auto v = read_serve_args(text, "b4.sh");
    REQUIRE_FALSE(v.has_value());
    CHECK(v.error().reason.find("does not expand variables") != std::string::npos);
  }
  const auto arith = read_serve_args("vllm serve X --tensor-parallel-size 8 --max-model-len \"$((32*1024))\"", "g2.sh");
  REQUIRE_FALSE(arith.has_value());
  CHECK(arith.error().key == "--max-model-len");
  CHECK(arith.error().reason.starts_with("'$((32*1024))' is a shell expansion"));
  // Unquoted, $((...)) is one word: its parentheses end no command.
  const auto bare = read_serve_args("vllm serve X --max-model-len $((32*1024)) -tp 8", "g2.sh");
  REQUIRE_FALSE(bare.has_value());
  CHECK(bare.error().reason.starts_with("'$((32*1024))'"));
  // An expansion in a flag moeplan does not read is left alone; a $ before anything else is a $.
  const auto other = read_serve_args("vllm serve X -tp 8 --port $PORT --served-model-name a$", "s.sh");
  REQUIRE(other.has_value());
  CHECK(other->tp == 8);
}

TEST_CASE("serve args: docker run of vLLM's image reads the words after the image, and sglang_router is named") {
  // args/a2.sh: vllm/vllm-openai's entrypoint is the API server; docker's own options are not the engine's.
  const auto d = read_serve_args("docker run --gpus all -p 8000:8000 --ipc=host -e HF_TOKEN=x vllm/vllm-openai:v0.10.1 "
                                 "--model deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --max-model-len 32768",
                                 "a2.sh");
  REQUIRE(d.has_value());
  CHECK(d->engine == ServeEngine::vllm);
  CHECK(d->model == "deepseek-ai/DeepSeek-V3");
  CHECK(d->tp == 8);
  CHECK(d->context == 32768);
  CHECK(d->unused.empty());  // not --gpus, -p, --ipc, -e
  const auto registry = read_serve_args("docker run docker.io/vllm/vllm-openai -tp 2", "s.sh");
  REQUIRE(registry.has_value());
  CHECK(registry->tp == 2);
  // Another entrypoint is not the API server: not read as one.
  const auto entry = read_serve_args("docker run --entrypoint bash vllm/vllm-openai:latest -c 'echo'", "s.sh");
  CHECK_FALSE(entry.has_value());
  const auto other_image = read_serve_args("docker run myorg/vllm-openai-fork:1 -tp 2", "s.sh");
  CHECK_FALSE(other_image.has_value());
  // args/j2.sh: the router is refused by name.
  const auto router = read_serve_args("python -m sglang_router.launch_server --model-path m --dp-size 8", "j2.sh");
  REQUIRE_FALSE(router.has_value());
  CHECK(router.error().reason.find("sglang_router.launch_server") != std::string::npos);
  CHECK(router.error().reason.find("one worker") != std::string::npos);
}

TEST_CASE("serve args: --speculative-config deepseek_mtp serves the MTP modules, other methods are not modelled") {
  // args/d7.sh: the JSON value vLLM's json.loads reads.
  const auto json = read_serve_args(
      "vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{\"method\": \"deepseek_mtp\", "
      "\"num_speculative_tokens\": 1}'",
      "d7.sh");
  REQUIRE(json.has_value());
  CHECK(json->mtp);
  CHECK(json->speculative_tokens == 1);
  CHECK(json->speculative_line == 1);
  CHECK(json->unused.empty());
  // The dotted keys vLLM's FlexibleArgumentParser turns into the same JSON.
  const auto dotted = read_serve_args(
      "vllm serve m -tp 8 \\\n --speculative-config.method deepseek_mtp --speculative-config.num_speculative_tokens=2", "s.sh");
  REQUIRE(dotted.has_value());
  CHECK(dotted->mtp);
  CHECK(dotted->speculative_tokens == 2);
  CHECK(dotted->speculative_line == 2);
  // Another method: listed as not modelled, named (its draft's weights are not counted).
  const auto eagle = read_serve_args(
      "vllm serve m --speculative-config '{\"method\": \"eagle\", \"model\": \"yuhuili/EAGLE-LLaMA3-Instruct-8B\", "
      "\"num_speculative_tokens\": 5}'",
      "s.sh");
  REQUIRE(eagle.has_value());
  CHECK_FALSE(eagle->mtp);
  CHECK(eagle->speculative_method == "eagle");
  CHECK(eagle->unused == std::vector<std::string>{"--speculative-config"});
  const auto draft = read_serve_args("vllm serve m --speculative-config '{\"model\": \"small\"}'", "s.sh");
  REQUIRE(draft.has_value());
  CHECK(draft->speculative_method == "draft model");
  // SGLang's own flag is named too, not mapped (its draft worker has its own pool).
  const auto sglang = read_serve_args("python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE", "s.sh");
  REQUIRE(sglang.has_value());
  CHECK_FALSE(sglang->mtp);
  CHECK(sglang->speculative_method == "EAGLE");
  // Unreadable values: not JSON, a bad count, or args/d6.sh's unquoted braces (the shell splits them).
  const auto not_json = read_serve_args("vllm serve m --speculative-config deepseek_mtp", "s.sh");
  REQUIRE_FALSE(not_json.has_value());
  CHECK(not_json.error().key == "--speculative-config");
  const auto zero = read_serve_args("vllm serve m --speculative-config '{\"method\":\"deepseek_mtp\",\"num_speculative_tokens\":0}'",
                                    "s.sh");
  REQUIRE_FALSE(zero.has_value());
  CHECK(zero.error().reason.starts_with("num_speculative_tokens"));
  const auto braces = read_serve_args(
      "vllm serve X --speculative-config {\"method\":\"deepseek_mtp\",\"num_speculative_tokens\":1}", "d6.sh");
  REQUIRE_FALSE(braces.has_value());
  CHECK(braces.error().reason.find("brace expansion") != std::string::npos);
}

TEST_CASE("serve args: a layout past 65,536 GPUs, or SGLang DP attention whose --dp does not divide --tp, is refused") {
  const auto huge = read_serve_args("vllm serve m -tp 65536 \\\n -pp 2", "s.sh");
  REQUIRE_FALSE(huge.has_value());
  CHECK(huge.error().line == 2);
  CHECK(huge.error().key == "-pp");
  CHECK(huge.error().reason.find("131072 GPUs") != std::string::npos);
  const auto dp = read_serve_args("python -m sglang.launch_server --model-path m --tp 8 --dp 3 --enable-dp-attention", "s.sh");
  REQUIRE_FALSE(dp.has_value());
  CHECK(dp.error().key == "--dp");
  CHECK(dp.error().reason.find("tp_size % dp_size == 0") != std::string::npos);
  // Without DP attention --dp is plain replicas: any count.
  const auto replicas = read_serve_args("python -m sglang.launch_server --model-path m --tp 8 --dp 3", "s.sh");
  REQUIRE(replicas.has_value());
  CHECK(replicas->gpus() == 24);
  CHECK(replicas->tp_at.line == 1);
  CHECK(replicas->dp_at.flag == "--dp");
}

TEST_CASE("serve args: --enforce-eager and --disable-cuda-graph say no CUDA graphs are captured") {
  const auto v = read_serve_args("vllm serve m --tensor-parallel-size 2 --enforce-eager\n", "eager.sh");
  REQUIRE(v.has_value());
  CHECK(v->cuda_graphs_off == "--enforce-eager");
  CHECK(v->unused.empty());
  // BooleanOptionalAction's negative, later on the line, turns capture back on (vLLM's default).
  const auto back = read_serve_args("vllm serve m --enforce-eager --no-enforce-eager\n", "eager.sh");
  REQUIRE(back.has_value());
  CHECK(back->cuda_graphs_off.empty());
  const auto s = read_serve_args("python3 -m sglang.launch_server --model-path m --tp 2 --disable-cuda-graph\n",
                                 "eager.sh");
  REQUIRE(s.has_value());
  CHECK(s->cuda_graphs_off == "--disable-cuda-graph");
  // Each engine's own spelling only: SGLang's flag in a vLLM command is not modelled.
  const auto other = read_serve_args("vllm serve m --disable-cuda-graph\n", "eager.sh");
  REQUIRE(other.has_value());
  CHECK(other->cuda_graphs_off.empty());
  CHECK(other->unused == std::vector<std::string>{"--disable-cuda-graph"});
  // A value written onto the switch: the parser refuses it, the engine does not start.
  const auto valued = read_serve_args("vllm serve m --enforce-eager=true\n", "eager.sh");
  REQUIRE_FALSE(valued.has_value());
  CHECK(valued.error().reason.find("a switch takes no value") != std::string::npos);
  // vLLM's compilation level is not read (which versions honour -O0 for CUDA graphs differs:
  // docs/serving.md): listed as not modelled.
  const auto level = read_serve_args("vllm serve m -O0\n", "o.sh");
  REQUIRE(level.has_value());
  CHECK(level->cuda_graphs_off.empty());
  CHECK(level->unused == std::vector<std::string>{"-O0"});
}

TEST_CASE("serve args: --quantization fp8 (and vLLM's -q fp8) is read as online fp8, another method stays refused") {
  const auto v = read_serve_args("vllm serve m -tp 2 \\\n  --quantization fp8\n", "q.sh");
  REQUIRE(v.has_value());
  CHECK(v->online_fp8_line == 2);
  CHECK(v->unused.empty());
  const auto q = read_serve_args("vllm serve m -q=fp8\n", "q.sh");
  REQUIRE(q.has_value());
  CHECK(q->online_fp8_line == 1);
  const auto s = read_serve_args("python3 -m sglang.launch_server --model-path m --quantization fp8\n", "q.sh");
  REQUIRE(s.has_value());
  CHECK(s->online_fp8_line == 1);
  // awq quantizes too, as moeplan does not model: refused naming the line and flag.
  const auto awq = read_serve_args("vllm serve m\\\n --quantization awq\n", "q.sh");
  REQUIRE_FALSE(awq.has_value());
  CHECK(awq.error().line == 2);
  CHECK(awq.error().key == "--quantization");
  CHECK(awq.error().reason.find("'awq' quantizes the weights as moeplan does not model") != std::string::npos);
  // A value written onto vLLM's -q, as argparse reads it.
  const auto glued = read_serve_args("vllm serve m -qfp8\n", "q.sh");
  REQUIRE(glued.has_value());
  CHECK(glued->online_fp8_line == 1);
  // Missing, a shell variable, another spelling: each said as such.
  for (const auto& [text, says] : std::vector<std::pair<const char*, const char*>>{
           {"vllm serve m --quantization\n", "missing value"},
           {"vllm serve m --quantization --tensor-parallel-size 8\n", "missing value"},
           {"vllm serve m --quantization $Q\n", "shell expansion"},
           {"vllm serve m --quantization FP8\n", "'FP8' quantizes the weights as moeplan does not model"}}) {
    CAPTURE(text);
    const auto bad = read_serve_args(text, "q.sh");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().reason.find(says) != std::string::npos);
  }
  // SGLang has no -q: not a flag of the engine's, listed as not modelled.
  const auto sq = read_serve_args("python3 -m sglang.launch_server --model-path m -q fp8\n", "q.sh");
  REQUIRE(sq.has_value());
  CHECK(sq->online_fp8_line == 0);
}

#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ under ASan + UBSan and runs each for a bounded time
# (docs/fuzzing.md). Usage: scripts/fuzz.sh [SECONDS] [BUILD_DIR]   (defaults: 60, build-fuzz)
#                          scripts/fuzz.sh --probe CXX   (exit 0 if CXX can build the targets)
#
# Seeds are generated into BUILD_DIR/corpus/<target>/ from presets/, tests/data/ and the
# lists below (nothing large in git); what libFuzzer adds there is kept for the next run.
# Crashes (and leaks, timeouts, OOMs) land in BUILD_DIR/crashes/<target>/; logs in
# BUILD_DIR/logs/. Prints target, executions, seconds, crashes; exits 1 on any crash.
#
# Needs Clang >= 16 with libFuzzer: Clang 14 (Debian 12's default) cannot compile
# libstdc++ 12's std::expected, and CMakeLists.txt refuses it. When no such Clang is found
# and we are root, installs clang-16, libclang-rt-16-dev and libomp-16-dev (Debian 12), as
# scripts/setup.sh installs its packages; otherwise it says what to install and exits 2.
# MOEPLAN_FUZZ_CXX=clang++-NN picks a compiler; MOEPLAN_FUZZ_JOBS (default 2) build jobs.
# MOEPLAN_FUZZ_WITH_TESTS=1 builds the test suite (and the plot module it tests) in the same
# tree, so one sanitizer build serves both (.ci/run: `scripts/fuzz.sh --build`, then ctest in
# BUILD_DIR, then `scripts/fuzz.sh SECONDS`, which finds everything built).
#                          scripts/fuzz.sh --build [BUILD_DIR]   (configure and build only)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

seconds=${1:-60}
build=${2:-build-fuzz}
if [ "$seconds" != --probe ] && [ "$seconds" != --build ] && ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: SECONDS must be a positive integer, not '$seconds'" >&2
  exit 2
fi
case "$build" in /*) ;; *) build="$root/$build" ;; esac
targets=(fuzz_model_toml fuzz_hf_config fuzz_laws_toml fuzz_runs_csv fuzz_number fuzz_cli fuzz_plot_text)

# ---- compiler ---------------------------------------------------------------------------
# The probe applies the same rule as the top-level CMakeLists.txt (Clang >= 16; <expected>
# either as it is or with __cpp_concepts announced as 202002L), then links a libFuzzer target
# under ASan + UBSan. It must never accept a compiler the real build refuses: Clang 14 links
# the probe when the define is forced, and CMake then stops with FATAL_ERROR.
cxx_problem() {  # prints why $1 cannot build the fuzz targets; returns 0 when it can
  local c=$1 version major dir rc
  if ! command -v "$c" >/dev/null 2>&1; then echo "$c: not found"; return 1; fi
  if ! "$c" --version 2>/dev/null | head -1 | grep -q clang; then
    echo "$c: not Clang (libFuzzer comes with Clang)"; return 1
  fi
  version=$("$c" -dumpversion 2>/dev/null || true)
  major=${version%%.*}
  if ! [[ $major =~ ^[0-9]+$ ]] || ((major < 16)); then
    echo "$c: Clang ${version:-of unknown version}; CMakeLists.txt needs Clang >= 16 (libstdc++ 12's std::expected)"
    return 1
  fi
  dir=$(mktemp -d)
  printf '#include <expected>\n#include <cstdint>\n#include <cstddef>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t n) { std::expected<int, int> e{int(n)}; return *e * 0; }\n' \
    >"$dir/t.cpp"
  rc=1
  for defines in "" "-D__cpp_concepts=202002L -Wno-macro-redefined"; do
    # shellcheck disable=SC2086  # $defines is a list of flags
    if "$c" -std=c++2b $defines -fsanitize=fuzzer,address,undefined "$dir/t.cpp" -o "$dir/t" \
         >"$dir/log" 2>&1; then
      rc=0; break
    fi
  done
  [ $rc -eq 0 ] || echo "$c: Clang $version cannot link a libFuzzer + ASan target: $(head -c 300 "$dir/log" | tr '\n' ' ')"
  rm -rf "$dir"
  return $rc
}
candidates() { echo ${MOEPLAN_FUZZ_CXX:-} clang++-19 clang++-18 clang++-17 clang++-16 clang++; }
pick_cxx() {  # the first candidate that works; every rejection on stderr
  local c why
  for c in $(candidates); do
    command -v "$c" >/dev/null 2>&1 || continue
    if why=$(cxx_problem "$c"); then echo "$c"; return 0; fi
    echo "fuzz: skipping $why" >&2
  done
  return 1
}
if [ "${1:-}" = --probe ]; then  # scripts/fuzz.sh --probe CXX: 0 if CXX can build the targets
  shift
  why=$(cxx_problem "${1:?usage: scripts/fuzz.sh --probe CXX}") && { echo "fuzz: $1 can build the fuzz targets"; exit 0; }
  echo "fuzz: $why" >&2
  exit 1
fi
if ! cxx=$(pick_cxx); then
  packages=(clang-16 libclang-rt-16-dev libomp-16-dev)
  if [ "$(id -u)" -ne 0 ]; then
    echo "fuzz: no Clang >= 16 with libFuzzer; run: apt-get install ${packages[*]}" >&2
    exit 2
  fi
  echo "fuzz: installing ${packages[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  cxx=$(pick_cxx) || { echo "fuzz: clang-16 installed but cannot build a fuzz target: $(cxx_problem clang++-16)" >&2; exit 2; }
fi
echo "fuzz: $("$cxx" --version | head -1)" >&2

# ---- build: only the targets and the libraries they link (and the tests, when asked), -O1 --
# -g1: line tables, enough for the function names and lines of a crash's stack.
with_tests=OFF plots=OFF
build_targets=(--target fuzz_targets)
if [ "${MOEPLAN_FUZZ_WITH_TESTS:-0}" = 1 ]; then with_tests=ON plots=AUTO; build_targets=(); fi
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DMOEPLAN_FUZZ=ON -DMOEPLAN_SANITIZE=address,undefined \
  -DMOEPLAN_CUDA=OFF -DMOEPLAN_WITH_PLOTS=$plots -DMOEPLAN_BUILD_BENCH=OFF -DBUILD_TESTING=$with_tests \
  -DMOEPLAN_NATIVE_ARCH=OFF >/dev/null
cmake --build "$build" "${build_targets[@]}" -j "${MOEPLAN_FUZZ_JOBS:-2}"
[ "$seconds" = --build ] && exit 0

# ---- seeds and dictionaries ---------------------------------------------------------------
corpus="$build/corpus"
mkdir -p "$build/logs" "$build/dict"
# Crashes are this run's only: a fixed one must not count again (its log stays until rerun).
rm -rf "$build/crashes"
for t in "${targets[@]}"; do mkdir -p "$corpus/$t" "$build/crashes/$t" "$build/work/$t"; done
cp presets/models/*.toml "$corpus/fuzz_model_toml/"
cp presets/laws/*.toml "$corpus/fuzz_laws_toml/"
cp tests/data/hf/*.json "$corpus/fuzz_hf_config/"
for f in tests/data/*.csv; do  # comments, header and the first rows: small, valid seeds
  head -n 40 "$f" >"$corpus/fuzz_runs_csv/$(basename "$f")"
done
printf 'N,N_a,D,loss\n1e9,1e8,2e10,2.5\n2e9,1.5e8,4e10,2.4\n' >"$corpus/fuzz_runs_csv/chinchilla.csv"
i=0
for n in 1e22 1E22 3.5e21 2e+20 6 0.5 1 1e-300 1e308 1e309 4.9e-324 -1 0 nan inf 0x10 \
         " 1" "1 " 12abc 1e 1e+ . .5 5. 00012 1_000 65536 8192; do
  printf '%s' "$n" >"$corpus/fuzz_number/n$((i++))"
done
i=0
while IFS= read -r line; do
  printf '%b' "$line" >"$corpus/fuzz_cli/a$((i++))"
done <<'EOF'
suggest\n--flops\n1e22
suggest\n--flops\n3e20\n--format\njson
suggest\n--flops\n1e20\n--d\n1536\n--format\ncsv
suggest\n-C\n1e24\n--candidates\n0\n--format\ntoml
suggest\n--flops\n1e21\n--n-q\n16\n--n-kv\n4\n--d-qkv\n128
suggest\n--flops\n1e22\n--experts\n64\n--top-k\n2\n--shared-experts\n0\n--align\n128
suggest\n--flops\n1e19\n--m-over-na\n12\n--n-over-na\n10\n--tolerance\n0.1
suggest\n--flops\n1e22\n--laws\nholistic.toml
suggest\n--flops\n1e20:1e24:1\n--format\ncsv
fit\nholistic_configs.csv
fit\nmoe_vs_dense_runs.csv\n--law\nactivation\n--column\nloss=BPC
fit\nchinchilla.csv\n--holdout\n0.25\n--format\njson
bench\nmoe-mini\n--summary
bench\nqwen3-30b-a3b.toml\n--format\njson
score\ndeepseek-v3.1\nqwen3-235b-a22b
score\nmoe-mini\n--format\njson
score\nkimi-k2.toml\n--laws\njoint_moe.toml\n--format\ncsv
score\ngpt-oss-20b\ndense-6.1b\n-f\ntoml
score\nendless.toml
suggest\n--flops\n1e22\n--laws\nendless.toml
fit\nendless.csv
--help
suggest\n--help
--version
EOF
# Work directory of each run: the files a fuzzed command line may name (fuzz_cli).
cp presets/models/*.toml presets/laws/*.toml "$build/work/fuzz_cli/"
for f in tests/data/*.csv; do head -n 40 "$f" >"$build/work/fuzz_cli/$(basename "$f")"; done
cp "$corpus/fuzz_runs_csv/chinchilla.csv" "$build/work/fuzz_cli/"
# Endless inputs: the size bounds of read_bounded (man moeplan, LIMITS) must end these.
ln -sf /dev/zero "$build/work/fuzz_cli/endless.toml"
ln -sf /dev/zero "$build/work/fuzz_cli/endless.csv"

toml_dict() {  # every key and section name of the given TOML files
  grep -hoE '^\s*\[?[A-Za-z_][A-Za-z0-9_.]*\]?\s*=?' "$@" | tr -d ' =' | sort -u |
    sed 's/.*/"&"/'
}
toml_dict presets/models/*.toml >"$build/dict/fuzz_model_toml.dict"
toml_dict presets/laws/*.toml >"$build/dict/fuzz_laws_toml.dict"
{ grep -rhoE '"--[a-z][a-z-]*' src/cli | sort -u | sed 's/$/"/'
  for w in suggest score fit bench table json toml csv auto paper002 el joint-loss; do echo "\"$w\""; done
  for f in tests/data/*.csv; do echo "\"$(basename "$f")\""; done
  for f in presets/models/*.toml presets/laws/*.toml; do echo "\"$(basename "$f")\""; done
  for f in presets/models/*.toml; do echo "\"$(basename "$f" .toml)\""; done
} >"$build/dict/fuzz_cli.dict"
head -n 1 tests/data/*.csv | grep -v '^==>' | tr ',' '\n' | grep -E '^[A-Za-z_]+$' | sort -u |
  sed 's/.*/"&"/' >"$build/dict/fuzz_runs_csv.dict"

# ---- run ------------------------------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
declare -A execs secs crashes status
failed=0
for t in "${targets[@]}"; do
  log="$build/logs/$t.log"
  dict=()
  [ -s "$build/dict/$t.dict" ] && dict=("-dict=$build/dict/$t.dict")
  max_len=4096
  [ "$t" = fuzz_runs_csv ] && max_len=16384
  echo "fuzz: $t for ${seconds}s" >&2
  start=$(date +%s)
  set +e
  (cd "$build/work/$t" &&
     "$build/fuzz/$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 \
       -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$build/crashes/$t/" \
       "${dict[@]}" "$corpus/$t") >"$log" 2>&1
  rc=$?
  set -e
  secs[$t]=$(($(date +%s) - start))
  execs[$t]=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  execs[$t]=${execs[$t]:-?}
  crashes[$t]=$(find "$build/crashes/$t" -maxdepth 1 -type f \
                  \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  status[$t]=ok
  if [ "${crashes[$t]}" -gt 0 ]; then
    status[$t]="CRASH (see $log)"; failed=1
  elif [ $rc -ne 0 ]; then
    status[$t]="exit $rc (see $log)"; failed=1
  fi
done

printf '\n%-16s %12s %8s %8s  %s\n' target executions seconds crashes status
for t in "${targets[@]}"; do
  printf '%-16s %12s %8s %8s  %s\n' "$t" "${execs[$t]}" "${secs[$t]}" "${crashes[$t]}" "${status[$t]}"
done
exit $failed

#!/usr/bin/env bash
# Whole-binary checks of terminal habits, run by CTest:
#   tty     colour codes on a pseudo-terminal (script(1)), none with NO_COLOR, TERM=dumb or
#           in a pipe
#   bash    the bash completion script parses and completes subcommands and flags
#   version --version names a commit of the source checkout (or "unknown" outside one)
#   determinism  two runs of the binary give byte-identical stdout (timings off: --no-bench)
#   install cmake --install lays out binary, man pages (groff -ww clean), completions, presets,
#           the JSON Schemas
#   full    a full disk on stdout (/dev/full) is exit 5 with the reason, for every output;
#           -o /dev/stdout is the stream (>> appends), and a second output there is refused
#   interrupt  SIGINT or SIGTERM while -o files are staged removes their temporaries
set -euo pipefail
what=$1 moeplan=$2 src=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
case "$what" in
  tty)
    out=$(script -qec "env -u NO_COLOR TERM=xterm '$moeplan' suggest --flops 1e20 --no-bench" /dev/null)
    [[ "$out" == *$'\e['* ]] || fail "no colour on a terminal"
    out=$(script -qec "env -u NO_COLOR TERM=dumb '$moeplan' suggest --flops 1e20 --no-bench" /dev/null)
    [[ "$out" != *$'\e['* ]] || fail "colour despite TERM=dumb"
    out=$(script -qec "env NO_COLOR=1 '$moeplan' suggest --flops 1e20 --no-bench" /dev/null)
    [[ "$out" != *$'\e['* ]] || fail "colour despite NO_COLOR"
    out=$(env -u NO_COLOR "$moeplan" suggest --flops 1e20 --no-bench | cat)
    [[ "$out" != *$'\e'* ]] || fail "escape codes in a pipe"
    [[ "$out" == *"Plan for C"* ]] || fail "no table in a pipe" ;;
  bash)
    script_text=$("$moeplan" completion bash)
    bash -n <<<"$script_text" || fail "bash completion does not parse"
    set +eu  # completion functions run in interactive shells: compgen may return 1
    eval "$script_text"
    COMP_WORDS=(moeplan sug); COMP_CWORD=1; _moeplan
    [[ " ${COMPREPLY[*]} " == *" suggest "* ]] || fail "'sug' did not complete to suggest: ${COMPREPLY[*]}"
    COMP_WORDS=(moeplan suggest --no-b); COMP_CWORD=2; _moeplan
    [[ " ${COMPREPLY[*]} " == *" --no-bench "* ]] || fail "'--no-b' did not complete: ${COMPREPLY[*]}"
    COMP_WORDS=(moeplan suggest --format ""); COMP_CWORD=3; _moeplan
    [[ "${COMPREPLY[*]}" == "table json toml csv" ]] || fail "--format values: ${COMPREPLY[*]}"
    COMP_WORDS=(moeplan score deep); COMP_CWORD=2; _moeplan
    [[ " ${COMPREPLY[*]} " == *" deepseek-v3.1 "* ]] || fail "preset names: ${COMPREPLY[*]}" ;;
  version)
    # The revision is taken at build time, so it names a commit of this checkout (maybe an
    # older one, if commits came after the build), or "unknown" outside a checkout.
    got=$("$moeplan" --version)
    [[ "$got" =~ ^moeplan\ [0-9]+\.[0-9]+\.[0-9]+\ \(git\ (.+)\)$ ]] || fail "--version: '$got'"
    rev=${BASH_REMATCH[1]%-dirty}
    if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
      git -C "$src" cat-file -e "$rev^{commit}" 2>/dev/null || fail "'$rev' is no commit of $src"
    else
      [[ "$rev" == unknown ]] || fail "--version '$got' outside a checkout"
    fi ;;
  determinism)
    for format in table json toml csv; do
      a=$("$moeplan" suggest --flops 1e22 --no-bench --full --format $format 2>&1)
      b=$("$moeplan" suggest --flops 1e22 --no-bench --full --format $format 2>&1)
      [[ "$a" == "$b" ]] || fail "two runs differ in --format $format"
    done
    a=$("$moeplan" -q score deepseek-v3.1 kimi-k2 --format csv) b=$("$moeplan" -q score deepseek-v3.1 kimi-k2 --format csv)
    [[ "$a" == "$b" ]] || fail "two score runs differ" ;;
  full)
    for args in "--help" "--version" "completion bash" "completion zsh" "fit --help" \
                "presets" "schema" "schema suggest" "suggest --flops 1e20 --no-bench -q"; do
      set +e
      err=$("$moeplan" $args 2>&1 >/dev/full)
      status=$?
      set -e
      [[ $status == 5 ]] || fail "'moeplan $args > /dev/full' exited $status"
      [[ "$err" == "moeplan: error: cannot write to standard output: No space left on device" ]] ||
        fail "'moeplan $args > /dev/full' said: $err"
    done
    # -o naming standard output's own file is standard output: `>>` still appends (a rename
    # over it used to drop what the file held), and a second output there is refused.
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    printf 'PRECIOUS\n' >"$work/log.txt"
    "$moeplan" suggest --flops 1e20 --no-bench -q -o /dev/stdout >>"$work/log.txt" ||
      fail "-o /dev/stdout >> file failed"
    [[ $(head -1 "$work/log.txt") == PRECIOUS ]] || fail "-o /dev/stdout >> file lost what the file held"
    grep -q "Plan for C = 1e+20" "$work/log.txt" || fail "-o /dev/stdout >> file: no plan appended"
    set +e
    "$moeplan" fit "$src/tests/data/moe_vs_dense_runs.csv" --law chinchilla --column loss=BPC -q \
      --out /dev/stdout >"$work/both.txt" 2>"$work/err.txt"
    status=$?
    set -e
    [[ $status == 5 ]] || fail "fit --out /dev/stdout with the report on stdout exited $status"
    [[ ! -s "$work/both.txt" ]] || fail "fit --out /dev/stdout wrote something" ;;
  interrupt)
    # A FIFO nobody reads holds the command in the middle of its write: its regular files
    # are staged (their temporaries exist), the FIFO is written first and blocks. Then the
    # signal: the temporaries go, no output appears, and the process dies of the signal.
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    mkfifo "$work/fifo"
    runs="$src/tests/data/moe_vs_dense_runs.csv"
    set -m  # background jobs of a script ignore SIGINT without job control
    interrupted() {  # SIGNAL FILE COMMAND...: FILE's temporary exists, then SIGNAL removes it
      local sig=$1 file=$2 pid status leftover
      shift 2
      "$@" 2>/dev/null &
      pid=$!
      # Up to 2 minutes for the command to reach its write (the fit before it takes ~20 s
      # under ASan + UBSan + libFuzzer's coverage on a busy 2-core machine); no cost when fast.
      for _ in $(seq 2400); do
        compgen -G "$file.moeplan-*" >/dev/null && break
        sleep 0.05
      done
      compgen -G "$file.moeplan-*" >/dev/null || fail "no temporary of $file while the FIFO blocks"
      kill -s "$sig" $pid
      set +e
      wait $pid 2>/dev/null
      status=$?
      set -e
      [[ $status == $((128 + $(kill -l "$sig"))) ]] || fail "SIG$sig: exit status $status: $*"
      leftover=$(compgen -G "$file*" || true)
      [[ -z "$leftover" ]] || fail "SIG$sig left $leftover: $*"
    }
    for sig in INT TERM; do
      interrupted $sig "$work/res.csv" "$moeplan" fit "$runs" --law activation --column loss=BPC \
        -q --residuals "$work/res.csv" -o "$work/fifo"
    done
    # plot's image is staged like any output (in builds with PLplot).
    if "$moeplan" plot el --flops 1e22 -q -o "$work/probe.png" 2>/dev/null; then
      interrupted INT "$work/el.png" "$moeplan" plot el --flops 1e22 -q -o "$work/el.png" \
        --data "$work/fifo"
    fi ;;
  install)
    build=$4 prefix=$(mktemp -d)
    trap 'rm -rf "$prefix"' EXIT
    cmake --install "$build" --prefix "$prefix" >/dev/null
    [[ -x "$prefix/bin/moeplan" ]] || fail "no bin/moeplan"
    (cd / && "$prefix/bin/moeplan" suggest --flops 1e20 --no-bench >/dev/null) || fail "installed binary"
    for sub in "" -suggest -score -fit -bench -plot -presets -completion -schema; do
      page="$prefix/share/man/man1/moeplan$sub.1"
      [[ -f "$page" ]] || fail "no man page moeplan$sub.1"
      warnings=$(groff -ww -man -Tutf8 "$page" 2>&1 >/dev/null)
      [[ -z "$warnings" ]] || fail "groff warnings in moeplan$sub.1: $warnings"
    done
    [[ -s "$prefix/share/bash-completion/completions/moeplan" ]] || fail "no bash completion"
    [[ -s "$prefix/share/zsh/vendor-completions/_moeplan" ]] || fail "no zsh completion"
    [[ -f "$prefix/share/moeplan/presets/laws/holistic.toml" ]] || fail "no presets"
    [[ -f "$prefix/share/moeplan/presets/models/deepseek-v3.1.toml" ]] || fail "no model presets"
    cmp -s "$prefix/share/moeplan/schemas/suggest.schema.json" <("$prefix/bin/moeplan" schema suggest) ||
      fail "no share/moeplan/schemas/suggest.schema.json, or not what moeplan schema suggest prints" ;;
  *) fail "unknown check $what" ;;
esac
echo "ok: $what"

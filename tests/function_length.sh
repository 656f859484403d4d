#!/usr/bin/env bash
# No function in src/ is longer than 150 lines (STYLE.md), as universal-ctags measures them:
# `ctags -R --fields=+ne --kinds-c++=f` gives each function's first and last line. Usage:
# function_length.sh SOURCE_DIR [LIMIT]. scripts/setup.sh installs universal-ctags for the
# full build (README command 2).
set -uo pipefail
src=$1/src
limit=${2:-150}
if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
  echo "FAIL: universal-ctags is not installed (scripts/setup.sh installs it; apt-get install universal-ctags)"
  exit 1
fi
tags=$(cd "$src/.." && ctags -R --fields=+ne --kinds-c++=f -f - src) || { echo "FAIL: ctags failed on $src"; exit 1; }
# name, file, lines (end - line + 1), for every function ctags gives an end to.
lengths=$(awk -F'\t' '{
  line = ""; end = ""
  for (i = 4; i <= NF; i++) {
    if ($i ~ /^line:/) line = substr($i, 6)
    if ($i ~ /^end:/) end = substr($i, 5)
  }
  if (line != "" && end != "") print end - line + 1 "\t" $1 "\t" $2 ":" line
}' <<<"$tags")
counted=$(grep -c . <<<"$lengths")
# A measure that finds next to nothing measures nothing: ctags must see the functions.
if [ "$counted" -lt 500 ] || ! grep -qP '\trun_suggest\t' <<<"$lengths"; then
  echo "FAIL: ctags measured only $counted functions in $src (run_suggest among them?)"
  exit 1
fi
long=$(awk -F'\t' -v limit="$limit" '$1 > limit' <<<"$lengths" | sort -rn)
if [ -n "$long" ]; then
  echo "FAIL: functions over $limit lines (lines, name, where):"
  echo "$long"
  exit 1
fi
longest=$(sort -rn <<<"$lengths" | head -1)
echo "$counted functions in src/, none over $limit lines; the longest: $longest"

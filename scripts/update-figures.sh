#!/usr/bin/env bash
# The figures of README.md and of the man pages are the binary's own output, never typed by
# hand: this script writes
#  - README.md's `suggest` example between the markers <!-- suggest-example:begin/end -->;
#  - every inline figure of README.md and docs/time-optimal.md, <!-- figure ARGS : COLUMN FORMAT
#    -->VALUE<!-- /figure -->, and of man/*.1, a comment line `.\" figure ARGS : COLUMN FORMAT`
#    whose next line starts with VALUE: VALUE is column COLUMN of `moeplan ARGS --format csv` (the
#    first data row), printed with the printf FORMAT (an exponent written 3.20e6, not 3.20e+06);
#  - docs/time-optimal.md's table of FLOP- and time-optimal plans, between <!-- time-optimal-table
#    (one "LABEL: ARGS" line per row) --> and <!-- /time-optimal-table -->: each row from
#    `moeplan suggest ARGS --no-bench --format json`;
# and it checks every "(default V" of a man page's option against the default that
# `moeplan SUBCOMMAND --help` prints for that flag (CLI11's "=V").
# With --check it changes nothing and exits 1 when a file differs from what the binary prints
# (a CTest case runs that). Usage: scripts/update-figures.sh [--check] [MOEPLAN_BINARY]
# (default ./build/moeplan)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
bin=${1:-./build/moeplan}
args=(suggest --flops 1e22 --no-bench)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NO_COLOR=1 "$bin" "${args[@]}" >"$tmp/example" 2>/dev/null
grep -q 'suggest-example:begin' README.md || { echo "README.md has no suggest-example markers" >&2; exit 2; }

# Inline figures (perl: part of every Debian system that has git). Reads a file on stdin.
figures() {
  MOEPLAN_BIN="$bin" perl -e '
  use strict; use warnings;
  my $bin = $ENV{MOEPLAN_BIN};
  # The CSV rows of a text (RFC 4180: quoted cells may hold commas, quotes and newlines).
  sub rows { my ($text) = @_; my (@rows, @row, $cell, $quoted); $cell = ""; $quoted = 0;
    my @ch = split //, $text;
    for (my $i = 0; $i < @ch; ++$i) { my $c = $ch[$i];
      if ($quoted) { if ($c eq q(")) { if ($i + 1 < @ch && $ch[$i + 1] eq q(")) { $cell .= q("); ++$i; } else { $quoted = 0; } } else { $cell .= $c; } }
      elsif ($c eq q(")) { $quoted = 1; }
      elsif ($c eq ",") { push @row, $cell; $cell = ""; }
      elsif ($c eq "\n") { push @row, $cell; push @rows, [@row]; @row = (); $cell = ""; }
      else { $cell .= $c; } }
    push @row, $cell if $cell ne "" || @row; push @rows, [@row] if @row;
    return @rows; }
  my %cache;
  sub figure { my ($args, $column, $format) = @_;
    $cache{$args} //= do { local $ENV{NO_COLOR} = 1; my $out = `$bin $args --format csv 2>/dev/null`;
      die "moeplan $args failed\n" if $? != 0; $out };
    my ($h, $r) = rows($cache{$args}); my @h = @$h; my @r = @$r;
    for my $i (0 .. $#h) { if ($h[$i] eq $column) {
      my $v = sprintf($format, $r[$i]); $v =~ s/e\+?(-?)0*(\d)/e$1$2/; return $v; } }
    die "moeplan $args: no column $column\n"; }
  local $/; my $text = <STDIN>;
  $text =~ s{(<!-- figure (.+?) : (\S+) (\S+) -->)(.*?)(<!-- /figure -->)}{$1 . figure($2, $3, $4) . $6}ge;
  $text =~ s{^(\.\\" figure (.+?) : (\S+) (\S+)\n)[-+0-9.e]+}{$1 . figure($2, $3, $4)}gme;
  print $text;
'
}

# docs/time-optimal.md's table: one row per "LABEL: ARGS" line of its comment (perl's JSON::PP is
# core perl). Reads a file on stdin.
time_optimal_table() {
  MOEPLAN_BIN="$bin" perl -e '
  use strict; use warnings; use JSON::PP;
  my $bin = $ENV{MOEPLAN_BIN};
  sub e { my $v = sprintf($_[0], $_[1]); $v =~ s/e\+?(-?)0*(\d)/e$1$2/; return $v; }
  sub plan { my ($x) = @_;
    return sprintf("N %s, D %s, %.1f d, MFU %.1f %%, L %.4f", e("%.3g", $x->{total_params}), e("%.3g", $x->{tokens}),
                   $x->{days}, 100 * $x->{mfu}, $x->{predicted_loss}); }
  sub row { my ($label, $args) = @_;
    local $ENV{NO_COLOR} = 1; my $out = `$bin suggest $args --no-bench --format json 2>/dev/null`;
    die "moeplan suggest $args failed\n" if $? != 0;
    my $j = decode_json($out); my ($f, $t) = ($j->{flop_optimal}, $j->{time_optimal});
    my ($family) = grep { /^family: / } @{$t->{moved}}; $family //= ""; $family =~ s/^family: //;
    my $time = !$t->{resolved} ? "the same" : ($family ne "" ? "$family: " : "") . plan($t);
    my $gain = $t->{resolved} ? sprintf("%.2f %%", 100 * $t->{loss_gain})
                              : sprintf("unresolved (best %.3f %%)", 100 * $t->{best_gain_found});
    return "| $label | " . plan($f) . " | $time | $gain |\n"; }
  local $/; my $text = <STDIN>;
  $text =~ s{(<!-- time-optimal-table\n(.*?)-->\n).*?(<!-- /time-optimal-table -->)}{
    my ($head, $spec, $end) = ($1, $2, $3); my $rows = "";
    for my $line (split /\n/, $spec) { $rows .= row($1, $2) if $line =~ /^(.+?): (.+)$/; }
    $head . "| cluster, time | FLOP-optimal | time-optimal | gain |\n|---|---|---|---|\n" . $rows . $end }se;
  print $text;
'
}

# The config.json model_types the reader counts, as its registry lists them (the same text as
# the error for an unknown model_type): README.md's count and list between <!-- model-types-count
# --> / <!-- model-types --> markers, and the lines between `.\" model-types:begin` and `end` of a
# man page. Reads a file on stdin.
printf '{"model_type": "update-figures-probe"}\n' >"$tmp/probe.json"
model_types=$("$bin" score "$tmp/probe.json" 2>&1 >/dev/null | sed -n 's/.*(supported: \(.*\)); refusing rather.*/\1/p' || true)
[ -n "$model_types" ] || { echo "update-figures: $bin did not list its model_types" >&2; exit 2; }
model_type_list() {
  MODEL_TYPES="$model_types" perl -e '
  use strict; use warnings;
  my $list = $ENV{MODEL_TYPES}; my $count = scalar(split /, /, $list);
  (my $man = $list) =~ s/-/\\-/g;
  local $/; my $text = <STDIN>;
  $text =~ s{(<!-- model-types-count -->).*?(<!-- /model-types-count -->)}{$1$count$2}g;
  $text =~ s{(<!-- model-types -->).*?(<!-- /model-types -->)}{$1$list$2}gs;
  $text =~ s{(^\.\\" model-types:begin\n).*?(^\.\\" model-types:end$)}{$1$man.\n$2}msg;
  print $text;
'
}

# A man page's "(default V" of each option against what `moeplan SUB --help` prints.
defaults_agree() {  # defaults_agree PAGE SUBCOMMAND
  local page=$1 sub=$2
  NO_COLOR=1 "$bin" "$sub" --help >"$tmp/help" 2>/dev/null
  HELP="$tmp/help" PAGE="$page" perl -e '
  use strict; use warnings;
  open(my $h, "<", $ENV{HELP}) or die; my %default;
  while (<$h>) { $default{$1} = $2 if /^\s+(--[a-z0-9-]+)\b[^=\n]*=(\S+)/; }
  open(my $p, "<", $ENV{PAGE}) or die; local $/; my $man = <$p>;
  my $bad = 0; my $seen = 0;
  while ($man =~ /^\.BI? (\\-\\-[a-z0-9\\-]+)[^\n]*\n((?:(?!\.TP)[^\n]*\n){0,3})/mg) {
    my ($flag, $text) = ($1, $2); $flag =~ s/\\-/-/g;
    next unless $text =~ /\(default ([0-9][0-9.e+-]*)/ && exists $default{$flag};
    my $v = $1; $v =~ s/\.$//; ++$seen;
    if ($v + 0 != $default{$flag} + 0) { print STDERR "$ENV{PAGE}: $flag: the page says default $v, --help $default{$flag}\n"; $bad = 1; }
  }
  exit $bad;
'
}

stale=0
for f in README.md docs/time-optimal.md man/*.1; do
  if [ "$f" = docs/time-optimal.md ]; then
    time_optimal_table <"$f" | figures >"$tmp/new"
  elif [ "$f" = README.md ]; then
    awk -v cmd="moeplan ${args[*]}" -v out="$tmp/example" '
      /<!-- suggest-example:begin -->/ {
        print; print "```console"; print "$ " cmd
        while ((getline line < out) > 0) print line
        print "```"; skipping = 1; next
      }
      /<!-- suggest-example:end -->/ { skipping = 0 }
      !skipping { print }
    ' README.md | figures | model_type_list >"$tmp/new"
  else
    figures <"$f" | model_type_list >"$tmp/new"
    sub=$(basename "$f" .1); sub=${sub#moeplan-}
    if [ "$sub" != moeplan ] && ! defaults_agree "$f" "$sub"; then stale=1; fi
  fi
  if [ $check -eq 1 ]; then
    if ! diff -u "$f" "$tmp/new"; then
      echo "$f: figures are stale: run scripts/update-figures.sh" >&2
      stale=1
    fi
  elif ! cmp -s "$f" "$tmp/new"; then
    cp "$tmp/new" "$f"
  fi
done
exit $stale

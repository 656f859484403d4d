#!/usr/bin/env bash
# README.md's figures are the binary's own output, never typed by hand: this script writes
#  - the `suggest` example between the markers <!-- suggest-example:begin/end -->;
#  - every inline figure <!-- figure ARGS : COLUMN FORMAT -->VALUE<!-- /figure -->: VALUE is
#    column COLUMN of `moeplan ARGS --format csv` (the first data row), printed with the
#    printf FORMAT (an exponent written 3.20e6, not 3.20e+06).
# With --check it changes nothing and exits 1 when the README differs from what the binary
# prints (a CTest case runs that). Usage: scripts/update-readme.sh [--check] [MOEPLAN_BINARY]
# (default ./build/moeplan)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
bin=${1:-./build/moeplan}
args=(suggest --flops 1e22 --no-bench)
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.out" "$tmp.figures"' EXIT
NO_COLOR=1 "$bin" "${args[@]}" >"$tmp.out" 2>/dev/null
awk -v cmd="moeplan ${args[*]}" -v out="$tmp.out" '
  /<!-- suggest-example:begin -->/ {
    print; print "```console"; print "$ " cmd
    while ((getline line < out) > 0) print line
    print "```"; skipping = 1; next
  }
  /<!-- suggest-example:end -->/ { skipping = 0 }
  !skipping { print }
' README.md >"$tmp.figures"
grep -q 'suggest-example:begin' README.md || { echo "README.md has no suggest-example markers" >&2; exit 2; }
# Inline figures (perl: part of every Debian system that has git).
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
  print $text;
' <"$tmp.figures" >"$tmp"
if [ $check -eq 1 ]; then
  if ! diff -u README.md "$tmp"; then
    echo "README.md's figures are stale: run scripts/update-readme.sh" >&2
    exit 1
  fi
  exit 0
fi
cp "$tmp" README.md

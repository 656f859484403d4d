// src/base/utf8.cpp: well-formed UTF-8 by Unicode 15's Table 3-7, and the \xHH escape of a byte
// that starts none. Every byte sequence below is worked from that table.
#include <doctest/doctest.h>

#include <string>

#include "moeplan/base/utf8.hpp"

using namespace moeplan;

TEST_CASE("utf8_sequence_length: 1 to 4 bytes, 0 for overlong forms, surrogates, past U+10FFFF and cuts") {
  CHECK(utf8_sequence_length("a", 0) == 1);
  CHECK(utf8_sequence_length("\xC3\xA9", 0) == 2);          // U+00E9 é
  CHECK(utf8_sequence_length("\xE2\x98\x85", 0) == 3);      // U+2605 ★
  CHECK(utf8_sequence_length("\xF0\x9F\x98\x80", 0) == 4);  // U+1F600
  CHECK(utf8_sequence_length("\xF4\x8F\xBF\xBF", 0) == 4);  // U+10FFFF, the last code point
  CHECK(utf8_sequence_length("\xC0\xAF", 0) == 0);          // overlong '/' (C0 and C1 never start one)
  CHECK(utf8_sequence_length("\xE0\x80\xAF", 0) == 0);      // overlong: E0 needs A0..BF next
  CHECK(utf8_sequence_length("\xED\xA0\x80", 0) == 0);      // U+D800, a surrogate: ED needs 80..9F
  CHECK(utf8_sequence_length("\xF4\x90\x80\x80", 0) == 0);  // U+110000: F4 needs 80..8F
  CHECK(utf8_sequence_length("\xF5\x80\x80\x80", 0) == 0);  // F5..FF never start one
  CHECK(utf8_sequence_length("\xE2\x98", 0) == 0);          // cut before its last byte
  CHECK(utf8_sequence_length("\x80", 0) == 0);              // a continuation byte alone
  CHECK(utf8_sequence_length("a\xC3\xA9", 1) == 2);         // from the middle of a text
}

TEST_CASE("valid_utf8 escapes in hex each byte that starts no sequence, and is_valid_utf8 says whether any does") {
  CHECK(valid_utf8("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(is_valid_utf8("caf\xC3\xA9"));
  CHECK(valid_utf8("caf\xE9") == "caf\\xe9");              // Latin-1 é: one byte, escaped
  CHECK_FALSE(is_valid_utf8("caf\xE9"));
  CHECK(valid_utf8("\xE2\x98") == "\\xe2\\x98");           // a cut character: both bytes escaped
  CHECK(valid_utf8("") == "");
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8(valid_utf8("\xFF\xFE x \xC0\xAF")));  // the escaped text is valid
}

//===- LspDocumentTest.cpp - LSP positions and incremental edits -----------===//
#include "tools/plate/LspDocument.h"

#include <gtest/gtest.h>

using namespace plate::lsp;

namespace {

// "µ" is one UTF-16 unit in two bytes, "🧪" two units in four bytes.
const std::string kText = "ab\n1 µL 🧪 x\r\nlast";

TEST(LspDocument, PositionsCountUtf16Units) {
  TextDocument doc(kText);
  EXPECT_EQ(doc.lineCount(), 3u);
  EXPECT_EQ(doc.lineText(1), "1 µL 🧪 x"); // without `\r`
  EXPECT_EQ(doc.offsetAt({0, 1}), 1u);
  EXPECT_EQ(doc.offsetAt({1, 2}), 5u);  // the µ
  EXPECT_EQ(doc.offsetAt({1, 3}), 7u);  // after the µ's two bytes
  EXPECT_EQ(doc.offsetAt({1, 5}), 9u);  // the test tube
  EXPECT_EQ(doc.offsetAt({1, 7}), 13u); // after its two units (four bytes)
  EXPECT_EQ(doc.offsetAt({1, 8}), 14u); // the x
  // Inside the surrogate pair: the start of the character, never half of it.
  EXPECT_EQ(doc.offsetAt({1, 6}), 9u);
  for (Position position : {Position{0, 0}, Position{1, 3}, Position{1, 7}, Position{2, 4}})
    EXPECT_EQ(doc.positionAt(doc.offsetAt(position)), position);
}

TEST(LspDocument, ClampsPositionsPastTheEnd) {
  TextDocument doc(kText);
  EXPECT_EQ(doc.offsetAt({0, 99}), 2u);            // end of the line, not the next
  EXPECT_EQ(doc.offsetAt({1, 99}), 15u);           // before the `\r\n`
  EXPECT_EQ(doc.offsetAt({99, 0}), kText.size());  // end of the text
  EXPECT_EQ(doc.positionAt(kText.size() + 10), (Position{2, 4}));
}

TEST(LspDocument, AppliesRangeEditsInOrder) {
  TextDocument doc(kText);
  // Replace `x` (after the two-unit character) with a new line.
  ASSERT_TRUE(doc.replace({{1, 8}, {1, 9}}, "y\nz"));
  EXPECT_EQ(doc.text(), "ab\n1 µL 🧪 y\nz\r\nlast");
  EXPECT_EQ(doc.lineCount(), 4u);
  // The next range counts in the text the previous edit left.
  ASSERT_TRUE(doc.replace({{2, 0}, {3, 2}}, ""));
  EXPECT_EQ(doc.text(), "ab\n1 µL 🧪 y\nst");
  // An insertion at the end, and a deletion across lines.
  ASSERT_TRUE(doc.replace({{9, 0}, {9, 0}}, "!"));
  EXPECT_EQ(doc.text(), "ab\n1 µL 🧪 y\nst!");
  ASSERT_TRUE(doc.replace({{0, 1}, {2, 1}}, ""));
  EXPECT_EQ(doc.text(), "at!");
  EXPECT_EQ(doc.lineCount(), 1u);
}

TEST(LspDocument, RefusesARangeThatEndsBeforeItStarts) {
  TextDocument doc(kText);
  EXPECT_FALSE(doc.replace({{1, 3}, {1, 1}}, "x"));
  EXPECT_FALSE(doc.replace({{1, 0}, {0, 2}}, "x"));
  EXPECT_EQ(doc.text(), kText);
}

TEST(LspDocument, ToleratesBytesThatAreNotUtf8) {
  // Each stray byte is one unit, as a reader that substitutes U+FFFD
  // would count it (and as the SARIF renderer does).
  TextDocument doc(std::string("a\xff\xfe" "b"));
  EXPECT_EQ(doc.offsetAt({0, 3}), 3u);
  EXPECT_EQ(doc.positionAt(4), (Position{0, 4}));
}

} // namespace

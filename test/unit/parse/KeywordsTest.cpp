//===- KeywordsTest.cpp - The keyword table and the grammar agree ----------===//
//
// The lexer reads keywords as IDENT and the frontend retypes them from
// frontend/Keywords.cpp (grammar/PlateLexer.g4 says why). These tests hold
// the table to the grammar's `tokens` block, so that a keyword added to
// one and not the other fails here, not in a user's script.
//
//===----------------------------------------------------------------------===//
#include "frontend/KeywordTypes.h"
#include "frontend/Keywords.h"

#include "PlateLexer.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using plate::grammar::PlateLexer;

std::vector<std::unique_ptr<antlr4::Token>> lex(const std::string &text) {
  antlr4::ANTLRInputStream input(text);
  PlateLexer lexer(&input);
  lexer.removeErrorListeners();
  return lexer.getAllTokens();
}

TEST(Keywords, EveryKeywordOfTheGrammarHasASpellingAndItsName) {
  antlr4::ANTLRInputStream input("");
  PlateLexer lexer(&input);
  const antlr4::dfa::Vocabulary &vocabulary = lexer.getVocabulary();
  std::set<size_t> spelled;
  for (const plate::KeywordSpelling &keyword : plate::keywordSpellings()) {
    size_t type = plate::keywordTypeOf(keyword.spelling);
    ASSERT_NE(type, 0u) << keyword.spelling;
    EXPECT_EQ(vocabulary.getSymbolicName(type), std::string(keyword.token)) << keyword.spelling;
    spelled.insert(type);
  }
  for (size_t type = PlateLexer::DISPENSE; type <= PlateLexer::OVERNIGHT; ++type)
    EXPECT_TRUE(spelled.count(type)) << vocabulary.getSymbolicName(type) << " has no spelling";
  EXPECT_EQ(spelled.size(), PlateLexer::OVERNIGHT - PlateLexer::DISPENSE + 1);
}

TEST(Keywords, EverySpellingLexesAsOneWord) {
  for (const plate::KeywordSpelling &keyword : plate::keywordSpellings()) {
    auto tokens = lex(std::string(keyword.spelling));
    ASSERT_EQ(tokens.size(), 1u) << keyword.spelling;
    EXPECT_EQ(tokens[0]->getType(), PlateLexer::IDENT) << keyword.spelling;
  }
}

TEST(Keywords, AnyCaseIsTheKeywordAndOnlyAWholeWordIsOne) {
  EXPECT_EQ(plate::keywordTypeOf("dispense"), PlateLexer::DISPENSE);
  EXPECT_EQ(plate::keywordTypeOf("DISPENSE"), PlateLexer::DISPENSE);
  EXPECT_EQ(plate::keywordTypeOf("Column"), PlateLexer::COL);
  EXPECT_EQ(plate::keywordTypeOf("cut_off"), PlateLexer::CUTOFF);
  EXPECT_EQ(plate::keywordTypeOf("Reagents"), PlateLexer::REAGENTS_WORD);
  EXPECT_EQ(plate::keywordTypeOf("dispensex"), 0u);
  EXPECT_EQ(plate::keywordTypeOf("reagents_word"), 0u);
  EXPECT_EQ(plate::keywordTypeOf("well_word"), 0u);
  EXPECT_EQ(plate::keywordTypeOf(std::string(40, 'a')), 0u);
  // `4pl` starts with a digit: a rule of the lexer, no word.
  auto tokens = lex("4PL");
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0]->getType(), PlateLexer::FOURPL);
}

} // namespace

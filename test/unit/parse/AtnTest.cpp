//===- AtnTest.cpp - The generated ATNs pass the runtime's verification ---===//
//
// The generated lexer and parser deserialize their ATN without the
// runtime's verifyATN (frontend/LazyAntlrInit.cmake): it cost every
// parsing process 3.5 million instructions to check what the ANTLR tool
// generated at build time. The check runs here instead, on the ATNs the
// lexer and parser use.
//
//===----------------------------------------------------------------------===//
#include "PlateLexer.h"
#include "PlateParser.h"

#include <gtest/gtest.h>

namespace {

TEST(Atn, GeneratedAtnsPassTheRuntimeVerification) {
  antlr4::ANTLRInputStream input("<INSTRUMENT>\nwait 1 min\n</INSTRUMENT>\n");
  plate::grammar::PlateLexer lexer(&input);
  antlr4::CommonTokenStream tokens(&lexer);
  plate::grammar::PlateParser parser(&tokens);
  antlr4::atn::ATNDeserializer verifier;
  EXPECT_NO_THROW(verifier.verifyATN(lexer.getATN()));
  EXPECT_NO_THROW(verifier.verifyATN(parser.getATN()));
  // Verification is not vacuous: the ATNs are the grammar's, not empty.
  EXPECT_GT(lexer.getATN().states.size(), 100u);
  EXPECT_GT(parser.getATN().states.size(), 100u);
}

} // namespace

//===- GrammarAlternativesTest.cpp - AST building covers the grammar -------===//
//
// The AST builder dispatches over the labelled alternatives of each rule
// with visitAlternative (frontend/ParseTreeDispatch.h), which does not
// compile while an alternative has no case. The list it checks against is
// made at build time from the generated parser's context classes; these
// tests hold that list to the grammar file itself, so that a change in the
// ANTLR tool's output cannot leave the check with fewer alternatives than
// the grammar has.
//
//===----------------------------------------------------------------------===//
#include "frontend/GrammarAlternatives.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>

using namespace plate::frontend;

namespace {

using RuleAndLabel = std::pair<std::string, std::string>;

/// (rule, label) for every `# label` of grammar/PlateParser.g4; a label
/// given to several alternatives of a rule (`# analyzeStmt`) once.
std::set<RuleAndLabel> labelsInGrammarFile() {
  std::ifstream in(std::string(PLATE_SOURCE_DIR) + "/grammar/PlateParser.g4");
  EXPECT_TRUE(in) << "cannot read grammar/PlateParser.g4";
  // A parser rule starts at column 0 with its lower-case name; its
  // alternatives follow until the next rule.
  const std::regex ruleStart(R"(^([a-z]\w*)\s*(:.*)?$)");
  const std::regex label(R"(#\s*(\w+))");
  std::set<RuleAndLabel> found;
  std::string rule, line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find("//"));
    std::smatch m;
    if (std::regex_match(line, m, ruleStart))
      rule = m[1];
    for (auto it = std::sregex_iterator(line.begin(), line.end(), label);
         it != std::sregex_iterator(); ++it) {
      EXPECT_FALSE(rule.empty()) << "label before any rule: " << line;
      found.insert({rule, (*it)[1]});
    }
  }
  return found;
}

TEST(GrammarAlternatives, TheBuiltListIsTheGrammarFilesLabels) {
  std::set<RuleAndLabel> inGrammar = labelsInGrammarFile();
  std::set<RuleAndLabel> built;
  for (const GrammarAlternative &alternative : grammarAlternatives())
    EXPECT_TRUE(built.insert({std::string(alternative.rule), std::string(alternative.label)}).second)
        << alternative.rule << " # " << alternative.label << " is listed twice";
  for (const RuleAndLabel &missing : inGrammar)
    EXPECT_TRUE(built.count(missing))
        << missing.first << " # " << missing.second
        << " is in the grammar but not in the list the AST builder is checked against";
  for (const RuleAndLabel &extra : built)
    EXPECT_TRUE(inGrammar.count(extra))
        << extra.first << " # " << extra.second << " is not a label of the grammar file";
}

TEST(GrammarAlternatives, ReadsEveryLabelledRuleOfTheGrammar) {
  // A guard on the reader above, so the comparison cannot pass on two
  // empty sets: the rules that had labels when this test was written.
  std::set<std::string> rules;
  for (const RuleAndLabel &entry : labelsInGrammarFile())
    rules.insert(entry.first);
  for (const char *rule : {"layoutStatement", "roleClause", "statement", "seriesOption",
                           "incubateOption", "prepareOption", "wellItem", "literalQuantity"})
    EXPECT_TRUE(rules.count(rule)) << rule;
}

} // namespace

//===- ParserAgent.h - Natural-language protocol to .plate script prompt --===//
//
// The Parser Agent is an LLM under a constrained interpretation prompt. The
// prompt's language reference is generated from the compiler itself: the
// statement forms from the grammar the parser is built from (embedded at
// build time), the unit spellings from plate::unitSpellings(), and the
// platform's capabilities from the Platform loaded from stdlib/. Nothing in
// it is typed by hand twice, so it cannot drift from what the compiler
// accepts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Platform.h"

#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

/// One statement form per line, rendered from the grammar's `statement`
/// rule: `dispense VOLUME [of] layout|NAME [to|into WELLS] ...`.
std::vector<std::string> statementForms();
/// The LAYOUT and REAGENTS line forms, from the grammar.
std::vector<std::string> declarationForms();

/// The `# labels` of a grammar rule's alternatives ("" where unlabelled).
std::vector<std::string> alternativeLabels(std::string_view rule);
/// The layout role keywords, from the grammar's `role` rule.
std::vector<std::string> roleWords();

/// Units by dimension, from plate::unitSpellings().
std::string unitReference();
/// What the platform can do, from its stdlib description.
std::string platformReference(const Platform &platform);

/// The language reference of the Parser's prompt (script mode): sections,
/// every statement and declaration form, what each means, units and the
/// platform. `plate mcp` serves the same text as a resource.
std::string languageReference(const Platform &platform);

struct ParserPrompt {
  std::string system;
  std::string user;
};

struct ParserInput {
  std::string protocolText;
  /// The plate layout the user gave (--layout): CSV grid or text.
  std::string layout;
  /// Structured feedback of every layer on the previous attempt.
  std::string feedback;
  std::string previousOutput;
  unsigned attempt = 1;
  /// --direct: ask for BioForge-1 JSONL commands instead of a script.
  bool direct = false;
};

/// The same template for every model: system = rules + reference; user =
/// the document, the layout, and the feedback of the previous attempt.
ParserPrompt buildParserPrompt(const Platform &platform, const ParserInput &input);

/// The script in a reply: the first fenced block (```plate or ```), or the
/// bare text from the first section tag on.
std::string extractScript(std::string_view reply);
/// The JSONL lines in a --direct reply (fenced or bare).
std::string extractCommands(std::string_view reply);

} // namespace plate::agent

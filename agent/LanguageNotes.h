//===- LanguageNotes.h - What each grammar form means, for the prompt -*- C++ -*-===//
//
// The Parser's prompt prints every form from the grammar (ParserAgent.cpp),
// but a form does not say what a statement covers when it names no wells,
// what a role does in the analysis or how a well set combines. These notes
// say it, one per labelled alternative of the grammar rules a script author
// writes (statements, layout lines and clauses, well-set items) and one per
// role keyword. ParserPromptTest fails when the grammar gains a form that
// has no note here, or a note outlives its form.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

/// The grammar rules whose labelled alternatives must each have a note.
const std::vector<std::string_view> &notedRules();

/// Alternative label (`dispenseStmt`) or role keyword (`blank`) -> note.
const std::map<std::string_view, std::string_view> &languageNotes();

/// Rules of the language a model needs beyond the forms (identifiers,
/// well sets, defaults), one per line.
std::string_view languageRules();

} // namespace plate::agent

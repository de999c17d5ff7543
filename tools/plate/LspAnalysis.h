//===- LspAnalysis.h - What the language server knows about one version ---===//
//
// One compilation of one version of an open document, from memory (the
// Compilation library with DiagnosticsFormat::Collect: the same engine,
// passes and codes as `plate check`), plus an index of the AST built once
// so that every request after it is a lookup: where each name is declared
// and used, where each quantity is written, which statement is on a line.
//
// Every answer is an LSP JSON value ready to send; positions are converted
// through ir/Utf16.h, the same conversion the SARIF renderer uses.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/AST.h"
#include "tools/plate/Compilation.h"
#include "tools/plate/LspDocument.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plate::lsp {

using Json = nlohmann::json;

/// What a name names. Reagents and layout names share one namespace in the
/// language (`dispense 100 uL of S1` and `of tmb` read alike); procedures
/// have their own, and a procedure's parameters are names inside its body
/// only.
enum class NameKind { Reagent, LayoutName, Procedure, Parameter };

/// One place a name is written.
struct Occurrence {
  SourceLoc loc;
  std::string name;
  bool declaration = false;
  bool procedure = false; ///< a procedure's name, not a liquid's
  /// The procedure whose parameter this is; null for script-wide names.
  const ast::ProcDef *scope = nullptr;
  /// A bare well name (`D1`) that may name a liquid: an occurrence only
  /// if such a liquid is declared.
  bool wellLike = false;
};

/// A declaration: where, and of what.
struct Declaration {
  NameKind kind;
  SourceLoc loc;                          ///< the name (or the range `S1..S7`)
  const ast::RoleLine *roleLine = nullptr; ///< LayoutName
  const ast::ReagentDecl *reagent = nullptr;
  const ast::ProcDef *procedure = nullptr; ///< Procedure, or Parameter's procedure
  const ast::Param *param = nullptr;
};

struct StatementEntry {
  const ast::Statement *statement;
  ast::SectionKind section;
  bool inProcedure = false;
};

class Analysis {
public:
  /// Compiles `text` as the script `path` (used in messages and for
  /// nothing else: the file is never read).
  Analysis(std::string uri, const std::string &path, std::string text,
           const std::string &stdlibDir);
  ~Analysis();

  /// The LSP Diagnostic[] of this version.
  Json diagnostics() const;
  /// Hover contents, or null.
  Json hover(Position position) const;
  /// Location[] of the declaration of the name at `position`.
  Json definition(Position position) const;
  /// Location[] of every occurrence of the name at `position`.
  Json references(Position position, bool includeDeclaration) const;
  /// CompletionItem[] for the cursor at `position` of `document` (the
  /// text the analysis was made from).
  Json completion(Position position, const TextDocument &document) const;
  /// DocumentSymbol[]: sections with their steps.
  Json documentSymbols() const;
  /// CodeAction[]: a quick fix per fix-it of a diagnostic that meets `range`.
  Json codeActions(Range range) const;

  /// Milliseconds the compilation took (parse, check, passes).
  double compileMilliseconds() const { return compileMs_; }

private:
  struct Located {
    uint32_t line, byteCol; ///< 1-based, bytes
  };
  Located locate(Position position) const;
  bool covers(SourceLoc loc, Located at) const;
  /// A line of the script without its indentation and trailing blanks.
  std::string trimmedLine(uint32_t line) const;
  /// The script's text at a one-line location (a role word as written).
  std::string written(SourceLoc loc) const;
  Json range(SourceLoc loc) const;
  Json location(SourceLoc loc) const;
  const Occurrence *occurrenceAt(Located at) const;
  const Declaration *declarationOf(const Occurrence &occurrence) const;

  void index();
  void indexStatements(const std::vector<ast::Statement> &statements,
                       ast::SectionKind section, bool inProcedure);
  void indexQuantity(const ast::QuantityExpr &quantity);
  void indexWells(const ast::WellSetExpr &wells);
  void addUse(const ast::Name &name, bool procedure = false);
  /// A use of `name` at `loc`: a parameter when the procedure being
  /// indexed has one of that name, else a script-wide name.
  void addUse(const std::string &name, SourceLoc loc, bool wellLike = false);
  void declare(const std::string &name, SourceLoc loc, Declaration declaration);
  /// Declares the procedures of the `use` modules Sema read.
  void indexModules();

  std::string hoverName(const Occurrence &occurrence) const;
  std::string hoverQuantity(const ast::QuantityExpr &quantity) const;
  std::string hoverStatement(const StatementEntry &entry) const;
  Json diagnosticJson(const Diagnostic &diagnostic) const;

  std::string uri_;
  std::unique_ptr<Compilation> compilation_;
  uint32_t fileId_ = 0;
  bool compiled_ = false;
  double compileMs_ = 0;

  std::vector<Occurrence> occurrences_;
  std::map<std::string, Declaration> liquids_;
  std::map<std::string, Declaration> procedures_;
  std::map<std::pair<const ast::ProcDef *, std::string>, Declaration> params_;
  const ast::ProcDef *indexing_ = nullptr; ///< the procedure being indexed
  std::vector<const ast::QuantityExpr *> quantities_;
  std::vector<const ast::ConcList *> concLists_;
  std::vector<StatementEntry> statements_;
  /// `use` modules, parsed again for their procedures' declarations.
  std::vector<std::unique_ptr<ast::Script>> modules_;
};

/// `file:///a/b%20c.plate` -> `/a/b c.plate`; other schemes are kept whole.
std::string pathOfUri(const std::string &uri);

} // namespace plate::lsp

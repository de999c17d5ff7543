//===- Sema.h - Semantic analysis and IR generation (internal) ------------===//
//
// One walk over the AST checks and generates at the same time: every
// statement is resolved (names, dimensions, well sets) into an ir::Op. A
// procedure body is walked twice in two modes: once at its definition with
// its parameters bound to typed placeholders ("dry", no ops) so that an
// uncalled procedure is still checked, and once per call with the argument
// values bound ("emit"), which expands it inline. Diagnostics raised again
// by a later expansion at the same place are dropped, so a bad line in a
// procedure called ten times is reported once.
//
// Internal to frontend/: the public surface is checkScript() in Frontend.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/AST.h"
#include "frontend/Frontend.h"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace plate::sema {

/// Expansion bound of `repeat` and procedure calls (spec: bounded loops).
constexpr unsigned kMaxGeneratedStatements = 10000;

/// A well set whose content may be unknown while a procedure body is
/// checked at its definition (a `Wells` parameter has no value yet).
struct Wells {
  WellSet set;
  bool known = true;
  /// Where the set says `all` (the statement, for a default `all`).
  SourceLoc allLoc{};
};

/// A procedure parameter in scope: its type, and in emit mode its value.
struct Binding {
  ast::ParamType type;
  SourceLoc loc;
  std::optional<Quantity> quantity;
  std::optional<ir::LiquidId> liquid;
  std::optional<WellSet> wells;
  bool known = false;
};

struct ProcInfo {
  const ast::ProcDef *def = nullptr;
  unsigned ordinal = 0; ///< position among top-level statements
  std::string module;   ///< stdlib module it came from; empty for the script
  bool hasErrors = false;
  bool recursive = false;
  bool used = false;
  bool checked = false; ///< body checked at its definition (dry mode)
};

/// Placeholder liquid of a Reagent parameter without a value (dry mode).
constexpr ir::LiquidId kUnknownLiquid = ~ir::LiquidId(0);

std::string_view paramTypeName(ast::ParamType type);

/// The layout role a word names in a well set or a `dispense` source:
/// `blank`, `calibrant` (alias `standard`), `sample`, `control`, `nsb`,
/// `bmax` or `cutoff` (alias `cut_off`), in any case, singular or plural
/// (`samples`). Spec §4 and §6; docs/language.md §4.
std::optional<ir::LiquidRole> roleWord(std::string word);

class Sema {
public:
  Sema(const ast::Script &script, SourceManager &sources, DiagnosticEngine &diags,
       const FrontendOptions &options);
  std::optional<CheckedProgram> run();

  //===--- Diagnostics ----------------------------------------------------===//
  /// Reports through the engine, adding the step label and, inside a call
  /// expansion, a note at the call site. The same code at the same place
  /// again (another round of a repeat, another call of a procedure) goes to
  /// a scratch engine and is dropped.
  template <typename... Args>
  InFlightDiagnostic report(DiagId id, SourceLoc loc, Args &&...args) {
    bool duplicate =
        !seen_.insert({static_cast<int>(id), loc.fileId, loc.line, loc.col}).second;
    InFlightDiagnostic diag =
        (duplicate ? scratch_ : diags_).report(id, loc, std::forward<Args>(args)...);
    if (!step_.empty())
      diag.step(step_);
    for (auto it = callStack_.rbegin(); it != callStack_.rend(); ++it)
      diag.note(it->second, "in the call of `{}` here", it->first);
    return diag;
  }
  /// The source text of a location, for quoting in messages.
  std::string text(SourceLoc loc, std::string_view fallback) const;
  std::string quantityText(const ast::QuantityExpr &q) const;

  //===--- Quantities (SemaQuantity.cpp) -----------------------------------===//
  /// Checks a quantity against the dimension a statement expects. Returns
  /// nullopt after reporting; a parameter without a value (dry mode) gives
  /// a placeholder of the right dimension.
  std::optional<Quantity> quantity(const ast::QuantityExpr &q, Dimension expected,
                                   std::string_view context);
  std::optional<unsigned> count(const ast::QuantityExpr &q, std::string_view context);
  std::optional<Unit> concentrationUnit(const ast::ConcList &conc);

  //===--- Well sets (WellSets.cpp) ----------------------------------------===//
  std::optional<Wells> wells(const ast::WellSetExpr &expr, std::string_view context);
  /// The implicit `all` of a statement without WELLS.
  std::optional<Wells> defaultAll(SourceLoc stmtLoc);
  bool requireLayout(SourceLoc loc);

  //===--- Layout (SemaLayout.cpp) -----------------------------------------===//
  void buildLayout();
  void placeGrid(const ast::Grid &grid);
  void declareSeries(const ast::RoleLine &line, const std::vector<ir::LiquidId> &ids);
  bool claim(ir::LiquidId liquid, const WellSet &wells, SourceLoc loc);

  //===--- Statements (IRGen.cpp) ------------------------------------------===//
  void statements(const std::vector<ast::Statement> &list);
  void statement(const ast::Statement &stmt);
  ir::TipPolicy tips(const ast::Statement &stmt, ir::TipPolicy fallback);
  void emit(ir::OpPayload payload, const ast::Statement &stmt);
  /// `wash 3 times with 300 uL`: the name after a bare volume is a volume
  /// unit, so the author left out the liquid, not the unit. Reports E114
  /// (instead of E210 at the number and E202 at the unit) and returns true.
  bool missingLiquid(const ast::QuantityExpr &volume, const ast::Name &name,
                     std::string_view statement);
  void gen(const ast::Dispense &, const ast::Statement &);
  void gen(const ast::Aspirate &, const ast::Statement &);
  void gen(const ast::Wash &, const ast::Statement &);
  void gen(const ast::Incubate &, const ast::Statement &);
  void gen(const ast::Shake &, const ast::Statement &);
  void gen(const ast::Mix &, const ast::Statement &);
  void gen(const ast::Transfer &, const ast::Statement &);
  void gen(const ast::SerialDilution &, const ast::Statement &);
  bool checkSeriesRatio(const std::vector<std::vector<Well>> &series, double ratio,
                        SourceLoc loc);
  std::optional<ir::LiquidId> layoutLiquidAt(Well well) const;
  std::optional<ir::MixSpec> mixSpec(const ast::MixClause &mix, const Quantity &defaultVolume);
  void gen(const ast::Magnet &, const ast::Statement &);
  void gen(const ast::ReadAbsorbance &, const ast::Statement &);
  void gen(const ast::ReadFluorescence &, const ast::Statement &);
  void gen(const ast::Analyze &, const ast::Statement &);
  /// E406: an INSTRUMENT `analyze` whose read the run would not find.
  void checkAnalyzeRead(const ast::Analyze &a, const ast::Statement &stmt,
                        const std::optional<Quantity> &wavelength);
  void gen(const ast::Wait &, const ast::Statement &);
  void gen(const ast::Pause &, const ast::Statement &);
  void gen(const ast::Note &, const ast::Statement &);
  void gen(const ast::Prepare &, const ast::Statement &);
  void gen(const ast::Equilibrate &, const ast::Statement &);
  void gen(const ast::Use &, const ast::Statement &);
  void gen(const ast::Call &, const ast::Statement &);
  void gen(const ast::Repeat &, const ast::Statement &);
  void gen(const ast::ProcDef &, const ast::Statement &);

  //===--- Names and procedures (Sema.cpp) ---------------------------------===//
  /// A reagent (not a layout liquid) by name, or a Reagent parameter.
  std::optional<ir::LiquidId> reagent(const ast::Name &name, std::string_view context);
  /// "standards", "samples": a role word names every layout liquid of
  /// that role (`equilibrate`, `prepare`); appends them, false if none.
  bool appendLiquidsOfRole(const std::string &word, std::vector<ir::LiquidId> &ids) const;
  const Binding *param(const std::string &name) const;
  std::vector<std::string> liquidNames(bool layout) const;
  /// The names of a declaration's list, ranges expanded (each member
  /// located at its range); false after E215 on a range that does not count up.
  bool expandNames(const ast::NameRange &first, const std::vector<ast::NameRange> &more,
                   std::vector<ast::Name> &names);
  void declareReagents();
  void reportUnknownFlags();
  /// The reservoir position a REAGENTS line gives, checked (E313, E314).
  std::optional<ir::ReservoirPos>
  reservePosition(const ast::ReagentDecl &decl, ir::LiquidId id,
                  std::map<std::pair<unsigned, unsigned>, ir::LiquidId> &positions);
  void declareReagent(const ast::ReagentDecl &decl, const ast::Name &name,
                      const std::optional<Quantity> &volume,
                      std::map<std::pair<unsigned, unsigned>, ir::LiquidId> &positions);
  void collectProcs();
  void registerProc(const ast::ProcDef &def, unsigned ordinal, const std::string &module,
                    SourceLoc useLoc);
  /// `loc` is the statement (E207), `nameLoc` its quoted name (E217).
  void useModule(const std::string &name, SourceLoc loc, SourceLoc nameLoc, unsigned ordinal);
  /// The module names of stdlib/modules, sorted.
  std::vector<std::string> knownModules() const;
  void checkProc(ProcInfo &proc);
  void findRecursion();
  void collectCalls(const std::vector<ast::Statement> &body,
                    std::vector<const ast::Call *> &calls);
  bool bindArgs(const ast::Call &call, const ProcInfo &proc,
                std::map<std::string, Binding> &env);

  const ast::Script &script_;
  SourceManager &sources_;
  DiagnosticEngine &diags_;
  DiagnosticEngine scratch_;
  const FrontendOptions &options_;
  std::string stdlibDir_;

  std::optional<Platform> platform_;
  ir::Module module_;
  bool hasLayout_ = false;
  bool layoutWellsOnly_ = false; ///< evaluating a layout line's `at`
  std::map<std::string, ir::LiquidId> liquidByName_;
  /// Layout liquids a REAGENTS line has given their loading (once each).
  std::set<std::string> loadedLayoutLiquids_;
  /// Reagent flags that a statement used as names (E225 reported).
  std::set<std::string> flagsUsedAsNames_;
  /// Layout liquids declared without `at`, to be placed by a grid.
  std::map<std::string, SourceLoc> gridNames_;
  std::array<std::optional<std::pair<ir::LiquidId, SourceLoc>>, kMaxRows * kMaxCols> claims_;

  std::map<std::string, ProcInfo> procs_;
  std::vector<std::unique_ptr<ast::Script>> modules_;
  std::set<std::string> loadedModules_;
  std::vector<std::string> procOrder_; ///< definition order, for checking
  /// Diagnostics found while collecting procedures before the walk; each is
  /// reported when the walk reaches its top-level statement, so that the
  /// output stays in file order.
  std::multimap<unsigned, std::function<void()>> deferred_;
  bool walking_ = false;
  void later(unsigned ordinal, std::function<void()> action);
  /// E206 found before the walk, reported when the procedure is checked.
  std::map<std::string, std::pair<SourceLoc, std::string>> recursionReports_;
  std::set<ir::LiquidId> usedReagents_;

  // Walk state.
  const std::map<std::string, Binding> *env_ = nullptr;
  bool emit_ = true;
  bool manual_ = false;
  std::string step_;
  /// What an unlabelled statement of a section is called: its ordinal in
  /// the section (bioforge1.md, the command stream's `step`).
  std::string ordinalStep_;
  std::string blockStep_;                ///< step label a repeat body inherits
  std::optional<std::string> stepOverride_; ///< the call site's, in an expansion
  unsigned blockDepth_ = 0;    ///< 0: top level of a section
  unsigned ordinal_ = 0;       ///< current top-level statement
  unsigned expansionDepth_ = 0;
  std::vector<std::pair<std::string, SourceLoc>> callStack_;
  /// The outermost repeat or call being expanded, for E403.
  std::optional<std::pair<SourceLoc, std::string>> expansionRoot_;
  unsigned generated_ = 0;
  bool limitReported_ = false;
  bool reuseWarned_ = false;
  /// A read statement had errors and made no op: E406 would be a cascade.
  bool readDropped_ = false;
  std::set<std::tuple<int, uint32_t, uint32_t, uint32_t>> seen_;
};

} // namespace plate::sema

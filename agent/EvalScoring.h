//===- EvalScoring.h - One candidate against its ground truth ---*- C++ -*-===//
//
// What every mode of `plate eval` scores with: the two layers of a
// compiled script (agent/Eval.h), Parameter Accuracy and the planning
// scores over them (agent/Metrics.h), and equivalence of what the scripts
// do to the plate (agent/Equivalence.h); and the lines and JSON that
// `--score` and `--equivalence` report them in.
//
// The harness never compiles by itself: the driver's Compilation
// (tools/plate/Compilation.h) sits above this library, so the driver hands
// it in as an EvalCompiler, just as it hands the Translator its compile
// hook. A test can hand in anything that fills a ScriptLayers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/Equivalence.h"
#include "agent/Eval.h"
#include "agent/Metrics.h"
#include "agent/Translator.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

/// The two layers of a script: steps from the checked module, blocks from
/// the lowered commands (empty when it does not compile).
struct ScriptLayers {
  bool checked = false;  ///< parse + sema without errors
  bool compiled = false; ///< the whole pipeline without errors
  nlohmann::json diagnostics = nlohmann::json::array();
  std::vector<StepRecord> steps;
  std::vector<CommandBlock> blocks;
  /// The frontend's module and the platform, when the script checks: what
  /// equivalence (agent/Equivalence.h) runs.
  std::optional<ir::Module> module;
  std::optional<Platform> platform;
};

/// The compiler as the harness calls it (see the file comment). Every
/// member may be called from several threads at once: a sweep scores its
/// attempts on its worker threads.
struct EvalCompiler {
  /// The layers of a .plate script compiled against `layoutCsv` ("" for
  /// the script's own layout).
  std::function<ScriptLayers(const std::string &script, const std::string &layoutCsv)>
      scriptLayers;
  /// The layers of a --direct answer (a BioForge-1 JSONL stream): blocks only.
  std::function<ScriptLayers(const std::string &jsonl)> commandLayers;
  /// The deterministic layer of `plate translate` for one candidate: the
  /// compiler, then the step alignment against the protocol text.
  std::function<CompileReport(const std::string &script, const std::string &protocolText)>
      checkCandidate;
};

/// `part` of `whole` as "12.5 %", or "-" when there is nothing to share.
std::string formatPercent(size_t part, size_t whole);

/// Whether two checked scripts do the same to the plate; nullopt when
/// either does not check.
std::optional<Equivalence> equivalenceOf(const ScriptLayers &truth, const ScriptLayers &candidate,
                                         const TextRanges *ranges = nullptr);
/// The durations, temperatures and speeds that `protocol` states as ranges.
TextRanges textRanges(std::string_view protocol, const Platform &platform);
/// `equivalence: ...` with the liquids matched under other names; one line.
std::string equivalenceLine(const std::optional<Equivalence> &equivalence);
/// The JSON `--equivalence --json` writes.
nlohmann::json equivalenceJson(const Equivalence &equivalence);
/// A table cell for a JSON verdict: yes, no, or - (not compared).
std::string equivalenceCell(const nlohmann::json &equivalent);

/// PA compares how two scripts are written, equivalence what they do; a
/// high PA on a different chemistry, or a low PA on the same chemistry, is
/// worth a reader's look (docs/evaluation.md). The reason, or "" when the
/// two agree or equivalence was not decided.
std::string scoresDisagree(double pa, const nlohmann::json &equivalent);

/// Everything `--score` reports about one candidate.
struct CandidateScore {
  bool direct = false; ///< a command stream: no structured layer, no equivalence
  bool checked = false;
  bool compiled = false;
  ParameterAccuracy pa;
  PlanningScore stepPlanning;
  PlanningScore blockPlanning;
  std::optional<Equivalence> equivalence;
};

CandidateScore scoreCandidate(const ScriptLayers &truth, const ScriptLayers &candidate,
                              bool direct);
/// The report of `--score`: both layers' C, P and T, the PA formula, the
/// planning scores and (for a script) equivalence.
void writeScore(std::ostream &out, const CandidateScore &score, std::string_view candidateName,
                std::string_view truthName);
nlohmann::json scoreJson(const CandidateScore &score);

/// What `--equivalence` shows for a candidate that does not check: its
/// diagnostics, one per line.
void writeUncheckedCandidate(std::ostream &out, std::string_view candidateName,
                             const nlohmann::json &diagnostics);

} // namespace plate::agent

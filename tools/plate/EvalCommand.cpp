//===- EvalCommand.cpp - `plate eval` -------------------------------------===//
//
// Every candidate goes through the same deterministic validation as
// `plate translate` (compileCandidate: compiler, then the step alignment),
// so the mutation study measures exactly what a translation run would
// catch. Sweeps run translations concurrently (the waits are on the
// network) but compile one candidate at a time: the compiler's temporary
// files and caches are per process, not per thread.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/EvalCommand.h"

#include "agent/Equivalence.h"

#include "agent/Translator.h"
#include "backend/Backend.h"
#include "backend/Svg.h"
#include "tools/plate/AgentOptions.h"
#include "tools/plate/Compilation.h"
#include "tools/plate/TranslateCommand.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace plate {

using nlohmann::json;
namespace fs = std::filesystem;

CLI::App *addEvalCommand(CLI::App &app, EvalOptions &options) {
  CLI::App *command = app.add_subcommand(
      "eval", "evaluate translations: --score one script against its ground truth, "
              "--check-corpus, --mutation-study, or a Parser x Validator sweep over the corpus");
  command->add_option("--score", options.candidate,
                      "a candidate .plate script (or .jsonl command stream) to score");
  command->add_option("--equivalence", options.equivalence,
                      "a candidate .plate script to compare with --truth by what it does to the "
                      "plate (exit 0 equivalent, 1 not)");
  command->add_option("--truth", options.truth,
                      "the ground-truth .plate script for --score and --equivalence");
  command->add_option("--answers", options.answers,
                      "score recorded Parser replies (DIR/NAME/answer.md, one per corpus protocol): "
                      "first-attempt compile rate, PA and equivalence to the truth");
  command->add_option("--corpus", options.corpora,
                      "corpus directory (NN-name/{protocol.txt,truth.plate,layout.csv}); "
                      "repeatable: --check-corpus and --mutation-study report each one");
  command->add_option("--only", options.only, "only protocols whose directory name contains this");
  command->add_flag("--check-corpus", options.checkCorpus,
                    "compile every ground truth and align it with its protocol text");
  command->add_flag("--mutation-study", options.mutationStudy,
                    "single-change mutants of every ground truth through the deterministic layer");
  command->add_flag("-v,--verbose", options.verbose, "list every mutant or attempt");
  command->add_option("--parser", options.parsers,
                      "Parser models for the sweep (repeatable or comma-separated)")
      ->delimiter(',');
  command->add_option("--validator", options.validators,
                      "Validator models for the sweep (repeatable or comma-separated)")
      ->delimiter(',');
  command->add_flag("--direct", options.direct,
                    "also run every Parser with direct command mapping (the baseline)");
  command->add_option("--max-attempts", options.maxAttempts, "attempts per translation")
      ->check(CLI::Range(1u, 9u));
  command->add_option("-j,--jobs", options.jobs, "translations run at once")
      ->check(CLI::Range(1u, 64u));
  command->add_option("--per-minute", options.perMinute,
                      "translations started per minute (0: no limit)");
  command->add_option("--temperature", options.temperature, "sampling temperature (every call)");
  command->add_option("--seed", options.seed, "seed (every call that takes one)");
  command->add_option("--cache", options.client.cacheDir,
                      "cache responses by request hash; a finished sweep replays offline");
  command->add_option("-o,--out", options.outDir,
                      "sweep report directory (report.md, sweep.json, *.svg)");
  command->add_option("--label", options.label, "what this sweep is, for the report");
  command->add_option("--json", options.json, "write the results as JSON to this file");
  command->add_option("--stdlib", options.stdlibDir, "stdlib directory");
  addTransportOptions(*command, options.client, AgentCommand::Eval);
  return command;
}

namespace {

int usageError(const std::string &message) { return reportUsageError("eval", message); }

// Where PA and equivalence are said to disagree (docs/evaluation.md).
constexpr double kLowPa = 0.5;
constexpr double kHighPa = 0.9;

std::string defaultCorpus() {
  if (fs::is_directory("test/corpus"))
    return "test/corpus";
  return (fs::path(PLATE_STDLIB_DIR).parent_path() / "test" / "corpus").string();
}

} // namespace

ScriptLayers layersOfScript(const std::string &script, const std::string &stdlibDir,
                            const std::string &layoutCsv) {
  ScriptLayers layers;
  ScriptCompilation scratch("script.plate", script, stdlibDir, layoutCsv);
  Compilation &compilation = scratch.compilation();
  layers.checked = compilation.check();
  if (layers.checked) {
    layers.steps = agent::structuredSteps(compilation.module(), compilation.platform());
    layers.module = compilation.checkedModule();
    layers.platform = compilation.platform();
  }
  std::ostringstream dump;
  layers.compiled = layers.checked && compilation.compile(dump);
  if (layers.compiled)
    layers.blocks = agent::commandBlocks(
        backend::lowerToCommands(compilation.module(), compilation.platform()));
  layers.diagnostics = scratch.diagnostics();
  return layers;
}

ScriptLayers layersOfCommands(const std::string &jsonl) {
  ScriptLayers layers;
  SourceManager sources;
  uint32_t id = sources.addBuffer("answer.jsonl", jsonl);
  DiagnosticEngine diags(sources);
  std::optional<std::vector<backend::Command>> commands =
      backend::parseCommandStream(id, sources, diags);
  layers.diagnostics = diagnosticsJson(diags, sources);
  layers.compiled = commands.has_value() && !diags.hasErrors();
  if (commands)
    layers.blocks = agent::commandBlocks(*commands);
  return layers;
}

namespace {

//===--- Corpus -----------------------------------------------------------===//

struct CorpusEntry {
  std::string name;
  std::string protocol;
  std::string truth;
  std::string layout; ///< layout.csv text, if any
};

std::optional<std::vector<CorpusEntry>> loadCorpus(const std::string &dir, const std::string &only,
                                                   std::string &error) {
  if (!fs::is_directory(dir)) {
    error = fmt::format("`{}` is not a corpus directory", dir);
    return std::nullopt;
  }
  std::vector<fs::path> folders;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir))
    if (entry.is_directory() && fs::exists(entry.path() / "truth.plate"))
      folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  std::vector<CorpusEntry> corpus;
  for (const fs::path &folder : folders) {
    std::string name = folder.filename().string();
    if (!only.empty() && name.find(only) == std::string::npos)
      continue;
    std::optional<std::string> protocol = readWholeFile((folder / "protocol.txt").string());
    std::optional<std::string> truth = readWholeFile((folder / "truth.plate").string());
    if (!protocol || !truth) {
      error = fmt::format("`{}` needs protocol.txt and truth.plate", folder.string());
      return std::nullopt;
    }
    corpus.push_back({name, *protocol, *truth,
                      readWholeFile((folder / "layout.csv").string()).value_or("")});
  }
  if (corpus.empty()) {
    error = fmt::format("no protocols in `{}`{}", dir,
                        only.empty() ? "" : fmt::format(" matching `{}`", only));
    return std::nullopt;
  }
  return corpus;
}

std::string percent(size_t part, size_t whole) {
  return whole == 0 ? "-" : fmt::format("{:.1f} %", 100.0 * double(part) / double(whole));
}

//===--- --equivalence ----------------------------------------------------===//

/// Whether two checked scripts do the same to the plate; nullopt when
/// either does not check.
std::optional<agent::Equivalence> equivalenceOf(const ScriptLayers &truth,
                                                const ScriptLayers &candidate) {
  if (!truth.module || !candidate.module)
    return std::nullopt;
  return agent::compareEffects(*truth.module, *candidate.module, *truth.platform);
}

std::string equivalenceLine(const std::optional<agent::Equivalence> &equivalence) {
  if (!equivalence)
    return "equivalence: - (the candidate does not check)\n";
  std::string line = equivalence->equivalent
                         ? "equivalence: equivalent (the same wells, liquids, volumes, order, "
                           "incubations and reads)"
                         : "equivalence: not equivalent: " + equivalence->difference;
  std::string renamed;
  for (const auto &[from, to] : equivalence->renamed)
    renamed += fmt::format("{}{} = {}", renamed.empty() ? "" : ", ", from, to);
  if (!renamed.empty())
    line += fmt::format(" [liquids matched under other names: {}]", renamed);
  return line + "\n";
}

/// The texts of a candidate and of --truth, for --score and --equivalence;
/// on a usage error, the exit code in `exit`.
struct CandidateAndTruth {
  std::string candidate, truth;
};
std::optional<CandidateAndTruth> readCandidateAndTruth(const std::string &candidatePath,
                                                       const EvalOptions &options,
                                                       std::string_view flag, int &exit) {
  std::optional<std::string> candidate, truth;
  if (options.truth.empty())
    exit = usageError(fmt::format("{} needs --truth TRUTH.plate", flag));
  else if (!(candidate = readWholeFile(candidatePath)))
    exit = usageError(fmt::format("cannot read `{}`", candidatePath));
  else if (!(truth = readWholeFile(options.truth)))
    exit = usageError(fmt::format("cannot read `{}`", options.truth));
  else
    return CandidateAndTruth{std::move(*candidate), std::move(*truth)};
  return std::nullopt;
}

//===--- --score ----------------------------------------------------------===//

int runScore(const EvalOptions &options, const std::string &stdlib) {
  int exit = 0;
  std::optional<CandidateAndTruth> texts =
      readCandidateAndTruth(options.candidate, options, "--score", exit);
  if (!texts)
    return exit;
  ScriptLayers truth = layersOfScript(texts->truth, stdlib);
  if (!truth.compiled)
    return usageError(fmt::format("the ground truth `{}` does not compile", options.truth));
  bool direct = options.candidate.size() > 6 &&
                options.candidate.substr(options.candidate.size() - 6) == ".jsonl";
  ScriptLayers cand = direct ? layersOfCommands(texts->candidate)
                           : layersOfScript(texts->candidate, stdlib);
  agent::ParameterAccuracy pa =
      agent::scoreParameterAccuracy(truth.steps, truth.blocks, cand.steps, cand.blocks);
  agent::PlanningScore planning =
      agent::scorePlanning(agent::stepTypes(truth.steps), agent::stepTypes(cand.steps));
  agent::PlanningScore blockPlanning =
      agent::scorePlanning(agent::blockTypes(truth.blocks), agent::blockTypes(cand.blocks));
  auto layerLine = [](const char *name, const agent::LayerScore &s, const char *unit) {
    return fmt::format("{:<17} C = {:>5}  P = {:>5}  T = {:>5}  max(C - P, 0) = {:>5}  ({} {} "
                       "matched, {} over-generated, {} missed)\n",
                       name, s.correct, s.penalty, s.total, s.clamped(), s.matched, unit,
                       s.overGenerated, s.missed);
  };
  std::cout << fmt::format("candidate: {}{}\n", options.candidate,
                           direct              ? " (direct command stream)"
                           : !cand.checked     ? " (does not check: no steps, no commands)"
                           : !cand.compiled    ? " (does not compile: no commands)"
                                               : "");
  std::cout << fmt::format("truth:     {}\n", options.truth);
  std::cout << layerLine("structured layer:", pa.structured, "steps");
  std::cout << layerLine("command layer:", pa.command, "blocks");
  std::cout << fmt::format("PA = ({} + {}) / ({} + {}) = {:.4f}\n", pa.structured.clamped(),
                           pa.command.clamped(), pa.structured.total, pa.command.total, pa.value);
  std::cout << fmt::format("step types: precision {:.4f}, recall {:.4f}, Levenshtein {} "
                           "(normalised {:.4f})\n",
                           planning.precision, planning.recall, planning.levenshtein,
                           planning.normalizedLevenshtein);
  std::cout << fmt::format("block types: precision {:.4f}, recall {:.4f}, Levenshtein {} "
                           "(normalised {:.4f})\n",
                           blockPlanning.precision, blockPlanning.recall,
                           blockPlanning.levenshtein, blockPlanning.normalizedLevenshtein);
  std::optional<agent::Equivalence> equivalence =
      direct ? std::nullopt : equivalenceOf(truth, cand);
  if (!direct)
    std::cout << equivalenceLine(equivalence);
  if (!options.json.empty()) {
    json out = agent::toJson(pa);
    out["planning_steps"] = agent::toJson(planning);
    out["planning_blocks"] = agent::toJson(blockPlanning);
    out["candidate_compiles"] = cand.compiled;
    if (equivalence)
      out["equivalent"] = equivalence->equivalent;
    std::ofstream(options.json) << out.dump(2) << "\n";
  }
  return 0;
}

int runEquivalence(const EvalOptions &options, const std::string &stdlib) {
  int exit = 0;
  std::optional<CandidateAndTruth> texts =
      readCandidateAndTruth(options.equivalence, options, "--equivalence", exit);
  if (!texts)
    return exit;
  ScriptLayers truth = layersOfScript(texts->truth, stdlib);
  if (!truth.checked)
    return usageError(fmt::format("the ground truth `{}` does not check", options.truth));
  ScriptLayers candidate = layersOfScript(texts->candidate, stdlib);
  if (!candidate.checked) {
    std::cout << fmt::format("candidate: {} does not check:\n", options.equivalence);
    for (const json &d : candidate.diagnostics)
      std::cout << fmt::format("  line {}: [{}] {}\n", d.value("line", 0), d.value("code", ""),
                               d.value("message", ""));
    return static_cast<int>(ExitCode::InputErrors);
  }
  std::optional<agent::Equivalence> equivalence = equivalenceOf(truth, candidate);
  std::cout << equivalenceLine(equivalence);
  if (!options.json.empty()) {
    json out = {{"equivalent", equivalence->equivalent},
                {"difference", equivalence->difference},
                {"well_events", equivalence->wellEvents},
                {"plate_events", equivalence->plateEvents}};
    json renamed = json::array();
    for (const auto &[from, to] : equivalence->renamed)
      renamed.push_back({{"candidate", from}, {"truth", to}});
    out["renamed"] = renamed;
    std::ofstream(options.json) << out.dump(2) << "\n";
  }
  return static_cast<int>(equivalence->equivalent ? ExitCode::Success : ExitCode::InputErrors);
}

//===--- --check-corpus and --mutation-study ------------------------------===//

struct Verdict {
  bool compileError = false;
  bool certainFinding = false;
  bool skipped = false;    ///< the alignment could not read the text
  unsigned uncertain = 0;  ///< uncertain findings (evidence for the Validator)
  /// Findings by confidence and kind ("certain missing"), for the study's
  /// breakdown of what a correct script draws.
  std::map<std::string, unsigned> kinds;
  std::string first; ///< the first reason, for -v
  bool caught() const { return compileError || certainFinding; }
};

/// The deterministic layer of `plate translate`: the compile hook of the
/// loop (compiler errors, then the step alignment's certain findings). A
/// Validator that always passes adds nothing, so this is what a liberal
/// Validator leaves.
Verdict deterministicVerdict(const std::string &script, const std::string &protocol,
                             const std::string &stdlib) {
  agent::CompileReport report = compileCandidate(script, protocol, stdlib, "");
  Verdict verdict;
  verdict.compileError = !report.ok;
  verdict.certainFinding = report.ok && !report.certain.empty();
  verdict.skipped = report.ok && report.alignmentRecord.is_null();
  verdict.uncertain = static_cast<unsigned>(report.uncertain.size());
  for (const agent::Finding &f : report.certain)
    ++verdict.kinds["certain " + f.type];
  for (const agent::Finding &f : report.uncertain)
    ++verdict.kinds["uncertain " + f.type];
  if (verdict.compileError) {
    for (const json &d : report.diagnostics)
      if (d.value("severity", "") == "error") {
        verdict.first = fmt::format("compiler {} line {}: {}", d.value("code", ""),
                                    d.value("line", 0), d.value("message", ""));
        break;
      }
  } else if (verdict.certainFinding) {
    verdict.first = "alignment " + report.certain.front().type + ": " +
                    report.certain.front().message;
  } else if (!report.uncertain.empty()) {
    verdict.first = "uncertain " + report.uncertain.front().type + ": " +
                    report.uncertain.front().message;
  }
  return verdict;
}

int runCheckCorpus(const std::vector<CorpusEntry> &corpus, const EvalOptions &options,
                   const std::string &stdlib) {
  size_t errors = 0, rejected = 0, uncertain = 0;
  for (const CorpusEntry &entry : corpus) {
    agent::CompileReport report = compileCandidate(entry.truth, entry.protocol, stdlib, "");
    size_t warnings = 0, errorCount = 0;
    for (const json &d : report.diagnostics)
      (d.value("severity", "") == "error" ? errorCount : warnings) += 1;
    std::cout << fmt::format("{:<40} {} error(s), {} warning(s), {} certain and {} uncertain "
                             "finding(s)\n",
                             entry.name, errorCount, warnings, report.certain.size(),
                             report.uncertain.size());
    if (options.verbose) {
      for (const json &d : report.diagnostics)
        std::cout << fmt::format("  {} {} line {}: {}\n", d.value("severity", ""),
                                 d.value("code", ""), d.value("line", 0), d.value("message", ""));
      for (const agent::Finding &f : report.certain)
        std::cout << fmt::format("  certain {} {}: {}\n", f.type, f.location, f.message);
      for (const agent::Finding &f : report.uncertain)
        std::cout << fmt::format("  uncertain {} {}: {}\n", f.type, f.location, f.message);
    }
    errors += !report.ok;
    rejected += report.ok && !report.certain.empty();
    uncertain += report.uncertain.size();
  }
  std::cout << fmt::format("{} ground truth(s): {} with compile errors, {} rejected by the "
                           "step alignment, {} uncertain finding(s)\n",
                           corpus.size(), errors, rejected, uncertain);
  return errors == 0 && rejected == 0 ? 0 : static_cast<int>(ExitCode::InputErrors);
}

struct Tally {
  size_t mutants = 0, caught = 0, byCompiler = 0, byAlignment = 0, uncertainOnly = 0;
  void add(const Tally &t) {
    mutants += t.mutants;
    caught += t.caught;
    byCompiler += t.byCompiler;
    byAlignment += t.byAlignment;
    uncertainOnly += t.uncertainOnly;
  }
};

/// One corpus through the mutation study: prints its table, returns its
/// JSON and whether its goals are met.
json mutationStudyOf(const std::string &dir, const std::vector<CorpusEntry> &corpus,
                     const EvalOptions &options, const std::string &stdlib,
                     const Platform &platform, bool &goal) {
  std::map<std::string, Tally> tallies;
  size_t truthsRejected = 0, truthsSkipped = 0, truthUncertain = 0, truthsAccepted = 0;
  size_t truthsFailingToCompile = 0;
  json records = json::array();
  std::map<std::string, unsigned> truthKinds; // findings on the correct scripts
  for (const CorpusEntry &entry : corpus) {
    Verdict base = deterministicVerdict(entry.truth, entry.protocol, stdlib);
    for (const auto &[kind, count] : base.kinds)
      truthKinds[kind] += count;
    truthsFailingToCompile += base.compileError;
    if (base.caught()) {
      ++truthsRejected;
      std::cout << fmt::format("{}: the unmutated ground truth is rejected: {}\n", entry.name,
                               base.first);
    } else {
      ++truthsAccepted;
      truthUncertain += base.uncertain;
    }
    if (base.skipped) {
      ++truthsSkipped;
      std::cout << fmt::format("{}: the alignment cannot read the protocol text\n", entry.name);
    }
    for (const agent::Mutant &mutant : agent::makeMutants(entry.truth, platform)) {
      Verdict verdict = deterministicVerdict(mutant.script, entry.protocol, stdlib);
      Tally &tally = tallies[mutant.kind];
      ++tally.mutants;
      tally.caught += verdict.caught();
      tally.byCompiler += verdict.compileError;
      tally.byAlignment += verdict.certainFinding;
      tally.uncertainOnly += !verdict.caught() && verdict.uncertain > base.uncertain;
      if (options.verbose)
        std::cout << fmt::format("{} {:<11} line {:>3} {:<6} {}{}\n", entry.name, mutant.kind,
                                 mutant.line, verdict.caught() ? "caught" : "MISSED",
                                 mutant.description,
                                 verdict.first.empty() ? "" : "  [" + verdict.first + "]");
      records.push_back({{"protocol", entry.name},
                         {"kind", mutant.kind},
                         {"line", mutant.line},
                         {"change", mutant.description},
                         {"caught", verdict.caught()},
                         {"by", verdict.compileError     ? "compiler"
                                : verdict.certainFinding ? "alignment"
                                                         : "none"},
                         {"uncertain", verdict.uncertain},
                         {"reason", verdict.first}});
    }
  }
  double averageUncertain =
      truthsAccepted ? double(truthUncertain) / double(truthsAccepted) : 0.0;
  std::cout << fmt::format("mutation study of {}: {} ground truth(s), {} unmutated rejected, {:.2f} "
                           "uncertain finding(s) per accepted ground truth\n",
                           dir, corpus.size(), truthsRejected, averageUncertain);
  // By kind only: a held-out corpus is judged by such totals, never by
  // reading which of its texts drew them.
  std::vector<std::string> kindCounts;
  for (const auto &[kind, count] : truthKinds)
    kindCounts.push_back(fmt::format("{} {}", kind, count));
  std::cout << fmt::format("findings on the ground truths: {}\n",
                           kindCounts.empty() ? "none" : fmt::format("{}", fmt::join(kindCounts, ", ")));
  std::cout << "| kind | mutants | caught | share | by compiler | by alignment | uncertain only |\n";
  std::cout << "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  Tally parameters, all;
  json table = json::array();
  auto row = [](const std::string &name, const Tally &t) {
    return fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", name, t.mutants, t.caught,
                       percent(t.caught, t.mutants), t.byCompiler, t.byAlignment,
                       t.uncertainOnly);
  };
  for (const std::string &kind : agent::mutationKinds()) {
    auto it = tallies.find(kind);
    if (it == tallies.end())
      continue;
    const Tally &t = it->second;
    std::cout << row(kind, t);
    table.push_back({{"kind", kind},
                     {"mutants", t.mutants},
                     {"caught", t.caught},
                     {"by_compiler", t.byCompiler},
                     {"by_alignment", t.byAlignment},
                     {"uncertain_only", t.uncertainOnly}});
    all.add(t);
    if (agent::isParameterMutation(kind))
      parameters.add(t);
  }
  std::cout << row("parameter changes", parameters);
  std::cout << row("all", all);
  auto share = [&](const std::string &kind) {
    const Tally &t = tallies[kind];
    return t.mutants == 0 ? 1.0 : double(t.caught) / double(t.mutants);
  };
  double parameterShare =
      parameters.mutants == 0 ? 1.0 : double(parameters.caught) / double(parameters.mutants);
  goal = truthsRejected == 0 && truthsSkipped == 0 && share("drop") >= 1.0 &&
         parameterShare >= 0.95 && share("swap") >= 0.90 && share("to-manual") >= 0.90;
  std::cout << fmt::format("goal (no ground truth rejected, every drop, >= 95 % of parameter "
                           "changes, >= 90 % of swaps and of moves to MANUAL): {}\n",
                           goal ? "met" : "NOT met");
  // What `plate translate` does by default: alignment findings are evidence
  // for the Validator and end no attempt, so only the compiler rejects.
  std::cout << fmt::format("without --alignment-gate (the default of plate translate): {} ground "
                           "truth(s) rejected, {} of {} mutants caught by the compiler, the rest "
                           "left to the Validator with the alignment's findings as evidence\n",
                           truthsFailingToCompile, all.byCompiler, all.mutants);
  return {{"corpus", dir},
          {"protocols", corpus.size()},
          {"truths_rejected", truthsRejected},
          {"truths_rejected_without_gate", truthsFailingToCompile},
          {"uncertain_per_truth", averageUncertain},
          {"truth_findings", truthKinds},
          {"table", table},
          {"goal_met", goal},
          {"mutants", records}};
}

int runMutationStudy(const std::vector<std::pair<std::string, std::vector<CorpusEntry>>> &corpora,
                     const EvalOptions &options, const std::string &stdlib,
                     const Platform &platform) {
  json out = json::array();
  bool allGoals = true;
  for (size_t i = 0; i < corpora.size(); ++i) {
    if (i)
      std::cout << "\n";
    bool goal = false;
    out.push_back(mutationStudyOf(corpora[i].first, corpora[i].second, options, stdlib, platform,
                                  goal));
    allGoals &= goal;
  }
  if (!options.json.empty())
    std::ofstream(options.json) << json{{"corpora", out}, {"goal_met", allGoals}}.dump(1) << "\n";
  return 0;
}

//===--- The sweep --------------------------------------------------------===//

agent::CompileReport checkDirectCommands(const std::string &jsonl) {
  agent::CompileReport report;
  ScriptLayers layers = layersOfCommands(jsonl);
  report.diagnostics = layers.diagnostics;
  report.ok = layers.compiled && !layers.blocks.empty();
  for (const agent::CommandBlock &block : layers.blocks) {
    report.summary += fmt::format("step {}: {}", block.step, block.type);
    for (const agent::CommandRow &row : block.rows)
      report.summary += " " + row.type;
    report.summary += "\n";
  }
  if (layers.compiled && layers.blocks.empty())
    report.diagnostics.push_back({{"code", ""}, {"severity", "error"}, {"category", "completeness"},
                                  {"line", 0}, {"column", 0}, {"step", ""},
                                  {"message", "the answer holds no command lines"}});
  return report;
}

double number(const json &j, const char *key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

struct Job {
  const CorpusEntry *entry;
  std::string parser, validator;
  bool direct = false;
};

json runJob(const Job &job, const EvalOptions &options, const std::string &stdlib,
            const Platform &platform, const ScriptLayers &truth) {
  json record = {{"protocol", job.entry->name},
                 {"parser", job.parser},
                 {"validator", job.validator},
                 {"mode", job.direct ? "direct" : "rule-based"}};
  std::string error;
  auto parserSpec = agent::ModelSpec::parse(job.parser, error);
  auto validatorSpec = parserSpec ? agent::ModelSpec::parse(job.validator, error) : std::nullopt;
  std::optional<agent::LlmClient> parser, validator;
  if (validatorSpec) {
    parser = agent::LlmClient::fromEnvironment(*parserSpec, options.client, error);
    if (parser)
      validator = agent::LlmClient::fromEnvironment(*validatorSpec, options.client, error);
  }
  if (!validator) {
    record["outcome"] = "final fail";
    record["error"] = error;
    record["attempts"] = json::array();
    return record;
  }
  agent::TranslatorConfig config;
  config.maxAttempts = options.maxAttempts;
  config.direct = job.direct;
  for (agent::CallParams *params : {&config.parserParams, &config.validatorParams}) {
    params->temperature = options.temperature;
    params->seed = options.seed;
  }
  config.parserParams.maxTokens = job.direct ? 16384 : 4096;
  config.validatorParams.maxTokens = 2048;
  agent::Translator translator(
      *parser, *validator, platform, config,
      [&](const std::string &script, const std::string &text) {
        return compileCandidate(script, text, stdlib, "");
      },
      [&](const std::string &jsonl) { return checkDirectCommands(jsonl); });
  agent::TranslationResult result = translator.run(job.entry->protocol, job.entry->layout);
  record["outcome"] = result.outcome;
  if (!result.error.empty())
    record["error"] = result.error;

  json attempts = json::array();
  for (const json &attempt : result.attempts) {
    json a = {{"number", attempt.value("number", 0)}, {"passed", attempt.value("passed", false)}};
    const json &call = attempt.contains("parser") ? attempt["parser"]["call"] : json::object();
    double parserSeconds = number(call, "latency_s");
    double compileSeconds =
        attempt.contains("timings") ? number(attempt["timings"], "compile_s") : 0.0;
    double validatorSeconds = 0;
    if (attempt.contains("validator") && attempt["validator"].contains("calls"))
      for (const json &v : attempt["validator"]["calls"])
        validatorSeconds += number(v["call"], "latency_s");
    a["latency_s"] = parserSeconds + compileSeconds; // Parser call to the end of mapping
    a["parser_s"] = parserSeconds;
    a["mapping_s"] = compileSeconds;
    a["validator_s"] = validatorSeconds;
    a["cached"] = call.value("cached", false);
    a["tokens_in"] = attempt.contains("tokens") ? attempt["tokens"].value("input", 0) : 0;
    a["tokens_out"] = attempt.contains("tokens") ? attempt["tokens"].value("output", 0) : 0;
    std::string output = attempt.value(job.direct ? "commands" : "script", "");
    ScriptLayers cand = job.direct ? layersOfCommands(output) : layersOfScript(output, stdlib);
    agent::ParameterAccuracy pa =
        agent::scoreParameterAccuracy(truth.steps, truth.blocks, cand.steps, cand.blocks);
    a["score"] = agent::toJson(pa);
    a["pa"] = pa.value;
    a["pa_command"] = pa.command.total ? double(pa.command.clamped()) / double(pa.command.total)
                                       : 0.0;
    a["planning"] = agent::toJson(
        job.direct
            ? agent::scorePlanning(agent::blockTypes(truth.blocks), agent::blockTypes(cand.blocks))
            : agent::scorePlanning(agent::stepTypes(truth.steps), agent::stepTypes(cand.steps)));
    a["compiles"] = cand.compiled;
    // Equivalence needs a checked script; a direct command stream has none.
    std::optional<agent::Equivalence> equivalence =
        job.direct ? std::nullopt : equivalenceOf(truth, cand);
    a["equivalent"] = equivalence ? json(equivalence->equivalent) : json(nullptr);
    if (equivalence && !equivalence->equivalent)
      a["difference"] = equivalence->difference;
    attempts.push_back(std::move(a));
  }
  record["attempts"] = attempts;
  // PA after k attempts without regeneration: the loop's own answers; a run
  // that stopped earlier keeps its last answer.
  json byAttempt = json::array();
  for (unsigned k = 1; k <= options.maxAttempts; ++k) {
    if (attempts.empty()) {
      byAttempt.push_back({{"pa", 0.0}, {"pa_command", 0.0}});
      continue;
    }
    const json &a = attempts[std::min<size_t>(k, attempts.size()) - 1];
    byAttempt.push_back({{"pa", a["pa"]}, {"pa_command", a["pa_command"]}});
  }
  record["pa_by_attempt"] = byAttempt;
  record["final_pa"] = byAttempt.back()["pa"];
  record["final_pa_command"] = byAttempt.back()["pa_command"];
  record["final_equivalent"] = attempts.empty() ? json(nullptr) : attempts.back()["equivalent"];
  return record;
}

//===--- Report -----------------------------------------------------------===//

const char *kPalette[] = {"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377",
                          "#bbbbbb"};

/// Grouped bars, values in [0, 1] (shown as %), one group per category.
std::string barChart(const std::string &title, const std::vector<std::string> &categories,
                     const std::vector<std::string> &series,
                     const std::vector<std::vector<double>> &values) {
  const double left = 60, top = 40, plotH = 220, groupW = std::max<double>(90, 26.0 * series.size() + 30);
  // Category labels run at 30 degrees below the axis; make room for the
  // longest (about 6 px per character at this font size).
  size_t longest = 0;
  for (const std::string &c : categories)
    longest = std::max(longest, c.size());
  double labelLength = 6.0 * double(longest);
  double width = left + groupW * categories.size() +
                 std::max(170.0, labelLength * 0.87 - groupW + 30);
  double height = top + plotH + 30 + labelLength * 0.5;
  backend::svg::Canvas canvas(width, height, title);
  for (int tick = 0; tick <= 4; ++tick) {
    double y = top + plotH - plotH * tick / 4.0;
    canvas.line(left, y, left + groupW * categories.size(), y, {"none", "#dddddd"});
    canvas.text(left - 6, y + 4, fmt::format("{}%", tick * 25), {backend::svg::Anchor::End, 11});
  }
  double barW = (groupW - 30) / std::max<size_t>(1, series.size());
  for (size_t c = 0; c < categories.size(); ++c) {
    double x0 = left + groupW * c + 15;
    for (size_t s = 0; s < series.size(); ++s) {
      double v = std::clamp(values[s][c], 0.0, 1.0);
      double h = plotH * v;
      canvas.rect(x0 + barW * s, top + plotH - h, barW - 2, h,
                  {kPalette[s % std::size(kPalette)], "none", 1, {}, 1,
                   fmt::format("{}: {:.1f}%", series[s], v * 100)});
    }
    canvas.text(x0, top + plotH + 14, categories[c],
                {backend::svg::Anchor::Start, 11, "black", false, 30});
  }
  canvas.line(left, top, left, top + plotH);
  canvas.line(left, top + plotH, left + groupW * categories.size(), top + plotH);
  double legendX = left + groupW * categories.size() + 15;
  for (size_t s = 0; s < series.size(); ++s) {
    canvas.rect(legendX, top + 18 * s, 12, 12, {kPalette[s % std::size(kPalette)]});
    canvas.text(legendX + 18, top + 18 * s + 10, series[s], {backend::svg::Anchor::Start, 11});
  }
  return canvas.finish();
}

struct Point {
  std::string label;
  double x, y;
};

/// Accuracy (y, 0..1) against latency (x, seconds).
std::string scatterChart(const std::string &title, const std::string &xLabel,
                         const std::vector<Point> &points) {
  using backend::svg::Anchor;
  const double left = 60, top = 40, plotW = 420, plotH = 260;
  double xMax = 0;
  for (const Point &p : points)
    xMax = std::max(xMax, p.x);
  xMax = xMax <= 0 ? 1 : xMax * 1.15;
  // The legend right of the plot is as wide as its longest label (about
  // 6.2 px per character at 11 px).
  size_t longest = 0;
  for (const Point &p : points)
    longest = std::max(longest, p.label.size());
  backend::svg::Canvas canvas(left + plotW + 50 + 6.2 * double(longest),
                              std::max(top + plotH + 60, top + 18.0 * double(points.size()) + 20),
                              title);
  for (int tick = 0; tick <= 4; ++tick) {
    double y = top + plotH - plotH * tick / 4.0;
    double x = left + plotW * tick / 4.0;
    canvas.line(left, y, left + plotW, y, {"none", "#dddddd"});
    canvas.text(left - 6, y + 4, fmt::format("{}%", tick * 25), {Anchor::End, 11});
    canvas.text(x, top + plotH + 16, fmt::format("{:.2g}", xMax * tick / 4.0), {Anchor::Middle, 11});
  }
  canvas.line(left, top, left, top + plotH);
  canvas.line(left, top + plotH, left + plotW, top + plotH);
  canvas.text(left + plotW / 2, top + plotH + 36, xLabel, {Anchor::Middle, 11});
  canvas.text(16, top + plotH / 2, "Parameter Accuracy", {Anchor::Middle, 11, "black", false, -90});
  for (size_t i = 0; i < points.size(); ++i) {
    const Point &p = points[i];
    double x = left + plotW * p.x / xMax, y = top + plotH - plotH * std::clamp(p.y, 0.0, 1.0);
    const char *colour = kPalette[i % std::size(kPalette)];
    canvas.circle(x, y, 6,
                  {colour, "none", 1, {}, 1, fmt::format("{}: {:.1f}%, {:.3g} s", p.label, p.y * 100, p.x)});
    canvas.circle(left + plotW + 20, top + 18 * i + 6, 5, {colour});
    canvas.text(left + plotW + 32, top + 18 * i + 10, p.label, {Anchor::Start, 11});
  }
  return canvas.finish();
}

struct ComboStats {
  std::string key, parser, validator, mode;
  size_t runs = 0;
  std::vector<double> paByAttempt, paCommandByAttempt;
  std::map<std::string, size_t> outcomes;
  double latency = 0, validatorLatency = 0, tokensIn = 0, tokensOut = 0;
  size_t attempts = 0;
  double precision = 0, recall = 0, nlev = 0;
};

std::string equivalenceCell(const json &equivalent) {
  return equivalent.is_boolean() ? (equivalent.get<bool>() ? "yes" : "no") : "-";
}

/// PA compares how two scripts are written, equivalence what they do; a
/// high PA on a different chemistry, or a low PA on the same chemistry, is
/// worth a reader's look (docs/evaluation.md).
std::string scoresDisagree(double pa, const json &equivalent) {
  if (!equivalent.is_boolean())
    return "";
  if (equivalent.get<bool>() && pa < kLowPa)
    return fmt::format("equivalent, but PA {:.3f}: written differently, same chemistry", pa);
  if (!equivalent.get<bool>() && pa >= kHighPa)
    return fmt::format("PA {:.3f}, but not equivalent: written alike, different chemistry", pa);
  return "";
}

std::string shortModel(const std::string &spec) {
  std::string s = spec.substr(0, spec.find('@'));
  return s;
}

/// Specs without their base URLs (a local port means nothing in a report).
std::vector<std::string> shortModels(const std::vector<std::string> &specs) {
  std::vector<std::string> out;
  for (const std::string &spec : specs)
    out.push_back(shortModel(spec));
  return out;
}

void writeReport(const EvalOptions &options, const std::vector<CorpusEntry> &corpus,
                 const json &runs, const std::string &started) {
  fs::create_directories(options.outDir);
  std::map<std::string, ComboStats> combos;
  std::vector<std::string> order;
  for (const json &run : runs) {
    std::string key = fmt::format("{} / {}{}", shortModel(run["parser"]),
                                  shortModel(run["validator"]),
                                  run["mode"] == "direct" ? " (direct)" : "");
    if (!combos.count(key))
      order.push_back(key);
    ComboStats &s = combos[key];
    s.key = key;
    s.parser = run["parser"];
    s.validator = run["validator"];
    s.mode = run["mode"];
    s.paByAttempt.resize(options.maxAttempts, 0);
    s.paCommandByAttempt.resize(options.maxAttempts, 0);
    ++s.runs;
    for (unsigned k = 0; k < options.maxAttempts; ++k) {
      s.paByAttempt[k] += run["pa_by_attempt"][k]["pa"].get<double>();
      s.paCommandByAttempt[k] += run["pa_by_attempt"][k]["pa_command"].get<double>();
    }
    ++s.outcomes[run.value("outcome", "final fail")];
    for (const json &a : run["attempts"]) {
      ++s.attempts;
      s.latency += a["latency_s"].get<double>();
      s.validatorLatency += a["validator_s"].get<double>();
      s.tokensIn += a["tokens_in"].get<double>();
      s.tokensOut += a["tokens_out"].get<double>();
    }
    if (!run["attempts"].empty()) {
      const json &last = run["attempts"].back()["planning"];
      s.precision += last["precision"].get<double>();
      s.recall += last["recall"].get<double>();
      s.nlev += last["normalized_levenshtein"].get<double>();
    }
  }
  for (auto &[key, s] : combos) {
    for (double &v : s.paByAttempt)
      v /= double(s.runs);
    for (double &v : s.paCommandByAttempt)
      v /= double(s.runs);
    s.precision /= double(s.runs);
    s.recall /= double(s.runs);
    s.nlev /= double(s.runs);
    if (s.attempts) {
      s.latency /= double(s.attempts);
      s.validatorLatency /= double(s.attempts);
      s.tokensIn /= double(s.attempts);
      s.tokensOut /= double(s.attempts);
    }
  }

  std::vector<std::string> outcomeNames;
  for (unsigned k = 1; k <= options.maxAttempts; ++k)
    outcomeNames.push_back(agent::passName(k));
  outcomeNames.push_back("final fail");

  // Figures.
  std::vector<std::string> attemptSeries;
  std::vector<std::vector<double>> attemptValues(options.maxAttempts);
  for (unsigned k = 0; k < options.maxAttempts; ++k) {
    attemptSeries.push_back(fmt::format("attempt {}", k + 1));
    for (const std::string &key : order)
      attemptValues[k].push_back(combos[key].paByAttempt[k]);
  }
  std::ofstream(fs::path(options.outDir) / "pa-by-attempt.svg")
      << barChart("Parameter Accuracy per attempt (no regeneration)", order, attemptSeries,
                  attemptValues);
  std::vector<std::vector<double>> outcomeValues(outcomeNames.size());
  for (size_t o = 0; o < outcomeNames.size(); ++o)
    for (const std::string &key : order)
      outcomeValues[o].push_back(double(combos[key].outcomes[outcomeNames[o]]) /
                                 double(combos[key].runs));
  std::ofstream(fs::path(options.outDir) / "pass-categories.svg")
      << barChart("Pass categories (share of protocols)", order, outcomeNames, outcomeValues);
  std::vector<Point> points;
  for (const std::string &key : order)
    points.push_back({key, combos[key].latency,
                      combos[key].paByAttempt.back()});
  std::ofstream(fs::path(options.outDir) / "accuracy-latency.svg")
      << scatterChart("Accuracy-latency plane",
                      "mean latency per attempt, Parser call to end of mapping (s)", points);
  // Rule-based versus direct: per Parser x Validator, command-layer PA.
  std::vector<std::string> pairs;
  std::vector<std::vector<double>> modeValues(2);
  for (const std::string &key : order) {
    const ComboStats &s = combos[key];
    if (s.mode != "rule-based")
      continue;
    std::string directKey = key + " (direct)";
    if (!combos.count(directKey))
      continue;
    pairs.push_back(key);
    modeValues[0].push_back(s.paCommandByAttempt.back());
    modeValues[1].push_back(combos[directKey].paCommandByAttempt.back());
  }
  if (!pairs.empty())
    std::ofstream(fs::path(options.outDir) / "rule-vs-direct.svg")
        << barChart("Command-layer accuracy: rule-based mapping vs --direct", pairs,
                    {"rule-based", "direct"}, modeValues);

  // Markdown.
  std::string md = "# plate eval: translation sweep\n\n";
  if (!options.label.empty())
    md += "> **" + options.label + "**\n\n";
  md += fmt::format("- tool: plate {}\n- started: {}\n- corpus: {} protocol(s)\n- Parsers: {}\n"
                    "- Validators: {}\n- mapping: rule-based{}\n- attempts: {}, temperature {}, "
                    "seed {} (the same for every combination and protocol)\n- concurrency: {} "
                    "job(s){}\n- cache: {}\n\n",
                    PLATE_VERSION, started, corpus.size(), fmt::join(shortModels(options.parsers), ", "),
                    fmt::join(shortModels(options.validators), ", "),
                    options.direct ? " and --direct" : "",
                    options.maxAttempts, options.temperature, options.seed, options.jobs,
                    options.perMinute > 0 ? fmt::format(", {} start(s) per minute",
                                                        options.perMinute)
                                          : "",
                    options.client.cacheDir.empty() ? "off" : "`" + options.client.cacheDir + "`");
  md += "Metrics are defined in `docs/evaluation.md`. PA after attempt k is the score of the "
        "loop's own answer at attempt k (no regeneration; a run that stopped earlier keeps its "
        "last answer). Latency is per attempt, from the Parser call to the end of mapping "
        "(compile, lowering, step alignment); the Validator is reported separately. A cached "
        "reply reports the latency recorded when it was first fetched.\n\n";
  md += "## Parameter Accuracy per attempt\n\n![PA per attempt](pa-by-attempt.svg)\n\n";
  md += "| Parser / Validator | runs |";
  for (unsigned k = 1; k <= options.maxAttempts; ++k)
    md += fmt::format(" PA@{} |", k);
  md += " command-layer PA | step precision | step recall | norm. Levenshtein |\n| --- | ---: |";
  for (unsigned k = 1; k <= options.maxAttempts; ++k)
    md += " ---: |";
  md += " ---: | ---: | ---: | ---: |\n";
  for (const std::string &key : order) {
    const ComboStats &s = combos[key];
    md += fmt::format("| {} | {} |", key, s.runs);
    for (double v : s.paByAttempt)
      md += fmt::format(" {:.3f} |", v);
    md += fmt::format(" {:.3f} | {:.3f} | {:.3f} | {:.3f} |\n", s.paCommandByAttempt.back(),
                      s.precision, s.recall, s.nlev);
  }
  md += "\n## Pass categories\n\n![pass categories](pass-categories.svg)\n\n| Parser / Validator |";
  for (const std::string &name : outcomeNames)
    md += " " + name + " |";
  md += "\n| --- |";
  for (size_t i = 0; i < outcomeNames.size(); ++i)
    md += " ---: |";
  md += "\n";
  for (const std::string &key : order) {
    ComboStats &s = combos[key];
    md += "| " + key + " |";
    for (const std::string &name : outcomeNames)
      md += fmt::format(" {} ({}) |", percent(s.outcomes[name], s.runs), s.outcomes[name]);
    md += "\n";
  }
  md += "\n## Accuracy-latency plane\n\n![accuracy-latency](accuracy-latency.svg)\n\n"
        "| Parser / Validator | final PA | latency per attempt (s) | Validator per attempt (s) "
        "| tokens in per attempt | tokens out per attempt |\n| --- | ---: | ---: | ---: | ---: | "
        "---: |\n";
  for (const std::string &key : order) {
    const ComboStats &s = combos[key];
    md += fmt::format("| {} | {:.3f} | {:.3f} | {:.3f} | {:.0f} | {:.0f} |\n", key,
                      s.paByAttempt.back(), s.latency, s.validatorLatency, s.tokensIn,
                      s.tokensOut);
  }
  md += "\n## Rule-based versus direct mapping\n\n";
  if (pairs.empty()) {
    md += "Not measured in this sweep (run with `--direct`).\n";
  } else {
    md += "Compared on the command layer (a direct answer has no script, so no structured "
          "layer): max(C_seq - P_seq, 0) / T_seq of the final answer.\n\n"
          "![rule-based vs direct](rule-vs-direct.svg)\n\n| Parser / Validator | rule-based | "
          "direct |\n| --- | ---: | ---: |\n";
    for (size_t i = 0; i < pairs.size(); ++i)
      md += fmt::format("| {} | {:.3f} | {:.3f} |\n", pairs[i], modeValues[0][i], modeValues[1][i]);
  }
  md += "\n## Per protocol\n\n| protocol | Parser / Validator | outcome | final PA | "
        "equivalent | structured C/P/T | command C/P/T |\n| --- | --- | --- | ---: | --- | --- "
        "| --- |\n";
  std::string disagreements;
  for (const json &run : runs) {
    std::string key = fmt::format("{} / {}{}", shortModel(run["parser"]),
                                  shortModel(run["validator"]),
                                  run["mode"] == "direct" ? " (direct)" : "");
    std::string structured = "-", command = "-";
    if (!run["attempts"].empty()) {
      const json &score = run["attempts"].back()["score"];
      structured = fmt::format("{}/{}/{}", score["structured"]["C"].get<size_t>(),
                               score["structured"]["P"].get<size_t>(),
                               score["structured"]["T"].get<size_t>());
      command = fmt::format("{}/{}/{}", score["command"]["C"].get<size_t>(),
                            score["command"]["P"].get<size_t>(),
                            score["command"]["T"].get<size_t>());
    }
    const json &equivalent = run.contains("final_equivalent") ? run["final_equivalent"] : json();
    md += fmt::format("| {} | {} | {} | {:.3f} | {} | {} | {} |\n",
                      run["protocol"].get<std::string>(), key, run.value("outcome", ""),
                      run["final_pa"].get<double>(), equivalenceCell(equivalent), structured,
                      command);
    if (std::string why = scoresDisagree(run["final_pa"].get<double>(), equivalent); !why.empty())
      disagreements +=
          fmt::format("- {} ({}): {}\n", run["protocol"].get<std::string>(), key, why);
  }
  md += "\n## Where PA and equivalence disagree\n\n" +
        (disagreements.empty() ? std::string("None.\n") : disagreements) +
        "\nRaw results: `sweep.json`.\n";
  std::ofstream(fs::path(options.outDir) / "report.md") << md;
}

int runSweep(const std::vector<CorpusEntry> &corpus, const EvalOptions &options,
             const std::string &stdlib, const Platform &platform) {
  if (options.parsers.empty() || options.validators.empty())
    return usageError("a sweep needs --parser and --validator (one or more each); or use "
                      "--score, --check-corpus or --mutation-study");
  if (options.outDir.empty())
    return usageError("a sweep needs -o DIR for its report");
  std::string error;
  for (const std::string &spec : options.parsers)
    if (!agent::ModelSpec::parse(spec, error))
      return usageError(error);
  for (const std::string &spec : options.validators)
    if (!agent::ModelSpec::parse(spec, error))
      return usageError(error);

  std::vector<ScriptLayers> truths;
  for (const CorpusEntry &entry : corpus) {
    truths.push_back(layersOfScript(entry.truth, stdlib));
    if (!truths.back().compiled)
      return usageError(fmt::format("the ground truth of `{}` does not compile; run "
                                    "`plate eval --check-corpus`",
                                    entry.name));
  }
  std::vector<Job> jobs;
  std::vector<size_t> truthIndex;
  for (const std::string &parser : options.parsers)
    for (const std::string &validator : options.validators)
      for (bool direct : {false, true}) {
        if (direct && !options.direct)
          continue;
        for (size_t i = 0; i < corpus.size(); ++i) {
          jobs.push_back({&corpus[i], parser, validator, direct});
          truthIndex.push_back(i);
        }
      }

  std::string started = agent::isoTimestampNow();
  std::vector<json> results(jobs.size());
  std::atomic<size_t> next{0};
  std::mutex rateMutex, printMutex;
  auto nextStart = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      if (options.perMinute > 0) {
        std::unique_lock<std::mutex> lock(rateMutex);
        auto now = std::chrono::steady_clock::now();
        auto start = std::max(now, nextStart);
        nextStart = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(60.0 / options.perMinute));
        lock.unlock();
        std::this_thread::sleep_until(start);
      }
      results[i] = runJob(jobs[i], options, stdlib, platform, truths[truthIndex[i]]);
      std::lock_guard<std::mutex> lock(printMutex);
      std::cerr << fmt::format("plate eval: [{}/{}] {} {} / {}{}: {} (PA {:.3f})\n", i + 1,
                               jobs.size(), jobs[i].entry->name, jobs[i].parser,
                               jobs[i].validator, jobs[i].direct ? " --direct" : "",
                               results[i].value("outcome", ""),
                               results[i].value("final_pa", 0.0));
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::min<size_t>(options.jobs, jobs.size()); ++t)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();

  json runs = json::array();
  for (json &r : results)
    runs.push_back(std::move(r));
  json sweep = {{"tool", "plate " PLATE_VERSION},
                {"label", options.label},
                {"started", started},
                {"parsers", options.parsers},
                {"validators", options.validators},
                {"direct", options.direct},
                {"max_attempts", options.maxAttempts},
                {"temperature", options.temperature},
                {"seed", options.seed},
                {"jobs", options.jobs},
                {"per_minute", options.perMinute},
                {"corpus", [&] {
                   json names = json::array();
                   for (const CorpusEntry &e : corpus)
                     names.push_back(e.name);
                   return names;
                 }()},
                {"runs", runs}};
  fs::create_directories(options.outDir);
  std::ofstream(fs::path(options.outDir) / "sweep.json")
      << sweep.dump(1, ' ', false, json::error_handler_t::replace) << "\n";
  writeReport(options, corpus, runs, started);
  std::map<std::string, size_t> outcomes;
  for (const json &run : runs)
    ++outcomes[run.value("outcome", "")];
  std::cout << fmt::format("plate eval: {} run(s) over {} protocol(s); report in {}\n",
                           runs.size(), corpus.size(), (fs::path(options.outDir) / "report.md").string());
  for (const auto &[outcome, count] : outcomes)
    std::cout << fmt::format("  {}: {}\n", outcome, count);
  return 0;
}

//===--- --answers --------------------------------------------------------===//

/// Replays a recorded first attempt per protocol (a model that sat in the
/// Parser's seat with only the prompt and the protocol): no network, no
/// retries, so the compile rate is a first-attempt rate.
///
/// The protocols are those of every --corpus, or, when the answers folder
/// has a `protocols.txt` (one name per line), exactly those: a recorded set
/// keeps the protocols it was made on after the held-out corpus changes.
/// A listed protocol without an answer counts as a failure.
int runAnswers(const std::vector<std::pair<std::string, std::vector<CorpusEntry>>> &corpora,
               const EvalOptions &options, const std::string &stdlib) {
  std::vector<CorpusEntry> corpus;
  for (const auto &[dir, entries] : corpora)
    corpus.insert(corpus.end(), entries.begin(), entries.end());
  std::sort(corpus.begin(), corpus.end(),
            [](const CorpusEntry &a, const CorpusEntry &b) { return a.name < b.name; });
  if (std::optional<std::string> listed =
          readWholeFile((fs::path(options.answers) / "protocols.txt").string())) {
    std::vector<CorpusEntry> chosen;
    std::istringstream lines(*listed);
    for (std::string name; std::getline(lines, name);) {
      if (name.empty() || name[0] == '#')
        continue;
      auto found = std::find_if(corpus.begin(), corpus.end(),
                                [&](const CorpusEntry &e) { return e.name == name; });
      if (found == corpus.end()) {
        if (options.only.empty())
          return usageError(fmt::format("`{}` of {}/protocols.txt is in no --corpus", name,
                                        options.answers));
        continue; // filtered out by --only
      }
      chosen.push_back(*found);
    }
    corpus = std::move(chosen);
  }
  size_t compiled = 0, equivalent = 0, answered = 0;
  double paSum = 0;
  std::string disagreements;
  json rows = json::array();
  std::cout << fmt::format("{:<42} {:>8} {:>7} {:>10}\n", "protocol", "compiles", "PA",
                           "equivalent");
  for (const CorpusEntry &entry : corpus) {
    fs::path folder = fs::path(options.answers) / entry.name;
    std::optional<std::string> reply = readWholeFile((folder / "answer.md").string());
    if (!reply)
      reply = readWholeFile((folder / "answer.plate").string());
    json row = {{"protocol", entry.name}};
    ScriptLayers truth = layersOfScript(entry.truth, stdlib, entry.layout);
    if (!truth.compiled)
      return usageError(fmt::format("the ground truth of `{}` does not compile", entry.name));
    if (!reply) {
      row["answered"] = false;
      std::cout << fmt::format("{:<42} {:>8} {:>7} {:>10}\n", entry.name, "no answer", "-", "-");
      rows.push_back(std::move(row));
      continue;
    }
    ++answered;
    ScriptLayers cand = layersOfScript(agent::extractScript(*reply), stdlib, entry.layout);
    agent::ParameterAccuracy pa =
        agent::scoreParameterAccuracy(truth.steps, truth.blocks, cand.steps, cand.blocks);
    std::optional<agent::Equivalence> same = equivalenceOf(truth, cand);
    compiled += cand.compiled;
    paSum += pa.value;
    equivalent += same && same->equivalent;
    json verdict = same ? json(same->equivalent) : json(nullptr);
    row.update({{"answered", true},
                {"compiles", cand.compiled},
                {"pa", pa.value},
                {"equivalent", verdict}});
    if (same && !same->equivalent)
      row["difference"] = same->difference;
    if (!cand.compiled) {
      auto error = std::find_if(cand.diagnostics.begin(), cand.diagnostics.end(),
                                [](const json &d) { return d.value("severity", "") == "error"; });
      if (error != cand.diagnostics.end())
        row["first_error"] = error->value("code", "") + " " + error->value("message", "");
    }
    std::cout << fmt::format("{:<42} {:>8} {:>7.3f} {:>10}\n", entry.name,
                             cand.compiled ? "yes" : "no", pa.value, equivalenceCell(verdict));
    if (options.verbose) {
      if (row.contains("first_error"))
        std::cout << "    " << row["first_error"].get<std::string>() << "\n";
      if (row.contains("difference"))
        std::cout << "    " << row["difference"].get<std::string>() << "\n";
    }
    if (std::string why = scoresDisagree(pa.value, verdict); !why.empty())
      disagreements += fmt::format("  {}: {}\n", entry.name, why);
    rows.push_back(std::move(row));
  }
  std::cout << fmt::format("first-attempt compile rate: {}/{} ({})\n", compiled, corpus.size(),
                           percent(compiled, corpus.size()));
  std::cout << fmt::format("equivalent to the truth: {}/{} ({})\n", equivalent, corpus.size(),
                           percent(equivalent, corpus.size()));
  std::cout << fmt::format("mean PA: {:.3f} over {} answer(s)\n",
                           answered ? paSum / double(answered) : 0.0, answered);
  std::cout << "PA and equivalence disagree:\n" << (disagreements.empty() ? "  none\n" : disagreements);
  if (!options.json.empty())
    std::ofstream(options.json) << json{{"protocols", rows},
                                        {"compiled", compiled},
                                        {"equivalent", equivalent},
                                        {"total", corpus.size()}}
                                       .dump(2)
                                << "\n";
  return 0;
}

} // namespace

int runEvalCommand(const EvalOptions &options) {
  std::string stdlib = options.stdlibDir.empty() ? defaultStdlibDir() : options.stdlibDir;
  if (!options.candidate.empty())
    return runScore(options, stdlib);
  if (!options.equivalence.empty())
    return runEquivalence(options, stdlib);

  std::string error;
  std::vector<std::string> dirs = options.corpora;
  if (dirs.empty())
    dirs.push_back(defaultCorpus());
  std::vector<std::pair<std::string, std::vector<CorpusEntry>>> corpora;
  for (const std::string &dir : dirs) {
    std::optional<std::vector<CorpusEntry>> corpus = loadCorpus(dir, options.only, error);
    if (!corpus)
      return usageError(error);
    corpora.emplace_back(dir, std::move(*corpus));
  }
  if (options.checkCorpus) {
    int status = 0;
    for (size_t i = 0; i < corpora.size(); ++i) {
      if (corpora.size() > 1)
        std::cout << (i ? "\n" : "") << "corpus " << corpora[i].first << ":\n";
      status = std::max(status, runCheckCorpus(corpora[i].second, options, stdlib));
    }
    return status;
  }

  std::optional<Platform> platform = loadBioforge1(stdlib);
  if (!platform)
    return static_cast<int>(ExitCode::Usage);
  if (options.mutationStudy)
    return runMutationStudy(corpora, options, stdlib, *platform);
  if (!options.answers.empty())
    return runAnswers(corpora, options, stdlib);
  if (corpora.size() > 1)
    return usageError("a sweep takes one --corpus");
  const std::vector<CorpusEntry> *corpus = &corpora.front().second;
  return runSweep(*corpus, options, stdlib, *platform);
}

} // namespace plate

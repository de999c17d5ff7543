//===- EvalCommand.cpp - `plate eval` -------------------------------------===//
//
// Options, and the wiring of the harness in agent/ to the driver: the
// harness compiles through the EvalCompiler built here from the driver's
// Compilation (which it cannot reach from agent/), and this file alone
// turns its results into exit codes, usage errors and files named on the
// command line.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/EvalCommand.h"

#include "agent/EvalAnswers.h"
#include "agent/EvalCorpus.h"
#include "agent/EvalReport.h"
#include "agent/MutationStudy.h"
#include "backend/bioforge1/Backend.h"
#include "tools/plate/Compilation.h"
#include "tools/plate/TranslateCommand.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

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
  command->add_option("--parser", options.sweep.parsers,
                      "Parser models for the sweep (repeatable or comma-separated)")
      ->delimiter(',');
  command->add_option("--validator", options.sweep.validators,
                      "Validator models for the sweep (repeatable or comma-separated)")
      ->delimiter(',');
  command->add_flag("--direct", options.sweep.direct,
                    "also run every Parser with direct command mapping (the baseline)");
  command->add_option("--max-attempts", options.sweep.maxAttempts, "attempts per translation")
      ->check(CLI::Range(1u, 9u));
  command->add_option("-j,--jobs", options.sweep.jobs, "translations run at once")
      ->check(CLI::Range(1u, 64u));
  command->add_option("--per-minute", options.sweep.perMinute,
                      "translations started per minute (0: no limit)");
  command->add_option("--temperature", options.sweep.temperature,
                      "sampling temperature (every call)");
  command->add_option("--seed", options.sweep.seed, "seed (every call that takes one)");
  command->add_option("--cache", options.sweep.client.cacheDir,
                      "cache responses by request hash; a finished sweep replays offline");
  command->add_option("-o,--out", options.sweep.outDir,
                      "sweep report directory (report.md, sweep.json, *.svg)");
  command->add_option("--label", options.sweep.label, "what this sweep is, for the report");
  command->add_option("--json", options.json, "write the results as JSON to this file");
  command->add_option("--stdlib", options.stdlibDir, "stdlib directory");
  addTransportOptions(*command, options.sweep.client, AgentCommand::Eval);
  return command;
}


agent::ScriptLayers layersOfScript(const std::string &script, const std::string &stdlibDir,
                                   const std::string &layoutCsv) {
  agent::ScriptLayers layers;
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
        backend::lowerToCommands(compilation.module(), compilation.platform()),
        compilation.platform());
  layers.diagnostics = scratch.diagnostics();
  return layers;
}

agent::ScriptLayers layersOfCommands(const std::string &jsonl) {
  agent::ScriptLayers layers;
  SourceManager sources;
  uint32_t id = sources.addBuffer("answer.jsonl", jsonl);
  DiagnosticEngine diags(sources);
  std::optional<std::vector<backend::Command>> commands =
      backend::parseCommandStream(id, sources, diags);
  layers.compiled = commands.has_value() && !diags.hasErrors();
  // A command stream is BioForge-1's by its format; its slots are read
  // against that platform's description.
  std::optional<Platform> platform;
  if (commands)
    platform = loadPlatform("bioforge1", defaultStdlibDir(), diags, SourceLoc{});
  if (commands && platform)
    layers.blocks = agent::commandBlocks(*commands, *platform);
  layers.diagnostics = diagnosticsJson(diags, sources);
  layers.compiled = layers.compiled && platform.has_value();
  return layers;
}

namespace {

int usageError(const std::string &message) { return reportUsageError("eval", message); }

std::string defaultCorpus() {
  if (fs::is_directory("test/corpus"))
    return "test/corpus";
  return (fs::path(PLATE_STDLIB_DIR).parent_path() / "test" / "corpus").string();
}

/// Every compile of the harness goes through the same Compilation as
/// `plate translate`, against `stdlib`.
agent::EvalCompiler driverCompiler(const std::string &stdlib) {
  agent::EvalCompiler compiler;
  compiler.scriptLayers = [stdlib](const std::string &script, const std::string &layoutCsv) {
    return layersOfScript(script, stdlib, layoutCsv);
  };
  compiler.commandLayers = layersOfCommands;
  compiler.checkCandidate = [stdlib](const std::string &script, const std::string &protocol) {
    return compileCandidate(script, protocol, stdlib, "");
  };
  return compiler;
}

void writeJsonFile(const std::string &path, const json &value, int indent) {
  std::ofstream(path) << value.dump(indent) << "\n";
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

int runScore(const EvalOptions &options, const std::string &stdlib) {
  int exit = 0;
  std::optional<CandidateAndTruth> texts =
      readCandidateAndTruth(options.candidate, options, "--score", exit);
  if (!texts)
    return exit;
  agent::ScriptLayers truth = layersOfScript(texts->truth, stdlib);
  if (!truth.compiled)
    return usageError(fmt::format("the ground truth `{}` does not compile", options.truth));
  bool direct = options.candidate.size() > 6 &&
                options.candidate.substr(options.candidate.size() - 6) == ".jsonl";
  agent::ScriptLayers candidate = direct ? layersOfCommands(texts->candidate)
                                         : layersOfScript(texts->candidate, stdlib);
  agent::CandidateScore score = agent::scoreCandidate(truth, candidate, direct);
  agent::writeScore(std::cout, score, options.candidate, options.truth);
  if (!options.json.empty())
    writeJsonFile(options.json, agent::scoreJson(score), 2);
  return 0;
}

int runEquivalence(const EvalOptions &options, const std::string &stdlib) {
  int exit = 0;
  std::optional<CandidateAndTruth> texts =
      readCandidateAndTruth(options.equivalence, options, "--equivalence", exit);
  if (!texts)
    return exit;
  agent::ScriptLayers truth = layersOfScript(texts->truth, stdlib);
  if (!truth.checked)
    return usageError(fmt::format("the ground truth `{}` does not check", options.truth));
  agent::ScriptLayers candidate = layersOfScript(texts->candidate, stdlib);
  if (!candidate.checked) {
    agent::writeUncheckedCandidate(std::cout, options.equivalence, candidate.diagnostics);
    return static_cast<int>(ExitCode::InputErrors);
  }
  std::optional<agent::Equivalence> equivalence = agent::equivalenceOf(truth, candidate);
  std::cout << agent::equivalenceLine(equivalence);
  if (!options.json.empty())
    writeJsonFile(options.json, agent::equivalenceJson(*equivalence), 2);
  return static_cast<int>(equivalence->equivalent ? ExitCode::Success : ExitCode::InputErrors);
}

int runCheckCorpus(const std::vector<agent::Corpus> &corpora, const EvalOptions &options,
                   const agent::EvalCompiler &compiler) {
  int status = 0;
  for (size_t i = 0; i < corpora.size(); ++i) {
    if (corpora.size() > 1)
      std::cout << (i ? "\n" : "") << "corpus " << corpora[i].dir << ":\n";
    bool clean = agent::checkCorpus(corpora[i], compiler, options.verbose, std::cout);
    status = std::max(status, static_cast<int>(clean ? ExitCode::Success : ExitCode::InputErrors));
  }
  return status;
}

int runMutationStudy(const std::vector<agent::Corpus> &corpora, const EvalOptions &options,
                     const agent::EvalCompiler &compiler, const Platform &platform) {
  json studies = json::array();
  bool allGoals = true;
  for (size_t i = 0; i < corpora.size(); ++i) {
    if (i)
      std::cout << "\n";
    agent::MutationStudy study =
        agent::runMutationStudy(corpora[i], compiler, platform, options.verbose, std::cout);
    studies.push_back(std::move(study.record));
    allGoals &= study.goalMet;
  }
  if (!options.json.empty())
    writeJsonFile(options.json, {{"corpora", studies}, {"goal_met", allGoals}}, 1);
  return 0;
}

int runAnswers(const std::vector<agent::Corpus> &corpora, const EvalOptions &options,
               const agent::EvalCompiler &compiler) {
  std::string error;
  std::optional<std::vector<agent::CorpusEntry>> protocols =
      agent::protocolsOfAnswers(corpora, options.answers, options.only, error);
  if (!protocols)
    return usageError(error);
  std::optional<json> scores = agent::scoreRecordedAnswers(*protocols, options.answers, compiler,
                                                           options.verbose, std::cout, error);
  if (!scores)
    return usageError(error);
  if (!options.json.empty())
    writeJsonFile(options.json, *scores, 2);
  return 0;
}

int runSweep(const agent::Corpus &corpus, const EvalOptions &options,
             const agent::EvalCompiler &compiler, const Platform &platform) {
  const agent::SweepSettings &settings = options.sweep;
  if (settings.parsers.empty() || settings.validators.empty())
    return usageError("a sweep needs --parser and --validator (one or more each); or use "
                      "--score, --check-corpus or --mutation-study");
  if (settings.outDir.empty())
    return usageError("a sweep needs -o DIR for its report");
  std::string error;
  std::optional<agent::SweepResult> result = agent::runSweep(
      settings, corpus, compiler, platform,
      [](const std::string &line) { std::cerr << "plate eval: " << line << "\n"; }, error);
  if (!result)
    return usageError(error);
  agent::writeSweepReport(settings, corpus, *result);
  agent::writeSweepSummary(std::cout, settings, corpus, *result);
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
  std::vector<agent::Corpus> corpora;
  for (const std::string &dir : dirs) {
    std::optional<agent::Corpus> corpus = agent::loadCorpus(dir, options.only, error);
    if (!corpus)
      return usageError(error);
    corpora.push_back(std::move(*corpus));
  }
  agent::EvalCompiler compiler = driverCompiler(stdlib);
  if (options.checkCorpus)
    return runCheckCorpus(corpora, options, compiler);

  std::optional<Platform> platform = loadAgentPlatform("bioforge1", stdlib);
  if (!platform)
    return static_cast<int>(ExitCode::Usage);
  if (options.mutationStudy)
    return runMutationStudy(corpora, options, compiler, *platform);
  if (!options.answers.empty())
    return runAnswers(corpora, options, compiler);
  if (corpora.size() > 1)
    return usageError("a sweep takes one --corpus");
  return runSweep(corpora.front(), options, compiler, *platform);
}

} // namespace plate

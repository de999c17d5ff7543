//===- RunCommand.cpp - `plate run` on a .jsonl stream or a .plate script -===//
//
// Glue only: choose the input kind, get commands and a RunSetup, hand them
// to backend::runCommands, print what came out. Diagnostics go through the
// Compilation object so they render exactly like compile errors.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/RunCommand.h"

#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/TranslationValidation.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace plate {

void addRunOptions(CLI::App &command, RunCommandOptions &options) {
  command.add_option("--loading-plan", options.loadingPlan,
                     "loading plan JSON written by `compile --loading-plan` (for .jsonl input)");
  command.add_option("--script", options.script,
                     "for a .jsonl stream: the .plate script it was compiled from; the stream "
                     "runs only if it does what the script says, with the script's loading "
                     "plan unless --loading-plan is given");
  command.add_option("--truth", options.truthFile,
                     "true sample concentrations for the simulated reader (JSON or CSV name,value)");
  command.add_option("--reader-data", options.readerData,
                     "reader plate-map CSV replacing the k-th simulated read (repeatable)");
  command.add_option("--out-dir", options.outDir, "directory for reads, tables and plots");
  command.add_option("--seed", options.seed, "seed of the simulated reader noise");
  command.add_option("--progress", options.progress, "progress display: auto, bar, log, none")
      ->check(CLI::IsMember({"auto", "bar", "log", "none"}));
  command.add_option("--journal", options.journal,
                     "journal of confirmed commands and reads (default OUT_DIR/NAME-journal.jsonl)");
  command.add_flag("--no-journal", options.noJournal, "run without a journal");
  command.add_option("--journal-flush", options.journalFlush,
                     "on the simulator, write each journal line as it happens (line, the "
                     "default with --fault) or 64 KiB at a time (group, the default); a robot "
                     "syncs every line")
      ->check(CLI::IsMember({"line", "group"}));
  command.add_option("--resume", options.resume,
                     "continue the run recorded in this journal after a crash or a stop");
  command.add_option("--fault", options.faults,
                     "simulator: fail command SEQ with KIND (tip_pickup, liquid_detect, "
                     "gripper_drop, reader_timeout, disconnect, power_loss); repeatable")
      ->type_name("SEQ:KIND");
  command.add_option("--fault-rate", options.faultRate,
                     "simulator: chance 0..1 that a command attempt fails at random")
      ->check(CLI::Range(0.0, 1.0));
  command.add_option("--fault-seed", options.faultSeed, "seed of the random faults");
  command.add_option("--state-out", options.stateOut,
                     "write the final deck state (the digital twin) as JSON");
}

static bool endsWith(const std::string &text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::optional<LoweredScript> compileForRun(Compilation &compilation) {
  std::ostringstream dump;
  if (!compilation.compile(dump))
    return std::nullopt;
  if (!compilation.module().lowered) {
    compilation.diags().report(DiagId::RunNeedsLowering, SourceLoc{});
    return std::nullopt;
  }
  LoweredScript lowered;
  lowered.commands = backend::lowerToCommands(compilation.module(), compilation.platform());
  lowered.setup =
      backend::setupFromModule(compilation.module(), compilation.platform(), lowered.commands);
  return lowered;
}

int runRunCommand(const RunCommandOptions &options) {
  Compilation compilation(options.compile);
  DiagnosticEngine &diags = compilation.diags();
  SourceManager &sources = compilation.sources();
  auto fail = [&] {
    compilation.finishDiagnostics();
    return static_cast<int>(ExitCode::InputErrors);
  };

  backend::RunOptions run;
  run.truthFile = options.truthFile;
  run.readerData = options.readerData;
  run.outDir = options.outDir;
  run.seed = options.seed;
  run.inputName = options.compile.input;
  run.resume = options.resume;
  run.keepFinalState = !options.stateOut.empty();
  if (!options.journalFlush.empty())
    run.journalEachLine = options.journalFlush == "line";
  run.faults.rate = options.faultRate;
  run.faults.seed = options.faultSeed;
  for (const std::string &spec : options.faults) {
    auto colon = spec.find(':');
    std::string seqText = spec.substr(0, colon);
    auto kind = colon == std::string::npos ? std::nullopt
                                           : backend::parseFaultKind(spec.substr(colon + 1));
    char *end = nullptr;
    unsigned long seq = std::strtoul(seqText.c_str(), &end, 10);
    if (seqText.empty() || *end != '\0' || seq == 0 || seq > UINT32_MAX || !kind) {
      diags.report(DiagId::BadFaultSpec, SourceLoc{}, spec);
      return fail();
    }
    run.faults.at[static_cast<uint32_t>(seq)] = *kind;
  }
  std::string stem = options.compile.input;
  if (auto slash = stem.find_last_of('/'); slash != std::string::npos)
    stem = stem.substr(slash + 1);
  if (auto dot = stem.find_last_of('.'); dot != std::string::npos && dot > 0)
    stem = stem.substr(0, dot);
  run.outPrefix = stem.empty() ? "run" : stem;
  if (!options.noJournal) {
    run.journal = options.journal;
    if (run.journal.empty()) {
      std::error_code error;
      std::filesystem::create_directories(options.outDir.empty() ? "." : options.outDir, error);
      run.journal = (std::filesystem::path(options.outDir.empty() ? "." : options.outDir) /
                     (run.outPrefix + "-journal.jsonl"))
                        .string();
    }
  }
  std::string progress = options.progress;
  // A JSON or SARIF document on stderr must be the only thing there for a
  // tool to parse it, so `auto` stays quiet then.
  DiagnosticsFormat format = options.compile.diagnosticsFormat;
  if (progress == "auto")
    progress = format == DiagnosticsFormat::Json || format == DiagnosticsFormat::Sarif ? "none"
               : isatty(STDERR_FILENO)                                             ? "bar"
                                                                                   : "log";
  if (progress != "none")
    run.progress = backend::makeProgressPrinter(std::cerr, progress == "bar");

  backend::RunResult result;
  const Platform *platform = nullptr;
  std::optional<Platform> streamPlatform;
  if (endsWith(options.compile.input, ".plate")) {
    std::optional<LoweredScript> lowered = compileForRun(compilation);
    if (!lowered)
      return fail();
    platform = &compilation.platform();
    // Nothing reaches the device unless the stream does what the script
    // says (backend/bioforge1/TranslationValidation.h).
    if (!compilation.validate(lowered->commands, lowered->setup))
      return static_cast<int>(ExitCode::InternalError);
    run.scriptFileId = compilation.module().fileId;
    result = backend::runCommands(lowered->commands, lowered->setup, *platform, run, sources, diags);
  } else {
    streamPlatform = loadPlatform("bioforge1", compilation.options().stdlibDir, diags, {});
    if (!streamPlatform)
      return fail();
    platform = &*streamPlatform;
    auto commands = backend::readCommandStream(options.compile.input, sources, diags);
    if (!commands)
      return fail();
    backend::RunSetup setup;
    std::optional<Compilation> script;
    if (!options.script.empty()) {
      CompileOptions scriptOptions = options.compile;
      scriptOptions.input = options.script;
      script.emplace(scriptOptions);
      std::ostringstream dump;
      if (!script->compile(dump) || !script->module().lowered) {
        script->finishDiagnostics();
        return fail();
      }
      std::vector<backend::Command> compiled =
          backend::lowerToCommands(script->module(), script->platform());
      setup = backend::setupFromModule(script->module(), script->platform(), compiled);
    }
    if (!options.loadingPlan.empty()) {
      auto loaded = backend::readSetupFile(options.loadingPlan, sources, diags);
      if (!loaded)
        return fail();
      setup = std::move(*loaded);
    }
    if (script) {
      backend::Validation validation =
          backend::validateTranslation(script->checkedModule(), *commands, setup, *platform);
      if (validation.difference) {
        // At the statement where the stream and the script part.
        SourceLoc at;
        for (const ir::Op &op : script->checkedModule().ops)
          if (op.loc.line == validation.line) {
            at = op.loc;
            break;
          }
        // The difference is the replay's own account (backend/bioforge1/WellHistory),
        // one sentence per kind of departure, so it is the note.
        script->diags()
            .report(DiagId::StreamNotTheScript, at, options.compile.input)
            .note(SourceLoc{}, "{}", *validation.difference);
        script->finishDiagnostics();
        return fail();
      }
    }
    result = backend::runCommands(*commands, setup, *platform, run, sources, diags);
  }

  // Inputs rejected before the first command: nothing ran, nothing to say.
  if (!result.ok && !result.failedSeq && result.executed == 0)
    return fail();
  // Before any figure: what is simulated (docs/simulator.md).
  for (const std::string &note : backend::simulationNotes(result))
    std::cout << "run: " << note << "\n";
  std::cout << fmt::format("run: {} command(s) executed, robot time {} ({} s){}\n",
                           result.executed, backend::formatDuration(result.robotSeconds),
                           formatNumber(std::round(result.robotSeconds * 1000) / 1000),
                           result.ok ? "" : ", stopped");
  for (const std::string &event : result.events)
    std::cout << "run: " << event << "\n";
  for (const backend::AnalysisResult &analysis : result.analyses)
    std::cout << backend::analysisSummary(analysis);
  for (const std::string &path : result.outputs)
    std::cout << "wrote " << path << "\n";
  if (!options.stateOut.empty()) {
    if (auto simulation = backend::simulationJson(result); !simulation.is_null())
      result.finalState["simulation"] = std::move(simulation);
    std::ofstream out(options.stateOut, std::ios::binary);
    out << result.finalState.dump(1) << "\n";
    if (!out)
      diags.report(DiagId::CannotRead, SourceLoc{}, options.stateOut, "cannot be written");
  }
  compilation.finishDiagnostics();
  return static_cast<int>(result.ok ? ExitCode::Success : ExitCode::InputErrors);
}

} // namespace plate

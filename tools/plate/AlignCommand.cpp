//===- AlignCommand.cpp - `plate align` -----------------------------------===//
//
// Diagnostics of both inputs go to stderr (text, or one JSON document with
// --format=json); the alignment goes to stdout. A script with errors or a
// text the reader refuses gets its diagnostics and no alignment: the
// alignment is skipped, never guessed.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/AlignCommand.h"

#include "agent/StepAlignment.h"
#include "tools/plate/AgentOptions.h"
#include "tools/plate/Compilation.h"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace plate {

CLI::App *addAlignCommand(CLI::App &app, AlignOptions &options) {
  CLI::App *command = app.add_subcommand(
      "align", "align the steps of a protocol text with a script's and list the findings "
               "(the deterministic gate of `plate translate`)");
  command->add_option("PROTOCOL", options.protocol, "the protocol text")->required();
  command->add_option("SCRIPT", options.script, "the .plate script")->required();
  command->add_option("--format", options.format, "output format: text or json")
      ->check(CLI::IsMember({"text", "json"}));
  command->add_option("--layout", options.layoutCsv,
                      "plate layout grid as CSV for the script (as `plate check --layout`)");
  command->add_option("--stdlib", options.stdlibDir, "stdlib directory");
  command
      ->add_option("--platform", options.platform,
                   "the robot the script is for: bioforge1 (default) or ot2, whose compile "
                   "decides which steps the robot can do")
      ->check(CLI::IsMember({"bioforge1", "ot2"}));
  return command;
}

std::optional<agent::StepAlignment> alignScript(Compilation &compilation,
                                               const SourceManager &textSources,
                                               std::optional<uint32_t> textFile,
                                               DiagnosticEngine &textDiags) {
  std::ostringstream dump;
  bool compiled = compilation.compile(dump);
  if (!compiled && compilation.diags().errorCount() > 0 && compilation.sources().lineCount(1) > 0)
    compilation.diags().report(DiagId::AlignScriptErrors, SourceLoc{1, 1, 1, 1},
                               compilation.diags().errorCount());
  if (!textFile || !compiled)
    return std::nullopt;
  return agent::alignProtocol(textSources, *textFile, textDiags, compilation.checkedModule(),
                              compilation.sources(), compilation.platform(),
                              robotTrialFor(compilation));
}

nlohmann::json alignDiagnosticsJson(Compilation &compilation, const SourceManager &textSources,
                                    const DiagnosticEngine &textDiags) {
  nlohmann::json merged = nlohmann::json::parse(
      renderJson(compilation.diags().diagnostics(), compilation.sources()), nullptr, false);
  nlohmann::json text =
      nlohmann::json::parse(renderJson(textDiags.diagnostics(), textSources), nullptr, false);
  if (merged.is_discarded() || text.is_discarded() || !merged.contains("diagnostics"))
    return nullptr;
  for (const nlohmann::json &d : text["diagnostics"])
    merged["diagnostics"].push_back(d);
  merged["errors"] = merged.value("errors", 0) + text.value("errors", 0);
  merged["warnings"] = merged.value("warnings", 0) + text.value("warnings", 0);
  return merged;
}

int runAlignCommand(const AlignOptions &options) {
  bool json = options.format == "json";
  CompileOptions compile;
  compile.input = options.script;
  compile.layoutCsv = options.layoutCsv;
  compile.stdlibDir = options.stdlibDir;
  if (isOt2Target(options.platform)) {
    compile.platform = options.platform;
    compile.passes = kOt2Pipeline;
  }
  compile.diagnosticsFormat = json ? DiagnosticsFormat::Collect : DiagnosticsFormat::Text;
  Compilation compilation(compile);

  SourceManager textSources;
  DiagnosticEngine textDiags(textSources);
  if (!json)
    textDiags.setConsumer([&](const Diagnostic &d) { std::cerr << renderText(d, textSources, false); });
  std::optional<uint32_t> textFile = textSources.addFile(options.protocol);
  if (!textFile)
    textDiags.report(DiagId::CannotRead, SourceLoc{}, options.protocol, std::strerror(errno));

  std::optional<agent::StepAlignment> alignment =
      alignScript(compilation, textSources, textFile, textDiags);
  if (json) {
    // One document on stderr with the diagnostics of both inputs.
    nlohmann::json merged = alignDiagnosticsJson(compilation, textSources, textDiags);
    if (!merged.is_null() && !merged["diagnostics"].empty())
      std::cerr << merged.dump(2) << "\n";
  } else {
    compilation.finishDiagnostics();
  }
  if (!alignment)
    return static_cast<int>(ExitCode::InputErrors);
  if (json)
    std::cout << agent::alignmentToJson(*alignment).dump(2) << "\n";
  else
    std::cout << agent::renderAlignment(*alignment);
  return alignment->certainCount() > 0 ? static_cast<int>(ExitCode::InputErrors)
                                       : static_cast<int>(ExitCode::Success);
}

} // namespace plate

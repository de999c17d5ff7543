//===- AlignCommand.h - `plate align`: a text's steps beside a script's ---===//
//
// Shows a person (or, with --format=json, a tool) the step alignment that
// `plate translate` uses as its deterministic gate: each text step beside
// the script step it was aligned with, parameters side by side, then every
// finding with its confidence. Exit 0 without certain findings, 1 with
// them or on input errors, 2 on usage errors.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/plate/Compilation.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <optional>

#include <string>

namespace plate::agent {
// Not included: main.cpp sees this header beside agent/Metrics.h, and the
// two headers' `Param` names clash.
struct StepAlignment;
} // namespace plate::agent

namespace plate {

struct AlignOptions {
  std::string protocol; ///< PROTOCOL.txt
  std::string script;   ///< SCRIPT.plate
  std::string format = "text";
  std::string layoutCsv;
  std::string stdlibDir;
  std::string platform; ///< --platform: ot2 compiles the script for the OT-2
};

CLI::App *addAlignCommand(CLI::App &app, AlignOptions &options);

/// Compiles the script of `compilation` and aligns its steps with the text
/// `textFile` of `textSources` (nullopt when it could not be read; its
/// diagnostic is already in `textDiags`). Nullopt when either input has
/// errors: a script with errors draws E963 at its first
/// line, and the alignment is skipped, never guessed.
std::optional<agent::StepAlignment> alignScript(Compilation &compilation,
                                               const SourceManager &textSources,
                                               std::optional<uint32_t> textFile,
                                               DiagnosticEngine &textDiags);
/// The diagnostics of both inputs as one `renderJson` document (script
/// first); null when either cannot be rendered.
nlohmann::json alignDiagnosticsJson(Compilation &compilation, const SourceManager &textSources,
                                    const DiagnosticEngine &textDiags);

int runAlignCommand(const AlignOptions &options);

} // namespace plate

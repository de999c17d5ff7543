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

#include <CLI/CLI.hpp>

#include <string>

namespace plate {

struct AlignOptions {
  std::string protocol; ///< PROTOCOL.txt
  std::string script;   ///< SCRIPT.plate
  std::string format = "text";
  std::string layoutCsv;
  std::string stdlibDir;
};

CLI::App *addAlignCommand(CLI::App &app, AlignOptions &options);
int runAlignCommand(const AlignOptions &options);

} // namespace plate

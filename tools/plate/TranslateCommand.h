//===- TranslateCommand.h - `plate translate`: text to verified script ----===//
//
// The glue between the command line and the dual-agent translation of
// agent/Translator.h: model configuration, the compile hook over the
// driver's Compilation, the run record, the cache, and what is written.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/Translator.h"
#include "tools/plate/AgentOptions.h"

#include <CLI/CLI.hpp>

#include <string>

namespace plate {

struct TranslateOptions {
  std::string protocol;  ///< PROTOCOL.txt
  std::string layout;    ///< --layout FILE (CSV grid or text)
  std::string parser;    ///< --parser provider:model[@base-url]
  std::string validator; ///< --validator
  unsigned maxAttempts = 3;
  std::string output;    ///< -o OUT.plate
  std::string record;    ///< --record RUN.json
  std::string stdlibDir;
  bool direct = false;
  bool printPromptSize = false;
  bool printPrompt = false;
  /// The step alignment's certain findings end an attempt (--alignment-gate);
  /// by default every alignment finding is evidence for the Validator
  /// (docs/agents.md: measured precision on held-out text).
  bool alignmentGate = false;
  agent::ClientOptions client; ///< --cache DIR and the transport flags
};

/// Adds the `translate` subcommand; main() then calls runTranslateCommand
/// when it was chosen.
CLI::App *addTranslateCommand(CLI::App &app, TranslateOptions &options);
int runTranslateCommand(const TranslateOptions &options);

/// The compile hook the loop uses: the script goes through a Compilation
/// (check + the default pipeline), its diagnostics are collected as JSON
/// (not printed), and its checked module is aligned with the protocol text
/// (agent/StepAlignment.h).
agent::CompileReport compileCandidate(const std::string &script,
                                      const std::string &protocolText,
                                      const std::string &stdlibDir,
                                      const std::string &layoutCsv);

/// Whether the step alignment can read `text` as a protocol; prints its
/// diagnostics (E960-E962) on stderr when not.
bool protocolIsAlignable(const std::string &name, const std::string &text,
                         const Platform &platform);

} // namespace plate

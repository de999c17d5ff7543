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

#include <functional>
#include <optional>
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
  std::string platform = "bioforge1"; ///< --platform: the robot the script is for
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
/// `platform` is the platform's name, as `--platform` (empty: the script's
/// `<PLATFORM>`, else BioForge-1).
agent::CompileReport compileCandidate(const std::string &script,
                                      const std::string &protocolText,
                                      const std::string &stdlibDir,
                                      const std::string &layoutCsv,
                                      const std::string &platform = "");

/// The settings `plate translate` runs the loop with (token caps included).
agent::TranslatorConfig translatorConfig(unsigned maxAttempts, bool direct);

/// The Parser and the Validator of a translation.
struct TranslationModels {
  agent::ModelSpec parser;
  agent::ModelSpec validator;
  /// Both are of one family (self-validation); empty otherwise.
  std::string warning;
};

/// Parses the Parser's spec (`provider:model[@base-url]`, not empty) and
/// the Validator's; an empty Validator is a model of another family than
/// the Parser's. Nullopt with `error` on a bad spec.
std::optional<TranslationModels> resolveTranslationModels(const std::string &parserText,
                                                          std::string validatorText,
                                                          std::string &error);

/// The translation loop as `plate translate` runs it: every candidate goes
/// through compileCandidate() (and, unless `alignmentGate`, the
/// alignment's certain findings become evidence for the Validator);
/// `progress` gets the loop's progress lines.
agent::TranslationResult translateProtocol(const std::string &protocol, const std::string &layout,
                                           const Platform &platform, agent::LlmClient &parser,
                                           agent::LlmClient &validator,
                                           const agent::TranslatorConfig &config,
                                           const std::string &stdlibDir, bool alignmentGate,
                                           std::function<void(const std::string &)> progress);

/// Whether the step alignment can read `text` as a protocol; prints its
/// diagnostics (E960-E962) on stderr when not.
bool protocolIsAlignable(const std::string &name, const std::string &text,
                         const Platform &platform);

} // namespace plate

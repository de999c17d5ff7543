//===- AgentOptions.h - Glue shared by `plate translate` and `plate eval` -===//
//
// Both subcommands call language models over HTTP and put every candidate
// script through the compiler quietly, so they share the transport flags
// (bound straight to agent::ClientOptions), how inputs are read, how the
// platform is loaded for the prompts, and how a candidate is compiled in
// memory. Flag names, defaults and help text are what each command
// has always shown; where the two differ, AgentCommand says which.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/LlmClient.h"
#include "agent/StepAlignment.h"
#include "ir/Diagnostics.h"
#include "ir/Platform.h"
#include "tools/plate/Compilation.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace plate {

/// Which subcommand the shared flags are added to. `translate` is the one
/// tuned by hand, so it also offers --connect-timeout and explains the
/// backoff in its help; `eval` keeps the short set.
enum class AgentCommand { Translate, Eval };

/// Adds --timeout, (translate: --connect-timeout,) --max-retries,
/// --backoff-base and --backoff-cap, in that order, bound to the client's
/// transport settings (their defaults are the client's; tests shorten them).
void addTransportOptions(CLI::App &command, agent::ClientOptions &client, AgentCommand which);

/// Prints `plate COMMAND: error: MESSAGE` on stderr; returns the usage exit
/// code for the caller to return.
int reportUsageError(std::string_view command, const std::string &message);

/// The platform `name` (`bioforge1`, `ot2`, a description's path) from
/// `stdlibDir`, which the agents' prompts describe and candidates compile
/// for; when it does not load, its diagnostics are printed on stderr and
/// the result is nullopt.
std::optional<Platform> loadAgentPlatform(const std::string &name, const std::string &stdlibDir);

/// The diagnostics of an engine as the JSON array `--diagnostics json`
/// prints (empty when rendering fails).
nlohmann::json diagnosticsJson(const DiagnosticEngine &diags, const SourceManager &sources);

/// A Compilation of a script held in memory (a candidate, a ground truth),
/// named `name` in its diagnostics, which are collected, never printed.
/// Nothing is written to disk and nothing global changes, so compilations
/// may run on several threads at once. Nothing has run yet; the caller
/// picks the phases.
class ScriptCompilation {
public:
  /// `platform`: as `--platform` (empty: the script's `<PLATFORM>`, else
  /// BioForge-1).
  ScriptCompilation(std::string name, std::string script, const std::string &stdlibDir,
                    const std::string &layoutCsv, const std::string &platform = "");

  Compilation &compilation() { return compilation_; }
  /// Checks and lowers the script for its platform, as `plate compile`
  /// would (for the OT-2 its emitter too, whose diagnostics say what the
  /// robot cannot do); true without errors. The pipeline's dump goes to
  /// `dump`.
  bool compile(std::ostream &dump);
  /// The diagnostics so far, as diagnosticsJson() renders them.
  nlohmann::json diagnostics();

private:
  Compilation compilation_;
};

/// The alignment's question "does the script still compile with this
/// <MANUAL> step on the robot?" (agent::RobotTrialFn), answered by
/// compiling a copy of `compilation`'s script, in memory, with the step's
/// line between `</MANUAL><INSTRUMENT>` and `</INSTRUMENT><MANUAL>`.
agent::RobotTrialFn robotTrialFor(Compilation &compilation);

} // namespace plate

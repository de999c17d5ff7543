//===- AgentOptions.h - Glue shared by `plate translate` and `plate eval` -===//
//
// Both subcommands call language models over HTTP and put every candidate
// script through the compiler quietly, so they share the transport flags
// (bound straight to agent::ClientOptions), how inputs are read, how the
// platform is loaded for the prompts, and how a candidate is compiled from
// a scratch file. Flag names, defaults and help text are what each command
// has always shown; where the two differ, AgentCommand says which.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/LlmClient.h"
#include "ir/Diagnostics.h"
#include "ir/Platform.h"
#include "tools/plate/Compilation.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <sstream>
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

/// The BioForge-1 platform from `stdlibDir`; when it does not load, its
/// diagnostics are printed on stderr and the result is nullopt.
std::optional<Platform> loadBioforge1(const std::string &stdlibDir);

/// The diagnostics of an engine as the JSON array `--diagnostics json`
/// prints (empty when rendering fails).
nlohmann::json diagnosticsJson(const DiagnosticEngine &diags, const SourceManager &sources);

/// Redirects std::cerr while a Compilation runs: a candidate's diagnostics
/// belong to the record and the feedback, not to the terminal.
class QuietCerr {
public:
  QuietCerr();
  ~QuietCerr();
  QuietCerr(const QuietCerr &) = delete;
  QuietCerr &operator=(const QuietCerr &) = delete;

private:
  std::ostringstream sink_;
  std::streambuf *saved_;
};

/// A script written to a file of its own, since a Compilation reads its
/// input from a file: TMP/plate-TOOL-PID/STEMn.plate, removed (with the
/// folder, once empty) on destruction. Safe to create from several threads.
class ScratchScript {
public:
  ScratchScript(std::string_view tool, std::string_view stem, const std::string &text);
  ~ScratchScript();
  ScratchScript(const ScratchScript &) = delete;
  ScratchScript &operator=(const ScratchScript &) = delete;

  std::string path() const { return file_.string(); }

private:
  std::filesystem::path dir_;
  std::filesystem::path file_;
};

/// A Compilation of a script held in memory (a candidate, a ground truth):
/// from a ScratchScript, with JSON diagnostics that are collected, never
/// printed. Nothing has run yet; the caller picks the phases.
class ScratchCompilation {
public:
  ScratchCompilation(std::string_view tool, std::string_view stem, const std::string &script,
                     const std::string &stdlibDir, const std::string &layoutCsv);

  Compilation &compilation() { return compilation_; }
  /// The diagnostics so far, as diagnosticsJson() renders them.
  nlohmann::json diagnostics();

private:
  static CompileOptions options(const ScratchScript &file, const std::string &stdlibDir,
                                const std::string &layoutCsv);

  // Declaration order is construction order: the file exists before the
  // compilation reads it, and outlives it.
  ScratchScript file_;
  QuietCerr quiet_;
  Compilation compilation_;
};

} // namespace plate

//===- AgentOptions.cpp - Glue shared by `plate translate` and `plate eval` ===//
//
// The help strings below are pinned by users' habits and by the lit tests
// of both commands: change them only on purpose.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/AgentOptions.h"
#include "backend/ot2/Ot2Emitter.h"

#include <fmt/format.h>

#include <atomic>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace plate {

void addTransportOptions(CLI::App &command, agent::ClientOptions &client, AgentCommand which) {
  bool translate = which == AgentCommand::Translate;
  command.add_option("--timeout", client.totalTimeoutSeconds, "seconds per HTTP request");
  if (translate)
    command.add_option("--connect-timeout", client.connectTimeoutSeconds, "seconds to connect");
  command.add_option("--max-retries", client.maxRetries, "HTTP retries per call");
  command.add_option("--backoff-base", client.backoffBaseSeconds,
                     translate ? "first backoff in seconds (doubles per retry, with jitter)"
                               : "first backoff in seconds");
  command.add_option("--backoff-cap", client.backoffCapSeconds, "longest backoff in seconds");
}

int reportUsageError(std::string_view command, const std::string &message) {
  std::cerr << "plate " << command << ": error: " << message << "\n";
  return static_cast<int>(ExitCode::Usage);
}

std::optional<Platform> loadAgentPlatform(const std::string &name, const std::string &stdlibDir) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  std::optional<Platform> platform =
      loadPlatform(name, stdlibDir, diags, SourceLoc{}, PlatformLookup::CommandLine);
  if (!platform)
    for (const Diagnostic &d : diags.diagnostics())
      std::cerr << renderText(d, sources, false);
  return platform;
}

nlohmann::json diagnosticsJson(const DiagnosticEngine &diags, const SourceManager &sources) {
  nlohmann::json rendered =
      nlohmann::json::parse(renderJson(diags.diagnostics(), sources), nullptr, false);
  if (rendered.is_discarded() || !rendered.contains("diagnostics"))
    return nlohmann::json::array();
  return rendered["diagnostics"];
}

ScriptCompilation::ScriptCompilation(std::string name, std::string script,
                                     const std::string &stdlibDir, const std::string &layoutCsv,
                                     const std::string &platform)
    : compilation_([&] {
        CompileOptions options;
        options.input = std::move(name);
        options.source = std::move(script);
        options.stdlibDir = stdlibDir;
        options.layoutCsv = layoutCsv;
        options.platform = platform;
        if (isOt2Target(platform))
          options.passes = kOt2Pipeline;
        options.diagnosticsFormat = DiagnosticsFormat::Collect;
        return options;
      }()) {}

bool ScriptCompilation::compile(std::ostream &dump) {
  bool ok = compilation_.compile(dump);
  if (ok && isOt2Target(compilation_.options().platform)) {
    ot2::EmitOptions options;
    options.sourceName = compilation_.options().input;
    ok = ot2::emitProtocol(compilation_.module(), compilation_.platform(),
                           compilation_.sources(), compilation_.diags(), options)
             .has_value();
  }
  return ok && !compilation_.diags().hasErrors();
}

nlohmann::json ScriptCompilation::diagnostics() {
  return diagnosticsJson(compilation_.diags(), compilation_.sources());
}

agent::RobotTrialFn robotTrialFor(Compilation &compilation) {
  uint32_t scriptFile = compilation.checkedModule().fileId;
  std::string script(compilation.sources().contents(scriptFile));
  const CompileOptions &options = compilation.options();
  return [script, scriptFile, stdlibDir = options.stdlibDir, layoutCsv = options.layoutCsv,
          platform = options.platform](const SourceLoc &step) -> std::optional<std::string> {
    if (step.fileId != scriptFile || step.line == 0)
      return std::nullopt; // a step of a `use`d module: not tried
    std::string moved;
    moved.reserve(script.size() + 64);
    uint32_t line = 1;
    size_t start = 0;
    bool found = false;
    while (start < script.size()) {
      size_t end = script.find('\n', start);
      size_t next = end == std::string::npos ? script.size() : end + 1;
      std::string_view text(script.data() + start, next - start);
      if (line == step.line) {
        moved += "</MANUAL>\n<INSTRUMENT>\n";
        moved += text;
        if (text.empty() || text.back() != '\n')
          moved += '\n';
        moved += "</INSTRUMENT>\n<MANUAL>\n";
        found = true;
      } else {
        moved += text;
      }
      start = next;
      ++line;
    }
    if (!found)
      return std::nullopt;
    ScriptCompilation trial("robot-trial.plate", std::move(moved), stdlibDir, layoutCsv,
                            platform);
    std::ostringstream dump;
    trial.compile(dump);
    for (const Diagnostic &d : trial.compilation().diags().diagnostics())
      if (d.severity == Severity::Error)
        return fmt::format("{} [{}]", d.message, diagInfo(d.id).code);
    return std::nullopt;
  };
}

} // namespace plate

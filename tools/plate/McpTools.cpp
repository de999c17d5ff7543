//===- McpTools.cpp - plate's tools and resources for `plate mcp` ---------===//
//
// Each tool compiles through a Compilation with DiagnosticsFormat::Collect,
// so nothing is printed and no file is written unless the caller asks
// (`run` with `out_dir`). A script with errors is a tool result with
// isError and its diagnostics, in the structured result and as the text
// `plate check` prints; a compiler that refuses its own stream (translation
// validation) says it is plate's bug, as the command line does.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/McpTools.h"

#include "agent/ParserAgent.h"
#include "agent/ProcedureText.h"
#include "agent/StepAlignment.h"
#include "agent/ValidationAgent.h"
#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/Journal.h"
#include "backend/bioforge1/TranslationValidation.h"
#include "backend/ot2/Ot2Emitter.h"
#include "tools/plate/AgentOptions.h"
#include "tools/plate/AlignCommand.h"
#include "tools/plate/Compilation.h"
#include "tools/plate/RunCommand.h"
#include "tools/plate/TranslateCommand.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace plate::mcp {

namespace {

//===--- Schemas -----------------------------------------------------------===//

Json stringProperty(std::string description) {
  return Json{{"type", "string"}, {"description", std::move(description)}};
}

/// The ways a tool takes a script: a file, or text compiled from memory.
Json scriptProperties() {
  return Json{
      {"path", stringProperty("a .plate script to read (relative paths are taken from the "
                              "server's working directory); give this or `source`")},
      {"source", stringProperty("the text of a .plate script, compiled from memory; give this "
                                "or `path`")},
      {"name", stringProperty("the name `source` goes by in diagnostics (default input.plate)")}};
}

Json objectSchema(Json properties, Json required = Json::array()) {
  Json schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty())
    schema["required"] = std::move(required);
  schema["additionalProperties"] = false;
  return schema;
}

Json integerSchema() { return Json{{"type", "integer"}}; }
Json numberSchema() { return Json{{"type", "number"}}; }
Json booleanSchema() { return Json{{"type", "boolean"}}; }
Json stringSchema() { return Json{{"type", "string"}}; }
Json arrayOf(Json items) { return Json{{"type", "array"}, {"items", std::move(items)}}; }
/// An object whose fields this schema does not pin down.
Json anyObject() { return Json{{"type", "object"}}; }

Json diagnosticSchema() {
  Json location{{"file", stringSchema()}, {"line", integerSchema()}, {"column", integerSchema()}};
  Json note = location;
  note["message"] = stringSchema();
  Json properties = location;
  properties["code"] = stringProperty("stable code, documented in docs/diagnostics.md");
  properties["name"] = stringSchema();
  properties["severity"] = Json{{"type", "string"}, {"enum", {"error", "warning", "note"}}};
  properties["category"] = stringSchema();
  properties["step"] = stringSchema();
  properties["message"] = stringSchema();
  properties["suggestion"] = stringProperty("replacement text for the marked range (a fix-it)");
  properties["notes"] = arrayOf(Json{{"type", "object"}, {"properties", note}});
  return Json{{"type", "object"},
              {"properties", std::move(properties)},
              {"required", {"file", "line", "column", "code", "severity", "message"}}};
}

/// What every script tool reports, whatever else it adds.
Json diagnosticsProperties() {
  return Json{{"ok", Json{{"type", "boolean"},
                          {"description", "no errors (warnings allowed) and the tool did its job"}}},
              {"errors", integerSchema()},
              {"warnings", integerSchema()},
              {"diagnostics", arrayOf(diagnosticSchema())}};
}

Json outputSchema(Json extra) {
  Json properties = diagnosticsProperties();
  properties.update(extra);
  return Json{{"type", "object"},
              {"properties", std::move(properties)},
              {"required", {"ok", "errors", "warnings", "diagnostics"}}};
}

Json annotations(bool readOnly, bool idempotent, bool openWorld) {
  Json json{{"readOnlyHint", readOnly}};
  if (!readOnly)
    json["destructiveHint"] = false;
  json["idempotentHint"] = idempotent;
  json["openWorldHint"] = openWorld;
  return json;
}

//===--- Inputs ------------------------------------------------------------===//

/// The compile options of a tool's script argument.
CompileOptions scriptOptions(const Json &arguments, const std::string &stdlibDir) {
  bool hasPath = arguments.contains("path"), hasSource = arguments.contains("source");
  if (hasPath && hasSource)
    throw InvalidArguments("give the script as `path` or as `source`, not both");
  if (!hasPath && !hasSource)
    throw InvalidArguments("give the script as `path` (a .plate file) or `source` (its text)");
  if (hasPath && arguments.contains("name"))
    throw InvalidArguments("`name` names `source` text; a `path` is named by itself");
  CompileOptions options;
  options.stdlibDir = stdlibDir;
  options.diagnosticsFormat = DiagnosticsFormat::Collect;
  if (hasPath) {
    options.input = arguments["path"].get<std::string>();
  } else {
    options.input = arguments.value("name", std::string("input.plate"));
    options.source = arguments["source"].get<std::string>();
  }
  return options;
}

/// The protocol text of `align` and `translate`: a file or the text itself.
struct ProtocolText {
  std::string name;
  std::optional<std::string> text; ///< for a path: nullopt until read
};

ProtocolText protocolArgument(const Json &arguments) {
  bool hasPath = arguments.contains("protocol_path"),
       hasText = arguments.contains("protocol_text");
  if (hasPath == hasText)
    throw InvalidArguments(hasPath ? "give the protocol as `protocol_path` or as `protocol_text`, "
                                     "not both"
                                   : "give the protocol as `protocol_path` (a text file) or "
                                     "`protocol_text` (its text)");
  if (hasPath)
    return {arguments["protocol_path"].get<std::string>(), std::nullopt};
  return {"protocol.txt", arguments["protocol_text"].get<std::string>()};
}

/// The largest file a tool reads. Scripts stop at 4 MiB (E110), so this
/// only keeps a huge file from being read into memory to be refused.
constexpr uintmax_t kMaxFileBytes = 32u << 20;

/// Why a file named in the arguments will not be read, or nullopt. A file
/// that does not exist is left to the reader, whose diagnostic (E900) says
/// so; /dev/zero, a FIFO or a directory would never end or mean nothing.
std::optional<std::string> unreadableFile(const Json &arguments) {
  for (const char *key : {"path", "protocol_path", "truth"}) {
    if (!arguments.contains(key))
      continue;
    std::string path = arguments[key];
    std::error_code error;
    std::filesystem::file_status status = std::filesystem::status(path, error);
    if (status.type() == std::filesystem::file_type::not_found)
      continue;
    if (status.type() != std::filesystem::file_type::regular)
      return fmt::format("`{}` `{}` is not a regular file", key, path);
    uintmax_t size = std::filesystem::file_size(path, error);
    if (!error && size > kMaxFileBytes)
      return fmt::format("`{}` `{}` is {} bytes; the tools read files up to {} bytes", key, path,
                         size, kMaxFileBytes);
  }
  return std::nullopt;
}

//===--- Results -----------------------------------------------------------===//

std::string diagnosticsText(const DiagnosticEngine &diags, const SourceManager &sources) {
  std::string text;
  for (const Diagnostic &diagnostic : diags.diagnostics())
    text += renderText(diagnostic, sources, false);
  return text;
}

/// ok, errors, warnings and diagnostics of one engine (or two, merged).
Json diagnosticsResult(const nlohmann::json &diagnostics) {
  unsigned errors = 0, warnings = 0;
  for (const nlohmann::json &diagnostic : diagnostics) {
    errors += diagnostic.value("severity", "") == "error";
    warnings += diagnostic.value("severity", "") == "warning";
  }
  return Json{{"ok", errors == 0}, {"errors", errors}, {"warnings", warnings},
              {"diagnostics", Json(diagnostics)}};
}

Json diagnosticsResult(Compilation &compilation) {
  return diagnosticsResult(diagnosticsJson(compilation.diags(), compilation.sources()));
}

/// The result of a script that did not compile.
ToolResult scriptErrors(Compilation &compilation) {
  ToolResult result;
  result.structured = diagnosticsResult(compilation);
  result.structured["ok"] = false;
  result.text = diagnosticsText(compilation.diags(), compilation.sources());
  unsigned errors = compilation.diags().errorCount();
  result.text += fmt::format("{} error{} generated.\n", errors, errors == 1 ? "" : "s");
  result.isError = true;
  return result;
}

/// Translation validation refused the stream: plate's bug, not the script's.
ToolResult refusedStream(Compilation &compilation, const std::string &difference) {
  ToolResult result;
  result.structured = diagnosticsResult(compilation);
  result.structured["ok"] = false;
  result.text = fmt::format(
      "plate: internal compiler error: translation validation failed: the command stream does "
      "not do what the script says: {}\nNo command was run. This is a bug in plate, not in the "
      "script; please report it with the script.\n",
      difference);
  result.isError = true;
  return result;
}

/// The script's commands, once compiled, lowered and found to do what the
/// script says; otherwise nullopt and `failure` says why.
std::optional<LoweredScript> verifiedCommands(Compilation &compilation, ToolResult &failure) {
  std::optional<LoweredScript> lowered = compileForRun(compilation);
  if (!lowered) {
    failure = scriptErrors(compilation);
    return std::nullopt;
  }
  if (std::optional<std::string> difference =
          compilation.translationDifference(lowered->commands, lowered->setup)) {
    failure = refusedStream(compilation, *difference);
    return std::nullopt;
  }
  return lowered;
}

Json robotTime(double seconds) {
  return Json{{"robot_time_s", backend::jsonNumber(std::round(seconds * 1000) / 1000)},
              {"robot_time", backend::formatDuration(seconds)}};
}

/// `platform` and `manual_fallback` of `check` and `compile`, as
/// `plate compile --platform ot2 [--manual-fallback]` takes them.
Json platformProperties() {
  return Json{{"platform", Json{{"type", "string"},
                                {"enum", {"bioforge1", "ot2"}},
                                {"description", "the robot the script is compiled for (default "
                                                "bioforge1; ot2: an Opentrons OT-2 Python "
                                                "protocol, docs/porting.md)"}}},
              {"manual_fallback",
               Json{{"type", "boolean"},
                    {"description", "ot2: a pause that tells the operator what to do where the "
                                    "OT-2 lacks a device (a read, a lid), instead of an error "
                                    "(default false)"}}}};
}

bool forOt2(const Json &arguments) {
  std::string platform = arguments.value("platform", std::string("bioforge1"));
  if (platform != "bioforge1" && platform != "ot2")
    throw InvalidArguments(
        fmt::format("`platform` is `bioforge1` or `ot2`, not `{}`", platform));
  if (platform != "ot2" && arguments.contains("manual_fallback"))
    throw InvalidArguments("`manual_fallback` is for `platform: \"ot2\"`");
  return platform == "ot2";
}

/// The script compiled for the OT-2 (its passes, then the emitter, whose
/// diagnostics say what the OT-2 cannot do): the Python protocol, or
/// nullopt with the errors in the compilation.
std::optional<std::string> ot2Protocol(Compilation &compilation, const Json &arguments) {
  std::ostringstream ignoredDump;
  if (!compilation.compile(ignoredDump))
    return std::nullopt;
  ot2::EmitOptions options;
  options.manualFallback = arguments.value("manual_fallback", false);
  options.sourceName = std::filesystem::path(compilation.options().input).filename().string();
  std::optional<std::string> protocol =
      ot2::emitProtocol(compilation.module(), compilation.platform(), compilation.sources(),
                        compilation.diags(), options);
  if (compilation.diags().hasErrors())
    return std::nullopt;
  return protocol;
}

CompileOptions platformOptions(const Json &arguments, const std::string &stdlibDir) {
  CompileOptions options = scriptOptions(arguments, stdlibDir);
  if (forOt2(arguments)) {
    options.platform = "ot2";
    options.passes = kOt2Pipeline;
  }
  return options;
}

//===--- The tools ---------------------------------------------------------===//

ToolResult checkTool(const Json &arguments, const std::string &stdlibDir, const ProgressFn &) {
  Compilation compilation(platformOptions(arguments, stdlibDir));
  if (isOt2Target(compilation.options().platform)) {
    if (!ot2Protocol(compilation, arguments))
      return scriptErrors(compilation);
    ToolResult result;
    result.structured = diagnosticsResult(compilation);
    result.text = diagnosticsText(compilation.diags(), compilation.sources()) + "no errors\n";
    return result;
  }
  // Everything `compile` would report: physical, capability and resource
  // errors come from the passes.
  std::ostringstream ignoredDump;
  if (!compilation.compile(ignoredDump))
    return scriptErrors(compilation);
  ToolResult result;
  result.structured = diagnosticsResult(compilation);
  result.text = diagnosticsText(compilation.diags(), compilation.sources());
  unsigned warnings = compilation.diags().warningCount();
  result.text += warnings ? fmt::format("{} warning{} generated.\n", warnings, warnings == 1 ? "" : "s")
                          : "no diagnostics\n";
  return result;
}

ToolResult compileTool(const Json &arguments, const std::string &stdlibDir, const ProgressFn &) {
  Compilation compilation(platformOptions(arguments, stdlibDir));
  ToolResult result;
  if (isOt2Target(compilation.options().platform)) {
    if (arguments.contains("commands"))
      throw InvalidArguments("`commands` are BioForge-1's; for the OT-2 the result is "
                             "`protocol`, a Python protocol");
    std::optional<std::string> protocol = ot2Protocol(compilation, arguments);
    if (!protocol)
      return scriptErrors(compilation);
    Json &out = result.structured;
    out = diagnosticsResult(compilation);
    if (arguments.value("ir", true))
      out["ir"] = ir::print(compilation.module(), compilation.sources());
    out["protocol"] = *protocol;
    result.text = diagnosticsText(compilation.diags(), compilation.sources()) + *protocol;
    return result;
  }
  std::optional<LoweredScript> lowered = verifiedCommands(compilation, result);
  if (!lowered)
    return result;

  Json &out = result.structured;
  out = diagnosticsResult(compilation);
  if (arguments.value("ir", true))
    out["ir"] = ir::print(compilation.module(), compilation.sources());
  out["steps"] = agent::stepSummary(compilation.module());
  Json summary{{"commands", lowered->commands.size()},
               {"tips", lowered->setup.tips},
               {"tip_racks", lowered->setup.tipRacks}};
  summary.update(robotTime(lowered->setup.robotTimeSeconds));
  out["summary"] = std::move(summary);
  out["loading_plan"] = backend::setupToJson(lowered->setup);
  if (arguments.value("commands", false)) {
    Json commands = Json::array();
    for (const backend::Command &command : lowered->commands)
      commands.push_back(backend::commandToJson(command));
    out["commands"] = std::move(commands);
  }
  result.text = diagnosticsText(compilation.diags(), compilation.sources()) +
                backend::planText(lowered->setup, lowered->commands.size());
  return result;
}

std::string stemOf(const std::string &name) {
  std::string stem = std::filesystem::path(name).stem().string();
  return stem.empty() ? "run" : stem;
}

ToolResult runTool(const Json &arguments, const std::string &stdlibDir, const ProgressFn &) {
  CompileOptions options = scriptOptions(arguments, stdlibDir);
  backend::RunOptions run;
  run.seed = arguments.value("seed", uint64_t{42});
  run.truthFile = arguments.value("truth", std::string());
  run.outDir = arguments.value("out_dir", std::string());
  // Without an output directory nothing is written: the results come back
  // in the answer. No journal either (a server has no operator to resume).
  run.writeFiles = !run.outDir.empty();
  run.outPrefix = stemOf(options.input);
  run.inputName = options.input;
  if (run.writeFiles) {
    std::error_code error;
    std::filesystem::create_directories(run.outDir, error);
    if (error)
      return ToolResult::failure(
          fmt::format("cannot create `out_dir` `{}`: {}", run.outDir, error.message()));
  }

  Compilation compilation(std::move(options));
  ToolResult result;
  std::optional<LoweredScript> lowered = verifiedCommands(compilation, result);
  if (!lowered)
    return result;
  run.scriptFileId = compilation.module().fileId;
  backend::RunResult ran =
      backend::runCommands(lowered->commands, lowered->setup, compilation.platform(), run,
                           compilation.sources(), compilation.diags());

  Json &out = result.structured;
  out = diagnosticsResult(compilation);
  out["ok"] = ran.ok && !compilation.diags().hasErrors();
  out["executed"] = ran.executed;
  out["commands"] = lowered->commands.size();
  out.update(robotTime(ran.robotSeconds));
  out["stopped"] = !ran.ok;
  if (ran.failedSeq)
    out["failed_seq"] = *ran.failedSeq;
  out["notes"] = backend::simulationNotes(ran);
  out["events"] = ran.events;
  Json reads = Json::array(), analyses = Json::array();
  for (const backend::PlateRead &read : ran.reads)
    reads.push_back(backend::plateReadJson(read));
  for (const backend::AnalysisResult &analysis : ran.analyses)
    analyses.push_back(backend::analysisJson(analysis));
  out["reads"] = std::move(reads);
  out["analyses"] = std::move(analyses);
  out["outputs"] = ran.outputs;

  // The lines `plate run` prints.
  std::string &text = result.text;
  text = diagnosticsText(compilation.diags(), compilation.sources());
  for (const std::string &note : backend::simulationNotes(ran))
    text += "run: " + note + "\n";
  text += fmt::format("run: {} command(s) executed, robot time {} ({} s){}\n", ran.executed,
                      backend::formatDuration(ran.robotSeconds),
                      formatNumber(std::round(ran.robotSeconds * 1000) / 1000),
                      ran.ok ? "" : ", stopped");
  for (const std::string &event : ran.events)
    text += "run: " + event + "\n";
  for (const backend::AnalysisResult &analysis : ran.analyses)
    text += backend::analysisSummary(analysis);
  for (const std::string &path : ran.outputs)
    text += "wrote " + path + "\n";
  result.isError = !out["ok"].get<bool>();
  return result;
}

ToolResult alignTool(const Json &arguments, const std::string &stdlibDir, const ProgressFn &) {
  ProtocolText protocol = protocolArgument(arguments);
  Compilation compilation(platformOptions(arguments, stdlibDir));
  SourceManager textSources;
  DiagnosticEngine textDiags(textSources);
  std::optional<uint32_t> textFile =
      protocol.text ? std::optional<uint32_t>(textSources.addBuffer(protocol.name, *protocol.text))
                    : textSources.addFile(protocol.name);
  if (!textFile)
    textDiags.report(DiagId::CannotRead, SourceLoc{}, protocol.name, std::strerror(errno));
  std::optional<agent::StepAlignment> alignment =
      alignScript(compilation, textSources, textFile, textDiags);

  ToolResult result;
  nlohmann::json merged = alignDiagnosticsJson(compilation, textSources, textDiags);
  result.structured = diagnosticsResult(merged.is_null() ? nlohmann::json::array()
                                                         : merged["diagnostics"]);
  result.text = diagnosticsText(compilation.diags(), compilation.sources()) +
                diagnosticsText(textDiags, textSources);
  if (!alignment) {
    result.structured["ok"] = false;
    result.isError = true;
    return result;
  }
  // Findings, certain ones included, are what the tool is for: the
  // alignment itself succeeded.
  result.structured["certain"] = alignment->certainCount();
  result.structured["uncertain"] = alignment->uncertainCount();
  result.structured["alignment"] = Json(agent::alignmentToJson(*alignment));
  result.text += agent::renderAlignment(*alignment);
  return result;
}

const char *kModelHelp =
    "set PLATE_PARSER_MODEL in the environment of `plate mcp` to provider:model[@base-url], "
    "e.g. anthropic:claude-sonnet-4-6 (key in ANTHROPIC_API_KEY), openai:gpt-4.1 (key in "
    "OPENAI_API_KEY), ollama:llama3.3 (local, no key) or "
    "openai:qwen2.5@http://127.0.0.1:8000/v1 (a local vLLM or llama.cpp server); "
    "PLATE_VALIDATOR_MODEL chooses the Validator (default: a model of another family), and "
    "the client's server configuration is where both go";

std::string envValue(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

ToolResult translateTool(const Json &arguments, const std::string &stdlibDir,
                      const ProgressFn &progress) {
  ProtocolText protocol = protocolArgument(arguments);
  if (!protocol.text) {
    protocol.text = readWholeFile(protocol.name);
    if (!protocol.text)
      return ToolResult::failure(fmt::format("cannot read `{}`", protocol.name));
  }
  SourceManager sources;
  DiagnosticEngine diags(sources);
  // The robot the script is for, as `plate translate --platform` takes it:
  // its capabilities go into the prompts and every candidate compiles for it.
  std::string platformName = arguments.value("platform", std::string("bioforge1"));
  std::optional<Platform> platform =
      loadPlatform(platformName, stdlibDir, diags, SourceLoc{}, PlatformLookup::CommandLine);
  if (!platform)
    return ToolResult::failure(fmt::format("the platform `{}` does not load:\n", platformName) +
                               diagnosticsText(diags, sources));
  // A text the step alignment cannot read cannot be verified: stop before
  // any model is called.
  uint32_t textFile = sources.addBuffer(protocol.name, *protocol.text);
  if (!agent::readProcedure(sources, textFile, diags, *platform)) {
    ToolResult result;
    result.structured = diagnosticsResult(diagnosticsJson(diags, sources));
    result.structured["ok"] = false;
    result.structured["passed"] = false;
    result.text = diagnosticsText(diags, sources);
    result.isError = true;
    return result;
  }

  std::string parserText = envValue("PLATE_PARSER_MODEL");
  if (parserText.empty())
    return ToolResult::failure(std::string("no Parser model is configured: ") + kModelHelp);
  std::string error;
  std::optional<TranslationModels> models =
      resolveTranslationModels(parserText, envValue("PLATE_VALIDATOR_MODEL"), error);
  if (!models)
    return ToolResult::failure("the model configuration is wrong: " + error);
  agent::ClientOptions client;
  std::optional<agent::LlmClient> parser =
      agent::LlmClient::fromEnvironment(models->parser, client, error);
  if (!parser)
    return ToolResult::failure(error);
  std::optional<agent::LlmClient> validator =
      agent::LlmClient::fromEnvironment(models->validator, client, error);
  if (!validator)
    return ToolResult::failure(error + " (the Validator; choose one with PLATE_VALIDATOR_MODEL)");
  if (!models->warning.empty())
    std::cerr << "plate mcp: translate: warning: " << models->warning << "\n";

  agent::TranslatorConfig config =
      translatorConfig(static_cast<unsigned>(arguments.value("max_attempts", 3)), false);
  agent::TranslationResult translation = translateProtocol(
      *protocol.text, arguments.value("layout", std::string()), *platform, *parser, *validator,
      config, stdlibDir, arguments.value("alignment_gate", false),
      [&progress](const std::string &line) {
        std::cerr << "plate mcp: translate: " << line << "\n";
        progress(line);
      });

  ToolResult result;
  Json &out = result.structured;
  out = diagnosticsResult(diagnosticsJson(diags, sources));
  out["ok"] = translation.passed;
  out["passed"] = translation.passed;
  out["outcome"] = translation.outcome;
  out["script"] = translation.finalOutput;
  Json findings = Json::array();
  for (const agent::Finding &finding : translation.findings)
    findings.push_back(Json(agent::toJson(finding)));
  out["findings"] = std::move(findings);
  out["attempts"] = translation.attempts.size();
  out["parser"] = models->parser.text;
  out["validator"] = models->validator.text;
  out["warnings_about_models"] = models->warning.empty() ? Json::array() : Json{models->warning};
  if (!translation.error.empty()) {
    out["error"] = translation.error;
    out["error_kind"] = agent::errorKindName(translation.errorKind);
  }
  std::string &text = result.text;
  if (translation.passed) {
    text = fmt::format("outcome: {}; the script compiled and both validators passed it:\n{}",
                       translation.outcome, translation.finalOutput);
  } else {
    text = fmt::format("outcome: {}; NOT VERIFIED: do not run the last attempt.\n",
                       translation.outcome);
    for (const agent::Finding &f : translation.findings)
      text += fmt::format("[{} {}] {}: {}\n", f.source, f.type, f.location, f.message);
    if (!translation.error.empty())
      text += "error: " + translation.error + "\n";
  }
  result.isError = !translation.passed;
  return result;
}

Json protocolProperties() {
  return Json{{"protocol_path", stringProperty("a protocol text file (natural language); give "
                                               "this or `protocol_text`")},
              {"protocol_text", stringProperty("the protocol's text; give this or "
                                               "`protocol_path`")}};
}

} // namespace

ServerInfo plateServerInfo() {
  return ServerInfo{
      "plate", "plate: microplate protocol compiler", PLATE_VERSION,
      "plate compiles .plate scripts (a typed language for microplate lab protocols) into "
      "verified commands for the BioForge-1 robot and runs them on a simulator. Read the "
      "resource plate://reference/language before writing a script. `check` reports "
      "diagnostics with stable codes (docs/diagnostics.md) and file:line:column; `compile` "
      "adds the IR, the command summary and the loading plan; `run` simulates the robot and "
      "returns robot time, plate reads and the analysis; `align` lists where a protocol text "
      "and a script disagree; `translate` turns a protocol text into a verified script with "
      "language models configured in the server's environment. Scripts are given as `path` "
      "or as `source` text."};
}

std::vector<Tool> plateTools(const std::string &stdlibDir) {
  std::vector<Tool> tools;
  auto bind = [&](ToolResult (*function)(const Json &, const std::string &, const ProgressFn &)) {
    return [function, stdlibDir](const Json &arguments, const ProgressFn &progress) {
      if (std::optional<std::string> why = unreadableFile(arguments))
        return ToolResult::failure(*why);
      return function(arguments, stdlibDir, progress);
    };
  };

  tools.push_back(
      {"check", "Check a script",
       "Parse and check a .plate script through the whole pass pipeline (types, units, layout, "
       "physical and platform limits) and list its diagnostics: code, severity, "
       "file:line:column, message, fix-it. isError when the script has errors. With "
       "`platform: \"ot2\"`, checked for the Opentrons OT-2 (what it cannot do is an error).",
       objectSchema([] {
         Json input = scriptProperties();
         input.update(platformProperties());
         return input;
       }()),
       outputSchema(Json::object()),
       annotations(true, true, false), bind(checkTool)});

  Json compileInput = scriptProperties();
  compileInput.update(platformProperties());
  compileInput["ir"] = Json{{"type", "boolean"},
                            {"description", "include the IR after the pass pipeline (default "
                                            "true)"}};
  compileInput["commands"] = Json{
      {"type", "boolean"},
      {"description", "include every BioForge-1 command as JSON (default false; can be long)"}};
  tools.push_back(
      {"compile", "Compile a script",
       "Compile a .plate script to BioForge-1 commands: the IR, a per-step summary of the "
       "commands, the command count, tips and robot time, and the loading plan (what goes in "
       "each reservoir position). The stream is checked against the script (translation "
       "validation) before it is returned. With `platform: \"ot2\"`: the IR and `protocol`, "
       "an Opentrons OT-2 Python protocol (apiLevel 2.20) whose every call names its script "
       "line.",
       objectSchema(compileInput),
       outputSchema(Json{{"ir", stringSchema()},
                         {"protocol", stringProperty("ot2: the Opentrons Python protocol")},
                         {"steps", stringProperty("the commands each step lowers to")},
                         {"summary", objectSchema(Json{{"commands", integerSchema()},
                                                       {"tips", integerSchema()},
                                                       {"tip_racks", integerSchema()},
                                                       {"robot_time_s", numberSchema()},
                                                       {"robot_time", stringSchema()}})},
                         {"loading_plan", anyObject()},
                         {"commands", arrayOf(anyObject())}}),
       annotations(true, true, false), bind(compileTool)});

  Json runInput = scriptProperties();
  runInput["seed"] = Json{{"type", "integer"},
                          {"minimum", 0},
                          {"maximum", 9007199254740991}, // 2^53 - 1: exact in every client
                          {"description", "seed of the simulated reader noise (default 42)"}};
  runInput["truth"] = stringProperty("a file of true sample concentrations for the simulated "
                                     "reader (JSON, or CSV name,value); otherwise the simulator "
                                     "invents them and says so");
  runInput["out_dir"] = stringProperty("write the reads (CSV), result tables and curve plots "
                                       "(SVG) here; without it nothing is written");
  tools.push_back(
      {"run", "Run a script on the simulator",
       "Compile a .plate script and execute it on the simulated BioForge-1, which checks every "
       "physical rule before each command: robot time, every plate read (simulated values, "
       "said so), and each `analyze` step's fit, back-calculated concentrations and flags.",
       objectSchema(runInput),
       outputSchema(Json{{"executed", integerSchema()},
                         {"commands", integerSchema()},
                         {"robot_time_s", numberSchema()},
                         {"robot_time", stringSchema()},
                         {"stopped", booleanSchema()},
                         {"failed_seq", integerSchema()},
                         {"notes", arrayOf(stringSchema())},
                         {"events", arrayOf(stringSchema())},
                         {"reads", arrayOf(anyObject())},
                         {"analyses", arrayOf(anyObject())},
                         {"outputs", arrayOf(stringSchema())}}),
       annotations(false, true, false), bind(runTool)});

  Json alignInput = protocolProperties();
  alignInput.update(scriptProperties());
  alignInput["platform"] = platformProperties()["platform"];
  tools.push_back(
      {"align", "Align a protocol text with a script",
       "Align the steps of a natural-language protocol with a .plate script's and list the "
       "findings: steps missing from the script, steps the text does not ask for, differing "
       "parameters, order, and robot/person placement, each certain or uncertain (the "
       "deterministic gate of `translate`).",
       objectSchema(alignInput),
       outputSchema(Json{{"certain", integerSchema()},
                         {"uncertain", integerSchema()},
                         {"alignment", objectSchema(Json{{"protocol", stringSchema()},
                                                         {"script", stringSchema()},
                                                         {"certain", integerSchema()},
                                                         {"uncertain", integerSchema()},
                                                         {"text_steps", arrayOf(anyObject())},
                                                         {"script_steps", arrayOf(anyObject())},
                                                         {"rows", arrayOf(anyObject())},
                                                         {"findings", arrayOf(anyObject())}})}}),
       annotations(true, true, false), bind(alignTool)});

  Json translateInput = protocolProperties();
  translateInput["layout"] =
      stringProperty("the plate layout for the Parser (a CSV grid or text), when the protocol "
                     "does not give one");
  translateInput["max_attempts"] = Json{{"type", "integer"},
                                        {"minimum", 1},
                                        {"maximum", 9},
                                        {"description", "attempts before a final fail (default 3)"}};
  translateInput["platform"] =
      Json{{"type", "string"},
           {"enum", {"bioforge1", "ot2"}},
           {"description", "the robot the script is for (default bioforge1; ot2: the Opentrons "
                           "OT-2, docs/porting.md)"}};
  translateInput["alignment_gate"] =
      Json{{"type", "boolean"},
           {"description", "let the alignment's certain findings end an attempt (default false: "
                           "they are evidence for the Validator)"}};
  Json findingSchema{{"type", "object"},
                     {"properties",
                      {{"type", stringSchema()},
                       {"location", stringSchema()},
                       {"message", stringSchema()},
                       {"guidance", stringSchema()},
                       {"source", stringSchema()},
                       {"confidence", stringSchema()}}}};
  tools.push_back(
      {"translate", "Translate a protocol text into a verified script",
       "Translate a natural-language protocol into a .plate script with the Parser Agent (a "
       "language model), the compiler, the step alignment and the Validation Agent (a second "
       "model), retrying with feedback. The models come from the server's environment "
       "(PLATE_PARSER_MODEL, PLATE_VALIDATOR_MODEL and the providers' API keys). isError "
       "unless the script passed every check; a failed script is returned for reading only.",
       objectSchema(translateInput),
       outputSchema(Json{{"passed", booleanSchema()},
                         {"outcome", stringProperty("1st pass, 2nd pass, ... or final fail")},
                         {"script", stringSchema()},
                         {"findings", arrayOf(findingSchema)},
                         {"attempts", integerSchema()},
                         {"parser", stringSchema()},
                         {"validator", stringSchema()},
                         {"warnings_about_models", arrayOf(stringSchema())},
                         {"error", stringSchema()},
                         {"error_kind", stringSchema()}}),
       annotations(true, false, true), bind(translateTool)});
  return tools;
}

std::vector<Resource> plateResources(const std::string &stdlibDir) {
  std::vector<Resource> resources;
  // The reference the Parser Agent is given, per robot (`plate translate
  // --platform`): what the robot can do decides what goes in <MANUAL>.
  auto reference = [stdlibDir](std::string name) {
    return [stdlibDir, name] {
      SourceManager sources;
      DiagnosticEngine diags(sources);
      std::optional<Platform> platform =
          loadPlatform(name, stdlibDir, diags, SourceLoc{}, PlatformLookup::CommandLine);
      if (!platform)
        throw std::runtime_error(fmt::format("the {} platform does not load:\n", name) +
                                 diagnosticsText(diags, sources));
      return agent::languageReference(*platform);
    };
  };
  resources.push_back(
      {"plate://reference/language", "language-reference", "The .plate language reference",
       "Every statement and declaration form of a .plate script, what each means, the units "
       "and what the BioForge-1 platform can do: the reference the Parser Agent is given.",
       "text/plain", reference("bioforge1")});
  resources.push_back(
      {"plate://reference/language/ot2", "language-reference-ot2",
       "The .plate language reference for the Opentrons OT-2",
       "The language reference with what the Opentrons OT-2 can do (no reader, no lid "
       "handling: those steps go in <MANUAL>): what the Parser Agent is given for "
       "`translate` with platform ot2.",
       "text/plain", reference("ot2")});
  std::error_code error;
  std::vector<std::filesystem::path> platforms;
  for (const auto &entry :
       std::filesystem::directory_iterator(std::filesystem::path(stdlibDir) / "platforms", error))
    if (entry.path().extension() == ".toml")
      platforms.push_back(entry.path());
  std::sort(platforms.begin(), platforms.end());
  for (const std::filesystem::path &path : platforms) {
    std::string stem = path.stem().string();
    resources.push_back({"plate://platforms/" + stem, stem,
                         fmt::format("Platform description: {}", stem),
                         fmt::format("The {} platform as plate reads it (stdlib/platforms/{}): "
                                     "deck, labware, pipetting head, reader, heater, shaker, "
                                     "timings.",
                                     stem, path.filename().string()),
                         "application/toml", [path] {
                           std::optional<std::string> text = readWholeFile(path.string());
                           if (!text)
                             throw std::runtime_error(
                                 fmt::format("cannot read `{}`", path.string()));
                           return *text;
                         }});
  }
  return resources;
}

} // namespace plate::mcp

//===- TranslateCommand.cpp - `plate translate` ---------------------------===//
//
// Nothing unverified is written as a passing script: the result file is
// written only on a pass; a final fail writes the last attempt beside it as
// OUT.failed, headed by a comment that lists its findings. The outcome is
// the last line on stdout; progress and findings go to stderr.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/TranslateCommand.h"

#include "agent/StepAlignment.h"
#include "backend/bioforge1/Backend.h"
#include "tools/plate/AgentOptions.h"
#include "tools/plate/Compilation.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace plate {

using nlohmann::json;

CLI::App *addTranslateCommand(CLI::App &app, TranslateOptions &options) {
  CLI::App *command = app.add_subcommand(
      "translate", "translate a natural-language protocol into a verified .plate script "
                   "(Parser Agent + compiler + Validation Agent)");
  command->add_option("PROTOCOL", options.protocol, "the protocol text")->required();
  command->add_option("--layout", options.layout, "plate layout (CSV grid or text) for the Parser");
  command->add_option("--parser", options.parser,
                      "Parser model, provider:model[@base-url] (default: $PLATE_PARSER_MODEL)");
  command->add_option("--validator", options.validator,
                      "Validator model (default: $PLATE_VALIDATOR_MODEL, else another family "
                      "than the Parser)");
  command->add_option("--max-attempts", options.maxAttempts, "attempts before a final fail")
      ->check(CLI::Range(1u, 9u));
  command->add_option("-o,--output", options.output, "where a passing script is written");
  command->add_option("--record", options.record, "write the whole run as JSON");
  command->add_option("--cache", options.client.cacheDir,
                      "cache responses by request hash and replay them offline");
  command->add_option("--stdlib", options.stdlibDir, "stdlib directory");
  command->add_option("--platform", options.platform,
                      "the robot the script is for: its capabilities go into the prompts and "
                      "every candidate is compiled for it (bioforge1, ot2; docs/porting.md)");
  command->add_flag("--alignment-gate", options.alignmentGate,
                    "let the step alignment's certain findings end an attempt and go back to "
                    "the Parser (default: all its findings are evidence for the Validator)");
  command->add_flag("--direct", options.direct,
                    "baseline: ask the Parser for BioForge-1 commands directly");
  command->add_flag("--print-prompt-size", options.printPromptSize,
                    "print the prompt sizes in tokens (approx. chars/4) and exit");
  command->add_flag("--print-prompt", options.printPrompt,
                    "print the Parser's system and user prompts for this protocol and exit "
                    "(what a model in the Parser's seat is given)");
  addTransportOptions(*command, options.client, AgentCommand::Translate);
  return command;
}

namespace {

int usageError(const std::string &message) { return reportUsageError("translate", message); }

const char *kHowToConfigure =
    "configure a model with --parser provider:model[@base-url] or $PLATE_PARSER_MODEL, e.g. "
    "--parser anthropic:claude-sonnet-4-6 (key in ANTHROPIC_API_KEY), --parser openai:gpt-4.1 "
    "(key in OPENAI_API_KEY), --parser ollama:llama3.3 (local, no key) or --parser "
    "openai:qwen2.5@http://127.0.0.1:8000/v1 (a local vLLM or llama.cpp server)";

std::string envOr(const std::string &value, const char *variable) {
  if (!value.empty())
    return value;
  const char *env = std::getenv(variable);
  return env ? env : "";
}

std::string commentBlock(const std::string &title, const std::vector<agent::Finding> &findings) {
  std::string out = "# " + title + "\n";
  for (const agent::Finding &f : findings)
    out += fmt::format("#   [{} {}] {}: {}\n", f.source, f.type, f.location, f.message);
  return out;
}

agent::CompileReport checkCommandStream(const std::string &jsonl) {
  agent::CompileReport report;
  SourceManager sources;
  uint32_t id = sources.addBuffer("attempt.jsonl", jsonl);
  DiagnosticEngine diags(sources);
  std::optional<std::vector<backend::Command>> commands =
      backend::parseCommandStream(id, sources, diags);
  report.diagnostics = diagnosticsJson(diags, sources);
  report.ok = commands.has_value() && !diags.hasErrors() && !commands->empty();
  if (commands) {
    std::map<std::pair<std::string, uint32_t>, std::map<std::string, unsigned>> bySteps;
    std::string summary;
    std::string lastKey;
    for (const backend::Command &command : *commands) {
      std::string key = command.step.empty() ? "-" : command.step;
      if (key != lastKey)
        summary += fmt::format("{}step {}: ", summary.empty() ? "" : "\n", key);
      summary += command.name() + " ";
      lastKey = key;
    }
    report.summary = summary + "\n";
  }
  if (commands && commands->empty())
    report.diagnostics.push_back({{"code", ""}, {"severity", "error"}, {"category", "completeness"},
                                  {"line", 0}, {"column", 0}, {"step", ""},
                                  {"message", "the answer holds no command lines"}});
  return report;
}

} // namespace

agent::CompileReport compileCandidate(const std::string &script, const std::string &protocolText,
                                      const std::string &stdlibDir, const std::string &layoutCsv,
                                      const std::string &platform) {
  agent::CompileReport report;
  ScriptCompilation candidate("candidate.plate", script, stdlibDir, layoutCsv, platform);
  Compilation &compilation = candidate.compilation();
  std::ostringstream dump;
  bool ok = candidate.compile(dump);
  report.diagnostics = candidate.diagnostics();
  for (json &d : report.diagnostics)
    d.erase("file"); // the candidate's name; lines are what matters
  report.ok = ok && !compilation.diags().hasErrors();
  if (report.ok) {
    report.summary = agent::stepSummary(compilation.module());
    SourceManager textSources;
    DiagnosticEngine textDiags(textSources);
    uint32_t textFile = textSources.addBuffer("protocol.txt", protocolText);
    std::optional<agent::StepAlignment> alignment =
        agent::alignProtocol(textSources, textFile, textDiags, compilation.checkedModule(),
                             compilation.sources(), compilation.platform(),
                             robotTrialFor(compilation));
    if (alignment) {
      report.certain = agent::alignmentFindings(*alignment, true);
      report.uncertain = agent::alignmentFindings(*alignment, false);
      report.alignment = agent::alignmentEvidence(*alignment);
      report.alignmentRecord = agent::alignmentToJson(*alignment);
    } else {
      // The text passed readProcedure before the loop began, so what is
      // left is the size of this candidate: it cannot be verified, and an
      // unverified script never passes.
      for (const Diagnostic &d : textDiags.diagnostics())
        report.certain.push_back({"completeness", "script",
                                  fmt::format("{} [{}]", d.message, diagInfo(d.id).code),
                                  "write the script with fewer steps (`repeat`, procedures)",
                                  "alignment", "certain"});
    }
  }
  return report;
}

agent::TranslatorConfig translatorConfig(unsigned maxAttempts, bool direct) {
  agent::TranslatorConfig config;
  config.maxAttempts = maxAttempts;
  config.direct = direct;
  config.parserParams.maxTokens = 4096;
  config.validatorParams.maxTokens = 2048;
  return config;
}

std::optional<TranslationModels> resolveTranslationModels(const std::string &parserText,
                                                          std::string validatorText,
                                                          std::string &error) {
  std::optional<agent::ModelSpec> parserSpec = agent::ModelSpec::parse(parserText, error);
  if (!parserSpec)
    return std::nullopt;
  if (validatorText.empty())
    validatorText = parserSpec->family() == "anthropic" ? "openai:gpt-4.1"
                                                        : "anthropic:claude-sonnet-4-6";
  std::optional<agent::ModelSpec> validatorSpec = agent::ModelSpec::parse(validatorText, error);
  if (!validatorSpec)
    return std::nullopt;
  TranslationModels models{*parserSpec, *validatorSpec, {}};
  if (parserSpec->family() == validatorSpec->family())
    models.warning = fmt::format(
        "the Validator `{}` is {} the Parser `{}` ({} family); self-validation is known not "
        "to catch the Parser's own mistakes: choose another family with --validator",
        validatorSpec->text,
        parserSpec->model == validatorSpec->model ? "the same model as" : "of the same family as",
        parserSpec->text, parserSpec->family());
  return models;
}

agent::TranslationResult translateProtocol(const std::string &protocol, const std::string &layout,
                                           const Platform &platform, agent::LlmClient &parser,
                                           agent::LlmClient &validator,
                                           const agent::TranslatorConfig &config,
                                           const std::string &stdlibDir, bool alignmentGate,
                                           std::function<void(const std::string &)> progress) {
  agent::Translator translator(
      parser, validator, platform, config,
      [&](const std::string &script, const std::string &text) {
        agent::CompileReport report = compileCandidate(script, text, stdlibDir, "", platform.name);
        if (!alignmentGate)
          agent::demoteToEvidence(report);
        return report;
      },
      checkCommandStream);
  translator.progress = std::move(progress);
  return translator.run(protocol, layout);
}

bool protocolIsAlignable(const std::string &name, const std::string &text,
                         const Platform &platform) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t id = sources.addBuffer(name, text);
  std::optional<agent::ProcedureText> procedure = agent::readProcedure(sources, id, diags, platform);
  for (const Diagnostic &d : diags.diagnostics())
    std::cerr << renderText(d, sources, false);
  return procedure.has_value();
}

int runTranslateCommand(const TranslateOptions &options) {
  std::string stdlibDir = options.stdlibDir.empty() ? defaultStdlibDir() : options.stdlibDir;
  std::optional<std::string> protocol = readWholeFile(options.protocol);
  if (!protocol)
    return usageError(fmt::format("cannot read `{}`", options.protocol));
  std::string layout;
  if (!options.layout.empty()) {
    std::optional<std::string> text = readWholeFile(options.layout);
    if (!text)
      return usageError(fmt::format("cannot read `{}`", options.layout));
    layout = *text;
  }

  std::optional<Platform> platform = loadAgentPlatform(options.platform, stdlibDir);
  if (!platform)
    return static_cast<int>(ExitCode::Usage);
  // A text the step alignment cannot read (binary, no procedure, too
  // large) cannot be verified: stop before any model is called. Printing
  // the prompt calls none.
  if (!options.printPromptSize && !options.printPrompt &&
      !protocolIsAlignable(options.protocol, *protocol, *platform))
    return static_cast<int>(ExitCode::InputErrors);

  agent::TranslatorConfig config = translatorConfig(options.maxAttempts, options.direct);

  if (options.printPromptSize || options.printPrompt) {
    agent::ParserInput input;
    input.protocolText = *protocol;
    input.layout = layout;
    input.direct = options.direct;
    agent::ParserPrompt prompt = agent::buildParserPrompt(*platform, input);
    if (options.printPrompt) {
      std::cout << "=== system\n" << prompt.system << "=== user\n" << prompt.user;
      return 0;
    }
    agent::ValidatorInput vin{*protocol, "", "", json::array(), "", {}};
    agent::ChatRequest validator = agent::buildValidatorRequest(vin, config.validatorParams);
    std::cout << fmt::format(
        "parser system prompt: {} tokens\nparser user prompt: {} tokens\nparser total: {} "
        "tokens\nvalidator system prompt: {} tokens\nvalidator user prompt without the "
        "script: {} tokens\n(tokens approximated as characters/4)\n",
        agent::approximateTokens(prompt.system), agent::approximateTokens(prompt.user),
        agent::approximateTokens(prompt.system + prompt.user),
        agent::approximateTokens(validator.system), agent::approximateTokens(validator.user));
    return 0;
  }

  std::string parserText = envOr(options.parser, "PLATE_PARSER_MODEL");
  if (parserText.empty())
    return usageError(std::string("no Parser model is configured; ") + kHowToConfigure);
  std::string error;
  std::optional<TranslationModels> models = resolveTranslationModels(
      parserText, envOr(options.validator, "PLATE_VALIDATOR_MODEL"), error);
  if (!models)
    return usageError(error);
  const agent::ModelSpec &parserSpec = models->parser;
  const agent::ModelSpec &validatorSpec = models->validator;

  json warnings = json::array();
  if (!models->warning.empty()) {
    std::cerr << "plate translate: warning: " << models->warning << "\n";
    warnings.push_back(models->warning);
  }

  std::optional<agent::LlmClient> parser =
      agent::LlmClient::fromEnvironment(parserSpec, options.client, error);
  if (!parser)
    return usageError(error);
  std::optional<agent::LlmClient> validator =
      agent::LlmClient::fromEnvironment(validatorSpec, options.client, error);
  if (!validator)
    return usageError(error + " (the Validator; choose one with --validator)");

  agent::TranslationResult result = translateProtocol(
      *protocol, layout, *platform, *parser, *validator, config, stdlibDir,
      options.alignmentGate,
      [](const std::string &line) { std::cerr << "plate translate: " << line << "\n"; });

  std::string failedPath;
  if (result.passed) {
    if (!options.output.empty()) {
      std::ofstream out(options.output, std::ios::binary);
      out << result.finalOutput;
      if (!out)
        return usageError(fmt::format("cannot write `{}`", options.output));
    } else {
      std::cout << result.finalOutput;
    }
  } else {
    for (const agent::Finding &f : result.findings)
      std::cerr << fmt::format("plate translate: [{} {}] {}: {}\n", f.source, f.type,
                               f.location, f.message);
    if (!result.error.empty())
      std::cerr << "plate translate: error: " << result.error << "\n";
    if (!options.output.empty() && !result.finalOutput.empty()) {
      failedPath = options.output + ".failed";
      std::ofstream out(failedPath, std::ios::binary);
      out << commentBlock(fmt::format("NOT VERIFIED: plate translate ended in a final fail "
                                      "after {} attempt(s); do not run this script. Findings "
                                      "of the last attempt:",
                                      result.attempts.size()),
                          result.findings)
          << result.finalOutput;
    }
  }

  if (!options.record.empty()) {
    json record = {
        {"tool", "plate " PLATE_VERSION},
        {"timestamp", agent::isoTimestampNow()},
        {"protocol", options.protocol},
        {"protocol_hash", agent::fnv1a64Hex(*protocol)},
        {"mode", options.direct ? "direct" : "script"},
        {"parser", parserSpec.text},
        {"validator", validatorSpec.text},
        {"max_attempts", options.maxAttempts},
        {"token_approximation", "characters/4"},
        {"warnings", warnings},
        {"outcome", result.outcome},
        {"attempts", result.attempts},
        {"output", result.passed ? options.output : failedPath},
    };
    if (!result.error.empty()) {
      record["error"] = result.error;
      record["error_kind"] = agent::errorKindName(result.errorKind);
    }
    std::ofstream out(options.record, std::ios::binary);
    out << record.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  }

  std::cout << "outcome: " << result.outcome << "\n";
  if (result.passed)
    return 0;
  switch (result.errorKind) {
  case agent::LlmErrorKind::Configuration:
  case agent::LlmErrorKind::Authentication:
  case agent::LlmErrorKind::Quota:
  case agent::LlmErrorKind::Unreachable:
  case agent::LlmErrorKind::BadRequest:
    return static_cast<int>(ExitCode::Usage);
  default:
    return static_cast<int>(ExitCode::InputErrors);
  }
}

} // namespace plate

//===- Translator.cpp - Parser, compiler, alignment, validator, repeat ----===//
#include "agent/Translator.h"

#include <fmt/format.h>

#include <chrono>

namespace plate::agent {

using nlohmann::json;

std::string passName(unsigned attempt) {
  const char *suffix = "th";
  if (attempt % 100 < 11 || attempt % 100 > 13) {
    if (attempt % 10 == 1)
      suffix = "st";
    else if (attempt % 10 == 2)
      suffix = "nd";
    else if (attempt % 10 == 3)
      suffix = "rd";
  }
  return fmt::format("{}{} pass", attempt, suffix);
}

std::string renderFeedback(const json &diagnostics, const std::vector<Finding> &findings) {
  std::string errors, warnings, rest;
  for (const json &d : diagnostics) {
    std::string where = fmt::format("line {}:{}", d.value("line", 0), d.value("column", 0));
    if (d.contains("step") && d["step"].is_string() && !d["step"].get<std::string>().empty())
      where += fmt::format(", step {}", d["step"].get<std::string>());
    std::string line = fmt::format("- [{} {} {}, {}] {}", d.value("code", ""),
                                   d.value("severity", ""), d.value("category", ""), where,
                                   d.value("message", ""));
    if (d.contains("suggestion") && d["suggestion"].is_string() &&
        !d["suggestion"].get<std::string>().empty())
      line += fmt::format(" (suggested: `{}`)", d["suggestion"].get<std::string>());
    for (const json &note : d.value("notes", json::array()))
      if (note.contains("message"))
        line += fmt::format("; note: {}", note["message"].get<std::string>());
    (d.value("severity", "") == "error" ? errors : warnings) += line + "\n";
  }
  for (const Finding &f : findings)
    rest += fmt::format("- [{} {}, {}] {} -> {}\n", f.source, f.type, f.location, f.message,
                        f.guidance);
  std::string out;
  if (!errors.empty())
    out += "Compiler errors:\n" + errors;
  if (!rest.empty())
    out += "Findings:\n" + rest;
  if (!warnings.empty())
    out += "Compiler warnings (do not block, check them):\n" + warnings;
  return out;
}

Translator::Translator(LlmClient &parser, LlmClient &validator, const Platform &platform,
                       TranslatorConfig config, CompileFn compile, CommandCheckFn checkCommands)
    : parser_(parser), validator_(validator), platform_(platform), config_(std::move(config)),
      compile_(std::move(compile)), checkCommands_(std::move(checkCommands)) {}

namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TranslationResult Translator::run(const std::string &protocolText, const std::string &layout) {
  TranslationResult result;
  std::string feedback, previousOutput;
  auto say = [&](const std::string &line) {
    if (progress)
      progress(line);
  };

  for (unsigned number = 1; number <= config_.maxAttempts; ++number) {
    json attempt = {{"number", number}};
    int64_t inputTokens = 0, outputTokens = 0;
    say(fmt::format("attempt {}: asking the Parser ({})", number, parser_.spec().text));

    ParserInput input;
    input.protocolText = protocolText;
    input.layout = layout;
    input.feedback = feedback;
    input.previousOutput = previousOutput;
    input.attempt = number;
    input.direct = config_.direct;
    ParserPrompt prompt = buildParserPrompt(platform_, input);
    ChatRequest request;
    request.system = prompt.system;
    request.user = prompt.user;
    request.params = config_.parserParams;
    request.purpose = "parser";
    auto parserStart = std::chrono::steady_clock::now();
    ChatResult reply = parser_.chat(request);
    double parserSeconds = since(parserStart);
    inputTokens += reply.record.inputTokens;
    outputTokens += reply.record.outputTokens;
    attempt["feedback_given"] = feedback;
    attempt["parser"] = {{"prompt", {{"system", prompt.system}, {"user", prompt.user}}},
                         {"prompt_tokens_approx", approximateTokens(prompt.system + prompt.user)},
                         {"response", reply.text},
                         {"call", toJson(reply.record)}};
    if (!reply.ok) {
      attempt["passed"] = false;
      attempt["timings"] = {{"parser_s", parserSeconds}};
      attempt["tokens"] = {{"input", inputTokens}, {"output", outputTokens}};
      result.attempts.push_back(std::move(attempt));
      result.error = "the Parser call failed: " + reply.error();
      result.errorKind = reply.errorKind();
      result.outcome = "final fail";
      return result;
    }

    std::vector<Finding> findings;
    json diagnostics = json::array();
    std::string output = config_.direct ? extractCommands(reply.text) : extractScript(reply.text);
    attempt[config_.direct ? "commands" : "script"] = output;
    double compileSeconds = 0, validatorSeconds = 0;
    bool validatorCalled = false;
    // Closes this attempt's record (time per phase, tokens) and keeps its
    // output as the latest.
    auto closeAttempt = [&](bool passed) {
      attempt["passed"] = passed;
      attempt["timings"] = {{"parser_s", parserSeconds},
                            {"compile_s", compileSeconds},
                            {"validator_s", validatorSeconds}};
      attempt["tokens"] = {{"input", inputTokens}, {"output", outputTokens}};
      result.attempts.push_back(std::move(attempt));
      result.finalOutput = output;
    };

    if (reply.truncated) {
      findings.push_back(
          {"completeness", "output",
           fmt::format("your answer was cut off at the token limit ({} tokens, finish reason "
                       "`{}`), so the script is incomplete",
                       config_.parserParams.maxTokens, reply.record.finishReason),
           "answer with the script only, without commentary; keep it compact (use `repeat` "
           "and well ranges)",
           "parser", ""});
    } else {
      auto compileStart = std::chrono::steady_clock::now();
      CompileReport report;
      if (config_.direct)
        report = checkCommands_ ? checkCommands_(output) : CompileReport{true, json::array(), "", {}, {}, "", {}};
      else
        report = compile_(output, protocolText);
      compileSeconds = since(compileStart);
      diagnostics = report.diagnostics;
      attempt["compile"] = {{"ok", report.ok},
                            {"diagnostics", report.diagnostics},
                            {"summary", report.summary}};
      if (!report.ok) {
        say(fmt::format("attempt {}: the compiler found errors; no Validator call", number));
      } else {
        attempt["alignment"] = {{"certain", json::array()}, {"uncertain", json::array()}};
        for (const Finding &f : report.certain)
          attempt["alignment"]["certain"].push_back(toJson(f));
        for (const Finding &f : report.uncertain)
          attempt["alignment"]["uncertain"].push_back(toJson(f));
        if (!report.alignmentRecord.is_null())
          attempt["alignment"]["table"] = report.alignmentRecord;
        findings = report.certain;
        if (!findings.empty()) {
          say(fmt::format("attempt {}: {} certain finding(s) of the step alignment; no Validator "
                          "call",
                          number, findings.size()));
        } else {
          say(fmt::format("attempt {}: asking the Validator ({})", number,
                          validator_.spec().text));
          ValidatorInput vin{protocolText, output, report.summary, report.diagnostics,
                             report.alignment, report.uncertain};
          auto validatorStart = std::chrono::steady_clock::now();
          ValidationRun validation = runValidator(validator_, vin, config_.validatorParams,
                                                  config_.maxMalformedVerdicts);
          validatorSeconds = since(validatorStart);
          validatorCalled = true;
          json calls = json::array();
          for (const json &call : validation.calls) {
            calls.push_back(call);
            inputTokens += call["call"]["usage"].value("input_tokens", int64_t{0});
            outputTokens += call["call"]["usage"].value("output_tokens", int64_t{0});
          }
          attempt["validator"] = {{"calls", calls}};
          if (validation.llmError != LlmErrorKind::None) {
            attempt["validator"]["error"] = validation.error;
            closeAttempt(false);
            result.error = "the Validator call failed: " + validation.error;
            result.errorKind = validation.llmError;
            result.outcome = "final fail";
            return result;
          }
          if (!validation.verdict) {
            attempt["validator"]["error"] = validation.error;
            findings.push_back({"completeness", "validator",
                                "the Validation Agent gave no valid verdict (" +
                                    validation.error + "); the script is not verified",
                                "resubmit the script; keep it faithful to the text",
                                "validator", ""});
          } else {
            attempt["validator"]["verdict"] = validation.verdict->pass ? "pass" : "fail";
            findings = validation.verdict->findings;
          }
        }
      }
    }

    bool passed = validatorCalled && findings.empty() && attempt.contains("validator") &&
                  attempt["validator"].value("verdict", "") == "pass";
    attempt["findings"] = json::array();
    for (const Finding &f : findings)
      attempt["findings"].push_back(toJson(f));
    closeAttempt(passed);
    result.findings = findings;
    // Compiler errors live in diagnostics; everything else in findings.
    std::vector<Finding> feedbackFindings = findings;
    if (diagnostics.is_array())
      for (const json &d : diagnostics)
        if (d.value("severity", "") == "error")
          result.findings.push_back({"compiler", fmt::format("line {}", d.value("line", 0)),
                                     fmt::format("{}: {}", d.value("code", ""),
                                                 d.value("message", "")),
                                     "", "compiler", ""});
    if (passed) {
      result.passed = true;
      result.outcome = passName(number);
      say(fmt::format("attempt {}: the Validator passed the script", number));
      return result;
    }
    say(fmt::format("attempt {}: rejected", number));
    feedback = renderFeedback(diagnostics, feedbackFindings);
    previousOutput = output.empty() ? reply.text : output;
  }
  result.outcome = "final fail";
  return result;
}

void demoteToEvidence(CompileReport &report) {
  report.uncertain.insert(report.uncertain.begin(), report.certain.begin(), report.certain.end());
  report.certain.clear();
}

} // namespace plate::agent

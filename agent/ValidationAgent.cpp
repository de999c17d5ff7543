//===- ValidationAgent.cpp - Verdict prompt, schema and strict parsing ----===//
#include "agent/ValidationAgent.h"
#include "ir/JsonParse.h"

#include <fmt/format.h>

#include <map>
#include <sstream>

namespace plate::agent {

using nlohmann::json;

const json &verdictSchema() {
  static const json schema = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"verdict", "findings"}},
      {"properties",
       {{"verdict", {{"type", "string"}, {"enum", {"pass", "fail"}}}},
        {"findings",
         {{"type", "array"},
          {"items",
           {{"type", "object"},
            {"additionalProperties", false},
            {"required", {"type", "location", "message", "guidance"}},
            {"properties",
             {{"type", {{"type", "string"}, {"enum", {"completeness", "parameter", "order"}}}},
              {"location", {{"type", "string"}}},
              {"message", {{"type", "string"}}},
              {"guidance", {{"type", "string"}}}}}}}}}}}};
  return schema;
}

std::optional<Verdict> parseVerdict(std::string_view reply, std::string &error) {
  std::string text(reply);
  json body = parseJsonOrDiscarded<json>(text);
  // A fence is looked for only around a reply that is not JSON as it
  // stands (a finding may quote a fenced snippet). The fenced text ends at
  // the first fence after the opening line or, when a message holds a
  // fence itself, at the last one.
  size_t fence = body.is_discarded() ? text.find("```") : std::string::npos;
  size_t start = fence == std::string::npos ? fence : text.find('\n', fence);
  if (start != std::string::npos) {
    for (size_t end : {text.find("```", start), text.rfind("```")}) {
      if (end == std::string::npos || end <= start || !body.is_discarded())
        continue;
      body = parseJsonOrDiscarded<json>(text.substr(start + 1, end - start - 1));
    }
  }
  if (body.is_discarded() || !body.is_object()) {
    error = "the answer is not a JSON object";
    return std::nullopt;
  }
  for (const auto &[key, value] : body.items())
    if (key != "verdict" && key != "findings") {
      error = fmt::format("unexpected key `{}`", key);
      return std::nullopt;
    }
  if (!body.contains("verdict") || !body["verdict"].is_string() ||
      (body["verdict"] != "pass" && body["verdict"] != "fail")) {
    error = "`verdict` must be \"pass\" or \"fail\"";
    return std::nullopt;
  }
  if (!body.contains("findings") || !body["findings"].is_array()) {
    error = "`findings` must be an array";
    return std::nullopt;
  }
  Verdict verdict;
  verdict.pass = body["verdict"] == "pass";
  for (const json &item : body["findings"]) {
    if (!item.is_object()) {
      error = "each finding must be an object";
      return std::nullopt;
    }
    for (const char *key : {"type", "location", "message", "guidance"})
      if (!item.contains(key) || !item[key].is_string()) {
        error = fmt::format("each finding needs a string `{}`", key);
        return std::nullopt;
      }
    std::string type = item["type"];
    if (type != "completeness" && type != "parameter" && type != "order") {
      error = fmt::format("finding type `{}` is not completeness, parameter or order", type);
      return std::nullopt;
    }
    verdict.findings.push_back({type, item["location"], item["message"], item["guidance"],
                                "validator", ""});
  }
  // A pass that lists problems, or a fail that names none, is not a
  // verdict anyone can act on.
  if (verdict.pass && !verdict.findings.empty()) {
    error = "a \"pass\" verdict must have no findings";
    return std::nullopt;
  }
  if (!verdict.pass && verdict.findings.empty()) {
    error = "a \"fail\" verdict must name at least one finding";
    return std::nullopt;
  }
  return verdict;
}

json verdictToJson(const Verdict &verdict) {
  json findings = json::array();
  for (const Finding &finding : verdict.findings)
    findings.push_back({{"type", finding.type},
                        {"location", finding.location},
                        {"message", finding.message},
                        {"guidance", finding.guidance}});
  return {{"verdict", verdict.pass ? "pass" : "fail"}, {"findings", std::move(findings)}};
}

std::string stepSummary(const ir::Module &module) {
  std::string out;
  size_t i = 0;
  while (i < module.ops.size()) {
    const ir::Op &first = module.ops[i];
    size_t j = i;
    std::map<std::string, unsigned> counts;
    std::vector<std::string> order;
    std::vector<std::string> details;
    while (j < module.ops.size() && module.ops[j].loc.line == first.loc.line &&
           module.ops[j].step == first.step && module.ops[j].manual == first.manual) {
      const ir::Op &op = module.ops[j];
      std::string name(ir::opMnemonic(op.kind()));
      if (!counts[name]++)
        order.push_back(name);
      if (!ir::isDeviceOp(op.kind()) || op.manual) {
        std::string text = ir::printOp(op, module);
        details.push_back(text.substr(0, text.find("  loc=")));
      } else if (counts[name] == 1) {
        if (const auto *aspirate = op.as<ir::DevAspirateOp>())
          details.push_back(fmt::format("aspirate {}", aspirate->volume));
        else if (const auto *temperature = op.as<ir::SetTemperatureOp>())
          details.push_back(fmt::format("set {}", temperature->temperature));
        else if (const auto *shake = op.as<ir::DevShakeOp>())
          details.push_back(fmt::format("shake {} for {}", shake->speed, shake->time));
        else if (const auto *read = op.as<ir::DevReadOp>())
          details.push_back(fmt::format("read {} on {} wells", read->wavelength, read->wells.size()));
        else if (const auto *wait = op.as<ir::DevWaitOp>())
          details.push_back(fmt::format("wait {}", wait->time));
        else if (const auto *prompt = op.as<ir::PromptOp>())
          // A checklist's first line says what it is; its items restate the
          // MANUAL ops and the loading plan the summary already has.
          details.push_back(fmt::format("prompt \"{}{}\"",
                                        prompt->text.substr(0, prompt->text.find('\n')),
                                        prompt->text.find('\n') == std::string::npos ? ""
                                                                                       : " …"));
      }
      ++j;
    }
    std::string label = first.step.empty() ? "" : fmt::format("step {}, ", first.step);
    std::vector<std::string> parts;
    for (const std::string &name : order)
      parts.push_back(counts[name] == 1 ? name : fmt::format("{}x {}", counts[name], name));
    out += fmt::format("{}line {} ({}): {}", label, first.loc.line,
                       first.manual ? "MANUAL" : "INSTRUMENT", fmt::join(parts, ", "));
    if (!details.empty())
      out += fmt::format(" | {}", fmt::join(details, "; "));
    out += "\n";
    i = j;
  }
  return out;
}

namespace {

std::string numbered(std::string_view text) {
  std::string out;
  std::istringstream in{std::string(text)};
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number)
    out += fmt::format("{:>3}| {}\n", number, line);
  return out;
}

const char *kValidatorSystem =
    R"(You are the Validation Agent. You check whether a .plate robot script faithfully implements a laboratory protocol written in natural language. Another model wrote the script; the compiler has already accepted it.
Judge only fidelity to the protocol text:
- completeness: a step, value or repeat of the text is missing from the script;
- parameter: a value (volume, time, temperature, speed, wavelength, count, reagent, wells) differs from the text, or the script invents one;
- order: steps are in a different order than the text states them.
Steps a person does belong in <MANUAL>, robot steps in <INSTRUMENT>; a robot step may be MANUAL only if the platform cannot do it.
A deterministic step alignment of the text with the script may be given, with its findings: it is a heuristic reading, so check each one against the text, report those that are real in your own words, and drop those that are not.
Locations: "step N" or "line N" (script lines), or "text line N". Give concrete guidance for the fix.
Answer with JSON only: {"verdict":"pass"|"fail","findings":[{"type":"completeness"|"parameter"|"order","location":"...","message":"...","guidance":"..."}]}. "pass" has no findings; "fail" has at least one.)";

} // namespace

ChatRequest buildValidatorRequest(const ValidatorInput &input, const CallParams &params) {
  ChatRequest request;
  request.purpose = "validator";
  request.params = params;
  request.system = kValidatorSystem;
  request.user = "Protocol text:\n" + numbered(input.protocolText) + "\nScript:\n" +
                 numbered(input.script) + "\nWhat the compiler made of each step:\n" +
                 (input.summary.empty() ? "(none)\n" : input.summary) +
                 "\nCompiler diagnostics (JSON):\n" + input.diagnostics.dump() + "\n";
  if (!input.alignment.empty()) {
    request.user += "\nStep alignment of the text with the script (heuristic; [match] same step, "
                    "[missing] text only, [invented] script only, [order] out of order, "
                    "[covered] restates a neighbour, [unpaired] nothing expected):\n" +
                    input.alignment;
    request.user += "\nFindings of the alignment (evidence to check, not verified; `strong` where "
                    "the alignment is confident):\n";
    if (input.evidence.empty())
      request.user += "(none)\n";
    for (const Finding &f : input.evidence)
      request.user += fmt::format("- [{}, {}{}] {}\n", f.type, f.location,
                                  f.confidence == "certain" ? ", strong" : "", f.message);
  }
  request.jsonSchema = verdictSchema();
  request.schemaName = "verdict";
  return request;
}

ValidationRun runValidator(LlmClient &client, const ValidatorInput &input,
                           const CallParams &params, unsigned maxMalformedRetries) {
  ValidationRun run;
  ChatRequest request = buildValidatorRequest(input, params);
  const std::string baseUser = request.user;
  for (unsigned attempt = 0; attempt <= maxMalformedRetries; ++attempt) {
    ChatResult result = client.chat(request);
    json call = {{"prompt", {{"system", request.system}, {"user", request.user}}},
                 {"response", result.text},
                 {"call", toJson(result.record)}};
    if (!result.ok) {
      run.calls.push_back(std::move(call));
      run.error = result.error();
      run.llmError = result.errorKind();
      return run;
    }
    std::string error;
    std::optional<Verdict> verdict;
    if (result.truncated)
      error = "the answer was cut off at the token limit";
    else
      verdict = parseVerdict(result.text, error);
    call["verdict_error"] = verdict ? json(nullptr) : json(error);
    run.calls.push_back(std::move(call));
    if (verdict) {
      run.verdict = std::move(verdict);
      run.error.clear();
      return run;
    }
    run.error = fmt::format("malformed verdict ({} tries): {}", attempt + 1, error);
    request.user = baseUser + fmt::format(
                                  "\nYour previous answer was rejected: {}. Answer with the "
                                  "JSON verdict only, exactly in the shape above.\n",
                                  error);
  }
  return run;
}

} // namespace plate::agent

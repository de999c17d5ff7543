//===- EvalSweep.cpp - Parser x Validator sweeps over a corpus ------------===//
//
// Every candidate goes through the same deterministic validation as
// `plate translate` (EvalCompiler::checkCandidate: compiler, then the step
// alignment), so a sweep measures exactly what a translation run would do.
// Compiling is safe on several threads (ScriptCompilation shares nothing),
// so each worker scores its own attempts.
//
//===----------------------------------------------------------------------===//
#include "agent/EvalSweep.h"

#include "agent/Translator.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace plate::agent {

using nlohmann::json;

namespace {

/// One translation of the sweep.
struct Job {
  const CorpusEntry *entry;
  std::string parser, validator;
  bool direct = false;
  size_t truth; ///< index of the entry's ground truth layers
};

/// The compile hook of a --direct answer: it must parse as a command
/// stream and hold at least one command.
CompileReport checkDirectCommands(const EvalCompiler &compiler, const std::string &jsonl) {
  CompileReport report;
  ScriptLayers layers = compiler.commandLayers(jsonl);
  report.diagnostics = layers.diagnostics;
  report.ok = layers.compiled && !layers.blocks.empty();
  for (const CommandBlock &block : layers.blocks) {
    report.summary += fmt::format("step {}: {}", block.step, block.type);
    for (const CommandRow &row : block.rows)
      report.summary += " " + row.type;
    report.summary += "\n";
  }
  if (layers.compiled && layers.blocks.empty())
    report.diagnostics.push_back({{"code", ""}, {"severity", "error"}, {"category", "completeness"},
                                  {"line", 0}, {"column", 0}, {"step", ""},
                                  {"message", "the answer holds no command lines"}});
  return report;
}

double number(const json &j, const char *key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

/// Timings and tokens of one attempt of the loop's record.
void recordCosts(const json &attempt, json &a) {
  const json &call = attempt.contains("parser") ? attempt["parser"]["call"] : json::object();
  double parserSeconds = number(call, "latency_s");
  double compileSeconds =
      attempt.contains("timings") ? number(attempt["timings"], "compile_s") : 0.0;
  double validatorSeconds = 0;
  if (attempt.contains("validator") && attempt["validator"].contains("calls"))
    for (const json &v : attempt["validator"]["calls"])
      validatorSeconds += number(v["call"], "latency_s");
  a["latency_s"] = parserSeconds + compileSeconds; // Parser call to the end of mapping
  a["parser_s"] = parserSeconds;
  a["mapping_s"] = compileSeconds;
  a["validator_s"] = validatorSeconds;
  a["cached"] = call.value("cached", false);
  a["tokens_in"] = attempt.contains("tokens") ? attempt["tokens"].value("input", 0) : 0;
  a["tokens_out"] = attempt.contains("tokens") ? attempt["tokens"].value("output", 0) : 0;
}

/// One attempt of the loop's record, with its answer scored against the truth.
json scoreAttempt(const json &attempt, bool direct, const ScriptLayers &truth,
                  const EvalCompiler &compiler) {
  json a = {{"number", attempt.value("number", 0)}, {"passed", attempt.value("passed", false)}};
  recordCosts(attempt, a);
  std::string output = attempt.value(direct ? "commands" : "script", "");
  ScriptLayers cand = direct ? compiler.commandLayers(output) : compiler.scriptLayers(output, "");
  ParameterAccuracy pa = scoreParameterAccuracy(truth.steps, truth.blocks, cand.steps, cand.blocks);
  a["score"] = toJson(pa);
  a["pa"] = pa.value;
  a["pa_command"] =
      pa.command.total ? double(pa.command.clamped()) / double(pa.command.total) : 0.0;
  a["planning"] =
      toJson(direct ? scorePlanning(blockTypes(truth.blocks), blockTypes(cand.blocks))
                    : scorePlanning(stepTypes(truth.steps), stepTypes(cand.steps)));
  a["compiles"] = cand.compiled;
  // Equivalence needs a checked script; a direct command stream has none.
  std::optional<Equivalence> equivalence = direct ? std::nullopt : equivalenceOf(truth, cand);
  a["equivalent"] = equivalence ? json(equivalence->equivalent) : json(nullptr);
  if (equivalence && !equivalence->equivalent)
    a["difference"] = equivalence->difference;
  return a;
}

/// PA after k attempts without regeneration: the loop's own answers; a run
/// that stopped earlier keeps its last answer.
json paByAttempt(const json &attempts, unsigned maxAttempts) {
  json byAttempt = json::array();
  for (unsigned k = 1; k <= maxAttempts; ++k) {
    if (attempts.empty()) {
      byAttempt.push_back({{"pa", 0.0}, {"pa_command", 0.0}});
      continue;
    }
    const json &a = attempts[std::min<size_t>(k, attempts.size()) - 1];
    byAttempt.push_back({{"pa", a["pa"]}, {"pa_command", a["pa_command"]}});
  }
  return byAttempt;
}

/// The loop of `plate translate` for one job, with the sweep's settings;
/// nullopt with `error` when a model has no client (a missing key).
std::optional<TranslationResult> translate(const Job &job, const SweepSettings &settings,
                                           const EvalCompiler &compiler, const Platform &platform,
                                           std::string &error) {
  auto parserSpec = ModelSpec::parse(job.parser, error);
  auto validatorSpec = parserSpec ? ModelSpec::parse(job.validator, error) : std::nullopt;
  std::optional<LlmClient> parser, validator;
  if (validatorSpec) {
    parser = LlmClient::fromEnvironment(*parserSpec, settings.client, error);
    if (parser)
      validator = LlmClient::fromEnvironment(*validatorSpec, settings.client, error);
  }
  if (!validator)
    return std::nullopt;
  TranslatorConfig config;
  config.maxAttempts = settings.maxAttempts;
  config.direct = job.direct;
  for (CallParams *params : {&config.parserParams, &config.validatorParams}) {
    params->temperature = settings.temperature;
    params->seed = settings.seed;
  }
  config.parserParams.maxTokens = job.direct ? 16384 : 4096;
  config.validatorParams.maxTokens = 2048;
  Translator translator(
      *parser, *validator, platform, config,
      [&](const std::string &script, const std::string &text) {
        return compiler.checkCandidate(script, text);
      },
      [&](const std::string &jsonl) { return checkDirectCommands(compiler, jsonl); });
  return translator.run(job.entry->protocol, job.entry->layout);
}

json runJob(const Job &job, const SweepSettings &settings, const EvalCompiler &compiler,
            const Platform &platform, const ScriptLayers &truth) {
  json record = {{"protocol", job.entry->name},
                 {"parser", job.parser},
                 {"validator", job.validator},
                 {"mode", job.direct ? "direct" : "rule-based"}};
  std::string error;
  std::optional<TranslationResult> result = translate(job, settings, compiler, platform, error);
  if (!result) {
    // No attempt ran (a model without a client, such as a missing key): the
    // run scores zero on every attempt, so the report still adds up.
    record["outcome"] = "final fail";
    record["error"] = error;
    record["attempts"] = json::array();
    record["pa_by_attempt"] = paByAttempt(record["attempts"], settings.maxAttempts);
    record["final_pa"] = 0.0;
    record["final_pa_command"] = 0.0;
    record["final_equivalent"] = nullptr;
    return record;
  }
  record["outcome"] = result->outcome;
  if (!result->error.empty())
    record["error"] = result->error;
  json attempts = json::array();
  for (const json &attempt : result->attempts)
    attempts.push_back(scoreAttempt(attempt, job.direct, truth, compiler));
  record["attempts"] = attempts;
  json byAttempt = paByAttempt(attempts, settings.maxAttempts);
  record["pa_by_attempt"] = byAttempt;
  record["final_pa"] = byAttempt.back()["pa"];
  record["final_pa_command"] = byAttempt.back()["pa_command"];
  record["final_equivalent"] = attempts.empty() ? json(nullptr) : attempts.back()["equivalent"];
  return record;
}

/// Every Parser x Validator (x mode) x protocol, in report order.
std::vector<Job> sweepJobs(const SweepSettings &settings, const Corpus &corpus) {
  std::vector<Job> jobs;
  for (const std::string &parser : settings.parsers)
    for (const std::string &validator : settings.validators)
      for (bool direct : {false, true}) {
        if (direct && !settings.direct)
          continue;
        for (size_t i = 0; i < corpus.entries.size(); ++i)
          jobs.push_back({&corpus.entries[i], parser, validator, direct, i});
      }
  return jobs;
}

/// Calls `run(i)` for every i < count on up to `threads` threads; with
/// `perMinute`, starts are spaced 60 / perMinute seconds apart.
void runConcurrently(size_t count, unsigned threads, double perMinute,
                     const std::function<void(size_t)> &run) {
  std::atomic<size_t> next{0};
  std::mutex rateMutex;
  auto nextStart = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (size_t i; (i = next++) < count;) {
      if (perMinute > 0) {
        std::unique_lock<std::mutex> lock(rateMutex);
        auto now = std::chrono::steady_clock::now();
        auto start = std::max(now, nextStart);
        nextStart = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(60.0 / perMinute));
        lock.unlock();
        std::this_thread::sleep_until(start);
      }
      run(i);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<size_t>(threads, count); ++t)
    pool.emplace_back(worker);
  for (std::thread &t : pool)
    t.join();
}

} // namespace

std::optional<SweepResult> runSweep(const SweepSettings &settings, const Corpus &corpus,
                                    const EvalCompiler &compiler, const Platform &platform,
                                    const std::function<void(const std::string &)> &progress,
                                    std::string &error) {
  for (const std::string &spec : settings.parsers)
    if (!ModelSpec::parse(spec, error))
      return std::nullopt;
  for (const std::string &spec : settings.validators)
    if (!ModelSpec::parse(spec, error))
      return std::nullopt;
  std::vector<ScriptLayers> truths;
  for (const CorpusEntry &entry : corpus.entries) {
    truths.push_back(compiler.scriptLayers(entry.truth, ""));
    if (!truths.back().compiled) {
      error = fmt::format("the ground truth of `{}` does not compile; run "
                          "`plate eval --check-corpus`",
                          entry.name);
      return std::nullopt;
    }
  }
  std::vector<Job> jobs = sweepJobs(settings, corpus);
  SweepResult result;
  result.started = isoTimestampNow();
  std::vector<json> runs(jobs.size());
  std::mutex progressMutex;
  runConcurrently(jobs.size(), settings.jobs, settings.perMinute, [&](size_t i) {
    const Job &job = jobs[i];
    runs[i] = runJob(job, settings, compiler, platform, truths[job.truth]);
    std::lock_guard<std::mutex> lock(progressMutex);
    progress(fmt::format("[{}/{}] {} {} / {}{}: {} (PA {:.3f})", i + 1, jobs.size(),
                         job.entry->name, job.parser, job.validator,
                         job.direct ? " --direct" : "", runs[i].value("outcome", ""),
                         runs[i].value("final_pa", 0.0)));
  });
  for (json &run : runs)
    result.runs.push_back(std::move(run));
  return result;
}

json sweepJson(const SweepSettings &settings, const Corpus &corpus, const SweepResult &result) {
  json names = json::array();
  for (const CorpusEntry &e : corpus.entries)
    names.push_back(e.name);
  return {{"tool", "plate " PLATE_VERSION},
          {"label", settings.label},
          {"started", result.started},
          {"parsers", settings.parsers},
          {"validators", settings.validators},
          {"direct", settings.direct},
          {"max_attempts", settings.maxAttempts},
          {"temperature", settings.temperature},
          {"seed", settings.seed},
          {"jobs", settings.jobs},
          {"per_minute", settings.perMinute},
          {"corpus", names},
          {"runs", result.runs}};
}

} // namespace plate::agent

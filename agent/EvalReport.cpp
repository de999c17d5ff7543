//===- EvalReport.cpp - What a sweep writes for its readers ---------------===//
//
// Runs are grouped by Parser / Validator (and mode) in the order they first
// appear, which is the sweep's job order, so two reports of one sweep list
// their rows alike. Model specs lose their base URLs: a local port means
// nothing in a report.
//
//===----------------------------------------------------------------------===//
#include "agent/EvalReport.h"

#include "agent/EvalCharts.h"
#include "agent/EvalScoring.h"
#include "agent/Translator.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>

namespace plate::agent {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// The runs of one Parser / Validator / mode, averaged.
struct ComboStats {
  std::string parser, validator, mode;
  size_t runs = 0;
  std::vector<double> paByAttempt, paCommandByAttempt;
  std::map<std::string, size_t> outcomes;
  double latency = 0, validatorLatency = 0, tokensIn = 0, tokensOut = 0;
  size_t attempts = 0;
  double precision = 0, recall = 0, nlev = 0;

  size_t outcome(const std::string &name) const {
    auto it = outcomes.find(name);
    return it == outcomes.end() ? 0 : it->second;
  }
};

/// Every combination with its key, in the order of first appearance.
struct Combos {
  std::map<std::string, ComboStats> byKey;
  std::vector<std::string> order;
  const ComboStats &operator[](const std::string &key) const { return byKey.at(key); }
};

std::string shortModel(const std::string &spec) { return spec.substr(0, spec.find('@')); }

std::vector<std::string> shortModels(const std::vector<std::string> &specs) {
  std::vector<std::string> out;
  for (const std::string &spec : specs)
    out.push_back(shortModel(spec));
  return out;
}

std::string comboKey(const json &run) {
  return fmt::format("{} / {}{}", shortModel(run["parser"]), shortModel(run["validator"]),
                     run["mode"] == "direct" ? " (direct)" : "");
}

/// Adds one run's sums to its combination.
void addRun(ComboStats &s, const json &run, unsigned maxAttempts) {
  s.parser = run["parser"];
  s.validator = run["validator"];
  s.mode = run["mode"];
  s.paByAttempt.resize(maxAttempts, 0);
  s.paCommandByAttempt.resize(maxAttempts, 0);
  ++s.runs;
  for (unsigned k = 0; k < maxAttempts; ++k) {
    s.paByAttempt[k] += run["pa_by_attempt"][k]["pa"].get<double>();
    s.paCommandByAttempt[k] += run["pa_by_attempt"][k]["pa_command"].get<double>();
  }
  ++s.outcomes[run.value("outcome", "final fail")];
  for (const json &a : run["attempts"]) {
    ++s.attempts;
    s.latency += a["latency_s"].get<double>();
    s.validatorLatency += a["validator_s"].get<double>();
    s.tokensIn += a["tokens_in"].get<double>();
    s.tokensOut += a["tokens_out"].get<double>();
  }
  if (!run["attempts"].empty()) {
    const json &last = run["attempts"].back()["planning"];
    s.precision += last["precision"].get<double>();
    s.recall += last["recall"].get<double>();
    s.nlev += last["normalized_levenshtein"].get<double>();
  }
}

/// Sums to means: scores per run, costs per attempt.
void averageCombo(ComboStats &s) {
  for (double &v : s.paByAttempt)
    v /= double(s.runs);
  for (double &v : s.paCommandByAttempt)
    v /= double(s.runs);
  s.precision /= double(s.runs);
  s.recall /= double(s.runs);
  s.nlev /= double(s.runs);
  if (s.attempts) {
    s.latency /= double(s.attempts);
    s.validatorLatency /= double(s.attempts);
    s.tokensIn /= double(s.attempts);
    s.tokensOut /= double(s.attempts);
  }
}

Combos combineRuns(const json &runs, unsigned maxAttempts) {
  Combos combos;
  for (const json &run : runs) {
    std::string key = comboKey(run);
    if (!combos.byKey.count(key))
      combos.order.push_back(key);
    addRun(combos.byKey[key], run, maxAttempts);
  }
  for (auto &[key, s] : combos.byKey)
    averageCombo(s);
  return combos;
}

/// Final command-layer PA per Parser / Validator that ran in both modes.
struct ModeComparison {
  std::vector<std::string> pairs;
  std::vector<std::vector<double>> values{2}; ///< [rule-based, direct][pair]
};

ModeComparison compareModes(const Combos &combos) {
  ModeComparison comparison;
  for (const std::string &key : combos.order) {
    const ComboStats &s = combos[key];
    if (s.mode != "rule-based")
      continue;
    auto direct = combos.byKey.find(key + " (direct)");
    if (direct == combos.byKey.end())
      continue;
    comparison.pairs.push_back(key);
    comparison.values[0].push_back(s.paCommandByAttempt.back());
    comparison.values[1].push_back(direct->second.paCommandByAttempt.back());
  }
  return comparison;
}

std::vector<std::string> outcomeNames(unsigned maxAttempts) {
  std::vector<std::string> names;
  for (unsigned k = 1; k <= maxAttempts; ++k)
    names.push_back(passName(k));
  names.push_back("final fail");
  return names;
}

void writeCharts(const fs::path &dir, const Combos &combos, const ModeComparison &modes,
                 unsigned maxAttempts) {
  std::vector<std::string> attemptSeries;
  std::vector<std::vector<double>> attemptValues(maxAttempts);
  for (unsigned k = 0; k < maxAttempts; ++k) {
    attemptSeries.push_back(fmt::format("attempt {}", k + 1));
    for (const std::string &key : combos.order)
      attemptValues[k].push_back(combos[key].paByAttempt[k]);
  }
  std::ofstream(dir / "pa-by-attempt.svg")
      << barChart("Parameter Accuracy per attempt (no regeneration)", combos.order,
                  attemptSeries, attemptValues);
  std::vector<std::string> outcomes = outcomeNames(maxAttempts);
  std::vector<std::vector<double>> outcomeValues(outcomes.size());
  for (size_t o = 0; o < outcomes.size(); ++o)
    for (const std::string &key : combos.order)
      outcomeValues[o].push_back(double(combos[key].outcome(outcomes[o])) /
                                 double(combos[key].runs));
  std::ofstream(dir / "pass-categories.svg")
      << barChart("Pass categories (share of protocols)", combos.order, outcomes, outcomeValues);
  std::vector<ChartPoint> points;
  for (const std::string &key : combos.order)
    points.push_back({key, combos[key].latency, combos[key].paByAttempt.back()});
  std::ofstream(dir / "accuracy-latency.svg")
      << scatterChart("Accuracy-latency plane",
                      "mean latency per attempt, Parser call to end of mapping (s)", points);
  if (!modes.pairs.empty())
    std::ofstream(dir / "rule-vs-direct.svg")
        << barChart("Command-layer accuracy: rule-based mapping vs --direct", modes.pairs,
                    {"rule-based", "direct"}, modes.values);
}

std::string headerSection(const SweepSettings &settings, const Corpus &corpus,
                          const std::string &started) {
  std::string md = "# plate eval: translation sweep\n\n";
  if (!settings.label.empty())
    md += "> **" + settings.label + "**\n\n";
  md += fmt::format(
      "- tool: plate {}\n- started: {}\n- corpus: {} protocol(s)\n- Parsers: {}\n"
      "- Validators: {}\n- mapping: rule-based{}\n- attempts: {}, temperature {}, "
      "seed {} (the same for every combination and protocol)\n- concurrency: {} "
      "job(s){}\n- cache: {}\n\n",
      PLATE_VERSION, started, corpus.entries.size(), fmt::join(shortModels(settings.parsers), ", "),
      fmt::join(shortModels(settings.validators), ", "), settings.direct ? " and --direct" : "",
      settings.maxAttempts, settings.temperature, settings.seed, settings.jobs,
      settings.perMinute > 0 ? fmt::format(", {} start(s) per minute", settings.perMinute) : "",
      settings.client.cacheDir.empty() ? "off" : "`" + settings.client.cacheDir + "`");
  md += "Metrics are defined in `docs/evaluation.md`. PA after attempt k is the score of the "
        "loop's own answer at attempt k (no regeneration; a run that stopped earlier keeps its "
        "last answer). Latency is per attempt, from the Parser call to the end of mapping "
        "(compile, lowering, step alignment); the Validator is reported separately. A cached "
        "reply reports the latency recorded when it was first fetched.\n\n";
  return md;
}

std::string accuracySection(const Combos &combos, unsigned maxAttempts) {
  std::string md = "## Parameter Accuracy per attempt\n\n![PA per attempt](pa-by-attempt.svg)\n\n";
  md += "| Parser / Validator | runs |";
  for (unsigned k = 1; k <= maxAttempts; ++k)
    md += fmt::format(" PA@{} |", k);
  md += " command-layer PA | step precision | step recall | norm. Levenshtein |\n| --- | ---: |";
  for (unsigned k = 1; k <= maxAttempts; ++k)
    md += " ---: |";
  md += " ---: | ---: | ---: | ---: |\n";
  for (const std::string &key : combos.order) {
    const ComboStats &s = combos[key];
    md += fmt::format("| {} | {} |", key, s.runs);
    for (double v : s.paByAttempt)
      md += fmt::format(" {:.3f} |", v);
    md += fmt::format(" {:.3f} | {:.3f} | {:.3f} | {:.3f} |\n", s.paCommandByAttempt.back(),
                      s.precision, s.recall, s.nlev);
  }
  return md;
}

std::string passSection(const Combos &combos, unsigned maxAttempts) {
  std::vector<std::string> outcomes = outcomeNames(maxAttempts);
  std::string md =
      "\n## Pass categories\n\n![pass categories](pass-categories.svg)\n\n| Parser / Validator |";
  for (const std::string &name : outcomes)
    md += " " + name + " |";
  md += "\n| --- |";
  for (size_t i = 0; i < outcomes.size(); ++i)
    md += " ---: |";
  md += "\n";
  for (const std::string &key : combos.order) {
    const ComboStats &s = combos[key];
    md += "| " + key + " |";
    for (const std::string &name : outcomes)
      md += fmt::format(" {} ({}) |", formatPercent(s.outcome(name), s.runs), s.outcome(name));
    md += "\n";
  }
  return md;
}

std::string latencySection(const Combos &combos) {
  std::string md =
      "\n## Accuracy-latency plane\n\n![accuracy-latency](accuracy-latency.svg)\n\n"
      "| Parser / Validator | final PA | latency per attempt (s) | Validator per attempt (s) "
      "| tokens in per attempt | tokens out per attempt |\n| --- | ---: | ---: | ---: | ---: | "
      "---: |\n";
  for (const std::string &key : combos.order) {
    const ComboStats &s = combos[key];
    md += fmt::format("| {} | {:.3f} | {:.3f} | {:.3f} | {:.0f} | {:.0f} |\n", key,
                      s.paByAttempt.back(), s.latency, s.validatorLatency, s.tokensIn,
                      s.tokensOut);
  }
  return md;
}

std::string modeSection(const ModeComparison &modes) {
  std::string md = "\n## Rule-based versus direct mapping\n\n";
  if (modes.pairs.empty())
    return md + "Not measured in this sweep (run with `--direct`).\n";
  md += "Compared on the command layer (a direct answer has no script, so no structured "
        "layer): max(C_seq - P_seq, 0) / T_seq of the final answer.\n\n"
        "![rule-based vs direct](rule-vs-direct.svg)\n\n| Parser / Validator | rule-based | "
        "direct |\n| --- | ---: | ---: |\n";
  for (size_t i = 0; i < modes.pairs.size(); ++i)
    md += fmt::format("| {} | {:.3f} | {:.3f} |\n", modes.pairs[i], modes.values[0][i],
                      modes.values[1][i]);
  return md;
}

/// "C/P/T" of one layer of a score's JSON.
std::string layerTerms(const json &layer) {
  return fmt::format("{}/{}/{}", layer["C"].get<size_t>(), layer["P"].get<size_t>(),
                     layer["T"].get<size_t>());
}

/// A row per run, then the runs where PA and equivalence disagree.
std::string perProtocolSection(const json &runs) {
  std::string md = "\n## Per protocol\n\n| protocol | Parser / Validator | outcome | final PA | "
                   "equivalent | structured C/P/T | command C/P/T |\n| --- | --- | --- | ---: | "
                   "--- | --- | --- |\n";
  std::string disagreements;
  for (const json &run : runs) {
    std::string key = comboKey(run);
    std::string structured = "-", command = "-";
    if (!run["attempts"].empty()) {
      const json &score = run["attempts"].back()["score"];
      structured = layerTerms(score["structured"]);
      command = layerTerms(score["command"]);
    }
    const json &equivalent = run.contains("final_equivalent") ? run["final_equivalent"] : json();
    md += fmt::format("| {} | {} | {} | {:.3f} | {} | {} | {} |\n",
                      run["protocol"].get<std::string>(), key, run.value("outcome", ""),
                      run["final_pa"].get<double>(), equivalenceCell(equivalent), structured,
                      command);
    if (std::string why = scoresDisagree(run["final_pa"].get<double>(), equivalent); !why.empty())
      disagreements += fmt::format("- {} ({}): {}\n", run["protocol"].get<std::string>(), key, why);
  }
  return md + "\n## Where PA and equivalence disagree\n\n" +
         (disagreements.empty() ? std::string("None.\n") : disagreements) +
         "\nRaw results: `sweep.json`.\n";
}

} // namespace

void writeSweepReport(const SweepSettings &settings, const Corpus &corpus,
                      const SweepResult &result) {
  fs::path dir(settings.outDir);
  fs::create_directories(dir);
  std::ofstream(dir / "sweep.json")
      << sweepJson(settings, corpus, result).dump(1, ' ', false, json::error_handler_t::replace)
      << "\n";
  Combos combos = combineRuns(result.runs, settings.maxAttempts);
  ModeComparison modes = compareModes(combos);
  writeCharts(dir, combos, modes, settings.maxAttempts);
  std::ofstream(dir / "report.md")
      << headerSection(settings, corpus, result.started) +
             accuracySection(combos, settings.maxAttempts) +
             passSection(combos, settings.maxAttempts) + latencySection(combos) +
             modeSection(modes) + perProtocolSection(result.runs);
}

void writeSweepSummary(std::ostream &out, const SweepSettings &settings, const Corpus &corpus,
                       const SweepResult &result) {
  std::map<std::string, size_t> outcomes;
  for (const json &run : result.runs)
    ++outcomes[run.value("outcome", "")];
  out << fmt::format("plate eval: {} run(s) over {} protocol(s); report in {}\n",
                     result.runs.size(), corpus.entries.size(),
                     (fs::path(settings.outDir) / "report.md").string());
  for (const auto &[outcome, count] : outcomes)
    out << fmt::format("  {}: {}\n", outcome, count);
}

} // namespace plate::agent

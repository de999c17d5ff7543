//===- EvalCorpus.cpp - The corpora the evaluation harness reads ----------===//
//
// Folders are read in name order, so reports and recorded sweeps list the
// protocols the same way on every machine.
//
//===----------------------------------------------------------------------===//
#include "agent/EvalCorpus.h"

#include "ir/SourceManager.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>

namespace plate::agent {

using nlohmann::json;
namespace fs = std::filesystem;

std::optional<Corpus> loadCorpus(const std::string &dir, const std::string &only,
                                 std::string &error) {
  if (!fs::is_directory(dir)) {
    error = fmt::format("`{}` is not a corpus directory", dir);
    return std::nullopt;
  }
  std::vector<fs::path> folders;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir))
    if (entry.is_directory() && fs::exists(entry.path() / "truth.plate"))
      folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  Corpus corpus{dir, {}};
  for (const fs::path &folder : folders) {
    std::string name = folder.filename().string();
    if (!only.empty() && name.find(only) == std::string::npos)
      continue;
    std::optional<std::string> protocol = readWholeFile((folder / "protocol.txt").string());
    std::optional<std::string> truth = readWholeFile((folder / "truth.plate").string());
    if (!protocol || !truth) {
      error = fmt::format("`{}` needs protocol.txt and truth.plate", folder.string());
      return std::nullopt;
    }
    corpus.entries.push_back({name, *protocol, *truth,
                              readWholeFile((folder / "layout.csv").string()).value_or("")});
  }
  if (corpus.entries.empty()) {
    error = fmt::format("no protocols in `{}`{}", dir,
                        only.empty() ? "" : fmt::format(" matching `{}`", only));
    return std::nullopt;
  }
  return corpus;
}

std::optional<std::vector<CorpusEntry>> protocolsOfAnswers(const std::vector<Corpus> &corpora,
                                                           const std::string &answersDir,
                                                           const std::string &only,
                                                           std::string &error) {
  std::vector<CorpusEntry> all;
  for (const Corpus &corpus : corpora)
    all.insert(all.end(), corpus.entries.begin(), corpus.entries.end());
  std::sort(all.begin(), all.end(),
            [](const CorpusEntry &a, const CorpusEntry &b) { return a.name < b.name; });
  std::optional<std::string> listed =
      readWholeFile((fs::path(answersDir) / "protocols.txt").string());
  if (!listed)
    return all;
  std::vector<CorpusEntry> chosen;
  std::istringstream lines(*listed);
  for (std::string name; std::getline(lines, name);) {
    if (name.empty() || name[0] == '#')
      continue;
    auto found = std::find_if(all.begin(), all.end(),
                              [&](const CorpusEntry &e) { return e.name == name; });
    if (found != all.end()) {
      chosen.push_back(*found);
      continue;
    }
    if (only.empty()) {
      error = fmt::format("`{}` of {}/protocols.txt is in no --corpus", name, answersDir);
      return std::nullopt;
    }
    // Otherwise --only filtered it out of every corpus.
  }
  return chosen;
}

namespace {

void writeCompileReport(std::ostream &out, const CompileReport &report) {
  for (const json &d : report.diagnostics)
    out << fmt::format("  {} {} line {}: {}\n", d.value("severity", ""), d.value("code", ""),
                       d.value("line", 0), d.value("message", ""));
  for (const Finding &f : report.certain)
    out << fmt::format("  certain {} {}: {}\n", f.type, f.location, f.message);
  for (const Finding &f : report.uncertain)
    out << fmt::format("  uncertain {} {}: {}\n", f.type, f.location, f.message);
}

} // namespace

bool checkCorpus(const Corpus &corpus, const EvalCompiler &compiler, bool verbose,
                 std::ostream &out) {
  size_t errors = 0, rejected = 0, uncertain = 0;
  for (const CorpusEntry &entry : corpus.entries) {
    CompileReport report = compiler.checkCandidate(entry.truth, entry.protocol);
    size_t warnings = 0, errorCount = 0;
    for (const json &d : report.diagnostics)
      (d.value("severity", "") == "error" ? errorCount : warnings) += 1;
    out << fmt::format("{:<40} {} error(s), {} warning(s), {} certain and {} uncertain "
                       "finding(s)\n",
                       entry.name, errorCount, warnings, report.certain.size(),
                       report.uncertain.size());
    if (verbose)
      writeCompileReport(out, report);
    errors += !report.ok;
    rejected += report.ok && !report.certain.empty();
    uncertain += report.uncertain.size();
  }
  out << fmt::format("{} ground truth(s): {} with compile errors, {} rejected by the "
                     "step alignment, {} uncertain finding(s)\n",
                     corpus.entries.size(), errors, rejected, uncertain);
  return errors == 0 && rejected == 0;
}

} // namespace plate::agent

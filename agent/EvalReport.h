//===- EvalReport.h - What a sweep writes for its readers -------*- C++ -*-===//
//
// A finished sweep (agent/EvalSweep.h) becomes report.md with its charts
// (PA per attempt, pass categories, the accuracy-latency plane and, with
// --direct, rule-based versus direct mapping) and sweep.json beside them.
// Everything is computed from the runs' JSON, so a report can be remade
// from sweep.json alone.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/EvalCorpus.h"
#include "agent/EvalSweep.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>

namespace plate::agent {

/// Writes sweep.json, report.md and the charts into settings.outDir
/// (created if need be).
void writeSweepReport(const SweepSettings &settings, const Corpus &corpus,
                      const SweepResult &result);

/// The lines a finished sweep ends with: how many runs, where the report
/// is, and the count of each outcome.
void writeSweepSummary(std::ostream &out, const SweepSettings &settings, const Corpus &corpus,
                       const SweepResult &result);

} // namespace plate::agent

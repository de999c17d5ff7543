//===- Provenance.cpp - What a run's outputs say about simulated values ---===//
//
// docs/simulator.md, "What the outputs say": the terminal, the read and
// analysis files, the plot, the state and the journal each say which
// values the simulator computed and which sample concentrations it made
// up, so that no simulated number passes for a measurement.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"

#include <fmt/format.h>

#include <algorithm>

namespace plate::backend {

std::string inventedList(const std::vector<SampleTruth> &truths, std::string_view separator) {
  std::string text;
  for (const SampleTruth &truth : truths) {
    if (!truth.invented)
      continue;
    if (!text.empty())
      text += separator;
    text += fmt::format("{} {}{}", truth.name, formatConcentration(truth.value),
                        truth.unit.empty() ? std::string(" (arbitrary units)") : " " + truth.unit);
  }
  return text;
}

std::string inventedReason(const std::string &truthFile) {
  return truthFile.empty() ? std::string("no --truth") : fmt::format("not in --truth {}", truthFile);
}

namespace {
std::string readName(const PlateRead &read, size_t index) {
  return fmt::format("read {} ({} nm)", index + 1, formatNumber(read.wavelengthNm));
}
} // namespace

std::vector<std::string> simulationNotes(const RunResult &result) {
  std::vector<std::string> lines;
  bool anySimulated = std::any_of(result.reads.begin(), result.reads.end(),
                                  [](const PlateRead &read) { return read.simulated; });
  if (!result.simulatedDevice() && !anySimulated)
    return lines;
  std::string text = "SIMULATED: ";
  if (result.simulatedDevice())
    text += "the simulator ran this, not a robot; ";
  bool allModel = std::all_of(result.reads.begin(), result.reads.end(), modelRead);
  if (result.reads.empty()) {
    text += "no reads";
  } else if (allModel) {
    text += fmt::format("{} computed by the reader model of docs/simulator.md, not measured",
                        result.reads.size() == 1 ? "the read's values are"
                                                 : "every read's values are");
  } else {
    for (size_t i = 0; i < result.reads.size(); ++i) {
      const PlateRead &read = result.reads[i];
      text += i ? "; " : "";
      text += readName(read, i);
      if (modelRead(read))
        text += " is simulated (docs/simulator.md)";
      else if (read.simulated)
        text += fmt::format(" is from --reader-data {}, which says it was simulated", read.dataFile);
      else if (!read.dataFile.empty())
        text += fmt::format(" is measured (--reader-data {})", read.dataFile);
      else
        text += " is measured";
    }
  }
  lines.push_back(std::move(text));
  std::string invented = inventedList(result.truths, ", ");
  if (!invented.empty() && std::any_of(result.reads.begin(), result.reads.end(), modelRead))
    lines.push_back(fmt::format("SIMULATED: sample concentrations invented by the simulator "
                                "({}): {}",
                                inventedReason(result.truthFile), invented));
  if (result.flatResponse && std::any_of(result.reads.begin(), result.reads.end(), modelRead))
    lines.push_back("SIMULATED: no calibrant in the layout states a concentration, so the reader "
                    "model has no response to scale and invents no sample concentration: every "
                    "well reads the baseline (about 0.05 OD) plus noise");
  return lines;
}

Json simulationJson(const RunResult &result) {
  bool anySimulated = std::any_of(result.reads.begin(), result.reads.end(),
                                  [](const PlateRead &read) { return read.simulated; });
  if (!result.simulatedDevice() && !anySimulated)
    return Json();
  Json json{{"device", result.device}, {"model", "docs/simulator.md"}};
  Json reads = Json::array();
  for (size_t i = 0; i < result.reads.size(); ++i) {
    const PlateRead &read = result.reads[i];
    Json entry{{"read", i + 1},
               {"seq", read.seq},
               {"wavelength_nm", jsonNumber(read.wavelengthNm)},
               {"simulated", read.simulated}};
    if (!read.dataFile.empty())
      entry["reader_data"] = read.dataFile;
    reads.push_back(std::move(entry));
  }
  json["reads"] = std::move(reads);
  Json truths = Json::array();
  for (const SampleTruth &truth : result.truths)
    truths.push_back(Json{{"name", truth.name},
                          {"value", jsonNumber(truth.value)},
                          {"unit", truth.unit},
                          {"invented", truth.invented}});
  json["true_concentrations"] = std::move(truths);
  if (!result.truthFile.empty())
    json["truth_file"] = result.truthFile;
  return json;
}

} // namespace plate::backend

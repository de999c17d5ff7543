//===- Simulator.cpp - Simulated device and absorbance model ---------------===//
//
// The model is documented in Simulator.h; this file keeps its arithmetic
// and the truth-map reader.
//
//===----------------------------------------------------------------------===//
#include "backend/Simulator.h"
#include "ir/JsonParse.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <sstream>
#include <unistd.h>

namespace plate::backend {

ReaderModel::ReaderModel(const RunSetup &setup, std::map<std::string, double> truth,
                         Params params)
    : setup_(setup), params_(params), random_(params.seed) {
  double cmin = 0, cmax = 0;
  bool any = false;
  for (const LayoutLiquid &liquid : setup.layout) {
    if (liquid.role != ir::LiquidRole::Calibrant || !liquid.conc)
      continue;
    analyte_[liquid.name] = *liquid.conc;
    cmin = any ? std::min(cmin, *liquid.conc) : *liquid.conc;
    cmax = any ? std::max(cmax, *liquid.conc) : *liquid.conc;
    any = true;
  }
  if (!any)
    cmax = 1; // no calibrants: unknowns land between 0.25 and 0.75 (arbitrary units)
  std::vector<const LayoutLiquid *> unknowns;
  for (const LayoutLiquid &liquid : setup.layout)
    if (liquid.role == ir::LiquidRole::Sample || liquid.role == ir::LiquidRole::Control)
      unknowns.push_back(&liquid);
  for (size_t i = 0; i < unknowns.size(); ++i) {
    const LayoutLiquid &liquid = *unknowns[i];
    double dilution = liquid.dilution.value_or(1);
    if (auto it = truth.find(liquid.name); it != truth.end()) {
      analyte_[liquid.name] = it->second / dilution;
    } else {
      double position = unknowns.size() > 1 ? double(i) / double(unknowns.size() - 1) : 0.5;
      analyte_[liquid.name] = cmin + (cmax - cmin) * (0.25 + 0.5 * position);
    }
  }
}

std::optional<double> ReaderModel::analyteConc(const std::string &liquid) const {
  auto it = analyte_.find(liquid);
  if (it == analyte_.end())
    return std::nullopt;
  return it->second;
}

double ReaderModel::signal(const Contents &contents) const {
  double total = totalVolume(contents);
  if (total <= 0)
    return 0;
  double amount = 0;
  for (const auto &[liquid, volume] : contents)
    if (auto it = analyte_.find(liquid); it != analyte_.end())
      amount += it->second * volume;
  return amount / total;
}

bool ReaderModel::holdsCalibrant(const Contents &contents) const {
  return std::any_of(contents.begin(), contents.end(), [&](const auto &entry) {
    const LayoutLiquid *liquid = setup_.findLayout(entry.first);
    return liquid && liquid->role == ir::LiquidRole::Calibrant;
  });
}

void ReaderModel::beforeRemoval(const DeckState &state, const std::vector<Well> &wells) {
  for (Well well : wells) {
    const Contents &contents = state.well(well);
    if (totalVolume(contents) <= 0)
      continue;
    double mixture = signal(contents);
    // A later removal of analyte-free liquid (a wash) must not erase what
    // the sample incubation bound.
    double &bound = captured_[well];
    bound = std::max(bound, mixture);
    if (holdsCalibrant(contents))
      calibrantWells_.insert(well);
  }
}

PlateRead ReaderModel::read(const Command &command, const DeckState &state) {
  auto effective = [&](Well well, const Contents &contents) {
    if (totalVolume(contents) <= 0)
      return 0.0; // an empty well reads the baseline
    auto bound = captured_.find(well);
    double mixture = signal(contents);
    return bound == captured_.end() ? mixture : std::max(mixture, bound->second);
  };
  PlateRead result;
  result.seq = command.seq;
  result.wavelengthNm = command.args.value("wavelength_nm", 0.0);
  if (command.args.contains("reference_nm"))
    result.referenceNm = command.args["reference_nm"].get<double>();
  result.step = command.step;
  result.line = command.line;

  // Scale so the strongest calibrant well reads `top`.
  const PlateShape &shape = state.labware().shape;
  double strongest = 0;
  for (unsigned row = 1; row <= shape.rows; ++row)
    for (unsigned col = 1; col <= shape.cols; ++col) {
      Well well{uint8_t(row), uint8_t(col)};
      const Contents &contents = state.well(well);
      if (holdsCalibrant(contents) || calibrantWells_.count(well))
        strongest = std::max(strongest, effective(well, contents));
    }
  double scale = strongest > 0 ? (params_.top - params_.baseline) / strongest : 0;

  std::normal_distribution<double> noise(0, params_.sigma);
  for (const Json &name : command.args.value("wells", Json::array())) {
    auto well = Well::parse(name.get<std::string>());
    if (!well || !shape.contains(*well))
      continue;
    double od = params_.baseline + scale * effective(*well, state.well(*well)) + noise(random_);
    if (result.referenceNm)
      od -= params_.referenceBaseline + noise(random_);
    result.values[*well] = std::round(od * 1e4) / 1e4;
  }
  return result;
}

std::optional<std::map<std::string, double>>
readTruthFile(const std::string &path, SourceManager &sources, DiagnosticEngine &diags) {
  auto fileId = sources.addFile(path);
  if (!fileId) {
    diags.report(DiagId::CannotRead, SourceLoc{}, path, std::strerror(errno));
    return std::nullopt;
  }
  std::string_view text = sources.contents(*fileId);
  std::map<std::string, double> truth;
  auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    auto json = parseJsonOrDiscarded<nlohmann::json>(text);
    if (json.is_discarded()) {
      diags.report(DiagId::BadTruthFile, SourceLoc{*fileId, 1, 1, 1}, "the file is not valid JSON");
      return std::nullopt;
    }
    for (const auto &[name, value] : json.items()) {
      if (!value.is_number()) {
        diags.report(DiagId::BadTruthFile, SourceLoc{*fileId, 1, 1, 1},
                     fmt::format("the value of `{}` is not a number", name));
        return std::nullopt;
      }
      truth[name] = value.get<double>();
    }
    return truth;
  }
  for (uint32_t line = 1; line <= sources.lineCount(*fileId); ++line) {
    std::string row(sources.lineText(*fileId, line));
    if (row.find_first_not_of(" \t\r") == std::string::npos || row[0] == '#')
      continue;
    auto comma = row.find(',');
    std::string name = row.substr(0, comma);
    std::string value = comma == std::string::npos ? "" : row.substr(comma + 1);
    char *end = nullptr;
    double number = std::strtod(value.c_str(), &end);
    bool ok = comma != std::string::npos && end != value.c_str() &&
              std::all_of(static_cast<const char *>(end), value.c_str() + value.size(),
                          [](char c) { return c == ' ' || c == '\r' || c == '\t'; });
    if (!ok) {
      if (truth.empty() && line == 1)
        continue; // header line
      diags.report(DiagId::BadTruthFile,
                   SourceLoc{*fileId, line, static_cast<uint32_t>(comma == std::string::npos ? 1 : comma + 2), 1},
                   fmt::format("expected `name,value` with a number, found `{}`", row));
      return std::nullopt;
    }
    truth[name] = number;
  }
  return truth;
}

bool faultApplies(FaultKind kind, const Command &command, const Platform &platform) {
  const std::string &op = command.op;
  switch (kind) {
  case FaultKind::None: return false;
  case FaultKind::TipPickup: return op == "PickTips";
  case FaultKind::LiquidDetect: return op == "Aspirate";
  case FaultKind::GripperDrop: return op == "MovePlate" || op == "RemoveLid" || op == "PlaceLid";
  case FaultKind::ReaderTimeout:
    return command.module == platform.readerModule && op == "ReadAbsorbance";
  case FaultKind::Disconnect:
  case FaultKind::PowerLoss: return true;
  }
  return false;
}

SimulatedDevice::SimulatedDevice(const Platform &platform, const Labware &labware,
                                 const RunSetup &setup, std::map<std::string, double> truth,
                                 ReaderModel::Params params, FaultPlan faults)
    : platform_(platform), world_(platform, labware, setup),
      reader_(setup, std::move(truth), params), faults_(std::move(faults)),
      faultRandom_(faults_.seed) {}

FaultKind SimulatedDevice::injectedFault(const Command &command) {
  if (auto it = faults_.at.find(command.seq); it != faults_.at.end()) {
    FaultKind kind = it->second;
    faults_.at.erase(it); // once: a retry of the same command goes through
    return kind;
  }
  if (faults_.rate <= 0)
    return FaultKind::None;
  // One draw per attempt whatever happens, so the sequence of faults
  // depends only on the seed and the attempts made.
  double draw = std::uniform_real_distribution<double>(0, 1)(faultRandom_);
  uint64_t pick = faultRandom_();
  if (draw >= faults_.rate)
    return FaultKind::None;
  // A random power loss would end every test run; it is injected only on
  // request (--fault SEQ:power_loss).
  std::vector<FaultKind> candidates;
  for (FaultKind kind : kAllFaultKinds)
    if (kind != FaultKind::PowerLoss && faultApplies(kind, command, platform_))
      candidates.push_back(kind);
  return candidates[pick % candidates.size()];
}

DeviceResult SimulatedDevice::execute(const Command &command) {
  world_.applyManualFills(command.seq);
  DeviceResult result;
  switch (FaultKind fault = injectedFault(command)) {
  case FaultKind::None: break;
  case FaultKind::PowerLoss:
    // As if the mains went: no destructor, no flush, no confirmation.
    ::kill(::getpid(), SIGKILL);
    std::_Exit(137);
  default: {
    result.status = DeviceStatus::Failed;
    result.fault = fault;
    switch (fault) {
    case FaultKind::TipPickup:
      result.message = fmt::format("tip pick-up failed at rack row {} column {} (tips not "
                                   "seated; they stay in the rack)",
                                   command.args.value("row", 0u), command.args.value("col", 0u));
      break;
    case FaultKind::LiquidDetect:
      result.message = "liquid not detected on aspirate; nothing was aspirated";
      break;
    case FaultKind::GripperDrop:
      result.message = "the gripper dropped what it was moving";
      break;
    case FaultKind::ReaderTimeout:
      result.message = "the plate reader did not answer in time; no read";
      break;
    case FaultKind::Disconnect:
      result.message = "connection to the controller lost; the command was not delivered";
      break;
    default: break;
    }
    return result;
  }
  }
  // The physical world refuses what the hardware cannot do; the
  // interpreter's checks should have caught it first.
  if (command.module == platform_.liquidHandler && command.op == "Aspirate")
    reader_.beforeRemoval(world_, wellsUnderHead(command));
  if (auto violation = world_.execute(command, /*commit=*/true)) {
    result.status = DeviceStatus::Failed;
    result.message = violation->message;
    return result;
  }
  if (command.op == "ReadAbsorbance")
    result.read = reader_.read(command, world_);
  return result;
}

std::optional<std::string> SimulatedDevice::verifyState(const DeckState &expected) {
  Json sensed = world_.toJson(), journal = expected.toJson();
  if (sensed == journal)
    return std::nullopt;
  for (const auto &[key, value] : journal.items())
    if (!sensed.contains(key) || sensed[key] != value)
      return fmt::format("the deck's `{}` is {}, the journal expects {}", key,
                         sensed.value(key, Json()).dump(), value.dump());
  return std::string("the deck differs from the journal");
}

std::vector<Well> SimulatedDevice::wellsUnderHead(const Command &command) const {
  std::vector<Well> wells;
  if (slotId(command.args.value("slot", Json())) != platform_.samplePlateSlot)
    return wells;
  const Labware &labware = world_.labware();
  unsigned stride = std::max(1L, std::lround(platform_.channelSpacingMm / labware.pitchMm));
  unsigned row = command.args.value("row", 0u), col = command.args.value("col", 0u);
  std::string mask = command.args.value("mask", std::string());
  for (unsigned channel = 0; channel < mask.size(); ++channel) {
    Well well{uint8_t(row), uint8_t(col + channel * stride)};
    if (mask[channel] == '1' && labware.shape.contains(well))
      wells.push_back(well);
  }
  return wells;
}

void SimulatedDevice::restoreConfirmed(const Command &command) {
  world_.applyManualFills(command.seq);
  if (command.module == platform_.liquidHandler && command.op == "Aspirate")
    reader_.beforeRemoval(world_, wellsUnderHead(command));
  if (world_.execute(command, /*commit=*/true))
    return; // the interpreter's replay reports the contradiction
  if (command.op == "ReadAbsorbance")
    (void)reader_.read(command, world_); // keeps the noise sequence of one unbroken run
}

} // namespace plate::backend

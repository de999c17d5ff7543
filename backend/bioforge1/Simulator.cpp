//===- Simulator.cpp - Simulated device and absorbance model ---------------===//
//
// The model is documented in Simulator.h; this file keeps its arithmetic
// and the truth-map reader.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Simulator.h"
#include "ir/JsonParse.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include <algorithm>
#include <limits>
#include <cmath>
#include <csignal>
#include <sstream>
#include <unistd.h>

namespace plate::backend {

namespace {
/// "competitive" as a word of the title, not "non-competitive",
/// "non competitive" or "uncompetitive".
bool titleSaysCompetitive(std::string_view title) {
  std::string lower(title);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  constexpr std::string_view word = "competitive";
  for (size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
    if (at > 0 && std::isalpha(static_cast<unsigned char>(lower[at - 1])))
      continue;
    std::string_view before = std::string_view(lower).substr(0, at);
    if (before.size() >= 4 && before.substr(before.size() - 4, 3) == "non" &&
        (before.back() == '-' || before.back() == ' '))
      continue;
    return true;
  }
  return false;
}
} // namespace

ReaderModel::ReaderModel(const RunSetup &setup, std::map<std::string, double> truth,
                         Params params)
    : setup_(setup), params_(params), random_(gsl_rng_alloc(gsl_rng_taus2)) {
  PLATE_ASSERT(random_ != nullptr, "gsl_rng_alloc failed");
  gsl_rng_set(random_.get(), static_cast<unsigned long>(params.seed));
  // Every concentration in the first calibrant's unit, as the analysis
  // reports them: a 500 ng/mL calibrant next to 1 µg/mL ones is half of it.
  std::string unit;
  for (const LayoutLiquid &liquid : setup.layout)
    if (liquid.role == ir::LiquidRole::Calibrant && liquid.conc) {
      unit = liquid.unit;
      break;
    }
  double cmin = 0, cmax = 0;
  bool any = false;
  for (const LayoutLiquid &liquid : setup.layout) {
    if (liquid.role != ir::LiquidRole::Calibrant || !liquid.conc)
      continue;
    // Another unit family cannot be converted; the analysis reports it.
    double conc = convertConcentration(*liquid.conc, liquid.unit, unit).value_or(*liquid.conc);
    analyte_[liquid.name] = conc;
    cmin = any ? std::min(cmin, conc) : conc;
    cmax = any ? std::max(cmax, conc) : conc;
    any = true;
  }
  // A qualitative assay without calibrants scales to its cut-off
  // calibrator: it carries 1 unit of analyte ("x cut-off"), and the
  // unknowns are in that unit.
  bool cutoffScale = false;
  if (!any)
    for (const LayoutLiquid &liquid : setup.layout)
      if (liquid.role == ir::LiquidRole::Cutoff) {
        analyte_[liquid.name] = 1;
        cutoffScale = true;
      }
  if (cutoffScale) {
    unit = "x cut-off";
    cmin = 0;
    cmax = 2.4; // invented samples from 0.6 to 1.8 x cut-off: every call
  } else if (!any) {
    cmax = 1; // no calibrants: unknowns land between 0.25 and 0.75 (arbitrary units)
  }
  for (const LayoutLiquid &liquid : setup.layout)
    // NSB wells exist only where a tracer competes (a sandwich assay has
    // no non-specific-binding control), so they mark the assay as well.
    competitive_ = competitive_ || liquid.role == ir::LiquidRole::Bmax ||
                   liquid.role == ir::LiquidRole::Nsb;
  for (const AnalysisStep &step : setup.analyses)
    competitive_ = competitive_ || step.kind == ir::AnalysisKind::Competitive;
  // A kit that calls itself competitive ("DON-Check competitive ELISA")
  // is one, even where its zero standard is a calibrant at 0 and it has
  // no NSB wells to say so: four blind writers expected the falling
  // curve. "Non-competitive" and "uncompetitive" (inhibition kinetics)
  // are not.
  competitive_ = competitive_ || titleSaysCompetitive(setup.title);
  // Without a calibrant's concentration a rising response has nothing to
  // scale to (k is 0), so a concentration invented for a sample would
  // change no reading: none is invented, and the run says why.
  flat_ = !any && !cutoffScale && !competitive_;
  std::vector<const LayoutLiquid *> unknowns;
  for (const LayoutLiquid &liquid : setup.layout)
    if ((liquid.role == ir::LiquidRole::Sample || liquid.role == ir::LiquidRole::Control) &&
        liquid.madeFrom.empty()) // its wells hold its first member, diluted
      unknowns.push_back(&liquid);
  for (size_t i = 0; i < unknowns.size(); ++i) {
    const LayoutLiquid &liquid = *unknowns[i];
    // Against a cut-off the truth is the index itself: the kit dilutes
    // the samples and the cut-off calibrator alike.
    double dilution = cutoffScale ? 1 : liquid.dilution.value_or(1);
    SampleTruth entry{liquid.name, 0, unit, false};
    // A declared concentration (a QC control's nominal level, `control
    // QC_L at ... conc 3 ng/mL`) is what the liquid holds unless --truth
    // says otherwise: the simulator reads it, it does not invent one.
    std::optional<double> declared;
    if (liquid.conc && !cutoffScale)
      declared = convertConcentration(*liquid.conc, liquid.unit, unit);
    if (auto it = truth.find(liquid.name); it != truth.end()) {
      analyte_[liquid.name] = it->second / dilution;
      entry.value = it->second;
    } else if (declared) {
      analyte_[liquid.name] = *declared / dilution;
      entry.value = *declared;
      entry.declared = true;
    } else if (flat_) {
      continue;
    } else {
      double position = unknowns.size() > 1 ? double(i) / double(unknowns.size() - 1) : 0.5;
      analyte_[liquid.name] = cmin + (cmax - cmin) * (0.25 + 0.5 * position);
      // A control with a polarity reads as what it is: against a cut-off
      // the positive well above the grey zone and the negative one below
      // it; on a curve the positive high in the range, the negative free
      // of analyte.
      if (liquid.polarity == ir::Polarity::Positive)
        analyte_[liquid.name] = cutoffScale ? 3 : cmin + (cmax - cmin) * 0.75;
      else if (liquid.polarity == ir::Polarity::Negative)
        analyte_[liquid.name] = cutoffScale ? 0.2 : 0;
      entry.value = analyte_[liquid.name] * dilution;
      entry.invented = true;
    }
    truths_.push_back(std::move(entry));
  }
}

void ReaderModel::RngDeleter::operator()(gsl_rng *rng) const { gsl_rng_free(rng); }

std::optional<double> ReaderModel::analyteConc(const std::string &liquid) const {
  auto it = analyte_.find(liquid);
  if (it == analyte_.end())
    return std::nullopt;
  return it->second;
}

void ReaderModel::bind(const DeckState &state) {
  const PlateShape &shape = state.labware().shape;
  if (cols_ != shape.cols || captured_.size() != size_t(shape.rows) * shape.cols) {
    // A model reads one plate; the first state fixes its shape.
    PLATE_ASSERT(captured_.empty(), "one reader model reads one plate shape");
    cols_ = shape.cols;
    captured_.assign(size_t(shape.rows) * shape.cols, 0.0);
    hasCaptured_.assign(captured_.size(), 0);
    calibrantWell_.assign(captured_.size(), 0);
    layoutKind_.assign(captured_.size(), 0);
    for (const LayoutLiquid &liquid : setup_.layout) {
      uint8_t kind = liquid.role == ir::LiquidRole::Blank ? 1
                     : liquid.role == ir::LiquidRole::Nsb ? 2
                                                          : 0;
      for (Well well : liquid.wells)
        if (kind && shape.contains(well))
          layoutKind_[wellIndex(well)] = kind;
    }
  }
  if (boundState_ != &state) {
    boundState_ = &state;
    strongestValid_ = false;
    effective_.assign(captured_.size(), 0.0);
    calibrantNow_.assign(captured_.size(), 0);
    emptyNow_.assign(captured_.size(), 1);
    effectiveStamp_.assign(captured_.size(), kStale);
  }
  const LiquidTable &liquids = state.liquids();
  if (boundTable_ == &liquids && analyteById_.size() == liquids.size())
    return;
  boundTable_ = &liquids;
  strongestValid_ = false;
  analyteById_.assign(liquids.size(), std::numeric_limits<double>::quiet_NaN());
  calibrantById_.assign(liquids.size(), 0);
  // One pass over each name list with a binary search into the table
  // (ids are in name order), not a scan of the layout per liquid. The
  // first layout entry of a name decides, as findLayout does.
  for (const auto &[name, conc] : analyte_)
    if (auto id = liquids.find(name))
      analyteById_[*id] = conc;
  std::vector<uint8_t> decided(liquids.size(), 0);
  // Without calibrants, the cut-off calibrator sets the scale k.
  bool anyCalibrant = std::any_of(setup_.layout.begin(), setup_.layout.end(),
                                  [](const LayoutLiquid &liquid) {
                                    return liquid.role == ir::LiquidRole::Calibrant &&
                                           liquid.conc;
                                  });
  ir::LiquidRole scaleRole = anyCalibrant ? ir::LiquidRole::Calibrant : ir::LiquidRole::Cutoff;
  for (const LayoutLiquid &liquid : setup_.layout)
    if (auto id = liquids.find(liquid.name); id && !decided[*id]) {
      decided[*id] = 1;
      calibrantById_[*id] = liquid.role == scaleRole;
    }
}

double ReaderModel::signal(const LiquidMix &contents) const {
  double total = contents.total();
  if (total <= 0)
    return 0;
  double amount = 0;
  for (const LiquidMix::Part &part : contents.parts)
    if (double conc = analyteById_[part.liquid]; !std::isnan(conc))
      amount += conc * part.ul;
  return amount / total;
}

bool ReaderModel::holdsCalibrant(const LiquidMix &contents) const {
  return std::any_of(contents.parts.begin(), contents.parts.end(),
                     [&](const LiquidMix::Part &part) { return calibrantById_[part.liquid]; });
}

void ReaderModel::beforeRemoval(const DeckState &state, const std::vector<Well> &wells) {
  bind(state);
  pendingRemovals_.clear();
  for (Well well : wells) {
    const LiquidMix &contents = state.wellMix(well);
    if (contents.total() <= 0)
      continue;
    pendingRemovals_.push_back({well, signal(contents), contents.total(), holdsCalibrant(contents)});
  }
}

void ReaderModel::afterRemoval(const DeckState &state) {
  for (const PendingRemoval &removal : pendingRemovals_) {
    // What binds to the well is kept when its liquid is taken away (an
    // aspiration before a wash). A part taken out of a serial dilution
    // leaves the rest in solution, where later additions dilute it: no
    // capture, or the standards would read undiluted while the samples
    // beside them read diluted.
    double left = state.wellMix(removal.well).total();
    if (left > 0.1 * removal.totalUl)
      continue;
    // A later removal of analyte-free liquid (a wash) must not erase what
    // the sample incubation bound.
    size_t index = wellIndex(removal.well);
    captured_[index] =
        std::max(hasCaptured_[index] ? captured_[index] : 0.0, removal.mixture);
    hasCaptured_[index] = 1;
    effectiveStamp_[index] = kStale;
    strongestValid_ = false;
    if (removal.calibrant)
      calibrantWell_[index] = 1;
  }
  pendingRemovals_.clear();
}

PlateRead ReaderModel::read(const Command &command, const DeckState &state) {
  bind(state);
  auto effective = [&](Well well, const LiquidMix &contents) {
    if (contents.total() <= 0)
      return 0.0; // an empty well reads the baseline
    size_t index = wellIndex(well);
    double mixture = signal(contents);
    return hasCaptured_[index] ? std::max(mixture, captured_[index]) : mixture;
  };
  const CommandFields &fields = command.fields;
  PlateRead result;
  result.seq = command.seq;
  result.simulated = true;
  result.wavelengthNm = fields.wavelengthNm.value_or(0);
  if (fields.hasReferenceKey)
    result.referenceNm = fields.referenceNm.value_or(0);
  result.step = command.step;
  result.line = command.line;

  // k from the weakest and strongest calibrant wells (Simulator.h). s(w)
  // of every well is computed once here and reused for the wells read.
  const PlateShape &shape = state.labware().shape;
  if (!strongestValid_ || strongestStamp_ != state.lastWellStamp()) {
    double strongest = 0, weakest = 0;
    const uint64_t *stamps = state.wellStamps().data();
    uint32_t index = 0;
    for (unsigned row = 1; row <= shape.rows; ++row)
      for (unsigned col = 1; col <= shape.cols; ++col, ++index) {
        if (effectiveStamp_[index] != stamps[index]) {
          Well well{uint8_t(row), uint8_t(col)};
          const LiquidMix &contents = state.wellMix(well);
          effective_[index] = effective(well, contents);
          calibrantNow_[index] = holdsCalibrant(contents);
          emptyNow_[index] = contents.total() <= 0;
          effectiveStamp_[index] = stamps[index];
        }
        if ((calibrantNow_[index] | calibrantWell_[index]) && effective_[index] > 0) {
          strongest = std::max(strongest, effective_[index]);
          weakest = weakest > 0 ? std::min(weakest, effective_[index]) : effective_[index];
        }
      }
    strongest_ = strongest;
    weakest_ = weakest;
    strongestStamp_ = state.lastWellStamp();
    strongestValid_ = true;
  }
  double scale = strongest_ > 0 ? params_.middleOd / std::sqrt(weakest_ * strongest_) : 0;

  // The wells read, as plate indices in the order the read lists them
  // (names that are no well of this plate are skipped and draw nothing).
  // The decoded bounds settle the usual read without a test per well.
  readIndex_.clear();
  readIndex_.reserve(fields.wells.size());
  bool allInside = fields.wellsAllNamed && fields.wellsMaxRow <= shape.rows &&
                   fields.wellsMaxCol <= shape.cols;
  bool increasing = true; // each well once, in well order: no gather below
  for (Well well : fields.wells) {
    if (!allInside && !shape.contains(well))
      continue;
    uint32_t index = static_cast<uint32_t>(wellIndex(well));
    increasing = increasing && (readIndex_.empty() || readIndex_.back() < index);
    readIndex_.push_back(index);
  }

  // Noise is drawn in the documented order (per well, the sample
  // wavelength's draw before the reference's), all of a read's draws
  // first, into a buffer, so that the arithmetic below runs without a
  // library call per well between its steps (a read was latency-bound on
  // the call, the rounding and the division).
  const bool withReference = result.referenceNm.has_value();
  noise_.resize(readIndex_.size() * (withReference ? 2 : 1));
  for (double &draw : noise_)
    draw = gsl_ran_gaussian_ziggurat(random_.get(), params_.sigma);
  const double *draw = noise_.data();
  const ReaderResponse response(params_.ceilingOd);
  const double reference = response(params_.referenceBaseline);
  // A competitive well: the tracer's colour falls as the analyte takes
  // the antibody's sites, by the law of mass action with the midpoint at
  // the calibrants' geometric middle: B/B0 = 1 / (1 + s / middle).
  const double middle = strongest_ > 0 ? std::sqrt(weakest_ * strongest_) : 1;
  auto trueOd = [&](size_t index) {
    if (!competitive_)
      return params_.baseline + scale * effective_[index];
    if (emptyNow_[index] || layoutKind_[index] == 1)
      return params_.baseline;
    if (layoutKind_[index] == 2)
      return params_.baseline + params_.nsbOd;
    return params_.baseline + params_.nsbOd +
           params_.b0Od / (1 + effective_[index] / middle);
  };
  auto od = [&](size_t index) {
    double value = response(trueOd(index)) + *draw++;
    if (withReference)
      value -= reference + *draw++;
    return roundHalfAway(value * 1e4) / 1e4;
  };
  auto wellAt = [&](uint32_t index) {
    return Well{uint8_t(index / cols_ + 1), uint8_t(index % cols_ + 1)};
  };
  std::vector<WellValues::value_type> values;
  if (increasing) {
    values.reserve(readIndex_.size());
    for (uint32_t index : readIndex_)
      values.emplace_back(wellAt(index), od(index));
  } else {
    // Any other order (a column-wise read list is the common one): a
    // repeated well keeps its last value, and the values leave the
    // per-well array in well order without a sort.
    readValue_.resize(effective_.size());
    wasRead_.assign(effective_.size(), 0);
    size_t count = 0;
    for (uint32_t index : readIndex_) {
      readValue_[index] = od(index);
      count += !wasRead_[index];
      wasRead_[index] = 1;
    }
    values.reserve(count);
    uint32_t index = 0;
    for (unsigned row = 1; row <= shape.rows; ++row)
      for (unsigned col = 1; col <= shape.cols; ++col, ++index)
        if (wasRead_[index])
          values.emplace_back(Well{uint8_t(row), uint8_t(col)}, readValue_[index]);
  }
  result.values = WellValues::fromSorted(std::move(values));
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
      diags.report(DiagId::TruthNotJson, SourceLoc{*fileId, 1, 1, 1});
      return std::nullopt;
    }
    for (const auto &[name, value] : json.items()) {
      if (!value.is_number()) {
        diags.report(DiagId::TruthValueNotNumber, SourceLoc{*fileId, 1, 1, 1}, name);
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
      diags.report(DiagId::TruthRowMalformed,
                   SourceLoc{*fileId, line, static_cast<uint32_t>(comma == std::string::npos ? 1 : comma + 2), 1},
                   row);
      return std::nullopt;
    }
    truth[name] = number;
  }
  return truth;
}

bool faultApplies(FaultKind kind, const Command &command, const Platform &platform) {
  CommandOp op = command.fields.op;
  switch (kind) {
  case FaultKind::None: return false;
  case FaultKind::TipPickup: return op == CommandOp::PickTips;
  case FaultKind::LiquidDetect: return op == CommandOp::Aspirate;
  case FaultKind::GripperDrop:
    return op == CommandOp::MovePlate || op == CommandOp::RemoveLid ||
           op == CommandOp::PlaceLid;
  case FaultKind::ReaderTimeout:
    return op == CommandOp::ReadAbsorbance && sameId(command.module, platform.readerModule);
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
  applyManualSteps(command.seq);
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
                                   command.fields.rowIndex, command.fields.colIndex);
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
  bool removal =
      command.fields.op == CommandOp::Aspirate && sameId(command.module, platform_.liquidHandler);
  if (removal)
    reader_.beforeRemoval(world_, wellsUnderHead(command));
  if (auto violation = world_.execute(command, /*commit=*/true)) {
    result.status = DeviceStatus::Failed;
    result.message = violation->message();
    return result;
  }
  if (removal)
    reader_.afterRemoval(world_);
  if (command.fields.op == CommandOp::ReadAbsorbance)
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

void SimulatedDevice::applyManualSteps(uint32_t seq) {
  // What the operator takes out leaves its captured analyte behind, as the
  // robot's removals do.
  world_.applyManualFills(
      seq,
      [&](const ManualFill &fill) {
        if (fill.action != ManualFill::Action::Fill)
          reader_.beforeRemoval(world_, {fill.well});
      },
      [&](const ManualFill &fill) {
        if (fill.action != ManualFill::Action::Fill)
          reader_.afterRemoval(world_);
      });
}

std::vector<Well> SimulatedDevice::wellsUnderHead(const Command &command) const {
  std::vector<Well> wells;
  const CommandFields &fields = command.fields;
  if (fields.slot != platform_.samplePlateSlot)
    return wells;
  const Labware &labware = world_.labware();
  unsigned stride = std::max(1L, std::lround(platform_.channelSpacingMm / labware.pitchMm));
  unsigned row = fields.rowIndex, col = fields.colIndex;
  for (unsigned channel = 0; channel < fields.maskLength && channel < 64; ++channel) {
    Well well{uint8_t(row), uint8_t(col + channel * stride)};
    if ((fields.maskBits >> channel & 1) && labware.shape.contains(well))
      wells.push_back(well);
  }
  return wells;
}

void SimulatedDevice::restoreConfirmed(const Command &command) {
  applyManualSteps(command.seq);
  bool removal =
      command.fields.op == CommandOp::Aspirate && sameId(command.module, platform_.liquidHandler);
  if (removal)
    reader_.beforeRemoval(world_, wellsUnderHead(command));
  if (world_.execute(command, /*commit=*/true))
    return; // the interpreter's replay reports the contradiction
  if (removal)
    reader_.afterRemoval(world_);
  if (command.fields.op == CommandOp::ReadAbsorbance)
    (void)reader_.read(command, world_); // keeps the noise sequence of one unbroken run
}

} // namespace plate::backend

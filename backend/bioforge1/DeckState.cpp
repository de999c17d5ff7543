//===- DeckState.cpp - Invariants of bioforge1.md §4, checked per command --===//
//
// Each handler runs its checks in a fixed order (range, place, tips,
// contact, volume) and mutates only after all of them pass. Each violation
// is a row of Diagnostics.def (E800-E899) saying what was observed and
// which part of the rule it breaks; the row's first three arguments, the
// command (seq, module.op) and its source line, come from the reporter.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/DeckState.h"
#include "backend/bioforge1/CommandSerializer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace plate::backend {

namespace {

/// A volume as messages print it: rounded to 1e-6 µL.
Quantity ul(double value) { return Quantity::microliters(std::round(value * 1e6) / 1e6); }
Quantity number(double value) { return Quantity::count(value); }

template <typename... Args> Violation violation(DiagId id, const Args &...args) {
  return Violation(id, DiagArgs(args...));
}

/// The words every row of a rule begins with, after which the row's own
/// text starts.
std::string rulePrefix(Rule rule) {
  constexpr std::string_view command = "command {} `{}` (source line {}) ";
  switch (rule) {
  case Rule::Tips: return std::string(command) + "breaks the tip rule: ";
  case Rule::Volume: return std::string(command) + "breaks the volume rule: ";
  case Rule::Contact: return std::string(command) + "breaks the contact rule: ";
  case Rule::Place: return std::string(command) + "breaks the place rule: ";
  case Rule::Range: return std::string(command) + "is out of range: ";
  }
  return {};
}

Rule ruleOf(DiagId id) {
  std::string_view format = diagInfo(id).format;
  for (Rule rule : {Rule::Tips, Rule::Volume, Rule::Contact, Rule::Place, Rule::Range})
    if (format.starts_with(rulePrefix(rule)))
      return rule;
  internalError(__FILE__, __LINE__,
                fmt::format("{} is not a row of the twin's invariants", diagInfo(id).code));
}

std::string joined(const std::vector<std::string> &items) {
  std::string text;
  for (const std::string &item : items)
    text += (text.empty() ? "" : ", ") + item;
  return text;
}
} // namespace

std::string_view ruleName(Rule rule) {
  switch (rule) {
  case Rule::Tips: return "tips";
  case Rule::Volume: return "volumes";
  case Rule::Contact: return "contact";
  case Rule::Place: return "places";
  case Rule::Range: return "ranges";
  }
  return "unknown";
}

Violation::Violation(DiagId id, DiagArgs args) : id(id), rule(ruleOf(id)), args(std::move(args)) {}

std::string Violation::message() const {
  return args.format(std::string_view(diagInfo(id).format).substr(rulePrefix(rule).size()));
}

DiagArgs Violation::argsFor(const Command &command) const {
  DiagArgs all(command.seq, command.name(), command.line);
  all.append(args);
  return all;
}

double totalVolume(const Contents &contents) {
  double total = 0;
  for (const auto &[liquid, volume] : contents)
    total += volume;
  return total;
}

//===--- Liquids -----------------------------------------------------------===//

namespace {
std::string unnamedReservoir(unsigned row, unsigned col) {
  return fmt::format("reservoir({},{})", row, col);
}
} // namespace

LiquidTable::LiquidTable(const Platform &platform, const RunSetup &setup) {
  std::vector<bool> named(platform.reservoirRows * platform.reservoirCols, false);
  for (const ReservoirLoad &load : setup.reservoir)
    if (load.row >= 1 && load.row <= platform.reservoirRows && load.col >= 1 &&
        load.col <= platform.reservoirCols) {
      // A later load of the same position replaces an earlier one.
      named[(load.row - 1) * platform.reservoirCols + (load.col - 1)] = !load.liquid.empty();
      if (!load.liquid.empty())
        names_.push_back(load.liquid);
    }
  for (unsigned row = 1; row <= platform.reservoirRows; ++row)
    for (unsigned col = 1; col <= platform.reservoirCols; ++col)
      if (!named[(row - 1) * platform.reservoirCols + (col - 1)])
        names_.push_back(unnamedReservoir(row, col));
  for (const ManualFill &fill : setup.manualFills)
    if (fill.action == ManualFill::Action::Fill)
      names_.push_back(fill.liquid);
  std::sort(names_.begin(), names_.end());
  names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
}

std::optional<uint32_t> LiquidTable::find(std::string_view name) const {
  auto it = std::lower_bound(names_.begin(), names_.end(), name);
  if (it == names_.end() || *it != name)
    return std::nullopt;
  return static_cast<uint32_t>(it - names_.begin());
}

void LiquidMix::add(uint32_t liquid, double ul) {
  auto it = std::lower_bound(parts.begin(), parts.end(), liquid,
                             [](const Part &part, uint32_t id) { return part.liquid < id; });
  if (it != parts.end() && it->liquid == liquid)
    it->ul += ul;
  else
    parts.insert(it, Part{liquid, 0.0 + ul});
}

LiquidMix LiquidMix::take(double amount) {
  LiquidMix taken;
  double sum = total();
  if (sum <= kQuantitySlack || amount <= 0)
    return taken;
  double fraction = std::min(1.0, amount / sum);
  size_t kept = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    double part = parts[i].ul * fraction;
    taken.parts.push_back(Part{parts[i].liquid, 0.0 + part});
    parts[i].ul -= part;
    if (parts[i].ul > kQuantitySlack)
      parts[kept++] = parts[i];
  }
  parts.resize(kept);
  return taken;
}

void LiquidMix::moveTo(LiquidMix &destination, double amount) {
  PLATE_ASSERT(&destination != this, "a mix moves into another mix");
  double sum = total();
  if (sum <= kQuantitySlack || amount <= 0)
    return;
  double fraction = std::min(1.0, amount / sum);
  size_t kept = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    double part = parts[i].ul * fraction;
    destination.add(parts[i].liquid, 0.0 + part);
    parts[i].ul -= part;
    if (parts[i].ul > kQuantitySlack)
      parts[kept++] = parts[i];
  }
  parts.resize(kept);
}

void LiquidMix::addAll(const LiquidMix &other) {
  for (const Part &part : other.parts)
    add(part.liquid, part.ul);
}

Contents LiquidMix::named(const LiquidTable &liquids) const {
  Contents contents;
  for (const Part &part : parts)
    contents[liquids.name(part.liquid)] += part.ul;
  return contents;
}

DeckState::DeckState(const Platform &platform, const Labware &labware,
                     const RunSetup &setup)
    : platform_(platform), labware_(labware), setup_(setup), liquids_(platform, setup) {
  PLATE_ASSERT(platform.channels <= 64, "masks are decoded into 64 bits");
  for (const ManualFill &fill : setup.manualFills) {
    manualFillOrder_.push_back(static_cast<uint32_t>(manualFillIds_.size()));
    manualFillIds_.push_back(fill.action == ManualFill::Action::Fill ? *liquids_.find(fill.liquid)
                                                                     : 0);
  }
  std::stable_sort(manualFillOrder_.begin(), manualFillOrder_.end(),
                   [&](uint32_t a, uint32_t b) {
                     return setup.manualFills[a].beforeSeq < setup.manualFills[b].beforeSeq;
                   });
  stride_ = std::max(1u, static_cast<unsigned>(
                             std::lround(platform.channelSpacingMm / labware.pitchMm)));
  wells_.resize(labware.shape.rows * labware.shape.cols);
  wellStamps_.assign(wells_.size(), 0);
  reservoir_.resize(platform.reservoirRows * platform.reservoirCols);
  for (const ReservoirLoad &load : setup.reservoir) {
    if (load.row < 1 || load.row > platform.reservoirRows || load.col < 1 ||
        load.col > platform.reservoirCols)
      continue; // the interpreter rejects such plans before building a state
    Reservoir &position = reservoir(load.row, load.col);
    position.liquid = load.liquid;
    position.volumeUl = load.volumeMl * 1000;
  }
  for (unsigned row = 1; row <= platform.reservoirRows; ++row)
    for (unsigned col = 1; col <= platform.reservoirCols; ++col) {
      Reservoir &position = reservoir(row, col);
      position.liquidId = *liquids_.find(position.liquid.empty() ? unnamedReservoir(row, col)
                                                                 : position.liquid);
    }
  rack_.resize(platform.tipRackRows * platform.tipRackCols);
  head_.resize(platform.channels);
  plateSlot_ = platform.samplePlateSlot;
  lidOn_ = true;
}

void DeckState::applyManualFills(uint32_t seq, ManualHook before, ManualHook after) {
  if (seq <= filledThrough_)
    return;
  planned_ = nullptr;
  filledThrough_ = seq;
  // seq only grows (see above): a cursor walks the sorted fills once.
  while (nextFill_ < manualFillOrder_.size() &&
         setup_.manualFills[manualFillOrder_[nextFill_]].beforeSeq < seq)
    ++nextFill_;
  for (; nextFill_ < manualFillOrder_.size(); ++nextFill_) {
    uint32_t index = manualFillOrder_[nextFill_];
    const ManualFill &fill = setup_.manualFills[index];
    if (fill.beforeSeq != seq)
      break;
    if (!labware_.shape.contains(fill.well))
      continue;
    if (before)
      before(fill);
    LiquidMix &well = wellRef(fill.well);
    switch (fill.action) {
    case ManualFill::Action::Fill:
      well.add(manualFillIds_[index], fill.volumeUl);
      break;
    case ManualFill::Action::Remove:
      well.take(fill.all ? well.total() : fill.volumeUl);
      break;
    case ManualFill::Action::Transfer:
      if (labware_.shape.contains(fill.into) && fill.into != fill.well)
        well.moveTo(wellRef(fill.into), fill.volumeUl);
      break;
    }
    if (after)
      after(fill);
  }
}

namespace {
double rounded(double value) { return std::round(value * 1e6) / 1e6; }
/// Ids are in name order, so the keys come out sorted as the name-keyed
/// map wrote them.
Json contentsJson(const LiquidMix &contents, const LiquidTable &liquids) {
  Json json = Json::object();
  for (const LiquidMix::Part &part : contents.parts)
    if (rounded(part.ul) != 0)
      json[liquids.name(part.liquid)] = jsonNumber(rounded(part.ul));
  return json;
}
} // namespace

Json DeckState::toJson() const {
  Json json = Json::object();
  json["plate_slot"] = plateSlot_;
  json["lid_on"] = lidOn_;
  json["lid_holder"] = lidHolderSlot_;
  json["heater_c"] = heaterSetpoint_ ? Json(jsonNumber(*heaterSetpoint_)) : Json();
  json["tips_in_waste"] = tipsInWaste_;
  json["spare_racks_used"] = spareRacksUsed_;
  json["solution_waste_ul"] = jsonNumber(rounded(solutionWasteUl_));
  Json head = Json::array();
  for (const std::optional<Tip> &tip : head_) {
    if (!tip) {
      head.push_back(nullptr);
      continue;
    }
    head.push_back(Json{{"rack", {tip->rackRow, tip->rackCol}},
                        {"holds", contentsJson(tip->contents, liquids_)},
                        {"contact", static_cast<int>(tip->contact)}});
  }
  json["head"] = std::move(head);
  std::string rack;
  for (const RackPosition &position : rack_)
    rack += position.state == RackSlot::Fresh ? 'F' : position.state == RackSlot::Empty ? '.' : 'R';
  json["rack"] = rack;
  Json reservoir = Json::array();
  for (const Reservoir &position : reservoir_)
    reservoir.push_back(Json{position.liquid, jsonNumber(rounded(position.volumeUl))});
  json["reservoir"] = std::move(reservoir);
  Json wells = Json::object();
  // Well names are unique: append to the ordered map's vector directly,
  // not through operator[], whose linear key search made this quadratic
  // in the wells of the plate.
  auto &entries = wells.get_ref<Json::object_t &>();
  for (unsigned row = 1; row <= labware_.shape.rows; ++row)
    for (unsigned col = 1; col <= labware_.shape.cols; ++col) {
      Well at{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
      if (wellMix(at).empty())
        continue;
      Json holds = contentsJson(wellMix(at), liquids_);
      if (!holds.empty())
        entries.emplace_back(at.name(), std::move(holds));
    }
  json["wells"] = std::move(wells);
  return json;
}

bool DeckState::rackPositionFresh(unsigned row, unsigned col) const {
  if (row < 1 || row > platform_.tipRackRows || col < 1 || col > platform_.tipRackCols)
    return false;
  return rack_[(row - 1) * platform_.tipRackCols + (col - 1)].state == RackSlot::Fresh;
}

Contents DeckState::well(Well well) const {
  return wells_.at((well.row - 1) * labware_.shape.cols + (well.col - 1)).named(liquids_);
}
LiquidMix &DeckState::wellRef(Well well) {
  size_t index = (well.row - 1) * labware_.shape.cols + (well.col - 1);
  wellStamps_[index] = ++lastStamp_;
  return wells_[index];
}
DeckState::RackPosition &DeckState::rack(unsigned row, unsigned col) {
  return rack_[(row - 1) * platform_.tipRackCols + (col - 1)];
}
const DeckState::RackPosition &DeckState::rack(unsigned row, unsigned col) const {
  return rack_[(row - 1) * platform_.tipRackCols + (col - 1)];
}
DeckState::Reservoir &DeckState::reservoir(unsigned row, unsigned col) {
  return reservoir_[(row - 1) * platform_.reservoirCols + (col - 1)];
}
double DeckState::reservoirVolumeUl(unsigned row, unsigned col) const {
  return reservoir_.at((row - 1) * platform_.reservoirCols + (col - 1)).volumeUl;
}
double DeckState::tipVolume(unsigned channel) const {
  return hasTip(channel) ? head_[channel]->contents.total() : 0;
}

std::optional<Violation> DeckState::execute(const Command &command, bool commit) {
  planned_ = nullptr;
  return executeDecoded(command, commit);
}

std::optional<Violation> DeckState::commitChecked(const Command &command) {
  if (planned_ != &command || plannedSeq_ != command.seq)
    return execute(command, /*commit=*/true);
  planned_ = nullptr;
  return liquidHandling(command, Stage::ApplyChecked);
}

std::optional<Violation> DeckState::liquidHandling(const Command &command, Stage stage) {
  if (stage != Stage::ApplyChecked) {
    plan_.used.clear();
    plan_.wells.clear();
    Result violation;
    switch (command.fields.op) {
    case CommandOp::PickTips: violation = checkPickTips(command, plan_); break;
    case CommandOp::DropTips: violation = checkDropTips(command, plan_); break;
    case CommandOp::ReturnTips: violation = checkReturnTips(command, plan_); break;
    case CommandOp::Aspirate: violation = checkAspirate(command, plan_); break;
    case CommandOp::Dispense: violation = checkDispense(command, plan_); break;
    default: violation = checkMix(command, plan_); break;
    }
    if (violation)
      return violation;
    if (stage == Stage::Check) {
      planned_ = &command;
      plannedSeq_ = command.seq;
      return std::nullopt;
    }
  }
  switch (command.fields.op) {
  case CommandOp::PickTips: applyPickTips(command, plan_); break;
  case CommandOp::DropTips: applyDropTips(plan_); break;
  case CommandOp::ReturnTips: applyReturnTips(command, plan_); break;
  case CommandOp::Aspirate: applyAspirate(command, plan_); break;
  case CommandOp::Dispense: applyDispense(command, plan_); break;
  default: applyMix(plan_); break;
  }
  return std::nullopt;
}

std::optional<Violation> DeckState::executeDecoded(const Command &command, bool commit) {
  const std::string &module = command.module;
  CommandOp op = command.fields.op;
  switch (op) {
  case CommandOp::PickTips:
  case CommandOp::DropTips:
  case CommandOp::ReturnTips:
  case CommandOp::Aspirate:
  case CommandOp::Dispense:
  case CommandOp::Mix:
    if (!sameId(module, platform_.liquidHandler))
      break;
    return liquidHandling(command, commit ? Stage::CheckAndApply : Stage::Check);
  case CommandOp::MovePlate: return movePlate(command, commit);
  case CommandOp::RemoveLid: return lid(command, false, commit);
  case CommandOp::PlaceLid: return lid(command, true, commit);
  case CommandOp::SwapTipRack:
    if (sameId(module, platform_.tipSwapModule))
      return swapTipRack(commit);
    break;
  case CommandOp::SetTemperature:
    if (sameId(module, platform_.heaterModule))
      return setTemperature(command, commit);
    break;
  case CommandOp::Off:
    if (!sameId(module, platform_.heaterModule))
      break;
    if (commit)
      heaterSetpoint_.reset();
    return std::nullopt;
  case CommandOp::Shake:
    if (sameId(module, platform_.shakerModule))
      return shake(command);
    break;
  case CommandOp::ReadAbsorbance:
    if (sameId(module, platform_.readerModule))
      return read(command);
    break;
  case CommandOp::Wait:
    if (sameId(module, platform_.systemModule))
      return wait(command);
    break;
  case CommandOp::Prompt:
    if (sameId(module, platform_.systemModule))
      return std::nullopt;
    break;
  case CommandOp::Other: break;
  }
  return violation(DiagId::TwinNotACommand, command.name(), platform_.name);
}

//===--- Shared checks -----------------------------------------------------===//

std::optional<Violation> DeckState::channels(const Command &command, Channels &out) const {
  const CommandFields &fields = command.fields;
  bool wellFormed = fields.maskLength == platform_.channels && fields.maskBinary &&
                    fields.maskBits != 0;
  if (!wellFormed) {
    Json args = commandArgs(command);
    auto it = args.find("mask");
    std::string mask = it != args.end() && it->is_string() ? it->get<std::string>()
                                                           : std::string();
    return violation(DiagId::TwinBadMask, mask, platform_.channels);
  }
  for (unsigned channel = 0; channel < fields.maskLength; ++channel)
    if (fields.maskBits >> channel & 1)
      out.push_back(channel);
  return std::nullopt;
}

std::optional<Violation> DeckState::plateWells(const Command &command,
                                               const Channels &channels, Wells &out) const {
  const std::optional<double> &row = command.fields.row, &col = command.fields.col;
  if (!row || !col)
    return violation(DiagId::TwinNoRowCol, platform_.samplePlateSlot);
  for (unsigned channel : channels) {
    double c = *col + channel * stride_;
    if (*row < 1 || *row > labware_.shape.rows || c < 1 || c > labware_.shape.cols)
      return violation(DiagId::TwinOutsidePlate, channel + 1, number(*row), number(c),
                       labware_.name, labware_.shape.rows, labware_.shape.cols);
    out.push_back(Well{static_cast<uint8_t>(*row), static_cast<uint8_t>(c)});
  }
  return std::nullopt;
}

std::optional<Violation> DeckState::plateReady(DiagId elsewhere, DiagId lidOn) const {
  if (!sameId(plateSlot_, platform_.samplePlateSlot))
    return violation(elsewhere, platform_.samplePlateSlot, plateSlot_);
  if (lidOn_)
    return violation(lidOn, plateSlot_);
  return std::nullopt;
}

std::optional<Violation> DeckState::tipsOn(const Channels &channels,
                                           std::string_view op) const {
  for (unsigned channel : channels)
    if (!head_[channel])
      return violation(DiagId::TwinNoTip, channel + 1, op);
  return std::nullopt;
}

//===--- Tips --------------------------------------------------------------===//

std::optional<Violation> DeckState::rackInReach(const Command &command, const Channels &used,
                                                DiagId outside) const {
  // The spelled numbers, not the indices: an index cannot hold 1e300 or -5,
  // and the message must name what the file says.
  double row = command.fields.row.value_or(0), col = command.fields.col.value_or(0);
  for (unsigned channel : used)
    if (row < 1 || row > platform_.tipRackRows || col + channel < 1 ||
        col + channel > platform_.tipRackCols)
      return violation(outside, channel + 1, number(row), number(col + channel),
                       platform_.tipRackRows, platform_.tipRackCols);
  return std::nullopt;
}

std::optional<Violation> DeckState::checkPickTips(const Command &command, Plan &plan) const {
  Channels &used = plan.used;
  if (auto v = channels(command, used)) return v;
  if (auto v = rackInReach(command, used, DiagId::TwinPickOutsideRack)) return v;
  unsigned row = command.fields.rowIndex, col = command.fields.colIndex;
  for (unsigned channel : used) {
    if (head_[channel])
      return violation(DiagId::TwinTipAlreadyOn, channel + 1);
    if (rack(row, col + channel).state == RackSlot::Empty)
      return violation(DiagId::TwinRackPositionEmpty, row, col + channel);
  }
  return std::nullopt;
}

void DeckState::applyPickTips(const Command &command, const Plan &plan) {
  unsigned row = command.fields.rowIndex, col = command.fields.colIndex;
  for (unsigned channel : plan.used) {
    RackPosition &position = rack(row, col + channel);
    Tip tip;
    if (position.state == RackSlot::Returned)
      tip = position.returned;
    tip.rackRow = row;
    tip.rackCol = col + channel;
    head_[channel] = std::move(tip);
    position = RackPosition{RackSlot::Empty, {}};
  }
}

std::optional<Violation> DeckState::checkDropTips(const Command &command, Plan &plan) const {
  Channels &used = plan.used;
  if (auto v = channels(command, used)) return v;
  if (auto v = tipsOn(used, "DropTips")) return v;
  if (tipsInWaste_ + used.size() > platform_.tipWasteCapacity)
    return violation(DiagId::TwinTipWasteFull, platform_.tipWasteSlot,
                     platform_.tipWasteCapacity, tipsInWaste_, used.size());
  return std::nullopt;
}

void DeckState::applyDropTips(const Plan &plan) {
  for (unsigned channel : plan.used)
    head_[channel].reset();
  tipsInWaste_ += plan.used.size();
}

std::optional<Violation> DeckState::checkReturnTips(const Command &command, Plan &plan) const {
  Channels &used = plan.used;
  if (auto v = channels(command, used)) return v;
  if (auto v = rackInReach(command, used, DiagId::TwinReturnOutsideRack)) return v;
  if (auto v = tipsOn(used, "ReturnTips")) return v;
  unsigned row = command.fields.rowIndex, col = command.fields.colIndex;
  for (unsigned channel : used) {
    const Tip &tip = *head_[channel];
    if (tip.rackRow != row || tip.rackCol != col + channel)
      return violation(DiagId::TwinReturnElsewhere, channel + 1, tip.rackRow, tip.rackCol, row,
                       col + channel);
    if (rack(row, col + channel).state != RackSlot::Empty)
      return violation(DiagId::TwinReturnPositionFilled, row, col + channel);
  }
  return std::nullopt;
}

void DeckState::applyReturnTips(const Command &command, const Plan &plan) {
  unsigned row = command.fields.rowIndex, col = command.fields.colIndex;
  for (unsigned channel : plan.used) {
    rack(row, col + channel) = RackPosition{RackSlot::Returned, std::move(*head_[channel])};
    head_[channel].reset();
  }
}

std::optional<Violation> DeckState::swapTipRack(bool commit) {
  if (spareRacksUsed_ >= platform_.spareTipRacks)
    return violation(DiagId::TwinNoSpareRack, platform_.spareTipRacks);
  if (!commit)
    return std::nullopt;
  ++spareRacksUsed_;
  std::fill(rack_.begin(), rack_.end(), RackPosition{});
  return std::nullopt;
}

//===--- Pipetting ---------------------------------------------------------===//

std::optional<Violation> DeckState::checkAspirate(const Command &command, Plan &plan) const {
  Channels &used = plan.used;
  Wells &wells = plan.wells;
  if (auto v = channels(command, used)) return v;
  const std::string &slot = command.fields.slot;
  double volume = command.fields.volumeUl;
  if (volume <= 0)
    return violation(DiagId::TwinVolumeNotPositive, number(volume));
  bool fromReservoir = sameId(slot, platform_.reservoirSlot);
  unsigned row = command.fields.rowIndex, col = command.fields.colIndex;
  if (fromReservoir) {
    if (row < 1 || row > platform_.reservoirRows || col < 1 || col > platform_.reservoirCols)
      return violation(DiagId::TwinNoReservoirPosition, row, col, platform_.reservoirRows,
                       platform_.reservoirCols);
    if (used.size() > platform_.reservoirMaxChannels)
      return violation(DiagId::TwinReservoirChannels, used.size(),
                       platform_.reservoirMaxChannels);
  } else if (sameId(slot, platform_.samplePlateSlot)) {
    if (auto v = plateWells(command, used, wells)) return v;
  } else {
    return violation(DiagId::TwinAspirateSlot, slot, platform_.reservoirSlot,
                     platform_.samplePlateSlot);
  }
  if (!fromReservoir)
    if (auto v = plateReady(DiagId::TwinAspiratePlateElsewhere, DiagId::TwinAspirateLidOn)) return v;
  if (auto v = tipsOn(used, "Aspirate")) return v;
  if (!command.tipsReuse) {
    for (size_t i = 0; i < used.size(); ++i) {
      const Tip &tip = *head_[used[i]];
      unsigned channel = used[i] + 1;
      if (tip.contact == Contact::Reservoir &&
          (!fromReservoir || tip.contactRow != row || tip.contactCol != col))
        return fromReservoir
                   ? violation(DiagId::TwinReservoirTipOtherPosition, channel, tip.contactRow,
                               tip.contactCol, row, col)
                   : violation(DiagId::TwinReservoirTipToWell, channel, tip.contactRow,
                               tip.contactCol, wells[i]);
      if (tip.contact == Contact::Well &&
          (fromReservoir || tip.contactRow != wells[i].row || tip.contactCol != wells[i].col))
        return fromReservoir
                   ? violation(DiagId::TwinWellTipToReservoir, channel,
                               Well{uint8_t(tip.contactRow), uint8_t(tip.contactCol)}, row, col)
                   : violation(DiagId::TwinWellTipOtherWell, channel,
                               Well{uint8_t(tip.contactRow), uint8_t(tip.contactCol)}, wells[i]);
    }
  }
  for (unsigned channel : used)
    if (tipTotal(channel) + volume > platform_.tipCapacityUl + kQuantitySlack)
      return violation(DiagId::TwinTipOverflow, channel + 1, ul(tipTotal(channel) + volume),
                       ul(platform_.tipCapacityUl));
  if (fromReservoir) {
    const Reservoir &position = reservoir_[(row - 1) * platform_.reservoirCols + (col - 1)];
    double after = position.volumeUl - volume * used.size();
    if (after < platform_.reservoirDeadMl * 1000 - kQuantitySlack)
      return violation(DiagId::TwinReservoirDeadVolume, row, col, ul(position.volumeUl),
                       ul(std::max(0.0, after)),
                       Quantity{platform_.reservoirDeadMl, Unit::MilliLiter});
  } else {
    for (const Well &well : wells)
      if (wellMix(well).total() + kQuantitySlack < volume)
        return violation(DiagId::TwinWellGivesTooMuch, well, ul(wellMix(well).total()),
                         ul(volume));
  }
  return std::nullopt;
}

void DeckState::applyAspirate(const Command &command, const Plan &plan) {
  const Channels &used = plan.used;
  const Wells &wells = plan.wells;
  double volume = command.fields.volumeUl;
  bool fromReservoir = sameId(command.fields.slot, platform_.reservoirSlot);
  unsigned row = command.fields.rowIndex, col = command.fields.colIndex;
  for (size_t i = 0; i < used.size(); ++i) {
    Tip &tip = *head_[used[i]];
    if (fromReservoir) {
      Reservoir &position = reservoir(row, col);
      position.volumeUl -= volume;
      tip.contents.add(position.liquidId, volume);
      if (tip.contact == Contact::None) {
        tip.contact = Contact::Reservoir;
        tip.contactRow = row;
        tip.contactCol = col;
      }
    } else {
      wellRef(wells[i]).moveTo(tip.contents, volume);
      tip.contact = Contact::Well;
      tip.contactRow = wells[i].row;
      tip.contactCol = wells[i].col;
    }
  }
}

std::optional<Violation> DeckState::checkDispense(const Command &command, Plan &plan) const {
  Channels &used = plan.used;
  Wells &wells = plan.wells;
  if (auto v = channels(command, used)) return v;
  const std::string &slot = command.fields.slot;
  double volume = command.fields.volumeUl;
  if (volume <= 0)
    return violation(DiagId::TwinVolumeNotPositive, number(volume));
  bool toWaste = sameId(slot, platform_.solutionWasteSlot);
  if (toWaste) {
    if (command.fields.hasRowKey || command.fields.hasColKey)
      return violation(DiagId::TwinWasteRowCol, slot);
  } else if (sameId(slot, platform_.samplePlateSlot)) {
    if (auto v = plateWells(command, used, wells)) return v;
    if (auto v = plateReady(DiagId::TwinDispensePlateElsewhere, DiagId::TwinDispenseLidOn)) return v;
  } else {
    return violation(DiagId::TwinDispenseSlot, slot, platform_.samplePlateSlot,
                     platform_.solutionWasteSlot);
  }
  if (auto v = tipsOn(used, "Dispense")) return v;
  for (unsigned channel : used)
    if (tipTotal(channel) + kQuantitySlack < volume)
      return violation(DiagId::TwinTipGivesTooMuch, channel + 1, ul(tipTotal(channel)),
                       ul(volume));
  if (toWaste) {
    double capacity = platform_.solutionWasteMl * 1000;
    if (solutionWasteUl_ + volume * used.size() > capacity + kQuantitySlack)
      return violation(DiagId::TwinSolutionWasteFull,
                       Quantity{platform_.solutionWasteMl, Unit::MilliLiter},
                       ul(solutionWasteUl_), ul(volume * used.size()));
  } else {
    for (const Well &well : wells)
      if (wellMix(well).total() + volume > labware_.wellCapacityUl + kQuantitySlack)
        return violation(DiagId::TwinWellOverflow, well, ul(wellMix(well).total() + volume),
                         labware_.name, ul(labware_.wellCapacityUl));
  }
  return std::nullopt;
}

void DeckState::applyDispense(const Command &command, const Plan &plan) {
  const Channels &used = plan.used;
  double volume = command.fields.volumeUl;
  bool toWaste = sameId(command.fields.slot, platform_.solutionWasteSlot);
  for (size_t i = 0; i < used.size(); ++i) {
    LiquidMix &tipContents = head_[used[i]]->contents;
    if (toWaste) {
      (void)tipContents.take(volume);
      solutionWasteUl_ += volume;
    } else {
      tipContents.moveTo(wellRef(plan.wells[i]), volume);
    }
  }
}

std::optional<Violation> DeckState::checkMix(const Command &command, Plan &plan) const {
  Channels &used = plan.used;
  Wells &wells = plan.wells;
  if (auto v = channels(command, used)) return v;
  const std::string &slot = command.fields.slot;
  double volume = command.fields.volumeUl;
  double cycles = command.fields.cycles;
  if (volume <= 0)
    return violation(DiagId::TwinVolumeNotPositive, number(volume));
  if (cycles < 1)
    return violation(DiagId::TwinCyclesBelowOne, number(cycles));
  if (!sameId(slot, platform_.samplePlateSlot))
    return violation(DiagId::TwinMixSlot, slot, platform_.samplePlateSlot);
  if (auto v = plateWells(command, used, wells)) return v;
  if (auto v = plateReady(DiagId::TwinMixPlateElsewhere, DiagId::TwinMixLidOn)) return v;
  if (auto v = tipsOn(used, "Mix")) return v;
  if (!command.tipsReuse) {
    for (size_t i = 0; i < used.size(); ++i) {
      const Tip &tip = *head_[used[i]];
      // A reservoir tip that has dispensed everything it held carries no
      // reagent into the well beyond what the dispense already put there;
      // language spec section 7 ("a mix after a dispense makes the tips
      // touch the well") relies on it. From then on it belongs to the well
      // and never returns to the reservoir. A tip still holding liquid may
      // not mix.
      if (tip.contact == Contact::Reservoir && tip.contents.total() > kQuantitySlack)
        return violation(DiagId::TwinReservoirTipMix, used[i] + 1, tip.contactRow,
                         tip.contactCol, wells[i]);
      if (tip.contact == Contact::Well &&
          (tip.contactRow != wells[i].row || tip.contactCol != wells[i].col))
        return violation(DiagId::TwinWellTipOtherWell, used[i] + 1,
                         Well{uint8_t(tip.contactRow), uint8_t(tip.contactCol)}, wells[i]);
    }
  }
  for (size_t i = 0; i < used.size(); ++i) {
    if (tipTotal(used[i]) + volume > platform_.tipCapacityUl + kQuantitySlack)
      return violation(DiagId::TwinMixTipOverflow, used[i] + 1, ul(tipTotal(used[i]) + volume),
                       ul(platform_.tipCapacityUl));
    if (wellMix(wells[i]).total() + kQuantitySlack < volume)
      return violation(DiagId::TwinMixWellTooLittle, wells[i], ul(wellMix(wells[i]).total()),
                       ul(volume));
  }
  return std::nullopt;
}

void DeckState::applyMix(const Plan &plan) {
  for (size_t i = 0; i < plan.used.size(); ++i) {
    Tip &tip = *head_[plan.used[i]];
    tip.contact = Contact::Well;
    tip.contactRow = plan.wells[i].row;
    tip.contactCol = plan.wells[i].col;
  }
}

//===--- Plate, lid, heater, shaker, reader, system ------------------------===//

const Slot *DeckState::slotNamed(std::string_view id) const {
  for (const Slot &slot : platform_.slots)
    if (sameId(slot.id, id))
      return &slot;
  return nullptr;
}

std::optional<Violation> DeckState::movePlate(const Command &command, bool commit) {
  const std::string &from = command.fields.from, &to = command.fields.to;
  bool checkedMove = std::any_of(platformMoves_.begin(), platformMoves_.end(),
                                 [&](const PlatformMove &move) {
                                   return sameId(move.from, from) &&
                                          sameId(move.to, to) &&
                                          sameId(move.module, command.module);
                                 });
  if (!checkedMove) {
    for (const std::string *slot : {&from, &to})
      if (!slotNamed(*slot))
        return violation(DiagId::TwinNoSuchSlot, *slot, platform_.name);
    const TransportRoute *route = nullptr;
    for (const TransportRoute &candidate : platform_.routes)
      if (sameId(candidate.module, command.module))
        route = &candidate;
    if (!route)
      return violation(DiagId::TwinNotATransport, command.module);
    auto serves = [&](const std::string &slot) {
      return std::any_of(
          route->slots.begin(), route->slots.end(),
          [&](const std::string &served) { return sameId(served, slot); });
    };
    if (!serves(from) || !serves(to))
      return violation(DiagId::TwinMoveNotServed, command.module, joined(route->slots), from,
                       to);
    platformMoves_.push_back({command.module, from, to});
  }
  if (!sameId(plateSlot_, from))
    return violation(DiagId::TwinMoveWrongStart, from, plateSlot_);
  if (sameId(to, plateSlot_))
    return violation(DiagId::TwinMoveOntoOccupied, to);
  if (commit)
    plateSlot_ = to;
  return std::nullopt;
}

std::optional<Violation> DeckState::lid(const Command &command, bool place, bool commit) {
  const std::string &slot = command.fields.slot;
  const Slot *where = slotNamed(slot);
  if (!where)
    return violation(DiagId::TwinNoSuchSlot, slot, platform_.name);
  const std::string &deck = where->deck;
  auto moduleIt = platform_.lidModules.find(deck);
  auto holderIt = platform_.lidHolders.find(deck);
  if (moduleIt == platform_.lidModules.end() || holderIt == platform_.lidHolders.end())
    return violation(DiagId::TwinNoLidHolder, deck);
  if (!sameId(moduleIt->second, command.module))
    return violation(DiagId::TwinLidWrongModule, deck, moduleIt->second, command.module);
  if (!sameId(plateSlot_, slot))
    return violation(DiagId::TwinLidNoPlate, slot, plateSlot_);
  if (!place && !lidOn_)
    return violation(DiagId::TwinNoLidToRemove, slot, lidHolderSlot_);
  if (place) {
    if (lidOn_)
      return violation(DiagId::TwinLidAlreadyOn, slot);
    if (!sameId(lidHolderSlot_, holderIt->second))
      return violation(DiagId::TwinLidOtherHolder, lidHolderSlot_, holderIt->second);
  }
  if (commit) {
    lidOn_ = place;
    lidHolderSlot_ = place ? std::string() : holderIt->second;
  }
  return std::nullopt;
}

std::optional<Violation> DeckState::setTemperature(const Command &command, bool commit) {
  double celsius = command.fields.celsius;
  if (celsius <= platform_.roomTempMaxCelsius || celsius > platform_.heaterMaxCelsius)
    return violation(DiagId::TwinHeaterRange, Quantity::celsius(celsius),
                     Quantity::celsius(platform_.roomTempMaxCelsius),
                     Quantity::celsius(platform_.heaterMaxCelsius));
  if (commit)
    heaterSetpoint_ = celsius;
  return std::nullopt;
}

std::optional<Violation> DeckState::shake(const Command &command) {
  double rpm = command.fields.rpm;
  double seconds = command.fields.seconds;
  if (rpm < platform_.shakerMinRpm || rpm > platform_.shakerMaxRpm)
    return violation(DiagId::TwinShakerRange, Quantity::rpm(rpm), number(platform_.shakerMinRpm),
                     number(platform_.shakerMaxRpm));
  if (seconds <= 0)
    return violation(DiagId::TwinShakeTime, Quantity::seconds(seconds));
  if (!sameId(plateSlot_, platform_.shakerSlot))
    return violation(DiagId::TwinShakeOffShaker, platform_.shakerSlot, plateSlot_);
  return std::nullopt;
}

std::optional<Violation> DeckState::read(const Command &command) {
  auto filters = [&] {
    std::vector<std::string> names;
    for (double filter : platform_.readerFiltersNm)
      names.push_back(formatNumber(filter));
    return joined(names);
  };
  for (const std::optional<double> &nm :
       {command.fields.wavelengthNm, command.fields.referenceNm}) {
    if (nm && !platform_.hasFilter(*nm))
      return violation(DiagId::TwinNoFilter, Quantity::nanometers(*nm), filters());
  }
  const std::vector<Well> &wells = command.fields.wells;
  if (!command.fields.wellsIsArray || wells.empty())
    return violation(DiagId::TwinReadNoWells);
  bool allInside = command.fields.wellsAllNamed &&
                   command.fields.wellsMaxRow <= labware_.shape.rows &&
                   command.fields.wellsMaxCol <= labware_.shape.cols;
  for (size_t i = 0; i < wells.size() && !allInside; ++i)
    if (!labware_.shape.contains(wells[i])) {
      // Well{} stands for a name that is no well; quote the argument.
      Json args = commandArgs(command);
      const Json &name = args["wells"][i];
      return violation(DiagId::TwinReadNotAWell,
                       name.is_string() ? name.get<std::string>() : name.dump(), labware_.name);
    }
  if (!sameId(plateSlot_, platform_.readerSlot))
    return violation(DiagId::TwinReadOffReader, platform_.readerSlot, plateSlot_);
  if (lidOn_)
    return violation(DiagId::TwinReadLidOn, plateSlot_);
  return std::nullopt;
}

std::optional<Violation> DeckState::wait(const Command &command) {
  double seconds = command.fields.seconds;
  if (seconds < 0)
    return violation(DiagId::TwinWaitNegative, Quantity::seconds(seconds));
  // A wait with the plate on the heating plate is a heated incubation: the
  // heater must be at a set point.
  if (sameId(plateSlot_, platform_.heaterSlot) && !heaterSetpoint_)
    return violation(DiagId::TwinHeaterOff, platform_.heaterSlot);
  return std::nullopt;
}

} // namespace plate::backend

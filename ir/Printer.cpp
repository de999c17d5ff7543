//===- Printer.cpp - Deterministic textual form of the IR -----------------===//
//
// One line per op, fields in a fixed order, numbers in shortest round-trip
// form, well sets as maximal rectangles: the dump is what lit tests check,
// so it must not depend on hash order, locale or pointer values.
//
//===----------------------------------------------------------------------===//
#include "ir/IR.h"

#include <cmath>
#include <fmt/format.h>

namespace plate::ir {

std::string_view roleName(LiquidRole role) {
  switch (role) {
  case LiquidRole::Reagent: return "reagent";
  case LiquidRole::Blank: return "blank";
  case LiquidRole::Calibrant: return "calibrant";
  case LiquidRole::Sample: return "sample";
  case LiquidRole::Control: return "control";
  case LiquidRole::Nsb: return "nsb";
  case LiquidRole::Bmax: return "bmax";
  case LiquidRole::Cutoff: return "cutoff";
  }
  return "unknown";
}

std::string_view polarityName(Polarity polarity) {
  switch (polarity) {
  case Polarity::None: return "";
  case Polarity::Positive: return "positive";
  case Polarity::Negative: return "negative";
  }
  return "";
}

std::string_view analysisKindName(AnalysisKind kind) {
  switch (kind) {
  case AnalysisKind::StandardCurve: return "standard_curve";
  case AnalysisKind::Competitive: return "competitive";
  case AnalysisKind::Cutoff: return "cutoff";
  }
  return "unknown";
}

std::string_view tipPolicyName(TipPolicy policy) {
  switch (policy) {
  case TipPolicy::New: return "new";
  case TipPolicy::PerSource: return "per_source";
  case TipPolicy::PerWell: return "per_well";
  case TipPolicy::Reuse: return "reuse";
  }
  return "unknown";
}

std::string ChannelMask::str() const {
  std::string text;
  for (unsigned channel = 0; channel < channels; ++channel)
    text.push_back(test(channel) ? '1' : '0');
  return text;
}

std::string_view opMnemonic(OpKind kind) {
  switch (kind) {
#define OP(Kind, Struct, Mnemonic, Level)                                      \
  case OpKind::Kind:                                                           \
    return Mnemonic;
#include "ir/Ops.def"
  }
  return "unknown";
}

bool isDeviceOp(OpKind kind) {
  switch (kind) {
#define OP(Kind, Struct, Mnemonic, Level)                                      \
  case OpKind::Kind:                                                           \
    return std::string_view(#Level) == "Device";
#include "ir/Ops.def"
  }
  return false;
}

WellSet Module::layoutWells() const {
  WellSet wells;
  for (const Liquid &liquid : liquids)
    if (liquid.role != LiquidRole::Reagent)
      wells |= liquid.wells;
  return wells;
}

WellSet Module::readWells(const WellSet &written) const {
  if (!written.empty())
    return written;
  WellSet wells = layoutWells();
  return wells.empty() ? WellSet::all(shape) : wells;
}

namespace {

std::string quotedText(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string q(const Quantity &quantity) { return fmt::format("{}", quantity); }

std::string liquidRef(const Module &module, LiquidId id) {
  if (id >= module.liquids.size())
    return fmt::format("%{}<invalid>", id);
  return fmt::format("%{}", module.liquids[id].name);
}

std::string amounts(const std::vector<WellAmount> &list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i)
    out += fmt::format("{}{}:{}", i ? "," : "", list[i].well, q(list[i].volume));
  return out + "]";
}

std::string place(const Place &p) {
  if (p.row == 0)
    return fmt::format("slot {}", p.slot);
  return fmt::format("slot {} ({},{})", p.slot, p.row, p.col);
}

struct PayloadPrinter {
  const Module &module;

  std::string operator()(const DispenseOp &op) const {
    std::string out = q(op.volume) + " of";
    for (const Portion &portion : op.portions)
      out += fmt::format(" {}->{}", liquidRef(module, portion.liquid),
                         portion.wells.str());
    if (op.mix)
      out += fmt::format(" mix={}x{}", op.mix->cycles, q(op.mix->volume));
    return out + fmt::format(" tips={}", tipPolicyName(op.tips));
  }
  std::string operator()(const AspirateOp &op) const {
    std::string out = (op.volume ? q(*op.volume) : std::string("all")) +
                      " from " + op.wells.str();
    if (!op.resolved.empty())
      out += " resolved=" + amounts(op.resolved);
    return out + fmt::format(" tips={}", tipPolicyName(op.tips));
  }
  std::string operator()(const WashOp &op) const {
    std::string out = fmt::format("{}x {} of {} wells={}", op.cycles, q(op.volume),
                                  liquidRef(module, op.reagent), op.wells.str());
    if (op.soak)
      out += " soak=" + q(*op.soak);
    if (!op.emptied.empty())
      out += " emptied=" + amounts(op.emptied);
    return out + fmt::format(" tips={}", tipPolicyName(op.tips));
  }
  std::string operator()(const IncubateOp &op) const {
    std::string out = q(op.time) + " at " + q(op.temperature);
    if (op.shaking)
      out += " shaking=" + q(*op.shaking);
    out += op.lidOn ? " lid=on" : " lid=off";
    if (op.dark)
      out += " dark";
    return out;
  }
  std::string operator()(const ShakeOp &op) const {
    return q(op.time) + " at " + q(op.speed);
  }
  std::string operator()(const MixOp &op) const {
    return fmt::format("{}x {} in {} tips={}", op.cycles, q(op.volume),
                       op.wells.str(), tipPolicyName(op.tips));
  }
  std::string operator()(const TransferOp &op) const {
    std::string out = q(op.volume) + " [";
    for (size_t i = 0; i < op.pairs.size(); ++i)
      out += fmt::format("{}{}->{}", i ? "," : "", op.pairs[i].first,
                         op.pairs[i].second);
    out += "]";
    if (op.mix)
      out += fmt::format(" mix={}x{}", op.mix->cycles, q(op.mix->volume));
    return out + fmt::format(" tips={}", tipPolicyName(op.tips));
  }
  std::string operator()(const MagnetOp &op) const { return q(op.time); }
  std::string operator()(const ReadAbsorbanceOp &op) const {
    std::string out = "at " + q(op.wavelength);
    if (op.reference)
      out += " reference=" + q(*op.reference);
    return out + " wells=" + op.wells.str();
  }
  std::string operator()(const ReadFluorescenceOp &op) const {
    return fmt::format("ex={} em={} wells={}", q(op.excitation), q(op.emission),
                       op.wells.str());
  }
  std::string operator()(const AnalyzeOp &op) const {
    // The original `standard_curve` prints as before: `4pl at 450 nm`.
    std::string out = op.kind == AnalysisKind::Cutoff ? "cutoff"
                      : op.fourPL                     ? "4pl"
                                                      : "linear";
    if (op.kind == AnalysisKind::Competitive)
      out = "competitive " + out;
    if (op.wavelength)
      out += " at " + q(*op.wavelength);
    if (op.subtractBlank)
      out += " subtract_blank";
    return out;
  }
  std::string operator()(const WaitOp &op) const { return q(op.time); }
  std::string operator()(const PauseOp &op) const { return quotedText(op.message); }
  std::string operator()(const NoteOp &op) const { return quotedText(op.text); }
  std::string operator()(const PrepareOp &op) const {
    std::string out = liquidRef(module, op.reagent);
    if (!op.from.empty())
      out += " from " + quotedText(op.from);
    if (op.dilute)
      out += " dilute=" + q(*op.dilute);
    if (op.volume)
      out += " volume=" + q(*op.volume);
    return out;
  }
  std::string operator()(const EquilibrateOp &op) const {
    std::string out;
    if (op.reagents.empty()) {
      out = op.wells.str();
    } else {
      out = "reagents";
      for (size_t i = 0; i < op.reagents.size(); ++i)
        out += (i ? ", " : " ") + liquidRef(module, op.reagents[i]);
    }
    out += " to " + q(op.temperature);
    if (op.time)
      out += " for " + q(*op.time);
    return out;
  }
  std::string operator()(const PickTipsOp &op) const {
    return fmt::format("rack ({},{}) mask={}", op.row, op.col, op.mask.str());
  }
  std::string operator()(const DropTipsOp &op) const {
    return "mask=" + op.mask.str();
  }
  std::string operator()(const ReturnTipsOp &op) const {
    return fmt::format("rack ({},{}) mask={}", op.row, op.col, op.mask.str());
  }
  std::string operator()(const DevAspirateOp &op) const {
    return fmt::format("{} mask={} {} of {}", place(op.place), op.mask.str(),
                       q(op.volume), liquidRef(module, op.liquid));
  }
  std::string operator()(const DevDispenseOp &op) const {
    return fmt::format("{} mask={} {}", place(op.place), op.mask.str(), q(op.volume));
  }
  std::string operator()(const DevMixOp &op) const {
    return fmt::format("{} mask={} {}x{}", place(op.place), op.mask.str(),
                       op.cycles, q(op.volume));
  }
  std::string operator()(const MovePlateOp &op) const {
    return fmt::format("{} {} -> {}", op.module, op.from, op.to);
  }
  std::string operator()(const LidOp &op) const {
    return fmt::format("{} {} slot {}", op.module, op.place ? "place" : "remove",
                       op.slot);
  }
  std::string operator()(const SwapTipRackOp &op) const { return op.module; }
  std::string operator()(const SetTemperatureOp &op) const {
    return fmt::format("{} {}", op.module, q(op.temperature));
  }
  std::string operator()(const HeaterOffOp &op) const { return op.module; }
  std::string operator()(const DevShakeOp &op) const {
    return fmt::format("{} {} for {}", op.module, q(op.speed), q(op.time));
  }
  std::string operator()(const DevReadOp &op) const {
    std::string out = fmt::format("{} at {}", op.module, q(op.wavelength));
    if (op.reference)
      out += " reference=" + q(*op.reference);
    WellSet wells;
    for (Well well : op.wells)
      wells.insert(well);
    return out + " wells=" + wells.str();
  }
  std::string operator()(const DevWaitOp &op) const { return q(op.time); }
  std::string operator()(const PromptOp &op) const { return quotedText(op.text); }
};

} // namespace

std::string printOp(const Op &op, const Module &module, const SourceManager *sources) {
  std::string body = std::visit(PayloadPrinter{module}, op.payload);
  std::string out = fmt::format("{}{} {}", op.manual ? "manual." : "",
                                opMnemonic(op.kind()), body);
  if (op.tipsReuse)
    out += " reuse";
  if (!op.blocks.empty()) {
    out += " blocks=[";
    for (size_t i = 0; i < op.blocks.size(); ++i)
      out += fmt::format("{}{}/{}", i ? "," : "", op.blocks[i].anchor,
                         op.blocks[i].mask.str());
    out += "]";
  }
  out += "  loc=";
  if (sources && op.loc.isValid() && op.loc.fileId != module.fileId) {
    // Only the file's own name: the stdlib's directory differs between
    // machines and would make dumps differ.
    const std::string &path = sources->name(op.loc.fileId);
    out += path.substr(path.find_last_of('/') + 1) + ":";
  }
  out += fmt::format("{}:{}", op.loc.line, op.loc.col);
  if (!op.step.empty())
    out += " step=" + op.step;
  return out;
}

std::string print(const Module &module, const SourceManager &sources) {
  std::string out = fmt::format(
      "module {} platform={} plate={} wells={}x{} capacity={}\n",
      quotedText(module.title), module.platform, module.plateType, module.shape.rows,
      module.shape.cols, formatNumber(module.wellCapacityUl));
  for (const Liquid &liquid : module.liquids) {
    out += fmt::format("  liquid %{} {}{}", liquid.name,
                       liquid.polarity == Polarity::None
                           ? std::string()
                           : std::string(polarityName(liquid.polarity)) + " ",
                       roleName(liquid.role));
    if (!liquid.wells.empty())
      out += " wells=" + liquid.wells.str();
    if (liquid.concentration)
      out += fmt::format(" conc={}", *liquid.concentration);
    if (liquid.dilution)
      out += " dilution=" + formatNumber(*liquid.dilution);
    if (liquid.madeOnPlate())
      out += fmt::format(" made_on_plate=%{}/{}", module.liquid(liquid.series->first).name,
                         formatNumber(std::pow(liquid.series->ratio, liquid.series->index)));
    if (liquid.declaredVolume)
      out += fmt::format(" declared={}", *liquid.declaredVolume);
    if (liquid.fixedPosition)
      out += fmt::format(" at=({},{})", liquid.fixedPosition->row,
                         liquid.fixedPosition->col);
    for (const std::string &flag : liquid.flags)
      out += " " + flag;
    if (liquid.pipettedByInstrument)
      out += " pipetted";
    out += "\n";
  }
  for (const ReservoirLoad &load : module.loadingPlan)
    out += fmt::format("  load ({},{}) {} {} mL\n", load.pos.row, load.pos.col,
                       liquidRef(module, load.liquid), formatNumber(load.volumeMl));
  if (module.tipsUsed)
    out += fmt::format("  tips {} racks {}\n", *module.tipsUsed,
                       module.tipRacksUsed.value_or(0));
  for (const Op &op : module.ops)
    out += "  " + printOp(op, module, &sources) + "\n";
  return out;
}

} // namespace plate::ir

//===- CommandSchema.cpp - The command table of bioforge1.md §3 ------------===//
//
// The table below is bioforge1.md §3 verbatim. Each argument names the
// typed field that holds it, so that neither the decoder nor the
// serializer compares argument names per command.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/CommandSchema.h"

#include <array>
#include <utility>

namespace plate::backend {

namespace {
constexpr std::pair<std::string_view, CommandOp> kOpNames[] = {
    {"PickTips", CommandOp::PickTips},
    {"DropTips", CommandOp::DropTips},
    {"ReturnTips", CommandOp::ReturnTips},
    {"Aspirate", CommandOp::Aspirate},
    {"Dispense", CommandOp::Dispense},
    {"Mix", CommandOp::Mix},
    {"MovePlate", CommandOp::MovePlate},
    {"RemoveLid", CommandOp::RemoveLid},
    {"PlaceLid", CommandOp::PlaceLid},
    {"SwapTipRack", CommandOp::SwapTipRack},
    {"SetTemperature", CommandOp::SetTemperature},
    {"Off", CommandOp::Off},
    {"Shake", CommandOp::Shake},
    {"ReadAbsorbance", CommandOp::ReadAbsorbance},
    {"Wait", CommandOp::Wait},
    {"Prompt", CommandOp::Prompt},
};
static_assert(std::size(kOpNames) == static_cast<size_t>(CommandOp::Other),
              "one name per op");
} // namespace

std::string_view opName(CommandOp op) {
  size_t index = static_cast<size_t>(op);
  return index < std::size(kOpNames) ? kOpNames[index].first : std::string_view();
}

CommandOp opNamed(std::string_view name) {
  for (const auto &[spelling, op] : kOpNames)
    if (spelling == name)
      return op;
  return CommandOp::Other;
}

const std::vector<CommandSpec> &commandSchema() {
  using enum ArgType;
  using K = ArgKey;
  using O = CommandOp;
  static const std::vector<CommandSpec> schema = {
      {"LH", O::PickTips,
       {{"row", Integer, true, K::Row}, {"col", Integer, true, K::Col},
        {"mask", Mask, true, K::Mask}}},
      {"LH", O::DropTips, {{"mask", Mask, true, K::Mask}}},
      {"LH", O::ReturnTips,
       {{"row", Integer, true, K::Row}, {"col", Integer, true, K::Col},
        {"mask", Mask, true, K::Mask}}},
      {"LH", O::Aspirate,
       {{"slot", Slot, true, K::Slot}, {"row", Integer, true, K::Row},
        {"col", Integer, true, K::Col}, {"mask", Mask, true, K::Mask},
        {"volume_ul", Number, true, K::VolumeUl}}},
      // Row and column are absent for the Solution Waste; the simulator
      // checks that the other slots have them.
      {"LH", O::Dispense,
       {{"slot", Slot, true, K::Slot}, {"row", Integer, false, K::Row},
        {"col", Integer, false, K::Col}, {"mask", Mask, true, K::Mask},
        {"volume_ul", Number, true, K::VolumeUl}}},
      {"LH", O::Mix,
       {{"slot", Slot, true, K::Slot}, {"row", Integer, true, K::Row},
        {"col", Integer, true, K::Col}, {"mask", Mask, true, K::Mask},
        {"volume_ul", Number, true, K::VolumeUl}, {"cycles", Integer, true, K::Cycles}}},
      {"LH", O::MovePlate, {{"from", Slot, true, K::From}, {"to", Slot, true, K::To}}},
      {"LH", O::RemoveLid, {{"slot", Slot, true, K::Slot}}},
      {"LH", O::PlaceLid, {{"slot", Slot, true, K::Slot}}},
      {"PT", O::MovePlate, {{"from", Slot, true, K::From}, {"to", Slot, true, K::To}}},
      {"PT", O::SwapTipRack, {}},
      {"PL", O::MovePlate, {{"from", Slot, true, K::From}, {"to", Slot, true, K::To}}},
      {"PL", O::RemoveLid, {{"slot", Slot, true, K::Slot}}},
      {"PL", O::PlaceLid, {{"slot", Slot, true, K::Slot}}},
      {"HP", O::SetTemperature, {{"celsius", Number, true, K::Celsius}}},
      {"HP", O::Off, {}},
      {"SHK", O::Shake, {{"rpm", Number, true, K::Rpm}, {"seconds", Number, true, K::Seconds}}},
      {"RDR", O::ReadAbsorbance,
       {{"wavelength_nm", Number, true, K::WavelengthNm},
        {"reference_nm", Number, false, K::ReferenceNm}, {"wells", WellList, true, K::Wells}}},
      {"SYS", O::Wait, {{"seconds", Number, true, K::Seconds}}},
      {"SYS", O::Prompt, {{"text", String, true, K::Text}}},
  };
  return schema;
}

const CommandSpec *findCommandSpec(std::string_view module, std::string_view op) {
  CommandOp kind = opNamed(op);
  for (const CommandSpec &spec : commandSchema())
    if (spec.op == kind && module == spec.module)
      return &spec;
  return nullptr;
}

const std::vector<ArgSpec> &opArgs(CommandOp op) {
  static const auto byOp = [] {
    std::array<std::vector<ArgSpec>, static_cast<size_t>(CommandOp::Other) + 1> table;
    std::array<bool, static_cast<size_t>(CommandOp::Other) + 1> seen{};
    for (const CommandSpec &spec : commandSchema()) {
      size_t index = static_cast<size_t>(spec.op);
      if (!seen[index])
        table[index] = spec.args;
      seen[index] = true;
    }
    return table;
  }();
  return byOp[static_cast<size_t>(op)];
}

} // namespace plate::backend

//===- Dependences.cpp - Which wells each step reads and writes ----------===//
#include "passes/Dependences.h"

namespace plate {

WellAccess wellAccess(const ir::Op &op, const ir::Module &module) {
  WellAccess access;
  auto readsAndWrites = [&](const WellSet &wells) {
    access.reads |= wells;
    access.writes |= wells;
  };
  switch (op.kind()) {
  case ir::OpKind::Dispense: {
    const auto &dispense = *op.as<ir::DispenseOp>();
    for (const ir::Portion &portion : dispense.portions) {
      access.writes |= portion.wells;
      if (dispense.mix)
        access.reads |= portion.wells;
    }
    break;
  }
  case ir::OpKind::Aspirate:
    readsAndWrites(op.as<ir::AspirateOp>()->wells);
    break;
  case ir::OpKind::Wash:
    readsAndWrites(op.as<ir::WashOp>()->wells);
    break;
  case ir::OpKind::Mix:
    readsAndWrites(op.as<ir::MixOp>()->wells);
    break;
  case ir::OpKind::Transfer:
    for (const auto &[from, to] : op.as<ir::TransferOp>()->pairs) {
      access.reads.insert(from);
      access.writes.insert(from);
      access.writes.insert(to);
    }
    break;
  case ir::OpKind::ReadAbsorbance:
    access.reads |= module.readWells(op.as<ir::ReadAbsorbanceOp>()->wells);
    break;
  case ir::OpKind::ReadFluorescence:
    access.reads |= module.readWells(op.as<ir::ReadFluorescenceOp>()->wells);
    break;
  case ir::OpKind::Incubate:
  case ir::OpKind::Shake:
  case ir::OpKind::Wait:
  case ir::OpKind::Magnet:
    access.plateWide = true;
    break;
  default:
    break;
  }
  return access;
}

bool mustKeepOrder(const WellAccess &earlier, const WellAccess &later) {
  bool touchesEarlier = !earlier.reads.empty() || !earlier.writes.empty();
  bool touchesLater = !later.reads.empty() || !later.writes.empty();
  if ((earlier.plateWide && (touchesLater || later.plateWide)) ||
      (later.plateWide && touchesEarlier))
    return true;
  auto overlap = [](WellSet a, const WellSet &b) {
    a &= b;
    return !a.empty();
  };
  return overlap(earlier.writes, later.reads) || overlap(earlier.writes, later.writes) ||
         overlap(earlier.reads, later.writes);
}

PairConflict transferConflict(const std::pair<Well, Well> &first,
                              const std::pair<Well, Well> &second) {
  if (first.second == second.first)
    return PairConflict::DrawsWhatEarlierFilled;
  if (first.first == second.second)
    return PairConflict::FillsWhatEarlierDrew;
  return PairConflict::None;
}

} // namespace plate

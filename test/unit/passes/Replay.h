//===- Replay.h - Replays lowered ops against the invariants -------------===//
//
// A small, independent model of bioforge1.md §4 for the pass tests: tips on
// the head and in the rack, what each tip has touched (contact rule), tip
// and well volumes, reservoir dead volume, and where the plate and its lid
// are. It deliberately shares no code with the passes it checks. Returns
// the first violation as text (empty when the stream is legal).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/Platform.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plate::testing {

struct ReplayResult {
  std::string error; ///< first violation, empty if none
  size_t failedOp = 0;
  unsigned freshTipsPicked = 0;
  unsigned tipsDropped = 0;
  unsigned swaps = 0;
  std::map<Well, double> wellVolume;
  std::map<std::pair<unsigned, unsigned>, double> reservoir; ///< µL left
  std::string plateSlot;
  bool lidOn = true;
  double heaterCelsius = 0; ///< 0 = off
};

class Replayer {
public:
  Replayer(const ir::Module &module, const Platform &platform)
      : module_(module), platform_(platform) {
    double pitch = platform.findLabware(module.plateType)
                       ? platform.findLabware(module.plateType)->pitchMm
                       : 9;
    stride_ = static_cast<unsigned>(platform.channelSpacingMm / pitch + 0.5);
    rack_.assign(platform.tipRackRows * platform.tipRackCols, -1);
    head_.assign(platform.channels, -1);
    result_.plateSlot = platform.samplePlateSlot;
    lidHolderDeck_.clear();
    for (const ir::ReservoirLoad &load : module.loadingPlan)
      result_.reservoir[{load.pos.row, load.pos.col}] = load.volumeMl * 1000;
  }

  /// Starting well contents (what MANUAL steps or earlier ops left).
  void setWell(Well well, double ul) { result_.wellVolume[well] = ul; }
  /// For streams before route-transport: the plate stands ready to pipette.
  void assumePlateReady() {
    result_.lidOn = false;
    lidHolderDeck_ = platform_.deckOf(platform_.samplePlateSlot);
  }

  ReplayResult run() {
    for (size_t i = 0; i < module_.ops.size(); ++i) {
      const ir::Op &op = module_.ops[i];
      if (op.manual)
        continue;
      reuse_ = op.tipsReuse;
      std::string error = std::visit([&](const auto &payload) { return step(payload); },
                                     op.payload);
      if (!error.empty()) {
        result_.error = fmt::format("op #{} {}: {}", i, ir::printOp(op, module_), error);
        result_.failedOp = i;
        break;
      }
    }
    return result_;
  }

private:
  struct Tip {
    unsigned homeRow, homeCol;
    int source = -1; ///< reservoir row*16+col it aspirated from
    std::optional<Well> well;
    double held = 0;
  };

  int &cell(unsigned row, unsigned col) {
    return rack_[(row - 1) * platform_.tipRackCols + (col - 1)];
  }
  bool plateReady() const { return result_.plateSlot == platform_.samplePlateSlot && !result_.lidOn; }
  Well wellAt(const ir::Place &place, unsigned k) const {
    return {static_cast<uint8_t>(place.row), static_cast<uint8_t>(place.col + k * stride_)};
  }

  std::string step(const ir::PickTipsOp &op) {
    for (unsigned k = 0; k < head_.size(); ++k) {
      if (!op.mask.test(k))
        continue;
      if (head_[k] >= 0)
        return fmt::format("channel {} already has a tip", k + 1);
      unsigned col = op.col + k;
      if (op.row < 1 || op.row > platform_.tipRackRows || op.col < 1 || col > platform_.tipRackCols)
        return "rack position out of range";
      int &c = cell(op.row, col);
      if (c == -2)
        return fmt::format("no tip at rack ({},{})", op.row, col);
      if (c == -1) {
        tips_.push_back(Tip{op.row, col, -1, std::nullopt, 0});
        head_[k] = static_cast<int>(tips_.size() - 1);
        ++result_.freshTipsPicked;
      } else {
        head_[k] = c;
      }
      c = -2;
    }
    return {};
  }
  std::string step(const ir::DropTipsOp &op) {
    for (unsigned k = 0; k < head_.size(); ++k) {
      if (!op.mask.test(k))
        continue;
      if (head_[k] < 0)
        return fmt::format("channel {} has no tip to drop", k + 1);
      head_[k] = -1;
      ++result_.tipsDropped;
    }
    return {};
  }
  std::string step(const ir::ReturnTipsOp &op) {
    for (unsigned k = 0; k < head_.size(); ++k) {
      if (!op.mask.test(k))
        continue;
      if (head_[k] < 0)
        return fmt::format("channel {} has no tip to return", k + 1);
      Tip &tip = tips_[head_[k]];
      if (tip.homeRow != op.row || tip.homeCol != op.col + k)
        return fmt::format("tip of channel {} returned to ({},{}), not its home ({},{})",
                           k + 1, op.row, op.col + k, tip.homeRow, tip.homeCol);
      if (tip.held > 1e-6)
        return "returning a tip that holds liquid";
      cell(op.row, op.col + k) = head_[k];
      head_[k] = -1;
    }
    return {};
  }
  std::string step(const ir::SwapTipRackOp &) {
    std::fill(rack_.begin(), rack_.end(), -1);
    ++result_.swaps;
    return {};
  }
  std::string tipFor(unsigned k, Tip *&tip) {
    if (head_[k] < 0)
      return fmt::format("channel {} has no tip", k + 1);
    tip = &tips_[head_[k]];
    return {};
  }
  std::string step(const ir::DevAspirateOp &op) {
    double v = op.volume.canonicalValue();
    bool fromReservoir = op.place.slot == platform_.reservoirSlot;
    if (!fromReservoir && !plateReady())
      return "aspirate from the plate while it is not on the sample slot with its lid off";
    for (unsigned k = 0; k < head_.size(); ++k) {
      if (!op.mask.test(k))
        continue;
      Tip *tip = nullptr;
      if (std::string e = tipFor(k, tip); !e.empty())
        return e;
      if (fromReservoir) {
        int pos = static_cast<int>(op.place.row * 16 + op.place.col);
        if (!reuse_ && (tip->well || (tip->source >= 0 && tip->source != pos)))
          return fmt::format("channel {} tip touched something else before this reservoir", k + 1);
        tip->source = pos;
        double &left = result_.reservoir[{op.place.row, op.place.col}];
        left -= v;
        if (left < platform_.reservoirDeadMl * 1000 - 1e-6)
          return fmt::format("reservoir ({},{}) below its dead volume", op.place.row, op.place.col);
      } else {
        Well well = wellAt(op.place, k);
        if (!reuse_ && tip->well && *tip->well != well)
          return fmt::format("channel {} tip touched {} and now {}", k + 1, tip->well->name(), well.name());
        tip->well = well;
        double &inWell = result_.wellVolume[well];
        inWell -= v;
        if (inWell < -1e-6)
          return fmt::format("well {} gives more than it holds", well.name());
      }
      tip->held += v;
      if (tip->held > platform_.tipCapacityUl + 1e-6)
        return fmt::format("channel {} holds {} uL", k + 1, tip->held);
    }
    return {};
  }
  std::string step(const ir::DevDispenseOp &op) {
    double v = op.volume.canonicalValue();
    bool toWaste = op.place.slot == platform_.solutionWasteSlot;
    if (!toWaste && !plateReady())
      return "dispense onto the plate while it is not on the sample slot with its lid off";
    for (unsigned k = 0; k < head_.size(); ++k) {
      if (!op.mask.test(k))
        continue;
      Tip *tip = nullptr;
      if (std::string e = tipFor(k, tip); !e.empty())
        return e;
      if (tip->held < v - 1e-6)
        return fmt::format("channel {} dispenses {} but holds {}", k + 1, v, tip->held);
      tip->held -= v;
      if (!toWaste) {
        Well well = wellAt(op.place, k);
        double &inWell = result_.wellVolume[well];
        inWell += v;
        if (inWell > module_.wellCapacityUl + 1e-6)
          return fmt::format("well {} overflows", well.name());
      }
    }
    return {};
  }
  std::string step(const ir::DevMixOp &op) {
    if (!plateReady())
      return "mix while the plate is not ready";
    for (unsigned k = 0; k < head_.size(); ++k) {
      if (!op.mask.test(k))
        continue;
      Tip *tip = nullptr;
      if (std::string e = tipFor(k, tip); !e.empty())
        return e;
      Well well = wellAt(op.place, k);
      if (!reuse_ && tip->well && *tip->well != well)
        return fmt::format("channel {} tip touched {} and now mixes {}", k + 1, tip->well->name(), well.name());
      tip->well = well;
    }
    return {};
  }
  std::string step(const ir::MovePlateOp &op) {
    if (op.from != result_.plateSlot)
      return fmt::format("move from {} but the plate is on {}", op.from, result_.plateSlot);
    if (platform_.moverBetween(op.from, op.to) != op.module)
      return fmt::format("{} does not move {} -> {}", op.module, op.from, op.to);
    result_.plateSlot = op.to;
    return {};
  }
  std::string step(const ir::LidOp &op) {
    if (op.slot != result_.plateSlot)
      return fmt::format("lid op on {} but the plate is on {}", op.slot, result_.plateSlot);
    std::string deck = platform_.deckOf(op.slot);
    auto module = platform_.lidModules.find(deck);
    if (module == platform_.lidModules.end() || module->second != op.module)
      return fmt::format("{} does not handle lids on deck {}", op.module, deck);
    if (op.place) {
      if (result_.lidOn)
        return "placing a lid on a plate that has one";
      if (lidHolderDeck_ != deck)
        return fmt::format("the lid is in the holder of deck `{}`, not `{}`", lidHolderDeck_, deck);
      result_.lidOn = true;
      lidHolderDeck_.clear();
    } else {
      if (!result_.lidOn)
        return "removing a lid that is not on";
      result_.lidOn = false;
      lidHolderDeck_ = deck;
    }
    return {};
  }
  std::string step(const ir::SetTemperatureOp &op) {
    result_.heaterCelsius = op.temperature.canonicalValue();
    return {};
  }
  std::string step(const ir::HeaterOffOp &) {
    result_.heaterCelsius = 0;
    return {};
  }
  std::string step(const ir::DevShakeOp &) {
    if (result_.plateSlot != platform_.shakerSlot)
      return "shake while the plate is not on the shaker";
    return {};
  }
  std::string step(const ir::DevReadOp &) {
    if (result_.plateSlot != platform_.readerSlot || result_.lidOn)
      return "read while the plate is not on the reader with its lid off";
    return {};
  }
  std::string step(const ir::DevWaitOp &) { return {}; }
  std::string step(const ir::PromptOp &) { return {}; }
  std::string step(const ir::AnalyzeOp &) { return {}; }
  std::string step(const ir::NoteOp &) { return {}; }
  template <typename T> std::string step(const T &) {
    return "high-level op left in the stream";
  }

  const ir::Module &module_;
  const Platform &platform_;
  unsigned stride_ = 1;
  std::vector<int> rack_; ///< -1 fresh, -2 empty, else the index of a returned tip
  std::vector<int> head_; ///< tip index per channel, -1 none
  std::vector<Tip> tips_;
  std::string lidHolderDeck_;
  bool reuse_ = false;
  ReplayResult result_;
};

} // namespace plate::testing

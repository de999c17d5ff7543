//===- OperatorChecklist.cpp - Set-up and MANUAL checklists as prompts ----===//
//
// One walk over the lowered ops: the plate's place and lid follow the
// moves and lid ops, so a MANUAL section in the middle of a run can say
// where the plate is. Each checklist is one prompt text, a line per item.
//
//===----------------------------------------------------------------------===//
#include "passes/OperatorChecklist.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace plate {
namespace {

// The first words of each checklist: a module that has them already (the
// pass listed twice in --passes) gets no second copy.
constexpr std::string_view kSetUpHeading = "before the robot starts";
constexpr std::string_view kSectionHeading = "MANUAL steps from line";

bool isChecklist(const ir::Op &op, std::string_view heading) {
  const auto *prompt = op.as<ir::PromptOp>();
  return prompt && prompt->text.compare(0, heading.size(), heading) == 0;
}

class ChecklistBuilder {
public:
  ChecklistBuilder(ir::Module &module, PassContext &context)
      : module_(module), context_(context), platform_(context.platform),
        plateAt_(context.platform.samplePlateSlot) {}

  void run() {
    std::vector<ir::Op> &ops = module_.ops;
    size_t firstRobot = 0;
    while (firstRobot < ops.size() && !isRobotOp(ops[firstRobot]))
      ++firstRobot;
    if (firstRobot == ops.size())
      return; // nothing runs on the robot, nobody to wait for
    findLateLoads(firstRobot);
    std::vector<ir::Op> result;
    result.reserve(ops.size() + 4);
    std::vector<const ir::Op *> leading;
    for (size_t i = 0; i < firstRobot; ++i)
      if (ops[i].manual)
        leading.push_back(&ops[i]);
    const ir::Op &setUpOrigin = leading.empty() ? ops[firstRobot] : *leading.front();
    if (!isChecklist(ops.front(), kSetUpHeading))
      result.push_back(prompt(setUpChecklist(leading), setUpOrigin));
    for (size_t i = 0; i < ops.size(); ++i) {
      // result.back() is op i - 1 (ops[i - 1] was moved from).
      if (i > firstRobot && ops[i].manual && !result.back().manual &&
          !isChecklist(result.back(), kSectionHeading)) {
        std::vector<const ir::Op *> section;
        for (size_t j = i; j < ops.size() && ops[j].manual; ++j)
          section.push_back(&ops[j]);
        result.push_back(prompt(sectionChecklist(section), ops[i]));
      }
      track(ops[i]);
      result.push_back(std::move(ops[i]));
    }
    ops = std::move(result);
  }

private:
  static bool isRobotOp(const ir::Op &op) { return !op.manual && ir::isDeviceOp(op.kind()); }

  /// A reagent prepared in a MANUAL section after the robot has started,
  /// before the robot first draws it ("made by hand when the robot pauses:
  /// it loses activity on the deck"), is loaded at that pause: the set-up
  /// checklist leaves its positions empty and the pause's checklist says
  /// where it goes (a blind writer found it on the set-up list).
  void findLateLoads(size_t firstRobot) {
    const std::vector<ir::Op> &ops = module_.ops;
    std::set<ir::LiquidId> drawn, preparedEarly;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (const auto *aspirate = ops[i].as<ir::DevAspirateOp>(); aspirate && !ops[i].manual)
        drawn.insert(aspirate->liquid);
      const auto *prepare = ops[i].as<ir::PrepareOp>();
      if (!prepare || !ops[i].manual)
        continue;
      if (i < firstRobot) {
        preparedEarly.insert(prepare->reagent);
        continue;
      }
      bool loaded = std::any_of(module_.loadingPlan.begin(), module_.loadingPlan.end(),
                                [&](const ir::ReservoirLoad &load) {
                                  return load.liquid == prepare->reagent;
                                });
      if (loaded && !drawn.count(prepare->reagent) && !preparedEarly.count(prepare->reagent) &&
          !lateLoads_.count(prepare->reagent))
        lateLoads_.emplace(prepare->reagent, ops[i].loc.line);
    }
  }

  static ir::Op prompt(std::string text, const ir::Op &origin) {
    ir::Op op;
    op.payload.emplace<ir::PromptOp>(ir::PromptOp{std::move(text)});
    op.loc = origin.loc;
    op.origin = origin.origin;
    op.step = origin.step;
    return op;
  }

  void track(const ir::Op &op) {
    if (op.manual)
      return;
    if (const auto *move = op.as<ir::MovePlateOp>())
      plateAt_ = move->to;
    else if (const auto *lid = op.as<ir::LidOp>())
      lidOn_ = lid->place;
  }

  /// `slot 3 (heater)`: the slot and its fixture as the platform names it.
  std::string slotName(const std::string &id) const {
    const Slot *slot = platform_.findSlot(id);
    if (!slot || slot->fixture.empty())
      return "slot " + id;
    std::string fixture = slot->fixture;
    std::replace(fixture.begin(), fixture.end(), '_', ' ');
    return fmt::format("slot {} ({})", id, fixture);
  }

  /// A source line up to its `#` comment: the author's remark to the
  /// script's reader ("# as in step 2") is no instruction for the operator.
  /// A `#` inside a string (`note "plate #2"`) is text.
  static std::string_view withoutComment(std::string_view line) {
    bool inString = false;
    for (size_t i = 0; i < line.size(); ++i) {
      if (inString && line[i] == '\\') {
        ++i;
        continue;
      }
      if (line[i] == '"')
        inString = !inString;
      else if (line[i] == '#' && !inString)
        return line.substr(0, i);
    }
    return line;
  }

  /// The statement as written (without indentation and comment), then for a dispense
  /// each liquid with its volume and wells: the layout shorthand
  /// (`dispense 100 uL of layout`) does not say where each liquid goes.
  void statementLines(const std::vector<const ir::Op *> &ops, std::string &text) const {
    uint32_t lastLine = 0;
    for (const ir::Op *op : ops) {
      if (op->loc.line != lastLine) {
        lastLine = op->loc.line;
        std::string_view line = withoutComment(
            context_.sources.lineText(op->loc.fileId, op->loc.line));
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
          line.remove_prefix(1);
        while (!line.empty() &&
               (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
          line.remove_suffix(1);
        text += fmt::format("  [ ] {}\n", line.empty() ? ir::opMnemonic(op->kind()) : line);
      }
      if (const auto *dispense = op->as<ir::DispenseOp>())
        for (const ir::Portion &portion : dispense->portions)
          text += fmt::format("        {}: {} into {}\n", module_.liquid(portion.liquid).name,
                              dispense->volume, portion.wells.str());
      // `equilibrate all reagents` does not say which they are.
      if (const auto *equilibrate = op->as<ir::EquilibrateOp>();
          equilibrate && !equilibrate->reagents.empty()) {
        std::string names;
        for (ir::LiquidId id : equilibrate->reagents)
          names += (names.empty() ? "" : ", ") + module_.liquid(id).name;
        text += fmt::format("        reagents: {}\n", names);
      }
    }
  }

  std::string setUpChecklist(const std::vector<const ir::Op *> &manual) const {
    const ir::Op *first = manual.empty() ? nullptr : manual.front();
    std::string text = fmt::format("{}{}: set up, then confirm\n", kSetUpHeading,
                                   first ? fmt::format(" (MANUAL from line {})", first->loc.line)
                                         : std::string());
    if (!manual.empty()) {
      text += "manual steps:\n";
      statementLines(manual, text);
    }
    text += fmt::format("reservoir on {}, as the loading plan says:\n",
                        slotName(platform_.reservoirSlot));
    if (module_.loadingPlan.empty())
      text += "  [ ] nothing to load\n";
    for (const ir::ReservoirLoad &load : module_.loadingPlan) {
      if (auto late = lateLoads_.find(load.liquid); late != lateLoads_.end()) {
        text += fmt::format("  [ ] ({},{}) empty for now: {} is made and loaded at the pause "
                            "from line {}\n",
                            load.pos.row, load.pos.col, module_.liquid(load.liquid).name,
                            late->second);
        continue;
      }
      text += fmt::format("  [ ] ({},{}) {} {} mL\n", load.pos.row, load.pos.col,
                          module_.liquid(load.liquid).name, formatNumber(load.volumeMl));
    }
    text += "deck:\n";
    text += fmt::format("  [ ] {} plate on {}, lid on\n", module_.plateType,
                        slotName(platform_.samplePlateSlot));
    unsigned racks = module_.tipRacksUsed.value_or(1);
    text += fmt::format("  [ ] a full tip rack ({} tips) on {}{}\n",
                        platform_.tipRackRows * platform_.tipRackCols,
                        slotName(platform_.tipRackSlot),
                        racks > 1 ? fmt::format("; {} more full rack(s) in the stacker", racks - 1)
                                  : std::string());
    text += fmt::format("  [ ] {} and {} empty\n", slotName(platform_.tipWasteSlot),
                        slotName(platform_.solutionWasteSlot));
    // Every place the plate or its lid may be moved to must be free.
    std::set<std::string> places;
    for (const TransportRoute &route : platform_.routes)
      places.insert(route.slots.begin(), route.slots.end());
    places.erase(platform_.samplePlateSlot);
    for (const auto &[deck, holder] : platform_.lidHolders)
      places.insert(holder);
    std::string free;
    for (const Slot &slot : platform_.slots)
      if (places.count(slot.id))
        free += (free.empty() ? "" : ", ") + slotName(slot.id);
    text += fmt::format("  [ ] nothing on {}\n", free);
    if (!platform_.heaterModule.empty()) // a robot without a heater has none to check
      text += fmt::format("  [ ] {} off\n", slotName(platform_.heaterSlot));
    return text + "confirm when all of the above is done";
  }

  std::string sectionChecklist(const std::vector<const ir::Op *> &manual) const {
    std::string text = fmt::format("{} {}: the plate is on {}, lid {}\n", kSectionHeading,
                                   manual.front()->loc.line, slotName(plateAt_),
                                   lidOn_ ? "on" : "off");
    statementLines(manual, text);
    for (const ir::Op *op : manual) {
      const auto *prepare = op->as<ir::PrepareOp>();
      if (!prepare || !lateLoads_.count(prepare->reagent))
        continue;
      for (const ir::ReservoirLoad &load : module_.loadingPlan)
        if (load.liquid == prepare->reagent)
          text += fmt::format("  [ ] load {} {} mL into ({},{}) of the reservoir on {}\n",
                              module_.liquid(load.liquid).name, formatNumber(load.volumeMl),
                              load.pos.row, load.pos.col, slotName(platform_.reservoirSlot));
    }
    // A person may take the plate away (to dry it in a hood, to seal it):
    // the robot goes on only from where the plate and its lid were.
    return text + fmt::format("when done, the plate is back on {}, lid {}, as you found it; "
                              "confirm when done",
                              slotName(plateAt_), lidOn_ ? "on" : "off");
  }

  ir::Module &module_;
  PassContext &context_;
  const Platform &platform_;
  std::string plateAt_;
  bool lidOn_ = true;
  /// Reagents loaded at a pause, with the line of the MANUAL section's
  /// `prepare`.
  std::map<ir::LiquidId, uint32_t> lateLoads_;
};

class OperatorChecklistPass final : public Pass {
public:
  std::string_view name() const override { return "operator-checklist"; }
  bool run(ir::Module &module, PassContext &context) override {
    ChecklistBuilder(module, context).run();
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createOperatorChecklistPass() {
  return std::make_unique<OperatorChecklistPass>();
}

} // namespace plate

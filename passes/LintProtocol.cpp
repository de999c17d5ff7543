//===- LintProtocol.cpp - Warnings about missing or misplaced steps ------===//
//
// One forward walk with a little state per lint; W804 needs the reads that
// follow each dispense, so it walks backwards once first.
//
//===----------------------------------------------------------------------===//
#include "passes/LintProtocol.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace plate {
namespace {

enum class Kind { Other, Substrate, Conjugate, Stop };

std::vector<std::string> words(std::string_view name) {
  std::vector<std::string> out;
  std::string word;
  for (char c : name) {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty())
    out.push_back(std::move(word));
  return out;
}

Kind classify(const ir::Liquid &liquid) {
  auto flagged = [&](std::string_view flag) {
    return std::find(liquid.flags.begin(), liquid.flags.end(), flag) != liquid.flags.end();
  };
  if (flagged("substrate"))
    return Kind::Substrate;
  if (flagged("conjugate"))
    return Kind::Conjugate;
  if (flagged("stop"))
    return Kind::Stop;
  static const std::set<std::string> substrate = {"tmb", "abts", "opd", "pnpp", "dab",
                                                  "ecl", "luminol", "substrate"};
  static const std::set<std::string> conjugate = {
      "conjugate", "hrp", "ap", "antibody", "ab", "detection", "secondary",
      "streptavidin", "biotin"};
  std::vector<std::string> parts = words(liquid.name);
  for (const std::string &part : parts)
    if (part == "stop")
      return Kind::Stop;
  for (const std::string &part : parts)
    if (substrate.count(part))
      return Kind::Substrate;
  for (const std::string &part : parts)
    if (conjugate.count(part))
      return Kind::Conjugate;
  return Kind::Other;
}

bool lightSensitive(const ir::Liquid &liquid) {
  return std::find(liquid.flags.begin(), liquid.flags.end(), "light_sensitive") !=
         liquid.flags.end();
}

class Linter {
public:
  Linter(const ir::Module &module, PassContext &context)
      : module_(module), diags_(context.diags) {}

  void run() {
    findUnreadDispenses();
    const ir::Op *conjugate = nullptr;
    ir::LiquidId conjugateLiquid = 0;
    const ir::Op *stop = nullptr;
    ir::LiquidId stopLiquid = 0;
    bool readSeen = false;
    std::vector<std::pair<ir::LiquidId, bool>> inLight; // liquid, warned
    for (const ir::Op &op : module_.ops) {
      if (auto *dispense = op.as<ir::DispenseOp>()) {
        reportUnread(op, *dispense);
        for (const ir::Portion &portion : dispense->portions) {
          const ir::Liquid &liquid = module_.liquid(portion.liquid);
          switch (classify(liquid)) {
          case Kind::Conjugate:
            conjugate = &op;
            conjugateLiquid = liquid.id;
            break;
          case Kind::Substrate:
            if (conjugate) {
              diags_
                  .report(DiagId::SubstrateBeforeWash, op.loc, liquid.name,
                          module_.liquid(conjugateLiquid).name)
                  .step(op.step)
                  .note(conjugate->loc, "`{}` is dispensed here",
                        module_.liquid(conjugateLiquid).name);
              conjugate = nullptr;
            }
            break;
          case Kind::Stop:
            if (!stop) {
              stop = &op;
              stopLiquid = liquid.id;
            }
            break;
          case Kind::Other:
            break;
          }
          if (lightSensitive(liquid))
            inLight.push_back({liquid.id, false});
        }
      } else if (op.as<ir::WashOp>() || op.as<ir::AspirateOp>()) {
        conjugate = nullptr;
        inLight.clear();
      } else if (op.as<ir::ReadAbsorbanceOp>() || op.as<ir::ReadFluorescenceOp>()) {
        readSeen = true;
        stop = nullptr;
      } else if (op.as<ir::AnalyzeOp>()) {
        if (!readSeen)
          diags_.report(DiagId::AnalyzeWithoutRead, op.loc).step(op.step);
      } else if (auto *incubate = op.as<ir::IncubateOp>()) {
        // `dark` means lid on (language spec §7) and an incubation keeps the
        // lid on unless told otherwise, so only `lid off` lets light in:
        // asking for `dark` on a covered plate changes nothing the robot
        // does (the blind held-out writers found that warning noise).
        if (!incubate->dark && !incubate->lidOn)
          for (auto &[liquid, warned] : inLight)
            if (!warned) {
              diags_.report(DiagId::LightSensitiveInLight, op.loc, module_.liquid(liquid).name)
                  .step(op.step);
              warned = true;
            }
      }
    }
    if (stop)
      diags_.report(DiagId::NoReadAfterStop, stop->loc, module_.liquid(stopLiquid).name)
          .step(stop->step);
  }

private:
  /// W804 needs the reads after each dispense: one backward walk. What a
  /// transfer moves on is read where it lands, so a transfer's source
  /// counts as read when its destination is (pairs walked last to first,
  /// so that a serial dilution passes it back along the whole chain).
  void findUnreadDispenses() {
    bool anyRead = false;
    WellSet readLater;
    for (size_t i = module_.ops.size(); i-- > 0;) {
      const ir::Op &op = module_.ops[i];
      if (auto *read = op.as<ir::ReadAbsorbanceOp>()) {
        anyRead = true;
        readLater |= module_.readWells(read->wells);
      } else if (auto *read = op.as<ir::ReadFluorescenceOp>()) {
        anyRead = true;
        readLater |= module_.readWells(read->wells);
      } else if (auto *transfer = op.as<ir::TransferOp>()) {
        for (auto pair = transfer->pairs.rbegin(); pair != transfer->pairs.rend(); ++pair)
          if (readLater.contains(pair->second))
            readLater.insert(pair->first);
      } else if (auto *dispense = op.as<ir::DispenseOp>()) {
        WellSet wells;
        for (const ir::Portion &portion : dispense->portions)
          wells |= portion.wells;
        wells.subtract(readLater);
        if (!wells.empty())
          unread_[&op] = wells;
      }
    }
    if (!anyRead)
      unread_.clear();
  }

  void reportUnread(const ir::Op &op, const ir::DispenseOp &dispense) {
    auto it = unread_.find(&op);
    if (it == unread_.end())
      return;
    std::string source = dispense.portions.size() == 1
                             ? module_.liquid(dispense.portions[0].liquid).name
                             : std::string("layout");
    diags_
        .report(DiagId::DispensedNeverRead, op.loc, it->second.size(), source,
                it->second.str())
        .step(op.step);
  }

  std::map<const ir::Op *, WellSet> unread_;
  const ir::Module &module_;
  DiagnosticEngine &diags_;
};

class LintProtocolPass final : public Pass {
public:
  std::string_view name() const override { return "lint-protocol"; }
  bool run(ir::Module &module, PassContext &context) override {
    Linter(module, context).run();
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createLintProtocolPass() {
  return std::make_unique<LintProtocolPass>();
}

} // namespace plate

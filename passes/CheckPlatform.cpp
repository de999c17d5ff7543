//===- CheckPlatform.cpp - Device ranges and capabilities ----------------===//
//
// Each check reads its limits from the Platform; the messages quote them,
// so a second platform file changes the wording with the numbers.
//
//===----------------------------------------------------------------------===//
#include "passes/CheckPlatform.h"
#include "passes/Passes.h"

#include <algorithm>
#include <cmath>

namespace plate {

double wellCapacityUl(const ir::Module &module, const Platform &platform) {
  return platform.wellCapacityUl(module.plateType).value_or(module.wellCapacityUl);
}

namespace {

std::string celsius(double value) { return formatNumber(value) + " °C"; }

class PlatformChecker {
public:
  PlatformChecker(const ir::Module &module, PassContext &context)
      : module_(module), context_(context), platform_(context.platform),
        wellCapacity_(wellCapacityUl(module, context.platform)) {}

  void run() {
    for (const ir::Op &op : module_.ops) {
      if (op.manual)
        continue;
      op_ = &op;
      std::visit([&](const auto &payload) { check(payload); }, op.payload);
    }
  }

private:
  template <typename... Args>
  InFlightDiagnostic report(DiagId id, Args &&...args) {
    auto diag = context_.diags.report(id, op_->loc, std::forward<Args>(args)...);
    diag.step(op_->step);
    return diag;
  }

  //--- temperatures and shaking ---------------------------------------------//

  void checkTemperature(const Quantity &temperature) {
    double value = temperature.value;
    if (value < platform_.roomTempMinCelsius - kQuantitySlack) {
      if (platform_.coolerModule.empty()) {
        report(DiagId::Cooling, fmt::format("{}", temperature),
               celsius(platform_.ambientCelsius), platform_.name);
        return;
      }
      if (value < platform_.coolerMinCelsius - kQuantitySlack)
        report(DiagId::OutOfRange, "incubation temperature", fmt::format("{}", temperature),
               fmt::format("`{}`", platform_.coolerModule),
               formatNumber(platform_.coolerMinCelsius),
               celsius(platform_.coolerMaxCelsius));
      return;
    }
    if (value <= platform_.roomTempMaxCelsius + kQuantitySlack)
      return; // room temperature: no device
    if (platform_.heaterModule.empty() ||
        platform_.heaterMaxCelsius <= platform_.roomTempMaxCelsius) {
      report(DiagId::NoHeater, temperature, platform_.name);
      return;
    }
    // Between room temperature and a heater that starts higher (the OT-2's
    // heater-shaker, from 37 °C) a cooler that also warms holds it.
    bool coolerHolds = !platform_.coolerModule.empty() &&
                       value <= platform_.coolerMaxCelsius + kQuantitySlack;
    if (value > platform_.heaterMaxCelsius + kQuantitySlack ||
        (value < platform_.heaterMinCelsius - kQuantitySlack && !coolerHolds))
      report(DiagId::OutOfRange, "incubation temperature",
             fmt::format("{}", temperature),
             fmt::format("heating plate `{}`", platform_.heaterModule),
             formatNumber(platform_.heaterMinCelsius),
             celsius(platform_.heaterMaxCelsius));
  }

  void checkSpeed(const Quantity &speed, std::string_view what) {
    if (speed.value < platform_.shakerMinRpm - kQuantitySlack ||
        speed.value > platform_.shakerMaxRpm + kQuantitySlack)
      report(DiagId::OutOfRange, what, fmt::format("{}", speed),
             fmt::format("shaker `{}`", platform_.shakerModule),
             formatNumber(platform_.shakerMinRpm),
             formatNumber(platform_.shakerMaxRpm) + " rpm");
  }

  //--- volumes ----------------------------------------------------------------//

  /// A per-well volume of one step; `firstWell` names a well it goes to.
  /// Moving liquid takes as many trips as the tip needs (lower-pipetting
  /// splits dispenses, removals, wash fills and transfers), but a mix
  /// draws its whole volume into the tip at once (`inOneTip`).
  void checkVolume(const Quantity &volume, std::optional<Well> firstWell, bool fillsWell,
                   bool inOneTip = false) {
    if (inOneTip && volume.value > platform_.tipCapacityUl + kQuantitySlack)
      report(DiagId::TipOverflow, fmt::format("{}", volume),
             fmt::format("{}", Quantity::microliters(platform_.tipCapacityUl)));
    if (fillsWell && firstWell && volume.value > wellCapacity_ + kQuantitySlack)
      report(DiagId::WellOverflow, firstWell->name(), fmt::format("{}", volume),
             module_.plateType, fmt::format("{}", Quantity::microliters(wellCapacity_)));
  }

  static std::optional<Well> firstOf(const WellSet &wells) {
    std::vector<Well> list = wells.columnMajor();
    if (list.empty())
      return std::nullopt;
    return list.front();
  }

  //--- the ops ----------------------------------------------------------------//

  void check(const ir::DispenseOp &op) {
    WellSet all;
    for (const ir::Portion &portion : op.portions)
      all |= portion.wells;
    checkVolume(op.volume, firstOf(all), /*fillsWell=*/true);
    if (op.mix)
      checkVolume(op.mix->volume, firstOf(all), /*fillsWell=*/false, /*inOneTip=*/true);
  }
  void check(const ir::AspirateOp &op) {
    if (op.volume)
      checkVolume(*op.volume, firstOf(op.wells), /*fillsWell=*/false);
  }
  void check(const ir::WashOp &op) {
    checkVolume(op.volume, firstOf(op.wells), /*fillsWell=*/true);
  }
  void check(const ir::IncubateOp &op) {
    checkTemperature(op.temperature);
    if (!op.shaking)
      return;
    checkSpeed(*op.shaking, "shaking speed");
    if (op.temperature.value > platform_.roomTempMaxCelsius + kQuantitySlack &&
        !platform_.shakerHeated)
      report(DiagId::NoHeatedShaker, op.temperature, platform_.shakerModule, platform_.name);
  }
  void check(const ir::ShakeOp &op) { checkSpeed(op.speed, "shaking speed"); }
  void check(const ir::MixOp &op) {
    checkVolume(op.volume, firstOf(op.wells), /*fillsWell=*/false, /*inOneTip=*/true);
  }
  void check(const ir::TransferOp &op) {
    std::optional<Well> first;
    if (!op.pairs.empty())
      first = op.pairs.front().second;
    checkVolume(op.volume, first, /*fillsWell=*/true);
    if (op.mix)
      checkVolume(op.mix->volume, first, /*fillsWell=*/false, /*inOneTip=*/true);
  }
  void check(const ir::MagnetOp &) {
    const Slot *slot = platform_.magnetSlot.empty()
                           ? nullptr
                           : platform_.findSlot(platform_.magnetSlot);
    if (!slot || slot->fixture != "magnet")
      report(DiagId::NoMagnet, platform_.name);
  }
  void checkFilter(const Quantity &wavelength) {
    const std::vector<double> &filters = platform_.readerFiltersNm;
    if (platform_.hasFilter(wavelength.value))
      return;
    std::string list;
    for (double filter : filters)
      list += (list.empty() ? "" : ", ") + formatNumber(filter);
    // The filters on either side, the closer first: a 562 nm BCA read
    // works at 570 or 540 nm. The other fix is a reader the operator uses
    // by hand (language spec §7: capabilities bind INSTRUMENT steps only).
    std::optional<double> below, above;
    for (double filter : filters) {
      if (filter < wavelength.value && (!below || filter > *below))
        below = filter;
      if (filter > wavelength.value && (!above || filter < *above))
        above = filter;
    }
    std::optional<double> closer = below ? below : above;
    std::optional<double> other = below ? above : std::nullopt;
    if (other && *other - wavelength.value < wavelength.value - *closer)
      std::swap(closer, other);
    std::string wanted = fmt::format("{}", wavelength);
    if (other)
      report(DiagId::NoFilterBetween, platform_.name, wanted, list, formatNumber(*closer),
             formatNumber(*other));
    else if (closer)
      report(DiagId::NoFilter, platform_.name, wanted, list, formatNumber(*closer));
    else
      report(DiagId::NoFiltersAtAll, platform_.name, wanted);
  }
  void check(const ir::ReadAbsorbanceOp &op) {
    if (!platform_.readerAbsorbance) {
      report(DiagId::NoAbsorbance, platform_.name);
      return;
    }
    checkFilter(op.wavelength);
    if (op.reference)
      checkFilter(*op.reference);
  }
  void check(const ir::ReadFluorescenceOp &) {
    if (!platform_.readerFluorescence)
      report(DiagId::NoFluorescence, platform_.readerModule, platform_.name);
  }
  void check(const ir::EquilibrateOp &op) {
    // MANUAL-only by the grammar; should one reach the robot it is a
    // temperature hold like an incubation.
    checkTemperature(op.temperature);
  }

  // Nothing platform-specific to check: host ops, waits, notes, and device
  // ops (created later by lowering, which keeps them in range itself).
  void check(const ir::AnalyzeOp &) {}
  void check(const ir::WaitOp &) {}
  void check(const ir::PauseOp &) {}
  void check(const ir::NoteOp &) {}
  void check(const ir::PrepareOp &) {}
  void check(const ir::PickTipsOp &) {}
  void check(const ir::DropTipsOp &) {}
  void check(const ir::ReturnTipsOp &) {}
  void check(const ir::DevAspirateOp &) {}
  void check(const ir::DevDispenseOp &) {}
  void check(const ir::DevMixOp &) {}
  void check(const ir::MovePlateOp &) {}
  void check(const ir::LidOp &) {}
  void check(const ir::SwapTipRackOp &) {}
  void check(const ir::SetTemperatureOp &) {}
  void check(const ir::HeaterOffOp &) {}
  void check(const ir::DevShakeOp &) {}
  void check(const ir::DevReadOp &) {}
  void check(const ir::DevWaitOp &) {}
  void check(const ir::PromptOp &) {}

  const ir::Module &module_;
  PassContext &context_;
  const Platform &platform_;
  double wellCapacity_;
  const ir::Op *op_ = nullptr;
};

class CheckPlatformPass final : public Pass {
public:
  std::string_view name() const override { return "check-platform"; }
  bool run(ir::Module &module, PassContext &context) override {
    PLATE_ASSERT(module.unitsNormalized, "check-platform runs after normalize-units");
    unsigned before = context.diags.errorCount();
    PlatformChecker(module, context).run();
    return context.diags.errorCount() == before;
  }
};

} // namespace

std::unique_ptr<Pass> createCheckPlatformPass() {
  return std::make_unique<CheckPlatformPass>();
}

} // namespace plate

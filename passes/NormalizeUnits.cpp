//===- NormalizeUnits.cpp - Canonical units for every quantity -----------===//
//
// Visits each op payload and rewrites its quantities in place. The visitor
// names every field explicitly (no reflection), so a new quantity field in
// IR.h that is missed here shows up as a verifier failure ("not canonical
// after normalize-units") in the first test that uses it.
//
//===----------------------------------------------------------------------===//
#include "passes/NormalizeUnits.h"
#include "passes/Passes.h"

#include <cmath>

namespace plate {
namespace {

class UnitNormalizer {
public:
  UnitNormalizer(ir::Module &module, PassContext &context)
      : module_(module), context_(context) {}

  void run() {
    for (ir::Liquid &liquid : module_.liquids) {
      current_ = nullptr;
      // Concentrations keep the unit they were written in (language spec
      // §2: "kept with its unit family"): nothing on the robot consumes
      // them, and the analysis reports results in the calibrants' unit,
      // so 2 µg/mL must not come back as 2e+06 pg/mL.
      if (liquid.declaredVolume)
        normalize(*liquid.declaredVolume, liquid.loc);
    }
    for (ir::Op &op : module_.ops) {
      current_ = &op;
      std::visit([&](auto &payload) { visit(payload, op.loc); }, op.payload);
    }
    module_.unitsNormalized = true;
  }

private:
  void normalize(Quantity &quantity, SourceLoc loc) {
    const Platform &platform = context_.platform;
    if (quantity.unit == Unit::Ambient) {
      quantity = Quantity::celsius(platform.ambientCelsius);
      return;
    }
    if (quantity.unit == Unit::Overnight) {
      // `overnight` is a literal without a number; a value other than 1
      // would be a frontend bug, but scaling keeps it meaningful anyway.
      double value = std::isfinite(quantity.value) && quantity.value > 0 ? quantity.value : 1;
      quantity = Quantity::seconds(value * platform.overnightSeconds);
      auto diag = context_.diags.report(
          DiagId::OvernightAssumed, loc,
          fmt::format("{} h", formatNumber(platform.overnightSeconds / 3600)));
      if (current_)
        diag.step(current_->step);
      return;
    }
    quantity = quantity.canonical();
    quantity.value = snap(quantity.value);
  }

  /// Conversions like 0.07 mL * 1000 leave binary noise (70.00000000000001)
  /// that would show in dumps and break equality with a literal 70 µL;
  /// twelve significant digits are far beyond any pipetting precision.
  static double snap(double value) {
    if (value == 0 || !std::isfinite(value))
      return value;
    double scale = std::pow(10.0, 11 - std::floor(std::log10(std::fabs(value))));
    return std::round(value * scale) / scale;
  }
  void normalize(std::optional<Quantity> &quantity, SourceLoc loc) {
    if (quantity)
      normalize(*quantity, loc);
  }
  void normalize(std::vector<ir::WellAmount> &amounts, SourceLoc loc) {
    for (ir::WellAmount &amount : amounts)
      normalize(amount.volume, loc);
  }

  void visit(ir::DispenseOp &op, SourceLoc loc) {
    normalize(op.volume, loc);
    if (op.mix)
      normalize(op.mix->volume, loc);
  }
  void visit(ir::AspirateOp &op, SourceLoc loc) {
    normalize(op.volume, loc);
    normalize(op.resolved, loc);
  }
  void visit(ir::WashOp &op, SourceLoc loc) {
    normalize(op.volume, loc);
    normalize(op.soak, loc);
    normalize(op.emptied, loc);
  }
  void visit(ir::IncubateOp &op, SourceLoc loc) {
    normalize(op.time, loc);
    normalize(op.temperature, loc);
    normalize(op.shaking, loc);
  }
  void visit(ir::ShakeOp &op, SourceLoc loc) {
    normalize(op.time, loc);
    normalize(op.speed, loc);
  }
  void visit(ir::MixOp &op, SourceLoc loc) { normalize(op.volume, loc); }
  void visit(ir::TransferOp &op, SourceLoc loc) {
    normalize(op.volume, loc);
    if (op.mix)
      normalize(op.mix->volume, loc);
  }
  void visit(ir::MagnetOp &op, SourceLoc loc) { normalize(op.time, loc); }
  void visit(ir::ReadAbsorbanceOp &op, SourceLoc loc) {
    normalize(op.wavelength, loc);
    normalize(op.reference, loc);
  }
  void visit(ir::ReadFluorescenceOp &op, SourceLoc loc) {
    normalize(op.excitation, loc);
    normalize(op.emission, loc);
  }
  void visit(ir::AnalyzeOp &op, SourceLoc loc) { normalize(op.wavelength, loc); }
  void visit(ir::WaitOp &op, SourceLoc loc) { normalize(op.time, loc); }
  void visit(ir::PauseOp &, SourceLoc) {}
  void visit(ir::NoteOp &, SourceLoc) {}
  void visit(ir::PrepareOp &op, SourceLoc loc) {
    normalize(op.dilute, loc);
    normalize(op.volume, loc);
  }
  void visit(ir::EquilibrateOp &op, SourceLoc loc) {
    normalize(op.temperature, loc);
    normalize(op.time, loc);
  }
  // Device ops are normally created after this pass, already canonical;
  // normalizing them too keeps the pass idempotent on any module.
  void visit(ir::PickTipsOp &, SourceLoc) {}
  void visit(ir::DropTipsOp &, SourceLoc) {}
  void visit(ir::ReturnTipsOp &, SourceLoc) {}
  void visit(ir::DevAspirateOp &op, SourceLoc loc) { normalize(op.volume, loc); }
  void visit(ir::DevDispenseOp &op, SourceLoc loc) { normalize(op.volume, loc); }
  void visit(ir::DevMixOp &op, SourceLoc loc) { normalize(op.volume, loc); }
  void visit(ir::MovePlateOp &, SourceLoc) {}
  void visit(ir::LidOp &, SourceLoc) {}
  void visit(ir::SwapTipRackOp &, SourceLoc) {}
  void visit(ir::SetTemperatureOp &op, SourceLoc loc) { normalize(op.temperature, loc); }
  void visit(ir::HeaterOffOp &, SourceLoc) {}
  void visit(ir::DevShakeOp &op, SourceLoc loc) {
    normalize(op.speed, loc);
    normalize(op.time, loc);
  }
  void visit(ir::DevReadOp &op, SourceLoc loc) {
    normalize(op.wavelength, loc);
    normalize(op.reference, loc);
  }
  void visit(ir::DevWaitOp &op, SourceLoc loc) { normalize(op.time, loc); }
  void visit(ir::PromptOp &, SourceLoc) {}

  ir::Module &module_;
  PassContext &context_;
  const ir::Op *current_ = nullptr;
};

class NormalizeUnitsPass final : public Pass {
public:
  std::string_view name() const override { return "normalize-units"; }
  bool run(ir::Module &module, PassContext &context) override {
    UnitNormalizer(module, context).run();
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createNormalizeUnitsPass() {
  return std::make_unique<NormalizeUnitsPass>();
}

} // namespace plate

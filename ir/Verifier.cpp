//===- Verifier.cpp -------------------------------------------------------===//
#include "ir/Verifier.h"

#include <cmath>

namespace plate::ir {
namespace {

class Verifier {
public:
  explicit Verifier(const Module &module) : module_(module) {}

  std::vector<VerifierProblem> run() {
    for (const Liquid &liquid : module_.liquids) {
      index_ = &liquid - module_.liquids.data();
      if (&liquid - module_.liquids.data() != static_cast<ptrdiff_t>(liquid.id))
        fail(fmt::format("liquid %{} has id {} at index {}", liquid.name, liquid.id,
                         &liquid - module_.liquids.data()));
      checkWells(liquid.wells, "liquid " + liquid.name);
      // Concentrations keep their written unit even after normalize-units
      // (the analysis reports in the calibrants' unit), so they are checked
      // for dimension and value only, never for canonical form.
      if (const std::optional<Quantity> &conc = liquid.concentration) {
        if (conc->dimension() != Dimension::Concentration)
          fail(fmt::format("liquid %{} has concentration {} of dimension {}", liquid.name,
                           *conc, dimensionName(conc->dimension())));
        else if (!std::isfinite(conc->value) || conc->value < 0)
          fail(fmt::format("liquid %{} has concentration {}, not a finite value >= 0",
                           liquid.name, *conc));
      }
      if (liquid.declaredVolume)
        quantity(*liquid.declaredVolume, Dimension::Volume, "declared volume of %" + liquid.name);
    }
    inOps_ = true;
    for (size_t i = 0; i < module_.ops.size(); ++i) {
      index_ = i;
      const Op &op = module_.ops[i];
      if (!op.loc.isValid())
        fail("op has no source location");
      if (module_.lowered && !op.manual && !isDeviceOp(op.kind()) &&
          op.kind() != OpKind::Analyze && op.kind() != OpKind::Note)
        fail(fmt::format("high-level `{}` left in a lowered module", opMnemonic(op.kind())));
      std::visit([&](const auto &payload) { check(payload); }, op.payload);
    }
    return std::move(errors_);
  }

private:
  void fail(std::string message) {
    errors_.push_back({inOps_ ? VerifierProblem::Subject::Op : VerifierProblem::Subject::Liquid,
                       index_, std::move(message)});
  }

  void quantity(const Quantity &q, Dimension dimension, std::string_view field,
                bool positive = true) {
    if (q.dimension() != dimension) {
      fail(fmt::format("{} has dimension {}, expected {}", field,
                       dimensionName(q.dimension()), dimensionName(dimension)));
      return;
    }
    if (module_.unitsNormalized) {
      if (q.isSymbolic() || !q.isCanonical())
        fail(fmt::format("{} = {} is not canonical after normalize-units", field, q));
      else if (!std::isfinite(q.value) || (positive && q.value <= 0))
        fail(fmt::format("{} = {} is not a positive finite value", field, q));
    }
  }

  void liquid(LiquidId id, std::string_view field) {
    if (id >= module_.liquids.size())
      fail(fmt::format("{} names liquid id {} of {}", field, id, module_.liquids.size()));
  }

  void checkWells(const WellSet &wells, std::string_view field) {
    for (Well well : wells.columnMajor())
      if (!module_.shape.contains(well))
        fail(fmt::format("{} has well {} outside {}x{}", field, well.name(),
                         module_.shape.rows, module_.shape.cols));
  }

  void mask(const ChannelMask &mask) {
    if (mask.bits == 0)
      fail("empty channel mask");
    if (mask.channels == 0 || (mask.bits >> mask.channels) != 0)
      fail(fmt::format("mask {:#x} uses channels beyond {}", mask.bits, mask.channels));
  }

  void check(const DispenseOp &op) {
    quantity(op.volume, Dimension::Volume, "volume");
    if (op.portions.empty())
      fail("dispense without a source");
    for (const Portion &portion : op.portions) {
      liquid(portion.liquid, "portion");
      checkWells(portion.wells, "portion");
    }
    if (op.mix)
      quantity(op.mix->volume, Dimension::Volume, "mix volume");
  }
  void check(const AspirateOp &op) {
    checkWells(op.wells, "wells");
    if (op.volume)
      quantity(*op.volume, Dimension::Volume, "volume");
  }
  void check(const WashOp &op) {
    liquid(op.reagent, "reagent");
    checkWells(op.wells, "wells");
    quantity(op.volume, Dimension::Volume, "volume");
    if (op.cycles == 0)
      fail("wash with zero cycles");
    if (op.soak)
      quantity(*op.soak, Dimension::Time, "soak");
  }
  void check(const IncubateOp &op) {
    quantity(op.time, Dimension::Time, "time");
    quantity(op.temperature, Dimension::Temperature, "temperature", false);
    if (op.shaking)
      quantity(*op.shaking, Dimension::Speed, "shaking");
  }
  void check(const ShakeOp &op) {
    quantity(op.time, Dimension::Time, "time");
    quantity(op.speed, Dimension::Speed, "speed");
  }
  void check(const MixOp &op) {
    checkWells(op.wells, "wells");
    quantity(op.volume, Dimension::Volume, "volume");
  }
  void check(const TransferOp &op) {
    quantity(op.volume, Dimension::Volume, "volume");
    for (const auto &[from, to] : op.pairs) {
      if (!module_.shape.contains(from) || !module_.shape.contains(to))
        fail("transfer well outside the plate");
    }
    if (op.mix)
      quantity(op.mix->volume, Dimension::Volume, "mix volume");
  }
  void check(const MagnetOp &op) { quantity(op.time, Dimension::Time, "time"); }
  void check(const ReadAbsorbanceOp &op) {
    quantity(op.wavelength, Dimension::Wavelength, "wavelength");
    if (op.reference)
      quantity(*op.reference, Dimension::Wavelength, "reference");
    checkWells(op.wells, "wells");
  }
  void check(const ReadFluorescenceOp &op) {
    quantity(op.excitation, Dimension::Wavelength, "excitation");
    quantity(op.emission, Dimension::Wavelength, "emission");
    checkWells(op.wells, "wells");
  }
  void check(const AnalyzeOp &op) {
    if (op.wavelength)
      quantity(*op.wavelength, Dimension::Wavelength, "wavelength");
  }
  void check(const WaitOp &op) { quantity(op.time, Dimension::Time, "time"); }
  void check(const PauseOp &) {}
  void check(const NoteOp &) {}
  void check(const PrepareOp &op) {
    liquid(op.reagent, "reagent");
    if (op.volume)
      quantity(*op.volume, Dimension::Volume, "volume");
  }
  void check(const EquilibrateOp &op) {
    for (LiquidId reagent : op.reagents)
      liquid(reagent, "reagent");
    quantity(op.temperature, Dimension::Temperature, "temperature", false);
    if (op.time)
      quantity(*op.time, Dimension::Time, "time");
  }
  void check(const PickTipsOp &op) { mask(op.mask); }
  void check(const DropTipsOp &op) { mask(op.mask); }
  void check(const ReturnTipsOp &op) { mask(op.mask); }
  void check(const DevAspirateOp &op) {
    mask(op.mask);
    quantity(op.volume, Dimension::Volume, "volume");
    liquid(op.liquid, "liquid");
  }
  void check(const DevDispenseOp &op) {
    mask(op.mask);
    quantity(op.volume, Dimension::Volume, "volume");
  }
  void check(const DevMixOp &op) {
    mask(op.mask);
    quantity(op.volume, Dimension::Volume, "volume");
    if (op.cycles == 0)
      fail("mix with zero cycles");
  }
  void check(const MovePlateOp &op) {
    if (op.module.empty() || op.from.empty() || op.to.empty() || op.from == op.to)
      fail("move needs a module and two different places");
  }
  void check(const LidOp &op) {
    if (op.module.empty() || op.slot.empty())
      fail("lid op needs a module and a slot");
  }
  void check(const SwapTipRackOp &) {}
  void check(const SetTemperatureOp &op) {
    quantity(op.temperature, Dimension::Temperature, "temperature", false);
  }
  void check(const HeaterOffOp &) {}
  void check(const DevShakeOp &op) {
    quantity(op.speed, Dimension::Speed, "speed");
    quantity(op.time, Dimension::Time, "time");
  }
  void check(const DevReadOp &op) {
    quantity(op.wavelength, Dimension::Wavelength, "wavelength");
    if (op.wells.empty())
      fail("read of no wells");
  }
  void check(const DevWaitOp &op) { quantity(op.time, Dimension::Time, "time"); }
  void check(const PromptOp &) {}

  const Module &module_;
  size_t index_ = 0; ///< the liquid or op being checked
  bool inOps_ = false; ///< false while checking liquids: no op to name
  std::vector<VerifierProblem> errors_;
};

} // namespace

std::vector<VerifierProblem> verifyProblems(const Module &module) {
  return Verifier(module).run();
}

std::vector<std::string> verify(const Module &module) {
  std::vector<std::string> messages;
  for (VerifierProblem &problem : verifyProblems(module))
    messages.push_back(problem.subject == VerifierProblem::Subject::Liquid
                           ? std::move(problem.message)
                           : fmt::format("op #{} ({}): {}", problem.index,
                                         opMnemonic(module.ops[problem.index].kind()),
                                         problem.message));
  return messages;
}

} // namespace plate::ir

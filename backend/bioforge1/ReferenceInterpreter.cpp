//===- ReferenceInterpreter.cpp - The script run as the spec reads it ----===//
#include "backend/bioforge1/ReferenceInterpreter.h"

#include <fmt/format.h>

#include <cmath>

namespace plate::backend {
namespace {

class Reference {
public:
  Reference(const ir::Module &module, const Platform &platform, History &history,
            ReferenceScope scope)
      : module_(module), platform_(platform), history_(history), names_(history.names()),
        scope_(scope),
        wells_(module.shape.rows * module.shape.cols) {}

  ReferenceRun run() {
    for (const ir::Op &op : module_.ops) {
      origin_ = names_.origin(op.loc.line, op.step);
      // In the whole protocol, MANUAL work counts as what it does.
      manual_ = op.manual && scope_ == ReferenceScope::Stream;
      std::visit([&](const auto &payload) { step(payload); }, op.payload);
      if (run_.impossible)
        break;
    }
    return std::move(run_);
  }

private:
  //===--- One well at a time ---------------------------------------------===//

  Composition &at(Well well) {
    return wells_[(well.row - 1) * module_.shape.cols + (well.col - 1)];
  }

  void record(Well well, WellEventKind kind, double wavelengthNm = 0, double referenceNm = 0) {
    if (manual_)
      history_.wellChanged(well, WellEventKind::Manual, origin_, at(well));
    else if (changesWell(kind))
      history_.wellChanged(well, kind, origin_, at(well));
    else
      history_.wellLookedAt(well, kind, origin_, wavelengthNm, referenceNm);
  }

  void add(Well well, const Composition &liquid) {
    Composition &contents = at(well);
    contents.addAll(liquid);
    if (contents.total() > module_.wellCapacityUl + kHistoryToleranceUl)
      impossible(fmt::format("well {} would hold {} µL at {}, more than its {} µL", well.name(),
                             formatNumber(contents.total()), names_.originText(origin_),
                             formatNumber(module_.wellCapacityUl)));
    record(well, WellEventKind::Add);
  }

  Composition remove(Well well, std::optional<double> ul) {
    Composition &contents = at(well);
    double held = contents.total();
    double wanted = ul.value_or(held);
    if (wanted > held + kHistoryToleranceUl + kHistoryRelativeTolerance * held)
      impossible(fmt::format("{} takes {} µL from well {}, which holds {} µL",
                             names_.originText(origin_), formatNumber(wanted), well.name(),
                             formatNumber(held)));
    if (wanted <= kHistoryToleranceUl)
      return {}; // `all` of an empty well: nothing to take, no trip
    Composition taken = contents.take(wanted);
    record(well, WellEventKind::Remove);
    return taken;
  }

  Composition pure(ir::LiquidId liquid, double ul) {
    Composition one;
    one.add(names_.liquid(module_.liquid(liquid).name), ul);
    return one;
  }

  void impossible(std::string message) {
    if (!run_.impossible)
      run_.impossible = std::move(message);
  }

  //===--- Statements
  //------------------------------------------------------===//

  void step(const ir::DispenseOp &op) {
    double ul = op.volume.canonicalValue();
    for (const ir::Portion &portion : op.portions)
      for (Well well : portion.wells.columnMajor()) {
        add(well, pure(portion.liquid, ul));
        if (op.mix && !manual_)
          record(well, WellEventKind::Mix);
      }
  }
  void step(const ir::AspirateOp &op) {
    std::optional<double> ul;
    if (op.volume)
      ul = op.volume->canonicalValue();
    for (Well well : op.wells.columnMajor())
      remove(well, ul);
  }
  void step(const ir::WashOp &op) {
    double ul = op.volume.canonicalValue();
    for (Well well : op.wells.columnMajor()) {
      if (at(well).total() > kHistoryToleranceUl)
        remove(well, std::nullopt);
      for (unsigned cycle = 0; cycle < op.cycles; ++cycle) {
        add(well, pure(op.reagent, ul));
        remove(well, std::nullopt);
      }
    }
  }
  void step(const ir::MixOp &op) {
    if (manual_)
      return; // mixing by hand changes nothing the twin models
    for (Well well : op.wells.columnMajor())
      record(well, WellEventKind::Mix);
  }
  /// A pair moves its volume in trips of at most a tip's volume (the
  /// platform's one figure about tips this reference needs): what a well
  /// that is both the source and the destination of its pair (A1 to A1)
  /// holds between trips is what the robot leaves there. For every other
  /// pair the trips only split one removal and one addition.
  void step(const ir::TransferOp &op) {
    for (const auto &[from, to] : op.pairs) {
      for (double left = op.volume.canonicalValue(); left > kHistoryToleranceUl;) {
        double trip = std::min(left, platform_.tipCapacityUl);
        left -= trip;
        add(to, remove(from, trip));
      }
      if (op.mix && !manual_)
        record(to, WellEventKind::Mix);
    }
  }
  void step(const ir::ReadAbsorbanceOp &op) {
    if (manual_)
      return;
    double reference = op.reference ? op.reference->canonicalValue() : 0;
    for (Well well : module_.readWells(op.wells).columnMajor())
      record(well, WellEventKind::Read, op.wavelength.canonicalValue(), reference);
  }

  //===--- The plate
  //-------------------------------------------------------===//

  double seconds(const Quantity &time) const {
    return time.unit == Unit::Overnight ? time.value * platform_.overnightSeconds
                                        : time.canonicalValue();
  }
  void plateWide(PlateEvent event) {
    if (manual_)
      return;
    event.origin = origin_;
    run_.plateWideOrigins.push_back(origin_);
    history_.plateEvent(event);
  }
  /// The temperature a plate step holds, or none at room temperature
  /// (which needs no device, language spec §2).
  std::optional<double> heldAbove(const Quantity &temperature) const {
    if (temperature.unit == Unit::Ambient)
      return std::nullopt;
    double celsius = temperature.canonicalValue();
    if (celsius < platform_.roomTempMinCelsius || celsius > platform_.roomTempMaxCelsius)
      return celsius;
    return std::nullopt;
  }
  void step(const ir::IncubateOp &op) {
    PlateEvent event;
    event.seconds = seconds(op.time);
    event.celsius = heldAbove(op.temperature);
    event.rpm = op.shaking ? op.shaking->canonicalValue() : 0.0;
    event.lidOn = op.lidOn || op.dark;
    event.onMagnet = false;
    plateWide(event);
  }
  void step(const ir::ShakeOp &op) {
    PlateEvent event;
    event.seconds = seconds(op.time);
    event.rpm = op.speed.canonicalValue();
    event.onMagnet = false;
    plateWide(event);
  }
  /// Bringing the plate to a temperature ("cool to RT on the bench, 10 min")
  /// is a plate-wide step in the whole protocol's account: a read before it
  /// reads a warm plate. (A stream's account never has one: only a person
  /// equilibrates, so it is MANUAL there.) Reagents, or an empty plate,
  /// brought to RT hold no chemistry.
  void step(const ir::EquilibrateOp &op) {
    // Without a time it says what a note says ("let the plate cool to RT"):
    // no hold of a length that another account could differ in.
    if (op.wells.empty() || !op.time)
      return;
    // An empty plate brought to RT before the work starts holds no
    // chemistry ("bring all reagents and the plate to RT").
    bool holdsLiquid = false;
    for (Well well : op.wells.columnMajor())
      holdsLiquid |= at(well).total() > kHistoryToleranceUl;
    if (!holdsLiquid)
      return;
    PlateEvent event;
    event.seconds = seconds(*op.time);
    event.celsius = heldAbove(op.temperature);
    event.rpm = 0.0;
    event.onMagnet = false;
    plateWide(event);
  }
  void step(const ir::WaitOp &op) {
    PlateEvent event;
    event.seconds = seconds(op.time);
    // A wait heats nothing: the plate waits at room temperature, off a
    // heating plate that stays on for a later step (docs/passes.md).
    event.celsius = std::optional<double>();
    plateWide(event);
  }
  void step(const ir::MagnetOp &op) {
    PlateEvent event;
    event.seconds = seconds(op.time);
    event.onMagnet = true;
    plateWide(event);
  }

  /// A fluorescence read by its emission and excitation. Only the whole
  /// protocol has one: on the robot it is a capability error, and a
  /// MANUAL one is not the stream's business.
  void step(const ir::ReadFluorescenceOp &op) {
    if (manual_)
      return;
    for (Well well : module_.readWells(op.wells).columnMajor())
      record(well, WellEventKind::Read, op.emission.canonicalValue(),
             op.excitation.canonicalValue());
  }

  /// Everything else changes no well: analysis, notes, pauses,
  /// preparation; device ops never occur in the checked IR.
  template <typename T> void step(const T &) {}

  const ir::Module &module_;
  const Platform &platform_;
  History &history_;
  HistoryNames &names_;
  ReferenceScope scope_;
  std::vector<Composition> wells_; ///< row by row
  uint32_t origin_ = 0;
  bool manual_ = false; ///< a MANUAL statement in a stream's account
  ReferenceRun run_;
};

} // namespace

ReferenceRun interpretReference(const ir::Module &checked, const Platform &platform,
                                History &history, ReferenceScope scope) {
  return Reference(checked, platform, history, scope).run();
}

} // namespace plate::backend

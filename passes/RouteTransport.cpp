//===- RouteTransport.cpp - Plate moves, lids, heater, shaker, reader ----===//
//
// A single forward walk with a small deck state. Routing is a shortest
// path over the graph whose nodes are the places some route serves and
// whose edges are that route's moves, weighted by its move time; on
// BioForge-1 this yields e.g. 3 -> 1 (LH), 1 -> A1 (PT), A1 -> A3 (PL).
//
//===----------------------------------------------------------------------===//
#include "passes/RouteTransport.h"
#include "passes/TipAllocator.h"

#include <map>
#include <queue>
#include <set>

namespace plate {
namespace {

using lowering::Emitter;

class TransportRouter {
public:
  TransportRouter(ir::Module &module, PassContext &context)
      : module_(module), context_(context), platform_(context.platform) {
    plateAt_ = platform_.samplePlateSlot;
  }

  bool run() {
    std::vector<ir::Op> result;
    bool ok = true;
    for (size_t i = 0; i < module_.ops.size(); ++i) {
      ir::Op &op = module_.ops[i];
      if (op.manual) {
        // The operator's part: operator-checklist asks for it. The
        // operator's time passes off the heating plate.
        emitter_.origin = &op;
        emitter_.reuse = op.tipsReuse;
        leaveHeater();
        flushInto(result);
        result.push_back(std::move(op));
        continue;
      }
      emitter_.origin = &op;
      emitter_.reuse = op.tipsReuse;
      index_ = i;
      bool keep = std::visit([&](auto &payload) { return lower(payload, op); }, op.payload);
      if (!ok_) {
        ok = false;
        ok_ = true;
      }
      flushInto(result);
      if (keep)
        result.push_back(std::move(op));
    }
    module_.ops = std::move(result);
    module_.lowered = ok;
    return ok;
  }

private:
  void flushInto(std::vector<ir::Op> &result) {
    for (ir::Op &op : emitter_.ops)
      result.push_back(std::move(op));
    emitter_.ops.clear();
  }

  //===--- Plate and lid ---------------------------------------------------===//

  /// Cheapest sequence of places from `from` to any of `targets`.
  std::vector<std::string> route(const std::string &from,
                                 const std::set<std::string> &targets) const {
    std::map<std::string, double> cost{{from, 0}};
    std::map<std::string, std::string> previous;
    using Entry = std::pair<double, std::string>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    queue.push({0, from});
    while (!queue.empty()) {
      auto [c, place] = queue.top();
      queue.pop();
      if (c > cost[place])
        continue;
      if (targets.count(place)) {
        std::vector<std::string> path{place};
        while (path.back() != from)
          path.push_back(previous[path.back()]);
        return {path.rbegin(), path.rend()};
      }
      for (const TransportRoute &r : platform_.routes) {
        if (std::find(r.slots.begin(), r.slots.end(), place) == r.slots.end())
          continue;
        for (const std::string &next : r.slots) {
          double nc = c + r.moveSeconds;
          if (next != place && (!cost.count(next) || nc < cost[next])) {
            cost[next] = nc;
            previous[next] = place;
            queue.push({nc, next});
          }
        }
      }
    }
    return {};
  }

  void moveTo(const std::set<std::string> &targets) {
    if (targets.count(plateAt_))
      return;
    std::vector<std::string> path = route(plateAt_, targets);
    PLATE_ASSERT(!path.empty(), "no route for the plate from " + plateAt_);
    for (size_t i = 1; i < path.size(); ++i)
      emitter_.emit(ir::MovePlateOp{platform_.moverBetween(path[i - 1], path[i]),
                                    path[i - 1], path[i]});
    plateAt_ = path.back();
  }
  void moveTo(const std::string &target) { moveTo(std::set<std::string>{target}); }

  void setLid(bool on) {
    if (lidOn_ == on)
      return;
    if (on && lidDeck_ != platform_.deckOf(plateAt_)) {
      // The lid waits in another deck's holder: bring the plate to it.
      std::set<std::string> places;
      for (const TransportRoute &r : platform_.routes)
        for (const std::string &slot : r.slots)
          if (platform_.deckOf(slot) == lidDeck_)
            places.insert(slot);
      moveTo(places);
    }
    std::string deck = platform_.deckOf(plateAt_);
    auto module = platform_.lidModules.find(deck);
    PLATE_ASSERT(module != platform_.lidModules.end(), "no lid module on deck " + deck);
    emitter_.emit(ir::LidOp{module->second, plateAt_, on});
    lidOn_ = on;
    lidDeck_ = on ? std::string() : deck;
  }

  void readyForPipetting() {
    moveTo(platform_.samplePlateSlot);
    setLid(false);
  }

  /// The heating plate heats whatever stands on it while it has a set
  /// point, and the heater stays on between heated incubations; so the
  /// plate stands on it only for a heated incubation at its set point.
  /// Everything else that keeps the plate where it is (an incubation at
  /// room temperature, a wait, a pause, a MANUAL section, the heater's
  /// ramp to a new set point) happens on the sample slot. A plate on a
  /// switched-off heating plate leaves as well: it would look like a
  /// failed heated incubation.
  void leaveHeater() {
    if (plateAt_ == platform_.heaterSlot)
      moveTo(platform_.samplePlateSlot);
  }

  bool heatedLater() const {
    for (size_t i = index_ + 1; i < module_.ops.size(); ++i) {
      const ir::Op &op = module_.ops[i];
      if (auto *incubate = op.as<ir::IncubateOp>(); incubate && !op.manual && isHeated(*incubate))
        return true;
    }
    return false;
  }

  bool isHeated(const ir::IncubateOp &op) const {
    // As check-platform decides it: within the slack is room temperature.
    return op.temperature.canonicalValue() > platform_.roomTempMaxCelsius + kQuantitySlack;
  }

  //===--- Ops (return whether the op itself stays) ------------------------===//

  bool platePipetting(const ir::Place &place) {
    if (place.slot == platform_.samplePlateSlot)
      readyForPipetting();
    return true;
  }
  bool lower(ir::DevAspirateOp &op, ir::Op &) { return platePipetting(op.place); }
  bool lower(ir::DevDispenseOp &op, ir::Op &) { return platePipetting(op.place); }
  bool lower(ir::DevMixOp &op, ir::Op &) { return platePipetting(op.place); }
  bool lower(ir::PickTipsOp &, ir::Op &) { return true; }
  bool lower(ir::DropTipsOp &, ir::Op &) { return true; }
  bool lower(ir::ReturnTipsOp &, ir::Op &) { return true; }
  bool lower(ir::SwapTipRackOp &, ir::Op &) { return true; }
  bool lower(ir::MovePlateOp &op, ir::Op &) {
    plateAt_ = op.to;
    return true;
  }
  bool lower(ir::LidOp &op, ir::Op &) {
    lidOn_ = op.place;
    lidDeck_ = op.place ? std::string() : platform_.deckOf(op.slot);
    return true;
  }
  bool lower(ir::SetTemperatureOp &op, ir::Op &) {
    heater_ = op.temperature.canonicalValue();
    return true;
  }
  bool lower(ir::HeaterOffOp &, ir::Op &) {
    heater_.reset();
    return true;
  }
  bool lower(ir::DevShakeOp &, ir::Op &) { return true; }
  bool lower(ir::DevReadOp &, ir::Op &) { return true; }
  bool lower(ir::DevWaitOp &, ir::Op &) { return true; }
  bool lower(ir::PromptOp &, ir::Op &) { return true; }

  bool lower(ir::IncubateOp &op, ir::Op &) {
    bool heated = isHeated(op);
    if (heated) {
      double celsius = op.temperature.canonicalValue();
      if (!heater_ || *heater_ != celsius) {
        leaveHeater();
        emitter_.emit(ir::SetTemperatureOp{platform_.heaterModule, op.temperature});
      }
      heater_ = celsius;
    }
    // A lid waiting in another deck's holder (after a read) brings the
    // plate to that deck: put it on before the plate goes to the shaker or
    // the heater, not after.
    bool lidOn = op.lidOn || op.dark;
    const std::string &target = op.shaking ? platform_.shakerSlot
                                : heated   ? platform_.heaterSlot
                                : plateAt_ == platform_.heaterSlot ? platform_.samplePlateSlot
                                                                   : plateAt_;
    if (lidOn && !lidOn_ && lidDeck_ != platform_.deckOf(target))
      setLid(true);
    moveTo(target);
    setLid(lidOn);
    if (op.shaking)
      emitter_.emit(ir::DevShakeOp{platform_.shakerModule, *op.shaking, op.time});
    else
      emitter_.emit(ir::DevWaitOp{op.time});
    if (heater_ && !heatedLater()) {
      emitter_.emit(ir::HeaterOffOp{platform_.heaterModule});
      heater_.reset();
    }
    return false;
  }
  bool lower(ir::ShakeOp &op, ir::Op &) {
    moveTo(platform_.shakerSlot);
    emitter_.emit(ir::DevShakeOp{platform_.shakerModule, op.speed, op.time});
    return false;
  }
  bool lower(ir::MagnetOp &op, ir::Op &) {
    moveTo(platform_.magnetSlot);
    emitter_.emit(ir::DevWaitOp{op.time});
    return false;
  }
  bool lower(ir::ReadAbsorbanceOp &op, ir::Op &) {
    moveTo(platform_.readerSlot);
    setLid(false);
    emitter_.emit(ir::DevReadOp{platform_.readerModule, op.wavelength, op.reference,
                                module_.readWells(op.wells).columnMajor()});
    return false;
  }
  bool lower(ir::ReadFluorescenceOp &, ir::Op &op) {
    context_.diags
        .report(DiagId::NoFluorescenceCommand, op.loc, platform_.name)
        .step(op.step);
    ok_ = false;
    return false;
  }
  bool lower(ir::WaitOp &op, ir::Op &) {
    leaveHeater();
    emitter_.emit(ir::DevWaitOp{op.time});
    return false;
  }
  bool lower(ir::PauseOp &op, ir::Op &) {
    // The operator may take a while to confirm.
    leaveHeater();
    emitter_.emit(ir::PromptOp{op.message});
    return false;
  }
  bool lower(ir::NoteOp &, ir::Op &) { return true; }
  bool lower(ir::AnalyzeOp &, ir::Op &) { return true; }
  bool manualOnly(ir::Op &op) {
    context_.diags
        .report(DiagId::ManualOnlyStatement, op.loc, ir::opMnemonic(op.kind()))
        .step(op.step);
    ok_ = false;
    return false;
  }
  bool lower(ir::PrepareOp &, ir::Op &op) { return manualOnly(op); }
  bool lower(ir::EquilibrateOp &, ir::Op &op) { return manualOnly(op); }
  template <typename T> bool lower(T &, ir::Op &op) {
    internalError(__FILE__, __LINE__,
                  fmt::format("route-transport found `{}`; lower-pipetting must run first",
                              ir::opMnemonic(op.kind())));
  }

  ir::Module &module_;
  PassContext &context_;
  const Platform &platform_;
  Emitter emitter_;
  std::string plateAt_;
  bool lidOn_ = true;
  std::string lidDeck_; ///< deck whose holder has the lid while it is off
  std::optional<double> heater_;
  size_t index_ = 0;
  bool ok_ = true;
};

class RouteTransportPass final : public Pass {
public:
  std::string_view name() const override { return "route-transport"; }
  bool run(ir::Module &module, PassContext &context) override {
    return TransportRouter(module, context).run();
  }
};

} // namespace

std::unique_ptr<Pass> createRouteTransportPass() {
  return std::make_unique<RouteTransportPass>();
}

} // namespace plate

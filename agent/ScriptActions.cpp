//===- ScriptActions.cpp - Actions of the checked module ------------------===//
#include "agent/ScriptActions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace plate::agent {

namespace {

Value valueOf(const Quantity &q, const Platform &platform) {
  Value v;
  v.kind = Value::Kind::Exact;
  v.text = fmt::format("{}", q);
  if (q.unit == Unit::Ambient) {
    // RT is the platform's room range, whichever point of it the text names.
    v.symbolic = Unit::Ambient;
    v.kind = Value::Kind::Range;
    v.low = platform.roomTempMinCelsius;
    v.high = platform.roomTempMaxCelsius;
    v.text = "RT";
    return v;
  }
  if (q.unit == Unit::Overnight) {
    v.symbolic = Unit::Overnight;
    v.low = v.high = platform.overnightSeconds;
    v.text = "overnight";
    return v;
  }
  v.low = v.high = q.canonicalValue();
  return v;
}

Value countValue(double n) {
  Value v;
  v.low = v.high = n;
  v.text = fmt::format("{}x", formatNumber(n));
  return v;
}

std::string trimmed(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t'))
    ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
    --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> liquidWords(const ir::Liquid &liquid) {
  std::vector<std::string> words = nameWords(liquid.name);
  switch (liquid.role) {
  case ir::LiquidRole::Reagent: break;
  case ir::LiquidRole::Blank: words.push_back("blank"); break;
  case ir::LiquidRole::Calibrant:
    words.push_back("standard");
    words.push_back("calibrator");
    break;
  case ir::LiquidRole::Sample: words.push_back("sample"); break;
  case ir::LiquidRole::Control: words.push_back("control"); break;
  case ir::LiquidRole::Nsb:
    words.push_back("nsb");
    words.push_back("binding");
    break;
  case ir::LiquidRole::Bmax:
    words.push_back("b0");
    words.push_back("zero");
    break;
  case ir::LiquidRole::Cutoff:
    words.push_back("cutoff");
    words.push_back("calibrator");
    break;
  }
  return words;
}

/// Why the platform could not do this op in <INSTRUMENT>, or empty.
std::string limitOf(const ir::Op &op, const Platform &platform) {
  auto celsius = [&](const Quantity &q) {
    return q.unit == Unit::Ambient ? platform.ambientCelsius : q.canonicalValue();
  };
  if (const auto *incubate = op.as<ir::IncubateOp>()) {
    double t = celsius(incubate->temperature);
    if (t < platform.roomTempMinCelsius)
      return fmt::format("{} °C needs cooling, which {} lacks", formatNumber(t), platform.name);
    if (t > platform.heaterMaxCelsius)
      return fmt::format("{} °C is above the heater's {} °C", formatNumber(t),
                         formatNumber(platform.heaterMaxCelsius));
    if (incubate->shaking && t > platform.roomTempMaxCelsius && !platform.shakerHeated)
      return "shaking while heated needs a heated shaker";
    if (incubate->shaking) {
      double rpm = incubate->shaking->canonicalValue();
      if (rpm < platform.shakerMinRpm || rpm > platform.shakerMaxRpm)
        return fmt::format("{} rpm is outside the shaker's range", formatNumber(rpm));
    }
  } else if (const auto *shake = op.as<ir::ShakeOp>()) {
    double rpm = shake->speed.canonicalValue();
    if (rpm < platform.shakerMinRpm || rpm > platform.shakerMaxRpm)
      return fmt::format("{} rpm is outside the shaker's range", formatNumber(rpm));
  } else if (op.as<ir::ReadFluorescenceOp>()) {
    if (!platform.readerFluorescence)
      return "the reader has no fluorescence";
  } else if (const auto *read = op.as<ir::ReadAbsorbanceOp>()) {
    for (const Quantity *q : {&read->wavelength, read->reference ? &*read->reference : nullptr}) {
      if (!q)
        continue;
      double nm = q->canonicalValue();
      // The platform's one answer (ir/Platform.h), which check-platform
      // and the twin give too.
      if (!platform.hasFilter(nm))
        return fmt::format("the reader has no {} nm filter", formatNumber(nm));
    }
  } else if (op.as<ir::PrepareOp>() || op.as<ir::EquilibrateOp>()) {
    return "a person's task (MANUAL only)";
  } else if (op.as<ir::NoteOp>() || op.as<ir::PauseOp>()) {
    return "a message for the operator";
  }
  return "";
}

} // namespace

std::vector<Action> scriptActions(const ir::Module &module, const SourceManager &sources,
                                  const Platform &platform) {
  std::vector<Action> out;
  for (const ir::Op &op : module.ops) {
    if (ir::isDeviceOp(op.kind()))
      continue;
    Action a;
    SourceLoc origin = op.origin.isValid() ? op.origin : op.loc;
    a.loc = origin;
    if (op.loc.isValid() && !(op.loc == origin)) {
      a.bodyLoc = op.loc;
      a.laterCopy = std::any_of(out.begin(), out.end(), [&](const Action &earlier) {
        return earlier.loc == a.loc && earlier.bodyLoc == a.bodyLoc;
      });
    }
    a.text = trimmed(sources.lineText(origin.fileId, origin.line));
    a.manual = op.manual;
    a.step = op.step;
    a.platformLimit = limitOf(op, platform);
    a.instrumentCapable = a.platformLimit.empty();
    auto put = [&](Param p, const Quantity &q) { a.values(p).push_back(valueOf(q, platform)); };
    Action mix; // a dispense's or a transfer's mix, a second action on the same line
    bool withMix = false;
    auto mixAfter = [&](const ir::MixSpec &spec) {
      withMix = true;
      mix = a;
      mix.cls = ActionClass::Mix;
      mix.values(Param::Volume) = {valueOf(spec.volume, platform)};
      mix.values(Param::Cycles) = {countValue(spec.cycles)};
      mix.words.clear();
      mix.liquid.clear();
      mix.layoutLiquid = false;
    };
    if (const auto *d = op.as<ir::DispenseOp>()) {
      a.cls = ActionClass::Dispense;
      put(Param::Volume, d->volume);
      bool layout = d->portions.size() > 1;
      std::vector<std::string> names;
      for (const ir::Portion &portion : d->portions) {
        const ir::Liquid &liquid = module.liquid(portion.liquid);
        layout |= liquid.role != ir::LiquidRole::Reagent;
        for (std::string &w : liquidWords(liquid))
          a.words.push_back(std::move(w));
        names.push_back(liquid.name);
      }
      a.layoutLiquid = layout;
      a.liquid = layout && names.size() > 1 ? "layout" : names.empty() ? "" : names.front();
      if (d->mix)
        mixAfter(*d->mix);
    } else if (const auto *asp = op.as<ir::AspirateOp>()) {
      a.cls = ActionClass::Aspirate;
      if (asp->volume)
        put(Param::Volume, *asp->volume);
    } else if (const auto *w = op.as<ir::WashOp>()) {
      a.cls = ActionClass::Wash;
      put(Param::Volume, w->volume);
      a.values(Param::Cycles).push_back(countValue(w->cycles));
      if (w->soak)
        put(Param::Time, *w->soak);
      const ir::Liquid &liquid = module.liquid(w->reagent);
      a.words = liquidWords(liquid);
      a.liquid = liquid.name;
    } else if (const auto *inc = op.as<ir::IncubateOp>()) {
      a.cls = ActionClass::Incubate;
      put(Param::Time, inc->time);
      put(Param::Temperature, inc->temperature);
      if (inc->shaking)
        put(Param::Speed, *inc->shaking);
      if (inc->shaking)
        a.shaking = true;
      a.dark = inc->dark;
      a.lidOn = inc->lidOn;
    } else if (const auto *shake = op.as<ir::ShakeOp>()) {
      a.cls = ActionClass::Shake;
      put(Param::Time, shake->time);
      put(Param::Speed, shake->speed);
    } else if (const auto *m = op.as<ir::MixOp>()) {
      a.cls = ActionClass::Mix;
      put(Param::Volume, m->volume);
      a.values(Param::Cycles).push_back(countValue(m->cycles));
    } else if (const auto *t = op.as<ir::TransferOp>()) {
      a.cls = ActionClass::Transfer;
      put(Param::Volume, t->volume);
      std::set<Well> destinations;
      for (const auto &pair : t->pairs)
        destinations.insert(pair.second);
      size_t chains = static_cast<size_t>(std::count_if(
          t->pairs.begin(), t->pairs.end(),
          [&](const auto &pair) { return destinations.count(pair.first) == 0; }));
      if (chains > 0 && t->pairs.size() / chains >= 2)
        a.seriesLinks = static_cast<unsigned>(t->pairs.size() / chains);
      // A serial dilution mixes each well it fills before the next draw:
      // the text says so ("mixed by pipetting five times").
      if (t->mix)
        mixAfter(*t->mix);
    } else if (const auto *mag = op.as<ir::MagnetOp>()) {
      a.cls = ActionClass::Magnet;
      put(Param::Time, mag->time);
    } else if (const auto *r = op.as<ir::ReadAbsorbanceOp>()) {
      a.cls = ActionClass::Read;
      put(Param::Wavelength, r->wavelength);
      if (r->reference)
        put(Param::Reference, *r->reference);
    } else if (const auto *f = op.as<ir::ReadFluorescenceOp>()) {
      a.cls = ActionClass::ReadFluorescence;
      put(Param::Excitation, f->excitation);
      put(Param::Emission, f->emission);
    } else if (const auto *an = op.as<ir::AnalyzeOp>()) {
      a.cls = ActionClass::Analyze;
      a.fourPL = an->fourPL;
      a.subtractBlank = an->subtractBlank;
      if (an->wavelength)
        put(Param::Wavelength, *an->wavelength);
    } else if (const auto *wait = op.as<ir::WaitOp>()) {
      a.cls = ActionClass::Wait;
      put(Param::Time, wait->time);
    } else if (op.as<ir::NoteOp>() || op.as<ir::PauseOp>()) {
      a.cls = ActionClass::Note;
      a.isNoteLike = true;
      std::string message = op.as<ir::NoteOp>() ? op.as<ir::NoteOp>()->text
                                                 : op.as<ir::PauseOp>()->message;
      for (const ProseQuantity &q : proseQuantities(message, platform)) {
        Param p = Param::Ratio;
        switch (q.dimension) {
        case Dimension::Volume: p = Param::Volume; break;
        case Dimension::Time: p = Param::Time; break;
        case Dimension::Temperature: p = Param::Temperature; break;
        case Dimension::Speed: p = Param::Speed; break;
        case Dimension::Wavelength: p = Param::Wavelength; break;
        case Dimension::Count: p = Param::Cycles; break;
        default: p = Param::Ratio; break;
        }
        Value v = q.value;
        // A note restates a value; its bound words do not bind the script.
        if (v.symbolic == Unit::Count && !v.exact()) {
          double stated = v.kind == Value::Kind::AtMost    ? v.high
                          : v.kind == Value::Kind::AtLeast ? v.low
                                                           : (v.low + v.high) / 2;
          v.kind = Value::Kind::Exact;
          v.low = v.high = stated;
        }
        a.values(p).push_back(v);
      }
      a.words = nameWords(message);
    } else if (const auto *prep = op.as<ir::PrepareOp>()) {
      a.cls = ActionClass::Prepare;
      if (prep->dilute)
        put(Param::Ratio, *prep->dilute);
      if (prep->volume)
        put(Param::Volume, *prep->volume);
      const ir::Liquid &liquid = module.liquid(prep->reagent);
      a.words = liquidWords(liquid);
      a.liquid = liquid.name;
    } else if (const auto *eq = op.as<ir::EquilibrateOp>()) {
      a.cls = ActionClass::Equilibrate;
      a.warmsPlate = !eq->wells.empty();
      put(Param::Temperature, eq->temperature);
      if (eq->time)
        put(Param::Time, *eq->time);
    } else {
      continue;
    }

    // Consecutive washes of one liquid and volume from one statement
    // (`repeat 3 { wash 1 times ... }`): one wash.
    if (a.cls == ActionClass::Wash && !out.empty() && out.back().cls == ActionClass::Wash &&
        out.back().loc == a.loc && !(out.back().bodyLoc == SourceLoc{}) &&
        out.back().liquid == a.liquid && out.back().manual == a.manual &&
        out.back().values(Param::Volume).front().low == a.values(Param::Volume).front().low &&
        out.back().has(Param::Time) == a.has(Param::Time)) {
      Value &cycles = out.back().values(Param::Cycles).front();
      cycles.low += a.values(Param::Cycles).front().low;
      cycles.high = cycles.low;
      cycles.text = fmt::format("{}x", formatNumber(cycles.low));
      continue;
    }
    out.push_back(std::move(a));
    if (withMix)
      out.push_back(std::move(mix));
  }
  return out;
}

} // namespace plate::agent

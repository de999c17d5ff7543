//===- WellHistory.cpp - What happened to each well, in order ------------===//
#include "backend/bioforge1/WellHistory.h"

#include "ir/Units.h"

#include <fmt/format.h>
#include <llvm/ADT/STLExtras.h>

#include <algorithm>
#include <cmath>

namespace plate::backend {

uint32_t HistoryNames::liquid(const std::string &name) {
  auto [it, inserted] = liquidIds_.try_emplace(name, static_cast<uint32_t>(liquids_.size()));
  if (inserted)
    liquids_.push_back(name);
  return it->second;
}

uint32_t HistoryNames::origin(uint32_t line, const std::string &step) {
  auto [it, inserted] =
      originIds_.try_emplace({line, step}, static_cast<uint32_t>(origins_.size()));
  if (inserted)
    origins_.emplace_back(line, step);
  return it->second;
}

std::optional<uint32_t> HistoryNames::findOrigin(uint32_t line, const std::string &step) const {
  auto it = originIds_.find({line, step});
  if (it == originIds_.end())
    return std::nullopt;
  return it->second;
}

std::string HistoryNames::originText(uint32_t id) const {
  const auto &[line, step] = origins_.at(id);
  if (step.empty())
    return fmt::format("line {}", line);
  return fmt::format("step {} (line {})", step, line);
}

double Composition::total() const {
  double sum = 0;
  for (const auto &[liquid, ul] : parts)
    sum += ul;
  return sum;
}

void Composition::add(uint32_t liquid, double ul) {
  auto it = std::lower_bound(parts.begin(), parts.end(), liquid,
                             [](const auto &part, uint32_t id) { return part.first < id; });
  if (it != parts.end() && it->first == liquid)
    it->second += ul;
  else
    parts.insert(it, {liquid, ul});
}

void Composition::addAll(const Composition &other) {
  for (const auto &[liquid, ul] : other.parts)
    add(liquid, ul);
}

Composition Composition::take(double ul) {
  Composition taken;
  double sum = total();
  if (sum <= 0 || ul <= 0)
    return taken;
  double fraction = std::min(1.0, ul / sum);
  for (auto &[liquid, amount] : parts) {
    double part = fraction == 1.0 ? amount : amount * fraction;
    taken.parts.push_back({liquid, part});
    amount -= part;
  }
  llvm::erase_if(parts, [](const auto &part) { return part.second <= 0; });
  return taken;
}

std::string_view wellEventName(WellEventKind kind) {
  switch (kind) {
  case WellEventKind::Add:
    return "receives liquid";
  case WellEventKind::Remove:
    return "gives up liquid";
  case WellEventKind::Mix:
    return "is mixed";
  case WellEventKind::Read:
    return "is read";
  case WellEventKind::Manual:
    return "is handled by the operator";
  }
  return "?";
}

History::History(HistoryNames &names, PlateShape shape)
    : names_(&names), shape_(shape), wells_(shape.rows * shape.cols) {}

WellEvent &History::event(Well well, WellEventKind kind, uint32_t origin, double wavelengthNm,
                          double referenceNm) {
  std::vector<WellEvent> &events = wells_[index(well)];
  uint32_t epoch = static_cast<uint32_t>(plate_.size());
  if (!events.empty()) {
    WellEvent &last = events.back();
    if (last.kind == kind && last.origin == origin && last.epoch == epoch &&
        last.wavelengthNm == wavelengthNm && last.referenceNm == referenceNm)
      return last;
  }
  WellEvent added;
  added.kind = kind;
  added.origin = origin;
  added.epoch = epoch;
  added.serial = serial_++;
  added.wavelengthNm = wavelengthNm;
  added.referenceNm = referenceNm;
  events.push_back(added);
  return events.back();
}

void History::wellChanged(Well well, WellEventKind kind, uint32_t origin,
                          const Composition &after) {
  WellEvent &changed = event(well, kind, origin, 0, 0);
  if (changed.after == WellEvent::kNoContents) {
    changed.after = static_cast<uint32_t>(contents_.size());
    contents_.push_back(after);
  } else {
    contents_[changed.after] = after;
  }
}

void History::wellLookedAt(Well well, WellEventKind kind, uint32_t origin, double wavelengthNm,
                           double referenceNm) {
  event(well, kind, origin, wavelengthNm, referenceNm);
}

void History::plateEvent(const PlateEvent &event) {
  // The pieces of one statement's wait are one event; the same statement
  // again after a well changed or was read (`repeat 3 { incubate; read }`)
  // is another.
  if (!plate_.empty() && serial_ == serialAfterPlate_) {
    PlateEvent &last = plate_.back();
    if (last.origin == event.origin && last.celsius == event.celsius && last.rpm == event.rpm &&
        last.lidOn == event.lidOn && last.onMagnet == event.onMagnet) {
      last.seconds += event.seconds;
      return;
    }
  }
  plate_.push_back(event);
  serialAfterPlate_ = ++serial_;
}

namespace {

bool close(double a, double b) {
  return std::fabs(a - b) <=
         kHistoryToleranceUl + kHistoryRelativeTolerance * std::max(std::fabs(a), std::fabs(b));
}

bool sameComposition(const Composition &a, const Composition &b) {
  if (!close(a.total(), b.total()))
    return false;
  // Liquids present on one side only must be negligible on the other.
  size_t i = 0, j = 0;
  while (i < a.parts.size() || j < b.parts.size()) {
    if (j == b.parts.size() || (i < a.parts.size() && a.parts[i].first < b.parts[j].first)) {
      if (!close(a.parts[i++].second, 0))
        return false;
    } else if (i == a.parts.size() || b.parts[j].first < a.parts[i].first) {
      if (!close(b.parts[j++].second, 0))
        return false;
    } else if (!close(a.parts[i++].second, b.parts[j++].second)) {
      return false;
    }
  }
  return true;
}

std::string amount(double ul) {
  double rounded = std::round(ul * 1000) / 1000;
  return formatNumber(rounded == 0 ? 0.0 : rounded) + " µL";
}

std::string describe(const Composition &contents, const HistoryNames &names) {
  double total = contents.total();
  if (std::fabs(total) <= kHistoryToleranceUl)
    return "nothing";
  std::string text = amount(total);
  std::string sep = " (";
  for (const auto &[liquid, ul] : contents.parts) {
    if (std::fabs(ul) <= kHistoryToleranceUl)
      continue;
    text += sep + names.liquidName(liquid) + " " + amount(ul);
    sep = ", ";
  }
  return text + ")";
}

std::string describe(const WellEvent &event, const HistoryNames &names) {
  std::string text =
      fmt::format("{} at {}", wellEventName(event.kind), names.originText(event.origin));
  if (event.kind == WellEventKind::Read) {
    text += fmt::format(" ({} nm", formatNumber(event.wavelengthNm));
    if (event.referenceNm)
      text += fmt::format(", reference {} nm", formatNumber(event.referenceNm));
    text += ")";
  }
  return text;
}

std::string describe(const PlateEvent &event, const HistoryNames &names) {
  std::string text =
      fmt::format("{}: {} s", names.originText(event.origin), formatNumber(event.seconds));
  if (event.celsius)
    text += *event.celsius ? fmt::format(" at {} °C", formatNumber(**event.celsius))
                           : std::string(" at room temperature");
  if (event.rpm && *event.rpm > 0)
    text += fmt::format(" shaking at {} rpm", formatNumber(*event.rpm));
  if (event.lidOn)
    text += *event.lidOn ? " lid on" : " lid off";
  if (event.onMagnet && *event.onMagnet)
    text += " on the magnet";
  return text;
}

/// Whether the stream's plate event does what the script's says: the
/// seconds always, everything else where the script states it.
bool samePlateEvent(const PlateEvent &script, const PlateEvent &stream) {
  if (script.origin != stream.origin || !close(script.seconds, stream.seconds))
    return false;
  if (script.celsius && stream.celsius) {
    if (script.celsius->has_value() != stream.celsius->has_value())
      return false;
    if (script.celsius->has_value() && !close(**script.celsius, **stream.celsius))
      return false;
  }
  if (script.rpm && stream.rpm && !close(*script.rpm, *stream.rpm))
    return false;
  if (script.lidOn && stream.lidOn && *script.lidOn != *stream.lidOn)
    return false;
  if (script.onMagnet && stream.onMagnet && *script.onMagnet != *stream.onMagnet)
    return false;
  return true;
}

struct Found {
  uint64_t when = UINT64_MAX; ///< the script's serial where they part
  std::optional<Difference> difference;
  void offer(uint64_t at, uint32_t line, std::string text) {
    if (at < when || !difference) {
      when = at;
      difference = Difference{std::move(text), line};
    }
  }
};

} // namespace

std::optional<Difference> firstDifference(const History &script, const History &stream) {
  const HistoryNames &names = script.names();
  Found found;

  const auto &expected = script.plateEvents(), &actual = stream.plateEvents();
  for (size_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
    if (i < expected.size() && i < actual.size() && samePlateEvent(expected[i], actual[i]))
      continue;
    std::string text;
    if (i >= actual.size())
      text = fmt::format("plate: the script's {} is missing from the command stream",
                         describe(expected[i], names));
    else if (i >= expected.size())
      text = fmt::format("plate: the command stream holds {} that the script does not",
                         describe(actual[i], names));
    else
      text = fmt::format("plate: the script holds {}; the command stream holds {}",
                         describe(expected[i], names), describe(actual[i], names));
    // Plate events carry no serial; an epoch mismatch among the wells
    // reports the same divergence with a well, so rank this one last.
    const PlateEvent &at = i < expected.size() ? expected[i] : actual[i];
    found.offer(UINT64_MAX - 1, names.originLine(at.origin), std::move(text));
    break;
  }

  for (unsigned row = 1; row <= script.shape().rows; ++row)
    for (unsigned col = 1; col <= script.shape().cols; ++col) {
      Well well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
      const auto &want = script.events(well), &got = stream.events(well);
      for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
        if (i >= want.size()) {
          uint64_t when = want.empty() ? UINT64_MAX - 2 : want.back().serial;
          found.offer(when, names.originLine(got[i].origin),
                      fmt::format("well {} {} in the command stream, which the script "
                                  "never asks for",
                                  well.name(), describe(got[i], names)));
          break;
        }
        const WellEvent &a = want[i];
        if (i >= got.size()) {
          found.offer(a.serial, names.originLine(a.origin),
                      fmt::format("well {} {} in the script, never in the command "
                                  "stream",
                                  well.name(), describe(a, names)));
          break;
        }
        const WellEvent &b = got[i];
        if (a.kind != b.kind || a.origin != b.origin || a.wavelengthNm != b.wavelengthNm ||
            a.referenceNm != b.referenceNm) {
          found.offer(a.serial, names.originLine(a.origin),
                      fmt::format("well {}: by the script it next {}; by the command "
                                  "stream it next {}",
                                  well.name(), describe(a, names), describe(b, names)));
          break;
        }
        if (a.epoch != b.epoch) {
          found.offer(a.serial, names.originLine(a.origin),
                      fmt::format("well {} {} after {} plate-wide step(s) in the script, after "
                                  "{} in the command stream",
                                  well.name(), describe(a, names), a.epoch, b.epoch));
          break;
        }
        if (changesWell(a.kind) && !sameComposition(script.contents(a), stream.contents(b))) {
          found.offer(a.serial, names.originLine(a.origin),
                      fmt::format("well {} after {}: the script leaves {}; the command stream "
                                  "leaves {}",
                                  well.name(), names.originText(a.origin),
                                  describe(script.contents(a), names),
                                  describe(stream.contents(b), names)));
          break;
        }
      }
    }
  return found.difference;
}

} // namespace plate::backend

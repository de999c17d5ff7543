//===- Equivalence.cpp - Do two scripts do the same to the plate? --------===//
#include "agent/Equivalence.h"

#include "agent/ProseScan.h"
#include "agent/StepActions.h"
#include "backend/bioforge1/ReferenceInterpreter.h"
#include "backend/bioforge1/WellHistory.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace plate::agent {
namespace {

using backend::Composition;
using backend::History;
using backend::HistoryNames;
using backend::PlateEvent;
using backend::WellEvent;
using backend::WellEventKind;

/// A plate-wide step with what the script leaves unstated filled in: room
/// temperature, no shaking, off the magnet; the lid only where stated.
struct PlateStep {
  double seconds = 0;
  std::optional<double> celsius; ///< nullopt: room temperature
  double rpm = 0;
  std::optional<bool> lidOn;
  bool onMagnet = false;
  std::string where; ///< the statement, for messages

  /// With `ranges`, a temperature or speed agrees also when both values
  /// lie within one range the text states.
  bool sameConditions(const PlateStep &other, const TextRanges *ranges = nullptr) const {
    bool lidsAgree = !lidOn || !other.lidOn || *lidOn == *other.lidOn;
    bool temperaturesAgree =
        celsius.has_value() == other.celsius.has_value() &&
        (!celsius || agree(*celsius, *other.celsius, ranges ? &ranges->celsius : nullptr));
    return temperaturesAgree && agree(rpm, other.rpm, ranges ? &ranges->rpm : nullptr) &&
           onMagnet == other.onMagnet && lidsAgree;
  }

  /// Equal, or both admitted by one of the `stated` ranges.
  static bool agree(double a, double b, const std::vector<StatedRange> *stated) {
    if (std::fabs(a - b) <= 1e-6)
      return true;
    return stated && std::any_of(stated->begin(), stated->end(), [&](const StatedRange &r) {
             return r.admits(a) && r.admits(b);
           });
  }
};

/// Two plate steps do the same: equal durations and conditions, or, with
/// the text's ranges, values that both lie within one of them.
bool plateStepsAgree(const PlateStep &want, const PlateStep &got, const TextRanges *ranges) {
  return PlateStep::agree(want.seconds, got.seconds, ranges ? &ranges->seconds : nullptr) &&
         want.sameConditions(got, ranges);
}

struct Event {
  WellEventKind kind;
  uint32_t epoch = 0;
  uint64_t serial = 0;
  const Composition *after = nullptr; ///< changes only
  double wavelengthNm = 0, referenceNm = 0;
  std::string where;
  /// For merged additions, when each liquid first arrived: its rank among
  /// the merged pieces (liquids of one piece share a rank). Back-to-back
  /// additions merge, so one statement that adds diluent and sample at once
  /// equals two that add them in turn; but two accounts that bring two
  /// liquids in opposite orders (tracer then antiserum, antiserum then
  /// tracer) differ.
  std::vector<std::pair<uint32_t, unsigned>> arrival;
};

std::vector<uint32_t> liquidsAdded(const Composition *before, const Composition &after) {
  std::vector<uint32_t> added;
  for (const auto &[liquid, ul] : after.parts) {
    double had = 0;
    if (before)
      for (const auto &[other, otherUl] : before->parts)
        if (other == liquid)
          had = otherUl;
    if (ul > had + backend::kHistoryToleranceUl)
      added.push_back(liquid);
  }
  std::sort(added.begin(), added.end());
  return added;
}

/// One script's account with statements forgotten and pieces merged.
struct Account {
  PlateShape shape;
  std::vector<PlateStep> plate;
  std::vector<std::vector<Event>> wells; ///< row by row
  /// Liquid ids of the account's names, in the order they first reach a
  /// well.
  std::vector<uint32_t> firstReached;
};

Account normalize(const History &history) {
  Account account;
  account.shape = history.shape();
  const HistoryNames &names = history.names();

  // Plate steps: consecutive ones in the same conditions are one, unless a
  // well changed or was read between them (incubate, wash, incubate is two
  // incubations with a wash between, not one of the summed time). A well
  // event of epoch e happened after plate step e-1 and before step e.
  std::vector<bool> wellEventBefore(history.plateEvents().size() + 1, false);
  for (unsigned row = 1; row <= account.shape.rows; ++row)
    for (unsigned col = 1; col <= account.shape.cols; ++col)
      for (const WellEvent &raw :
           history.events(Well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)}))
        if (raw.epoch < wellEventBefore.size())
          wellEventBefore[raw.epoch] = true;
  // Steps taken after each old plate step: its merged index + 1, or 0 for
  // a step taken while the plate was still empty.
  std::vector<uint32_t> stepsAfter;
  bool plateUsed = false;
  for (const PlateEvent &event : history.plateEvents()) {
    size_t index = stepsAfter.size();
    // A wait, incubation or shake before any liquid has reached a well
    // (the operator's "let the chloroform settle, 5 min" while preparing
    // the samples) does nothing to the plate.
    plateUsed = plateUsed || wellEventBefore[index];
    if (!plateUsed) {
      stepsAfter.push_back(0);
      continue;
    }
    PlateStep step;
    step.seconds = event.seconds;
    if (event.celsius)
      step.celsius = *event.celsius;
    step.rpm = event.rpm.value_or(0);
    step.lidOn = event.lidOn;
    step.onMagnet = event.onMagnet.value_or(false);
    step.where = names.originText(event.origin);
    if (!account.plate.empty() && !wellEventBefore[index] &&
        account.plate.back().sameConditions(step)) {
      PlateStep &last = account.plate.back();
      last.seconds += step.seconds;
      if (!last.lidOn)
        last.lidOn = step.lidOn;
    } else {
      account.plate.push_back(step);
    }
    stepsAfter.push_back(static_cast<uint32_t>(account.plate.size()));
  }
  auto epochOf = [&](uint32_t epoch) { return epoch == 0 ? 0u : stepsAfter[epoch - 1]; };

  std::map<uint64_t, uint32_t> firstSerial; // liquid -> earliest serial
  for (unsigned row = 1; row <= account.shape.rows; ++row)
    for (unsigned col = 1; col <= account.shape.cols; ++col) {
      Well well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
      std::vector<Event> events;
      const Composition *held = nullptr;
      for (const WellEvent &raw : history.events(well)) {
        Event event{raw.kind, epochOf(raw.epoch), raw.serial, nullptr, raw.wavelengthNm,
                    raw.referenceNm, names.originText(raw.origin), {}};
        std::vector<uint32_t> added;
        if (backend::changesWell(raw.kind)) {
          event.after = &history.contents(raw);
          if (raw.kind == WellEventKind::Add)
            added = liquidsAdded(held, *event.after);
          held = event.after;
          for (const auto &[liquid, ul] : event.after->parts)
            if (ul > backend::kHistoryToleranceUl) {
              auto [it, inserted] = firstSerial.try_emplace(liquid, raw.serial);
              if (!inserted)
                it->second = std::min<uint64_t>(it->second, raw.serial);
            }
        }
        if (!events.empty()) {
          Event &last = events.back();
          if (last.kind == event.kind && last.epoch == event.epoch &&
              last.wavelengthNm == event.wavelengthNm && last.referenceNm == event.referenceNm) {
            // The merged event is cited by the statement that finished it:
            // that is where a difference in its result shows.
            if (event.after)
              last.after = event.after;
            unsigned rank = last.arrival.empty() ? 0 : last.arrival.back().second + 1;
            for (uint32_t liquid : added)
              if (std::none_of(last.arrival.begin(), last.arrival.end(),
                               [&](const auto &a) { return a.first == liquid; }))
                last.arrival.push_back({liquid, rank});
            last.where = std::move(event.where);
            continue;
          }
        }
        for (uint32_t liquid : added)
          event.arrival.push_back({liquid, 0});
        events.push_back(std::move(event));
      }
      account.wells.push_back(std::move(events));
    }
  std::vector<std::pair<uint64_t, uint32_t>> order;
  for (const auto &[liquid, serial] : firstSerial)
    order.push_back({serial, static_cast<uint32_t>(liquid)});
  std::sort(order.begin(), order.end());
  for (const auto &[serial, liquid] : order)
    account.firstReached.push_back(liquid);
  return account;
}

/// The role a liquid of `module` plays (reagent or a layout role); liquids
/// pair only role for role.
std::optional<ir::LiquidRole> roleOf(const ir::Module &module, const std::string &name) {
  for (const ir::Liquid &liquid : module.liquids)
    if (liquid.name == name)
      return liquid.role;
  return std::nullopt;
}

/// The concentration `module` declares for a calibrant: what makes a
/// standard the one it is, whatever it is called (`STD1` or `STD8` for the
/// 8 ng/mL standard).
std::optional<Quantity> calibrantConcentration(const ir::Module &module,
                                                   const std::string &name) {
  for (const ir::Liquid &liquid : module.liquids)
    if (liquid.name == name && liquid.role == ir::LiquidRole::Calibrant)
      return liquid.concentration;
  return std::nullopt;
}

/// Two names of one liquid: equal but for case, or one name's words all
/// among the other's (`Medium` and `culture_medium`).
bool namesOneLiquid(const std::string &a, const std::string &b) {
  std::vector<std::string> x = nameWords(a), y = nameWords(b);
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  if (x.empty() || y.empty())
    return prose::lowerAscii(a) == prose::lowerAscii(b);
  return std::includes(x.begin(), x.end(), y.begin(), y.end()) ||
         std::includes(y.begin(), y.end(), x.begin(), x.end());
}

/// Where a liquid goes and how much of it: per well (row-major index) the
/// most of it the well ever holds, in nanolitres. Two liquids with the same
/// footprint play the same part in the chemistry whatever they are called.
using Footprint = std::vector<std::pair<size_t, long long>>;

std::map<uint32_t, Footprint> footprints(const Account &account) {
  std::map<uint32_t, std::map<size_t, double>> most;
  for (size_t index = 0; index < account.wells.size(); ++index)
    for (const Event &event : account.wells[index])
      if (event.after)
        for (const auto &[liquid, ul] : event.after->parts)
          if (ul > backend::kHistoryToleranceUl) {
            double &held = most[static_cast<uint32_t>(liquid)][index];
            held = std::max(held, ul);
          }
  std::map<uint32_t, Footprint> result;
  for (const auto &[liquid, wells] : most)
    for (const auto &[index, ul] : wells)
      result[liquid].push_back({index, std::llround(ul * 1000)});
  return result;
}

/// Whether `a` and `b` go to different wells and together exactly where
/// `whole` goes, in the same amounts: one liquid under two names.
bool isDisjointUnion(const Footprint &a, const Footprint &b, const Footprint &whole) {
  Footprint joined = a;
  joined.insert(joined.end(), b.begin(), b.end());
  std::sort(joined.begin(), joined.end());
  bool disjoint = std::adjacent_find(joined.begin(), joined.end(), [](const auto &x, const auto &y) {
                    return x.first == y.first;
                  }) == joined.end();
  return disjoint && !joined.empty() && joined == whole;
}

std::string amount(double ul) {
  double rounded = std::round(ul * 1000) / 1000;
  return formatNumber(rounded == 0 ? 0.0 : rounded) + " µL";
}

std::string describe(const Composition *contents, const HistoryNames &names) {
  if (!contents || contents->total() <= backend::kHistoryToleranceUl)
    return "nothing";
  std::string text = amount(contents->total()), sep = " (";
  for (const auto &[liquid, ul] : contents->parts)
    if (ul > backend::kHistoryToleranceUl) {
      text += sep + names.liquidName(liquid) + " " + amount(ul);
      sep = ", ";
    }
  return text + ")";
}

std::string describe(const Event &event) {
  std::string text(backend::wellEventName(event.kind));
  if (event.kind == WellEventKind::Read) {
    text += fmt::format(" at {} nm", formatNumber(event.wavelengthNm));
    if (event.referenceNm > 0)
      text += fmt::format(" (reference {} nm)", formatNumber(event.referenceNm));
  }
  return text;
}

std::string describe(const PlateStep &step) {
  std::string text = fmt::format("{} s", formatNumber(step.seconds));
  text += step.celsius ? fmt::format(" at {} °C", formatNumber(*step.celsius))
                       : std::string(" at room temperature");
  if (step.rpm > 0)
    text += fmt::format(" shaking at {} rpm", formatNumber(step.rpm));
  if (step.onMagnet)
    text += " on the magnet";
  return text;
}

} // namespace

Equivalence compareEffects(const ir::Module &truth, const ir::Module &candidate,
                           const Platform &platform, const TextRanges *ranges) {
  Equivalence result;
  if (truth.shape.rows != candidate.shape.rows || truth.shape.cols != candidate.shape.cols) {
    result.difference = fmt::format("the truth uses a {} plate, the candidate a {}",
                                    truth.plateType, candidate.plateType);
    return result;
  }
  HistoryNames truthNames, candidateNames;
  History truthHistory(truthNames, truth.shape), candidateHistory(candidateNames, candidate.shape);
  backend::ReferenceRun truthRun = backend::interpretReference(
      truth, platform, truthHistory, backend::ReferenceScope::WholeProtocol);
  backend::ReferenceRun candidateRun = backend::interpretReference(
      candidate, platform, candidateHistory, backend::ReferenceScope::WholeProtocol);
  if (truthRun.impossible) {
    result.difference = "the truth cannot run as written: " + *truthRun.impossible;
    return result;
  }
  if (candidateRun.impossible) {
    result.difference = "the candidate cannot run as written: " + *candidateRun.impossible;
    return result;
  }
  Account want = normalize(truthHistory), got = normalize(candidateHistory);
  result.plateEvents = want.plate.size();
  for (const auto &events : want.wells)
    result.wellEvents += events.size();

  // Liquids pair reagent with reagent and layout liquid with layout liquid:
  // first by name; then the ones that go to the same wells in the same
  // amounts (the truth's samples S1.. and the candidate's X1..); then in the
  // order they first reach a well. A name counts only within a role (a
  // truth's calibrant S1 is not a candidate's sample S1), and it comes
  // before the footprint so that two samples swapped between rows stay a
  // difference. Beyond the name the layout roles may differ: a blank that
  // one script calls `nsb` gets the same liquids; and a liquid that goes to
  // exactly the same wells in the same amounts pairs even across kinds (the
  // truth's layout blank `B0`, the candidate's reagent `medium`).
  std::map<uint32_t, uint32_t> toTruth; // candidate liquid -> truth liquid
  std::set<uint32_t> truthTaken;
  auto pair = [&](uint32_t candidateLiquid, uint32_t truthLiquid) {
    toTruth[candidateLiquid] = truthLiquid;
    truthTaken.insert(truthLiquid);
    const std::string &from = candidateNames.liquidName(candidateLiquid);
    const std::string &to = truthNames.liquidName(truthLiquid);
    if (from != to)
      result.renamed.push_back({from, to});
  };
  auto roles = [&](uint32_t candidateLiquid, uint32_t truthLiquid) {
    return std::pair{roleOf(candidate, candidateNames.liquidName(candidateLiquid)),
                     roleOf(truth, truthNames.liquidName(truthLiquid))};
  };
  auto sameRole = [&](uint32_t c, uint32_t t) {
    auto [mine, theirs] = roles(c, t);
    return mine == theirs;
  };
  auto sameKind = [&](uint32_t c, uint32_t t) {
    auto [mine, theirs] = roles(c, t);
    return (mine == ir::LiquidRole::Reagent) == (theirs == ir::LiquidRole::Reagent);
  };
  auto unpaired = [&](auto &&visit, bool acrossKinds = false) {
    for (uint32_t candidateLiquid : got.firstReached) {
      if (toTruth.count(candidateLiquid))
        continue;
      for (uint32_t truthLiquid : want.firstReached)
        if (!truthTaken.count(truthLiquid) &&
            (acrossKinds || sameKind(candidateLiquid, truthLiquid)) &&
            visit(candidateLiquid, truthLiquid)) {
          pair(candidateLiquid, truthLiquid);
          break;
        }
    }
  };
  // Standards first by their concentrations, where both scripts give
  // them: a text that names its standards by concentration ("STD 8", "STD
  // 4") may be written `STD8, STD4` by one and `STD1, STD2` by the other,
  // and a shared name (`STD4`) would pair the 4 with the 1 ng/mL standard.
  unpaired([&](uint32_t c, uint32_t t) {
    auto mine = calibrantConcentration(candidate, candidateNames.liquidName(c));
    auto theirs = calibrantConcentration(truth, truthNames.liquidName(t));
    if (!mine || !theirs || canonicalUnit(mine->unit) != canonicalUnit(theirs->unit))
      return false;
    double a = mine->canonicalValue(), b = theirs->canonicalValue();
    return std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b));
  });
  unpaired([&](uint32_t c, uint32_t t) {
    return sameRole(c, t) && candidateNames.liquidName(c) == truthNames.liquidName(t);
  });
  std::map<uint32_t, Footprint> truthFootprints = footprints(want),
                                candidateFootprints = footprints(got);
  auto wellsOf = [](const Footprint &footprint) {
    std::vector<size_t> wells;
    for (const auto &[index, nl] : footprint)
      wells.push_back(index);
    return wells;
  };
  // A name shared across kinds, on the same wells: the candidate's layout
  // blank `medium` (or `Medium`) and the truth's reagent `medium` (or
  // `culture_medium`); the amounts per well are compared below. Before the
  // footprints, which cannot tell two liquids of the same amount in the
  // same wells apart.
  unpaired(
      [&](uint32_t c, uint32_t t) {
        return namesOneLiquid(candidateNames.liquidName(c), truthNames.liquidName(t)) &&
               wellsOf(candidateFootprints[c]) == wellsOf(truthFootprints[t]);
      },
      true);
  unpaired([&](uint32_t c, uint32_t t) { return candidateFootprints[c] == truthFootprints[t]; });
  // The same footprint across kinds: a blank the truth declares in the
  // layout and the candidate dispenses as a reagent (or the reverse).
  unpaired([&](uint32_t c, uint32_t t) { return candidateFootprints[c] == truthFootprints[t]; },
           true);
  // One liquid under two names: the language wants a name per role, so a
  // candidate may call an extract `E1` in its sample wells and `SB1` in
  // its sample-blank wells where the truth writes `EX1` in both. Two
  // candidate liquids that go to disjoint wells whose union is exactly
  // where one truth liquid goes, in the same amounts, are that liquid.
  for (uint32_t truthLiquid : want.firstReached) {
    if (truthTaken.count(truthLiquid))
      continue;
    const Footprint &whole = truthFootprints[truthLiquid];
    std::vector<uint32_t> open;
    for (uint32_t c : got.firstReached)
      if (!toTruth.count(c) && sameKind(c, truthLiquid))
        open.push_back(c);
    bool split = false;
    for (size_t a = 0; a < open.size() && !split; ++a)
      for (size_t b = a + 1; b < open.size() && !split; ++b) {
        if (isDisjointUnion(candidateFootprints[open[a]], candidateFootprints[open[b]], whole)) {
          pair(open[a], truthLiquid);
          pair(open[b], truthLiquid);
          split = true;
        }
      }
  }
  // The mirror: one liquid the truth names per role (the blank column's
  // `B0` and the vehicle control's `VC`, both the vehicle) that the
  // candidate dispenses as one reagent. A candidate liquid that goes
  // exactly where two truth layout liquids of different roles go, in the
  // same amounts, is both; the second truth liquid then counts as the
  // first. Two liquids of one role (two samples) are never one.
  std::map<uint32_t, uint32_t> truthAlias;
  for (uint32_t c : got.firstReached) {
    if (toTruth.count(c))
      continue;
    const Footprint &whole = candidateFootprints[c];
    // Across kinds as a single footprint pairs: the truth's two layout
    // liquids, the candidate's one reagent.
    std::vector<uint32_t> open;
    for (uint32_t t : want.firstReached)
      if (!truthTaken.count(t))
        open.push_back(t);
    bool merged = false;
    for (size_t a = 0; a < open.size() && !merged; ++a)
      for (size_t b = a + 1; b < open.size() && !merged; ++b) {
        // Only names that a role forced apart: two samples are two liquids.
        auto roleA = roleOf(truth, truthNames.liquidName(open[a]));
        auto roleB = roleOf(truth, truthNames.liquidName(open[b]));
        if (!roleA || !roleB || *roleA == ir::LiquidRole::Reagent ||
            *roleB == ir::LiquidRole::Reagent || *roleA == *roleB)
          continue;
        if (isDisjointUnion(truthFootprints[open[a]], truthFootprints[open[b]], whole)) {
          pair(c, open[a]);
          truthTaken.insert(open[b]);
          truthAlias[open[b]] = open[a];
          result.renamed.push_back(
              {candidateNames.liquidName(c), truthNames.liquidName(open[b])});
          merged = true;
        }
      }
  }
  // The same where the candidate's liquid kept the name of one of the two:
  // the truth's vehicle control `VC` and its blank `B0` (the vehicle too),
  // the candidate's `VC` dispensed to the control and the blank wells.
  for (auto [c, named] : toTruth) {
    auto namedRole = roleOf(truth, truthNames.liquidName(named));
    if (!namedRole || *namedRole == ir::LiquidRole::Reagent)
      continue;
    for (uint32_t other : want.firstReached) {
      auto otherRole = roleOf(truth, truthNames.liquidName(other));
      if (truthTaken.count(other) || !otherRole || *otherRole == ir::LiquidRole::Reagent ||
          *otherRole == *namedRole ||
          !isDisjointUnion(truthFootprints[named], truthFootprints[other], candidateFootprints[c]))
        continue;
      truthTaken.insert(other);
      truthAlias[other] = named;
      result.renamed.push_back({candidateNames.liquidName(c), truthNames.liquidName(other)});
      break;
    }
  }
  // One liquid the truth names twice and the candidate once: the truth
  // seeds its blank wells with the reagent `medium` and later adds its
  // layout blank `B0`; the candidate declares its blank as `medium` and uses
  // that name both times. A candidate blank paired by name with a truth
  // liquid that, together with an unpaired truth blank, goes to exactly the
  // candidate blank's wells is both; the truth's blank then counts as the
  // named liquid. The wells' histories still decide amounts and order.
  for (uint32_t c : got.firstReached) {
    auto named = toTruth.find(c);
    if (named == toTruth.end() ||
        !namesOneLiquid(candidateNames.liquidName(c), truthNames.liquidName(named->second)) ||
        roleOf(candidate, candidateNames.liquidName(c)) != ir::LiquidRole::Blank)
      continue;
    std::vector<size_t> whole = wellsOf(candidateFootprints[c]);
    for (uint32_t blank : want.firstReached) {
      if (truthTaken.count(blank) ||
          roleOf(truth, truthNames.liquidName(blank)) != ir::LiquidRole::Blank)
        continue;
      std::vector<size_t> joined = wellsOf(truthFootprints[named->second]);
      for (size_t index : wellsOf(truthFootprints[blank]))
        joined.push_back(index);
      std::sort(joined.begin(), joined.end());
      joined.erase(std::unique(joined.begin(), joined.end()), joined.end());
      if (joined != whole)
        continue;
      truthTaken.insert(blank);
      truthAlias[blank] = named->second;
      result.renamed.push_back({candidateNames.liquidName(c), truthNames.liquidName(blank)});
      break;
    }
  }
  unpaired([](uint32_t, uint32_t) { return true; });
  auto inOneName = [&](const Composition *contents) {
    if (!contents || truthAlias.empty())
      return contents ? *contents : Composition();
    Composition named;
    for (const auto &[liquid, ul] : contents->parts) {
      auto it = truthAlias.find(liquid);
      named.add(it == truthAlias.end() ? liquid : it->second, ul);
    }
    return named;
  };
  // A candidate liquid with no partner never equals a truth liquid.
  uint32_t stranger = UINT32_MAX;
  auto inTruthTerms = [&](const Composition *contents) {
    Composition mapped;
    if (contents)
      for (const auto &[liquid, ul] : contents->parts) {
        auto it = toTruth.find(liquid);
        mapped.add(it == toTruth.end() ? stranger - liquid : it->second, ul);
      }
    return mapped;
  };
  auto same = [](const Composition &a, const Composition *b) {
    Composition empty;
    const Composition &other = b ? *b : empty;
    auto close = [](double x, double y) {
      return std::fabs(x - y) <= backend::kHistoryToleranceUl +
                                     backend::kHistoryRelativeTolerance *
                                         std::max(std::fabs(x), std::fabs(y));
    };
    std::map<uint32_t, double> volumes;
    for (const auto &[liquid, ul] : a.parts)
      volumes[liquid] += ul;
    for (const auto &[liquid, ul] : other.parts)
      volumes[liquid] -= ul;
    for (const auto &[liquid, difference] : volumes)
      if (!close(difference, 0))
        return false;
    return true;
  };
  auto describeCandidate = [&](const Composition &mapped) {
    if (mapped.total() <= backend::kHistoryToleranceUl)
      return std::string("nothing");
    std::string text = amount(mapped.total()), sep = " (";
    for (const auto &[liquid, ul] : mapped.parts) {
      if (ul <= backend::kHistoryToleranceUl)
        continue;
      std::string name = liquid > stranger / 2 ? candidateNames.liquidName(stranger - liquid) +
                                                     " (no counterpart in the truth)"
                                               : truthNames.liquidName(liquid);
      text += sep + name + " " + amount(ul);
      sep = ", ";
    }
    return text + ")";
  };

  uint64_t firstAt = UINT64_MAX;
  auto offer = [&](uint64_t at, std::string text) {
    if (at < firstAt || result.difference.empty()) {
      firstAt = at;
      result.difference = std::move(text);
    }
  };
  for (size_t i = 0; i < std::max(want.plate.size(), got.plate.size()); ++i) {
    if (i < want.plate.size() && i < got.plate.size() &&
        plateStepsAgree(want.plate[i], got.plate[i], ranges))
      continue;
    if (i >= got.plate.size())
      offer(UINT64_MAX - 1, fmt::format("plate: the truth's {} ({}) has no counterpart",
                                        describe(want.plate[i]), want.plate[i].where));
    else if (i >= want.plate.size())
      offer(UINT64_MAX - 1, fmt::format("plate: the candidate's {} ({}) has no counterpart",
                                        describe(got.plate[i]), got.plate[i].where));
    else
      offer(UINT64_MAX - 1, fmt::format("plate: the truth holds {} ({}); the candidate {} ({})",
                                        describe(want.plate[i]), want.plate[i].where,
                                        describe(got.plate[i]), got.plate[i].where));
    break;
  }
  for (unsigned row = 1; row <= want.shape.rows; ++row)
    for (unsigned col = 1; col <= want.shape.cols; ++col) {
      Well well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
      size_t index = (row - 1) * want.shape.cols + (col - 1);
      const std::vector<Event> &a = want.wells[index], &b = got.wells[index];
      for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        if (i >= a.size()) {
          offer(a.empty() ? UINT64_MAX - 2 : a.back().serial,
                fmt::format("well {}: the candidate {} ({}), the truth does not", well.name(),
                            describe(b[i]), b[i].where));
          break;
        }
        if (i >= b.size()) {
          offer(a[i].serial, fmt::format("well {}: the truth {} ({}), the candidate does not",
                                         well.name(), describe(a[i]), a[i].where));
          break;
        }
        // A read's filters may differ within a range the text states ("a
        // reference of 620-650 nm"); no reference and some reference differ.
        const auto *statedNm = ranges ? &ranges->nanometres : nullptr;
        bool filtersAgree =
            PlateStep::agree(a[i].wavelengthNm, b[i].wavelengthNm, statedNm) &&
            (a[i].referenceNm == 0) == (b[i].referenceNm == 0) &&
            PlateStep::agree(a[i].referenceNm, b[i].referenceNm, statedNm);
        if (a[i].kind != b[i].kind || !filtersAgree || a[i].epoch != b[i].epoch) {
          offer(a[i].serial,
                fmt::format("well {}: next the truth {} ({}, after {} plate step(s)); the "
                            "candidate {} ({}, after {})",
                            well.name(), describe(a[i]), a[i].where, a[i].epoch,
                            describe(b[i]), b[i].where, b[i].epoch));
          break;
        }
        if (a[i].after) {
          // Two liquids that arrive in opposite orders in one merged addition.
          std::string inversion;
          for (const auto &[truthFirst, rankA1] : a[i].arrival)
            for (const auto &[truthSecond, rankA2] : a[i].arrival) {
              if (rankA1 >= rankA2 || !inversion.empty())
                continue;
              std::optional<unsigned> rankB1, rankB2;
              for (const auto &[liquid, rank] : b[i].arrival) {
                auto it = toTruth.find(liquid);
                if (it == toTruth.end())
                  continue;
                if (it->second == truthFirst)
                  rankB1 = rank;
                if (it->second == truthSecond)
                  rankB2 = rank;
              }
              if (rankB1 && rankB2 && *rankB1 > *rankB2)
                inversion = fmt::format("well {}: the truth adds {} before {} ({}); the "
                                        "candidate the other way round ({})",
                                        well.name(), truthNames.liquidName(truthFirst),
                                        truthNames.liquidName(truthSecond), a[i].where,
                                        b[i].where);
            }
          if (!inversion.empty()) {
            offer(a[i].serial, std::move(inversion));
            break;
          }
          Composition mapped = inTruthTerms(b[i].after);
          Composition wanted = inOneName(a[i].after);
          if (!same(mapped, &wanted)) {
            offer(a[i].serial,
                  fmt::format("well {} after {}: the truth leaves {}; the candidate ({}) "
                              "leaves {}",
                              well.name(), a[i].where, describe(a[i].after, truthNames),
                              b[i].where, describeCandidate(mapped)));
            break;
          }
        }
      }
    }
  result.equivalent = result.difference.empty();
  return result;
}

} // namespace plate::agent

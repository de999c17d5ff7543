//===- IRGen.cpp - Statements to high-level IR ops ------------------------===//
//
// Each statement is checked and turned into one high-level op with the
// defaults of spec §7 and §8 made explicit (wells, temperature, lid, tip
// policy), so later passes never have to know what the author left out.
// Calls and repeats are expanded inline; their ops keep the body's source
// line and the call site's step label.
//
//===----------------------------------------------------------------------===//
#include "frontend/Layout.h"
#include "frontend/Sema.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace plate::sema {

void Sema::statements(const std::vector<ast::Statement> &list) {
  for (const ast::Statement &stmt : list) {
    if (limitReported_)
      return;
    statement(stmt);
  }
}

void Sema::statement(const ast::Statement &stmt) {
  std::string saved = step_;
  if (stepOverride_)
    step_ = *stepOverride_;
  else if (!stmt.stepLabel.empty())
    step_ = stmt.stepLabel;
  else if (!blockStep_.empty())
    step_ = blockStep_;
  else
    step_ = ordinalStep_;
  std::visit([&](const auto &node) { gen(node, stmt); }, stmt.kind);
  step_ = saved;
}

ir::TipPolicy Sema::tips(const ast::Statement &stmt, ir::TipPolicy fallback) {
  switch (stmt.tips) {
  case ast::TipPolicy::Default: return fallback;
  case ast::TipPolicy::New: return ir::TipPolicy::New;
  case ast::TipPolicy::PerSource: return ir::TipPolicy::PerSource;
  case ast::TipPolicy::PerWell: return ir::TipPolicy::PerWell;
  case ast::TipPolicy::Reuse:
    if (!reuseWarned_) {
      reuseWarned_ = true;
      report(DiagId::TipsReused, stmt.tipsLoc.isValid() ? stmt.tipsLoc : stmt.loc);
    }
    return ir::TipPolicy::Reuse;
  }
  return fallback;
}

void Sema::emit(ir::OpPayload payload, const ast::Statement &stmt) {
  if (!emit_ || limitReported_)
    return;
  if (++generated_ > kMaxGeneratedStatements) {
    limitReported_ = true;
    auto root = expansionRoot_.value_or(std::make_pair(stmt.loc, std::string("the script")));
    report(DiagId::RepeatTooLarge, root.first, root.second, kMaxGeneratedStatements);
    return;
  }
  ir::Op op;
  op.payload = std::move(payload);
  op.loc = stmt.loc;
  op.origin = expansionRoot_ ? expansionRoot_->first : stmt.loc;
  op.step = step_;
  op.manual = manual_;
  op.tipsReuse = stmt.tips == ast::TipPolicy::Reuse;
  module_.ops.push_back(std::move(op));
}

//===--- Pipetting ---------------------------------------------------------===//

bool Sema::missingLiquid(const ast::QuantityExpr &volume, const ast::Name &name,
                         std::string_view statement) {
  if (volume.kind != ast::QuantityExpr::Kind::Number || !volume.unit.empty() ||
      param(name.text) || liquidByName_.count(name.text))
    return false;
  std::optional<Unit> unit = lookupUnit(name.text);
  if (!unit || unitInfo(*unit).dimension != Dimension::Volume)
    return false;
  // Only a unit right after the number: `300 of uL` names a liquid `uL`.
  const SourceLoc &at = volume.loc, &word = name.loc;
  if (at.fileId != word.fileId || at.line != word.line || word.col < at.col + at.length)
    return false;
  std::string_view line = sources_.lineText(at.fileId, at.line);
  if (word.col - 1 > line.size())
    return false;
  std::string_view gap = line.substr(at.col - 1 + at.length, word.col - at.col - at.length);
  if (gap.find_first_not_of(" \t") != std::string_view::npos)
    return false;

  bool wash = statement == "`wash`";
  std::vector<std::string> reagents, likely;
  SourceLoc firstReagent;
  std::set<ir::LiquidId> washBuffers;
  for (const ir::Op &op : module_.ops)
    if (const auto *w = op.as<ir::WashOp>())
      washBuffers.insert(w->reagent);
  for (const ir::Liquid &liquid : module_.liquids) {
    if (liquid.role != ir::LiquidRole::Reagent)
      continue;
    if (reagents.empty())
      firstReagent = liquid.loc;
    reagents.push_back(liquid.name);
    if (wash && (washBuffers.count(liquid.id) ||
                 liquid.name.find("wash") != std::string::npos))
      likely.push_back(liquid.name);
  }
  // A fix-it only when one buffer is the obvious one; a dispense may as
  // well have lost `of layout` or a layout name, so it gets none.
  std::string pick;
  if (wash)
    pick = likely.size() == 1      ? likely.front()
           : reagents.size() == 1 ? reagents.front()
                                  : std::string();
  SourceLoc range{at.fileId, at.line, at.col, word.col + word.length - at.col};
  std::string written = text(range, volume.text + " " + name.text);
  auto diag = wash ? report(DiagId::MissingWashBuffer, range, written, name.text, written)
                   : report(DiagId::MissingLiquid, range, statement, written, name.text,
                            written);
  if (!reagents.empty())
    diag.note(firstReagent, "the reagents are {}", fmt::format("{}", fmt::join(reagents, ", ")));
  if (!pick.empty())
    diag.suggest(fmt::format("{} of {}", written, pick));
  return true;
}

void Sema::gen(const ast::Dispense &d, const ast::Statement &stmt) {
  if (!d.sourceIsLayout && d.sourceNames.empty() &&
      missingLiquid(d.volume, d.source, "`dispense`"))
    return;
  // `of S1..S7`, `of Std0, Std1..Std7`, `of control, sample`: the named
  // layout liquids and those of the roles, each into its own wells.
  std::set<ir::LiquidId> rangeLiquids;
  if (!d.sourceNames.empty()) {
    std::vector<ast::Name> names;
    std::vector<ast::NameRange> more(d.sourceNames.begin() + 1, d.sourceNames.end());
    if (!expandNames(d.sourceNames.front(), more, names))
      return;
    for (const ast::Name &name : names) {
      auto found = liquidByName_.find(name.text);
      if (found != liquidByName_.end() &&
          module_.liquid(found->second).role != ir::LiquidRole::Reagent) {
        rangeLiquids.insert(found->second);
        continue;
      }
      std::optional<ir::LiquidRole> listedRole =
          found == liquidByName_.end() ? roleWord(name.text) : std::nullopt;
      bool any = false;
      for (const ir::Liquid &liquid : module_.liquids)
        if (listedRole && liquid.role == *listedRole && !liquid.wells.empty()) {
          rangeLiquids.insert(liquid.id);
          any = true;
        }
      if (!any) {
        report(DiagId::SourceRangeNotLayout, name.loc, name.text, d.source.text);
        return;
      }
    }
  }
  std::optional<Quantity> volume = quantity(d.volume, Dimension::Volume, "`dispense`");
  bool ok = volume.has_value();
  std::optional<Wells> target;
  if (d.wells) {
    target = wells(*d.wells, "`dispense ... to`");
    ok = ok && target;
  }

  ir::DispenseOp op;
  bool layoutSource = false;
  const std::string &source = d.source.text;
  std::optional<ir::LiquidRole> role = d.sourceIsLayout ? std::nullopt : roleWord(source);
  auto named = liquidByName_.find(source);
  bool isLayoutName = !param(source) && named != liquidByName_.end() &&
                      module_.liquid(named->second).role != ir::LiquidRole::Reagent;
  if (d.sourceIsLayout || !rangeLiquids.empty() ||
      (role && !param(source) && named == liquidByName_.end()) || isLayoutName) {
    layoutSource = true;
    if (!requireLayout(d.source.loc))
      return;
    std::vector<ir::LiquidId> liquids;
    // Wells whose liquid the plate makes (members of a layout `series`
    // after the first): a layout dispense leaves them to `serial_dilution`.
    WellSet madeOnPlate;
    const ir::Liquid *firstMadeOnPlate = nullptr;
    for (const ir::Liquid &liquid : module_.liquids) {
      if (liquid.role == ir::LiquidRole::Reagent || liquid.wells.empty())
        continue;
      if (d.sourceIsLayout || rangeLiquids.count(liquid.id) ||
          (role && liquid.role == *role) || (isLayoutName && liquid.id == named->second)) {
        if (liquid.madeOnPlate()) {
          madeOnPlate |= liquid.wells;
          if (!firstMadeOnPlate)
            firstMadeOnPlate = &liquid;
          continue;
        }
        liquids.push_back(liquid.id);
      }
    }
    if (liquids.empty() && firstMadeOnPlate) {
      report(DiagId::MadeOnPlateDispensed, d.source.loc, firstMadeOnPlate->name,
             firstMadeOnPlate->series->loc.line,
             module_.liquid(firstMadeOnPlate->series->first).name)
          .note(firstMadeOnPlate->series->loc, "the series is declared here");
      return;
    }
    if (liquids.empty()) {
      report(DiagId::EmptyLayoutSource, d.source.loc,
             d.sourceIsLayout ? std::string("layout") : source);
      return;
    }
    if (!ok)
      return;
    if (liquids.size() == 1 && isLayoutName && target) {
      // One named liquid may go anywhere, e.g. a control into extra wells.
      op.portions.push_back({liquids.front(), target->set});
    } else {
      WellSet covered = madeOnPlate;
      for (ir::LiquidId id : liquids) {
        WellSet into = module_.liquid(id).wells;
        covered |= into;
        if (target && target->known)
          into &= target->set;
        if (!into.empty() || !target)
          op.portions.push_back({id, into});
      }
      if (target && target->known) {
        WellSet stray = target->set;
        stray.subtract(covered);
        if (!stray.empty()) {
          std::string what = d.sourceIsLayout ? std::string("layout") : source;
          report(DiagId::NotSourceWell, d.wells->loc, stray.columnMajor().front().name(),
                 what, what);
          return;
        }
      }
    }
  } else {
    std::optional<ir::LiquidId> id = reagent(d.source, "`dispense`");
    if (!id || (d.wells && !target))
      return;
    if (!target) {
      target = defaultAll(stmt.loc);
      if (!target)
        return;
    }
    if (!ok)
      return;
    op.portions.push_back({*id, target->set});
    op.allLoc = target->allLoc;
  }

  op.volume = *volume;
  ir::TipPolicy fallback = layoutSource ? ir::TipPolicy::New : ir::TipPolicy::PerSource;
  op.tips = tips(stmt, fallback);
  if (d.mix) {
    op.mix = mixSpec(*d.mix, *volume);
    if (!op.mix)
      return;
    // Mixing touches the well contents: from then on a tip may not visit
    // another well or the reservoir (spec §7, §8).
    if (op.tips == ir::TipPolicy::PerSource || op.tips == ir::TipPolicy::New)
      op.tips = ir::TipPolicy::PerWell;
  }
  if (emit_ && !manual_)
    for (const ir::Portion &portion : op.portions)
      module_.liquids[portion.liquid].pipettedByInstrument = true;
  emit(std::move(op), stmt);
}

void Sema::gen(const ast::Aspirate &a, const ast::Statement &stmt) {
  std::optional<Quantity> volume;
  bool ok = true;
  if (a.volume) {
    volume = quantity(*a.volume, Dimension::Volume, "`aspirate`");
    ok = volume.has_value();
  }
  std::optional<Wells> from = wells(a.wells, "`aspirate ... from`");
  if (!ok || !from)
    return;
  ir::AspirateOp op;
  op.wells = from->set;
  op.volume = volume;
  op.tips = tips(stmt, ir::TipPolicy::PerWell);
  emit(std::move(op), stmt);
}

void Sema::gen(const ast::Wash &w, const ast::Statement &stmt) {
  if (missingLiquid(w.volume, w.reagent, "`wash`"))
    return;
  std::optional<unsigned> cycles = count(w.count, "`wash`");
  std::optional<Quantity> volume = quantity(w.volume, Dimension::Volume, "`wash`");
  std::optional<ir::LiquidId> buffer = reagent(w.reagent, "`wash ... with`");
  std::optional<Quantity> soak;
  bool ok = cycles && volume && buffer;
  if (w.soak) {
    soak = quantity(*w.soak, Dimension::Time, "`soak`");
    ok = ok && soak;
  }
  std::optional<Wells> target = w.wells ? wells(*w.wells, "`wash`") : defaultAll(stmt.loc);
  if (!ok || !target)
    return;
  ir::WashOp op;
  op.reagent = *buffer;
  op.wells = target->set;
  op.volume = *volume;
  op.cycles = *cycles;
  op.soak = soak;
  op.tips = tips(stmt, ir::TipPolicy::PerWell);
  if (emit_ && !manual_)
    module_.liquids[op.reagent].pipettedByInstrument = true;
  emit(std::move(op), stmt);
}

void Sema::gen(const ast::Mix &m, const ast::Statement &stmt) {
  std::optional<unsigned> cycles = count(m.count, "`mix`");
  std::optional<Quantity> volume = quantity(m.volume, Dimension::Volume, "`mix`");
  std::optional<Wells> target = wells(m.wells, "`mix ... in`");
  if (!cycles || !volume || !target)
    return;
  ir::MixOp op;
  op.wells = target->set;
  op.cycles = *cycles;
  op.volume = *volume;
  op.tips = tips(stmt, ir::TipPolicy::PerWell);
  emit(std::move(op), stmt);
}

void Sema::gen(const ast::Transfer &t, const ast::Statement &stmt) {
  std::optional<Quantity> volume = quantity(t.volume, Dimension::Volume, "`transfer`");
  std::optional<Wells> from = wells(t.from, "`transfer ... from`");
  std::optional<Wells> to = wells(t.to, "`transfer ... to`");
  if (!volume || !from || !to)
    return;
  ir::TransferOp op;
  if (from->known && to->known) {
    if (from->set.size() != to->set.size()) {
      report(DiagId::TransferSizeMismatch, stmt.loc, from->set.size(), to->set.size());
      return;
    }
    std::vector<Well> a = from->set.columnMajor(), b = to->set.columnMajor();
    for (size_t i = 0; i < a.size(); ++i)
      op.pairs.emplace_back(a[i], b[i]);
  }
  op.volume = *volume;
  op.tips = tips(stmt, ir::TipPolicy::PerWell);
  if (t.mix) {
    op.mix = mixSpec(*t.mix, *volume);
    if (!op.mix)
      return;
  }
  emit(std::move(op), stmt);
}

/// A mix clause's volume defaults to the volume just delivered.
std::optional<ir::MixSpec> Sema::mixSpec(const ast::MixClause &mix,
                                         const Quantity &defaultVolume) {
  std::optional<unsigned> cycles = count(mix.count, "`mix`");
  std::optional<Quantity> volume = defaultVolume;
  if (mix.volume)
    volume = quantity(*mix.volume, Dimension::Volume, "`mix`");
  if (!cycles || !volume)
    return std::nullopt;
  return ir::MixSpec{*cycles, *volume};
}

/// `serial_dilution` is the statements a scientist would otherwise write
/// by hand, in the order that makes the series right (spec §7: one pair at
/// a time): the diluent into every well but the first of each series, the
/// transfers step by step (all series' first steps, then their second
/// ones, ...), each mixed in its destination, then the last wells' surplus
/// to waste. One statement, one step: every op carries its line.
void Sema::gen(const ast::SerialDilution &s, const ast::Statement &stmt) {
  std::optional<Quantity> ratio = quantity(s.ratio, Dimension::Ratio, "`serial_dilution`");
  std::optional<Quantity> volume =
      quantity(s.volume, Dimension::Volume, "`serial_dilution ... transfer`");
  std::optional<Wells> target = wells(s.wells, "`serial_dilution`");
  std::optional<ir::LiquidId> diluent;
  bool ok = ratio && volume && target;
  if (s.diluent) {
    diluent = reagent(*s.diluent, "`serial_dilution ... with`");
    ok = ok && diluent;
  }
  std::optional<ir::MixSpec> mix;
  if (s.mix && volume) {
    mix = mixSpec(*s.mix, *volume);
    ok = ok && mix;
  }
  if (!ok || !target->known)
    return;

  // One series per row (`across`) or column (`down`), in the order of its
  // first wells.
  std::map<unsigned, std::vector<Well>> byLine;
  for (Well well : target->set.columnMajor())
    byLine[s.down ? well.col : well.row].push_back(well);
  std::vector<std::vector<Well>> series;
  for (auto &[line, wells] : byLine) {
    if (wells.size() < 2) {
      std::string where = s.down ? fmt::format("column {}", line)
                                 : fmt::format("row {}", wells.front().name().substr(0, 1));
      report(DiagId::SeriesTooShort, s.wells.loc, where, wells.size());
      return;
    }
    series.push_back(std::move(wells));
  }
  std::sort(series.begin(), series.end(), [](const auto &a, const auto &b) {
    return std::make_pair(a.front().col, a.front().row) <
           std::make_pair(b.front().col, b.front().row);
  });
  if (!checkSeriesRatio(series, ratio->value, s.ratio.loc))
    return;

  double factor = ratio->value;
  if (diluent) {
    WellSet receiving;
    for (const std::vector<Well> &one : series)
      for (size_t i = 1; i < one.size(); ++i)
        receiving.insert(one[i]);
    ir::DispenseOp fill;
    fill.portions.push_back({*diluent, receiving});
    fill.volume = Quantity{volume->value * (factor - 1), volume->unit};
    fill.tips = tips(stmt, ir::TipPolicy::PerSource);
    if (emit_ && !manual_)
      module_.liquids[*diluent].pipettedByInstrument = true;
    emit(std::move(fill), stmt);
  }
  ir::TransferOp transfer;
  size_t longest = 0;
  for (const std::vector<Well> &one : series)
    longest = std::max(longest, one.size());
  for (size_t i = 0; i + 1 < longest; ++i)
    for (const std::vector<Well> &one : series)
      if (i + 1 < one.size())
        transfer.pairs.emplace_back(one[i], one[i + 1]);
  transfer.volume = *volume;
  transfer.mix = mix;
  transfer.tips = tips(stmt, ir::TipPolicy::PerWell);
  emit(std::move(transfer), stmt);
  if (s.discard) {
    ir::AspirateOp surplus;
    for (const std::vector<Well> &one : series)
      surplus.wells.insert(one.back());
    surplus.volume = *volume;
    surplus.tips = tips(stmt, ir::TipPolicy::PerWell);
    emit(std::move(surplus), stmt);
  }
}

/// A statement that makes wells the layout declares as a `series` must
/// dilute by the series' ratio, or every concentration the analysis uses
/// is wrong.
bool Sema::checkSeriesRatio(const std::vector<std::vector<Well>> &series, double ratio,
                            SourceLoc loc) {
  for (const std::vector<Well> &one : series)
    for (size_t i = 1; i < one.size(); ++i) {
      std::optional<ir::LiquidId> id = layoutLiquidAt(one[i]);
      if (!id)
        continue;
      const ir::Liquid &liquid = module_.liquid(*id);
      if (!liquid.madeOnPlate() || std::abs(liquid.series->ratio - ratio) <= 1e-9 * ratio)
        continue;
      report(DiagId::SeriesRatioMismatch, loc, formatNumber(ratio), liquid.name,
             formatNumber(liquid.series->ratio), liquid.series->loc.line)
          .note(liquid.series->loc, "the series is declared here");
      return false;
    }
  return true;
}

//===--- Plate handling and reading ------------------------------------------===//

void Sema::gen(const ast::Incubate &i, const ast::Statement &stmt) {
  std::optional<Quantity> time = quantity(i.time, Dimension::Time, "`incubate`");
  std::optional<Quantity> temperature = Quantity{1, Unit::Ambient};
  if (i.temperature)
    temperature = quantity(*i.temperature, Dimension::Temperature, "`incubate ... at`");
  std::optional<Quantity> shaking;
  bool ok = time && temperature;
  if (i.shaking) {
    shaking = quantity(*i.shaking, Dimension::Speed, "`shaking`");
    ok = ok && shaking;
  }
  if (i.dark && i.lidOn == false) {
    report(DiagId::DarkWithLidOff, i.lidLoc.isValid() ? i.lidLoc : stmt.loc, i.lidText);
    ok = false;
  }
  if (!ok)
    return;
  tips(stmt, ir::TipPolicy::PerSource);
  ir::IncubateOp op;
  op.time = *time;
  op.temperature = *temperature;
  op.shaking = shaking;
  op.lidOn = i.lidOn.value_or(true) || i.dark;
  op.dark = i.dark;
  emit(std::move(op), stmt);
}

void Sema::gen(const ast::Shake &s, const ast::Statement &stmt) {
  std::optional<Quantity> time = quantity(s.time, Dimension::Time, "`shake`");
  std::optional<Quantity> speed = quantity(s.speed, Dimension::Speed, "`shake ... at`");
  if (!time || !speed)
    return;
  emit(ir::ShakeOp{*time, *speed}, stmt);
}

void Sema::gen(const ast::Magnet &m, const ast::Statement &stmt) {
  if (auto time = quantity(m.time, Dimension::Time, "`magnet`"))
    emit(ir::MagnetOp{*time}, stmt);
}

void Sema::gen(const ast::ReadAbsorbance &r, const ast::Statement &stmt) {
  std::optional<Quantity> wavelength =
      quantity(r.wavelength, Dimension::Wavelength, "`read absorbance at`");
  std::optional<Quantity> reference;
  bool ok = wavelength.has_value();
  if (r.reference) {
    reference = quantity(*r.reference, Dimension::Wavelength, "`reference`");
    ok = ok && reference;
  }
  std::optional<Wells> target =
      r.wells ? wells(*r.wells, "`read absorbance`") : defaultAll(stmt.loc);
  if (!ok || !target) {
    readDropped_ = true;
    return;
  }
  emit(ir::ReadAbsorbanceOp{*wavelength, reference, target->set}, stmt);
}

void Sema::gen(const ast::ReadFluorescence &r, const ast::Statement &stmt) {
  std::optional<Quantity> excitation =
      quantity(r.excitation, Dimension::Wavelength, "`excitation`");
  std::optional<Quantity> emission = quantity(r.emission, Dimension::Wavelength, "`emission`");
  std::optional<Wells> target =
      r.wells ? wells(*r.wells, "`read fluorescence`") : defaultAll(stmt.loc);
  if (!excitation || !emission || !target) {
    readDropped_ = true;
    return;
  }
  emit(ir::ReadFluorescenceOp{*excitation, *emission, target->set}, stmt);
}

void Sema::gen(const ast::Analyze &a, const ast::Statement &stmt) {
  std::optional<Quantity> wavelength;
  if (a.wavelength) {
    wavelength = quantity(*a.wavelength, Dimension::Wavelength, "`analyze ... at`");
    if (!wavelength)
      return;
  }
  if (!requireLayout(stmt.loc))
    return;
  using Kind = ast::Analyze::Kind;
  const char *kindName = a.kind == Kind::Competitive ? "competitive"
                         : a.kind == Kind::Cutoff    ? "cutoff"
                                                     : "standard_curve";
  // The first liquid of each role, for notes and for what the layout has.
  std::map<ir::LiquidRole, const ir::Liquid *> firstOf;
  for (const ir::Liquid &liquid : module_.liquids)
    firstOf.emplace(liquid.role, &liquid);
  auto has = [&](ir::LiquidRole role) { return firstOf.count(role) != 0; };
  bool ok = true;
  if (a.kind != Kind::Cutoff) {
    for (const ir::Liquid &liquid : module_.liquids)
      if (liquid.role == ir::LiquidRole::Calibrant && !liquid.concentration) {
        report(DiagId::CalibrantWithoutConc, liquid.loc, liquid.name, kindName)
            .note(stmt.loc, "the standard curve is fitted here");
        ok = false;
      }
    if (!has(ir::LiquidRole::Calibrant)) {
      report(DiagId::AnalyzeNeedsRole, stmt.loc, kindName);
      ok = false;
    }
  }
  // The fit needs distinct calibrant levels; the run checks the wells it
  // read (backend/bioforge1/Analysis.cpp), but fewer levels in the whole layout can
  // only fail there, after the robot's whole run: say so now.
  if (a.kind != Kind::Cutoff && ok) {
    std::set<double> levels;
    for (const ir::Liquid &liquid : module_.liquids)
      if (liquid.role == ir::LiquidRole::Calibrant && liquid.concentration)
        levels.insert(liquid.concentration->canonicalValue());
    bool fourPL = a.model == ast::Analyze::Model::FourPL;
    size_t needed = fourPL ? 4 : 2;
    if (levels.size() < needed) {
      report(fourPL ? DiagId::FourPLTooFewLevels : DiagId::LinearFitTooFewLevels, stmt.loc)
          .note(firstOf.at(ir::LiquidRole::Calibrant)->loc,
                "the layout's calibrants have {} level(s); a {} fit needs {}{}", levels.size(),
                fourPL ? "4pl" : "linear", needed,
                fourPL && levels.size() >= 2 ? " (or fit `linear`)" : "");
      ok = false;
    }
  }
  if (a.kind == Kind::Competitive && !has(ir::LiquidRole::Bmax)) {
    // %B/B0 divides by the B0 mean; NSB alone (the common slip: NSB
    // declared, B0 written as a calibrant or a control) cannot stand in.
    auto diag = report(DiagId::AnalyzeNeedsBmax, stmt.loc, kindName);
    if (has(ir::LiquidRole::Nsb))
      diag.note(firstOf.at(ir::LiquidRole::Nsb)->loc,
                "NSB wells are declared here; %B/B0 needs B0 wells as well");
    ok = false;
  }
  if (a.kind == Kind::Cutoff && !has(ir::LiquidRole::Cutoff)) {
    report(DiagId::AnalyzeNeedsCutoff, stmt.loc, kindName);
    ok = false;
  }
  if (a.subtractBlank && !has(ir::LiquidRole::Blank)) {
    report(DiagId::AnalyzeNeedsBlank, stmt.loc, kindName);
    ok = false;
  }
  if (a.kind == Kind::StandardCurve &&
      (has(ir::LiquidRole::Nsb) || has(ir::LiquidRole::Bmax))) {
    const ir::Liquid *first = has(ir::LiquidRole::Bmax) ? firstOf.at(ir::LiquidRole::Bmax)
                                                        : firstOf.at(ir::LiquidRole::Nsb);
    std::string roles = has(ir::LiquidRole::Nsb) && has(ir::LiquidRole::Bmax)
                            ? "`nsb` and `bmax`"
                            : fmt::format("`{}`", ir::roleName(first->role));
    report(DiagId::CompetitiveRolesIgnored, a.kindLoc, roles,
           "for a competitive assay write `analyze competitive 4pl` (%B/B0 with NSB "
           "subtracted)")
        .note(first->loc, "`{}` is declared here", first->name)
        .suggest("competitive");
  }
  if (!ok)
    return;
  if (emit_ && !manual_ && !readDropped_)
    checkAnalyzeRead(a, stmt, wavelength);
  ir::AnalysisKind kind = a.kind == Kind::Competitive ? ir::AnalysisKind::Competitive
                          : a.kind == Kind::Cutoff    ? ir::AnalysisKind::Cutoff
                                                      : ir::AnalysisKind::StandardCurve;
  emit(ir::AnalyzeOp{a.model == ast::Analyze::Model::FourPL, wavelength, a.subtractBlank, kind},
       stmt);
}

namespace {
/// What an earlier read measured, as `plate run` matches it: the primary
/// wavelength of an absorbance read (the fluorescence emission, for a
/// platform that reads it; BioForge-1 rejects such a read in check-platform).
struct EarlierRead {
  const ir::Op *op;
  double nm;
  std::optional<double> referenceNm;
};
bool sameNm(double a, double b) { return std::fabs(a - b) < 1e-6; }
} // namespace

void Sema::checkAnalyzeRead(const ast::Analyze &a, const ast::Statement &stmt,
                            const std::optional<Quantity> &wavelength) {
  // The run fits the latest robot read before the analysis, at `at λ` when
  // given (backend/bioforge1/Interpreter.cpp); it has no values from a MANUAL read.
  // This is that rule, at check time, so a script that would fail there
  // (after the whole robot run) fails here.
  std::vector<EarlierRead> robot, manual;
  for (const ir::Op &op : module_.ops) {
    std::optional<EarlierRead> read;
    if (const auto *abs = op.as<ir::ReadAbsorbanceOp>()) {
      std::optional<double> reference;
      if (abs->reference)
        reference = abs->reference->canonicalValue();
      read = EarlierRead{&op, abs->wavelength.canonicalValue(), reference};
    } else if (const auto *fl = op.as<ir::ReadFluorescenceOp>()) {
      read = EarlierRead{&op, fl->emission.canonicalValue(), std::nullopt};
    }
    if (read)
      (op.manual ? manual : robot).push_back(*read);
  }
  std::optional<double> nm;
  if (wavelength)
    nm = wavelength->canonicalValue();
  auto matches = [&](const EarlierRead &read) { return !nm || sameNm(read.nm, *nm); };
  if (std::any_of(robot.begin(), robot.end(), matches))
    return;

  SourceLoc loc = a.wavelength ? a.wavelength->loc : stmt.loc;
  // Advice to add a read holds only where the reader can make it.
  auto readerHas = [&](double wanted) {
    if (!platform_)
      return true;
    return platform_->hasFilter(wanted);
  };
  auto manualMatch = std::find_if(manual.rbegin(), manual.rend(), matches);
  if (manualMatch != manual.rend()) {
    report(DiagId::AnalyzeAfterManualRead, loc, formatNumber(manualMatch->nm),
           manualMatch->op->loc.line)
        .note(manualMatch->op->loc, "read in `<MANUAL>` here");
    return;
  }
  if (!nm) {
    report(DiagId::AnalyzeWithoutAnyRead, loc);
    return;
  }
  std::string wanted = formatNumber(*nm);
  if (robot.empty()) {
    if (readerHas(*nm))
      report(DiagId::AnalyzeWithoutItsRead, loc, wanted, wanted);
    else
      report(DiagId::AnalyzeNoReadNoFilter, loc, wanted, wanted);
    return;
  }
  // Robot reads at other wavelengths: name them, offer the nearest.
  std::vector<double> seen;
  const EarlierRead *nearest = nullptr;
  const EarlierRead *asReference = nullptr;
  for (const EarlierRead &read : robot) {
    if (std::none_of(seen.begin(), seen.end(), [&](double v) { return sameNm(v, read.nm); }))
      seen.push_back(read.nm);
    if (!nearest || std::fabs(read.nm - *nm) <= std::fabs(nearest->nm - *nm))
      nearest = &read;
    if (read.referenceNm && sameNm(*read.referenceNm, *nm))
      asReference = &read;
  }
  std::string list;
  for (size_t i = 0; i < seen.size(); ++i)
    list += (i == 0 ? "" : i + 1 == seen.size() ? " and " : ", ") + formatNumber(seen[i]);
  const EarlierRead &offer = asReference ? *asReference : *nearest;
  auto diag = asReference
                  ? report(DiagId::AnalyzeAtReference, loc, wanted, wanted,
                           asReference->op->loc.line, formatNumber(asReference->nm),
                           formatNumber(asReference->nm))
              : readerHas(*nm)
                  ? report(DiagId::AnalyzeOtherWavelength, loc, wanted, list, wanted)
                  : report(DiagId::AnalyzeOtherWavelengthNoFilter, loc, wanted, list, wanted);
  // A parameter's value comes from a call: the fix belongs there, not in
  // the body that other calls share.
  if (a.wavelength->kind != ast::QuantityExpr::Kind::Param)
    diag.suggest(fmt::format("{} nm", formatNumber(offer.nm)));
  diag.note(offer.op->loc, "read at {} nm here", formatNumber(offer.nm));
}

void Sema::gen(const ast::Wait &w, const ast::Statement &stmt) {
  if (auto time = quantity(w.time, Dimension::Time, "`wait`"))
    emit(ir::WaitOp{*time}, stmt);
}

void Sema::gen(const ast::Pause &p, const ast::Statement &stmt) {
  emit(ir::PauseOp{p.message}, stmt);
}

void Sema::gen(const ast::Note &n, const ast::Statement &stmt) {
  emit(ir::NoteOp{n.text}, stmt);
}

//===--- MANUAL-only -----------------------------------------------------===//

bool Sema::appendLiquidsOfRole(const std::string &word, std::vector<ir::LiquidId> &ids) const {
  std::optional<ir::LiquidRole> role = roleWord(word);
  if (!role)
    return false;
  size_t before = ids.size();
  for (const ir::Liquid &liquid : module_.liquids)
    if (liquid.role == *role)
      ids.push_back(liquid.id);
  return ids.size() > before;
}

void Sema::gen(const ast::Prepare &p, const ast::Statement &stmt) {
  if (emit_ && !manual_) {
    report(DiagId::ManualOnlyStatement, stmt.loc, "prepare");
    return;
  }
  std::vector<ast::Name> names;
  bool ok = expandNames(p.names, p.moreNames, names);
  // Kits have the operator make standards and dilute samples before
  // plating: `prepare` takes a layout liquid as well as a reagent.
  std::vector<ir::LiquidId> ids;
  for (const ast::Name &name : names) {
    auto named = liquidByName_.find(name.text);
    // "Dilute the samples 1:20": a role word names every layout liquid of
    // that role, as in `equilibrate`.
    if (named == liquidByName_.end() && !param(name.text) && appendLiquidsOfRole(name.text, ids))
      continue;
    std::optional<ir::LiquidId> id;
    if (!param(name.text) && named != liquidByName_.end() &&
        module_.liquid(named->second).role != ir::LiquidRole::Reagent)
      id = named->second;
    else
      id = reagent(name, "`prepare`");
    if (id)
      ids.push_back(*id);
    else
      ok = false;
  }
  std::optional<Quantity> dilute, volume;
  if (p.dilute) {
    dilute = quantity(*p.dilute, Dimension::Ratio, "`dilute`");
    ok = ok && dilute;
  }
  if (p.volume) {
    volume = quantity(*p.volume, Dimension::Volume, "`prepare`");
    ok = ok && volume;
  }
  if (!ok)
    return;
  for (ir::LiquidId id : ids)
    emit(ir::PrepareOp{id, p.from.value_or(""), dilute, volume}, stmt);
}

void Sema::gen(const ast::Equilibrate &e, const ast::Statement &stmt) {
  if (emit_ && !manual_) {
    report(DiagId::ManualOnlyStatement, stmt.loc, "equilibrate");
    return;
  }
  // Reagents sit in their bottles (or the reservoir) away from the plate;
  // bringing them to a temperature is the operator's step, like the plate's.
  std::vector<ir::LiquidId> reagents;
  std::optional<Wells> target;
  auto namesReagent = [&](const std::string &name) {
    if (const Binding *binding = param(name))
      return binding->type == ast::ParamType::Reagent;
    auto found = liquidByName_.find(name);
    return found != liquidByName_.end() &&
           module_.liquid(found->second).role == ir::LiquidRole::Reagent;
  };
  // "Bring the reagents and the standards to RT": once a list names a
  // reagent it names liquids in their bottles and tubes, so a layout
  // liquid in it (`N1`, `S1..S7`, spelt like a well or not) is that
  // liquid's stock, not its wells on the plate.
  auto namesLiquid = [&](const ast::WellItem &it) {
    if (!it.role.empty() || it.wellWord)
      return false;
    if (it.kind == ast::WellItem::Kind::Name)
      return true; // an undeclared one is reported as a reagent (E226)
    if (it.kind == ast::WellItem::Kind::Well)
      return param(it.a) != nullptr || liquidByName_.count(it.a) > 0;
    // `Std1..Std9` over six standards is still a list of names; the
    // expansion reports the members nothing declares.
    if (it.kind == ast::WellItem::Kind::NameRange)
      return liquidByName_.count(it.a) > 0 || liquidByName_.count(it.b) > 0;
    return it.kind == ast::WellItem::Kind::Block && liquidByName_.count(it.a) > 0 &&
           liquidByName_.count(it.b) > 0;
  };
  bool named = !e.allReagents && e.wells.except.empty() &&
               std::all_of(e.wells.items.begin(), e.wells.items.end(), namesLiquid) &&
               std::any_of(e.wells.items.begin(), e.wells.items.end(),
                           [&](const ast::WellItem &it) { return namesReagent(it.a); });
  bool targetOk = true;
  if (e.allReagents) {
    for (const ir::Liquid &liquid : module_.liquids)
      if (liquid.role == ir::LiquidRole::Reagent)
        reagents.push_back(liquid.id);
    if (reagents.empty()) {
      report(DiagId::NoReagentsToEquilibrate, e.reagentsLoc, e.reagentsText);
      targetOk = false;
    }
  } else if (named) {
    for (const ast::WellItem &it : e.wells.items) {
      std::vector<std::string> members = {it.a};
      if (it.kind == ast::WellItem::Kind::Block || it.kind == ast::WellItem::Kind::NameRange) {
        auto expanded = layout::expandNameRange(it.a, it.b);
        if (!expanded) {
          report(DiagId::BadNameRange, it.loc, it.a, it.b);
          targetOk = false;
          continue;
        }
        members = std::move(*expanded);
      }
      for (const std::string &member : members) {
        auto found = liquidByName_.find(member);
        // "Bring the reagents, standards and samples to RT": a role word
        // among reagents is the stock of every layout liquid of that role.
        if (found == liquidByName_.end() && !param(member) &&
            it.kind == ast::WellItem::Kind::Name && appendLiquidsOfRole(member, reagents))
          continue;
        std::optional<ir::LiquidId> id;
        if (found != liquidByName_.end() && !param(member) &&
            module_.liquid(found->second).role != ir::LiquidRole::Reagent)
          id = found->second;
        else
          id = reagent({member, it.loc}, "`equilibrate` of reagents");
        if (id)
          reagents.push_back(*id);
        targetOk = targetOk && id;
      }
    }
  } else {
    target = wells(e.wells, "`equilibrate`");
    targetOk = target.has_value();
  }
  std::optional<Quantity> temperature =
      quantity(e.temperature, Dimension::Temperature, "`equilibrate ... to`");
  std::optional<Quantity> time;
  bool ok = targetOk && temperature;
  if (e.time) {
    time = quantity(*e.time, Dimension::Time, "`equilibrate ... for`");
    ok = ok && time;
  }
  if (!ok)
    return;
  emit(ir::EquilibrateOp{target ? target->set : WellSet{}, *temperature, time, std::move(reagents)},
       stmt);
}

//===--- Procedures and loops --------------------------------------------===//

void Sema::gen(const ast::Use &u, const ast::Statement &stmt) {
  useModule(u.module, stmt.loc, u.loc, ordinal_);
  for (const std::string &name : procOrder_) {
    ProcInfo &proc = procs_.at(name);
    if (proc.module == u.module)
      checkProc(proc);
  }
}

void Sema::gen(const ast::ProcDef &def, const ast::Statement &stmt) {
  if (blockDepth_ > 0) {
    report(DiagId::NestedProc, def.name.loc, def.name.text);
    return;
  }
  auto it = procs_.find(def.name.text);
  if (it != procs_.end() && it->second.def == &def)
    checkProc(it->second);
}

void Sema::gen(const ast::Repeat &r, const ast::Statement &stmt) {
  std::optional<unsigned> times = count(r.count, "`repeat`");
  if (!times || r.body.empty())
    return;
  std::string rootText = "repeat " + quantityText(r.count);
  if (*times > kMaxGeneratedStatements) {
    report(DiagId::RepeatTooLarge, stmt.loc, rootText, kMaxGeneratedStatements);
    return;
  }
  std::string savedBlockStep = blockStep_;
  blockStep_ = step_;
  ++blockDepth_;
  bool root = !expansionRoot_ && emit_;
  if (root)
    expansionRoot_ = std::make_pair(stmt.loc, rootText);
  // At a definition the body is checked once; expansion needs values.
  unsigned rounds = emit_ ? *times : 1;
  for (unsigned i = 0; i < rounds && !limitReported_; ++i)
    statements(r.body);
  if (root)
    expansionRoot_.reset();
  --blockDepth_;
  blockStep_ = savedBlockStep;
}

void Sema::gen(const ast::Call &call, const ast::Statement &stmt) {
  const std::string &name = call.callee.text;
  auto it = procs_.find(name);
  if (it == procs_.end()) {
    std::string close = closestMatch(name, procOrder_);
    if (close.empty())
      report(DiagId::UndefinedProcedure, call.callee.loc, name);
    else
      report(DiagId::UndefinedName, call.callee.loc, name, close).suggest(close);
    return;
  }
  ProcInfo &proc = it->second;
  proc.used = true;
  if (emit_ && proc.ordinal > ordinal_) {
    report(DiagId::CallBeforeDefinition, call.callee.loc, name)
        .note(proc.def->name.loc, "`{}` is defined here", name);
    return;
  }
  std::map<std::string, Binding> env;
  if (!bindArgs(call, proc, env))
    return;
  if (!emit_ || proc.recursive || proc.hasErrors)
    return;

  auto savedEnv = env_;
  auto savedOverride = stepOverride_;
  std::string savedBlockStep = blockStep_;
  bool root = !expansionRoot_;
  if (root)
    expansionRoot_ = std::make_pair(stmt.loc, name + "(...)");
  if (!stepOverride_)
    stepOverride_ = step_;
  env_ = &env;
  ++blockDepth_;
  ++expansionDepth_;
  callStack_.emplace_back(name, call.callee.loc);
  statements(proc.def->body);
  callStack_.pop_back();
  --expansionDepth_;
  --blockDepth_;
  env_ = savedEnv;
  stepOverride_ = savedOverride;
  blockStep_ = savedBlockStep;
  if (root)
    expansionRoot_.reset();
}

} // namespace plate::sema

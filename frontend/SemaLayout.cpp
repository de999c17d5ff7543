//===- SemaLayout.cpp - Expand the LAYOUT section into concrete wells -----===//
//
// Role lines declare layout liquids and, with `at`, place them by the fill
// rules of Layout.h; role lines without `at` are placed by a grid (inline
// or `--layout FILE.csv`). Every well is claimed by one liquid at most, and
// the first claim is remembered so a conflict can point at both lines.
//
//===----------------------------------------------------------------------===//
#include "frontend/Layout.h"
#include "frontend/LayoutCsv.h"
#include "frontend/Sema.h"

#include <cctype>
#include <filesystem>
#include <set>

namespace plate::sema {

namespace {

ir::LiquidRole liquidRole(ast::Role role) {
  switch (role) {
  case ast::Role::Blank: return ir::LiquidRole::Blank;
  case ast::Role::Calibrant: return ir::LiquidRole::Calibrant;
  case ast::Role::Sample: return ir::LiquidRole::Sample;
  case ast::Role::Control: return ir::LiquidRole::Control;
  case ast::Role::Nsb: return ir::LiquidRole::Nsb;
  case ast::Role::Bmax: return ir::LiquidRole::Bmax;
  case ast::Role::Cutoff: return ir::LiquidRole::Cutoff;
  }
  return ir::LiquidRole::Sample;
}

size_t claimIndex(Well well) {
  return static_cast<size_t>(well.col - 1) * kMaxRows + (well.row - 1);
}

} // namespace

bool Sema::claim(ir::LiquidId liquid, const WellSet &wells, SourceLoc loc) {
  for (Well well : wells.columnMajor()) {
    auto &slot = claims_[claimIndex(well)];
    if (slot && slot->first != liquid) {
      report(DiagId::WellClaimedTwice, loc, well.name(), module_.liquid(slot->first).name)
          .note(slot->second, "`{}` takes `{}` here", module_.liquid(slot->first).name,
                well.name());
      return false;
    }
    if (!slot)
      slot = {liquid, loc};
  }
  return true;
}

std::optional<ir::LiquidId> Sema::layoutLiquidAt(Well well) const {
  const auto &slot = claims_[claimIndex(well)];
  if (!slot)
    return std::nullopt;
  return slot->first;
}

void Sema::buildLayout() {
  std::optional<ast::Grid> csvGrid;
  if (!options_.layoutCsv.empty())
    csvGrid = readLayoutCsv(sources_, options_.layoutCsv, diags_);

  // The plate type: the `plate` line, else plate96 when the platform has it.
  std::string type = "plate96";
  SourceLoc typeLoc;
  if (script_.layout && script_.layout->plateType) {
    type = script_.layout->plateType->text;
    typeLoc = script_.layout->plateType->loc;
  }
  const Labware *labware = platform_->findLabware(type);
  if (!labware) {
    std::vector<std::string> known;
    for (const auto &[name, _] : platform_->labware)
      known.push_back(name);
    // A plate stdlib/labware/ describes that this robot has no definition
    // for (an OT-2 without a 24-well plate) is the platform's limit, not a
    // misspelling.
    if (std::filesystem::exists(stdlibDir_ + "/labware/" + type + ".toml")) {
      report(DiagId::NoLabwareDefinition, typeLoc, type,
             platform_->robotType.empty() ? platform_->name : platform_->robotType,
             fmt::format("{}", fmt::join(known, ", ")));
    } else {
      auto diag = report(DiagId::UnknownLabware, typeLoc, type,
                         fmt::format("{}", fmt::join(known, ", ")));
      if (std::string close = closestMatch(type, known); !close.empty())
        diag.suggest(close);
    }
    // Go on with a known plate so that the rest of the script is checked.
    labware = platform_->labware.empty() ? nullptr : &platform_->labware.begin()->second;
  }
  if (labware) {
    module_.plateType = labware->name;
    module_.shape = labware->shape;
    module_.wellCapacityUl = labware->wellCapacityUl;
  }
  if (!script_.layout && !csvGrid)
    return;
  hasLayout_ = true;
  if (!script_.layout) {
    placeGrid(*csvGrid);
    return;
  }

  for (const ast::RoleLine &line : script_.layout->roles) {
    std::vector<ast::Name> listed;
    if (!expandNames(line.names, line.moreNames, listed))
      continue;
    std::vector<std::string> names;
    for (const ast::Name &name : listed)
      names.push_back(name.text);
    SourceLoc declLoc = line.names.last ? line.names.loc : line.names.first.loc;
    if (!line.moreNames.empty()) {
      // The whole list, when it is on one line (it always is).
      const SourceLoc &last = line.moreNames.back().loc;
      declLoc = line.names.loc;
      if (last.line == declLoc.line && last.col >= declLoc.col)
        declLoc.length = last.col + std::max<uint32_t>(last.length, 1) - declLoc.col;
    }
    bool ok = true;
    std::set<std::string> onThisLine;
    for (const std::string &name : names) {
      auto found = liquidByName_.find(name);
      if (found != liquidByName_.end()) {
        report(DiagId::DuplicateName, declLoc, name)
            .note(module_.liquid(found->second).loc, "`{}` is first declared here", name);
        ok = false;
      } else if (!onThisLine.insert(name).second) {
        report(DiagId::DuplicateName, declLoc, name);
        ok = false;
      }
    }
    if (!ok)
      continue;
    ir::Polarity polarity = ir::Polarity::None;
    if (line.polarity != ast::Polarity::None) {
      std::string tag = line.polarity == ast::Polarity::Positive ? "positive" : "negative";
      if (line.role == ast::Role::Control)
        polarity = line.polarity == ast::Polarity::Positive ? ir::Polarity::Positive
                                                            : ir::Polarity::Negative;
      else
        report(DiagId::MisplacedRoleTag, line.polarityLoc, tag,
               ir::roleName(liquidRole(line.role)), tag,
               text(line.names.loc, line.names.first.text), tag);
    }
    std::vector<ir::LiquidId> ids;
    for (const std::string &name : names) {
      ir::Liquid liquid;
      liquid.id = static_cast<ir::LiquidId>(module_.liquids.size());
      liquid.name = name;
      liquid.role = liquidRole(line.role);
      liquid.polarity = polarity;
      liquid.loc = declLoc;
      liquidByName_[name] = liquid.id;
      ids.push_back(liquid.id);
      module_.liquids.push_back(std::move(liquid));
    }

    if (line.conc) {
      if (std::optional<Unit> unit = concentrationUnit(*line.conc)) {
        if (line.conc->values.size() != names.size())
          report(DiagId::ConcCountMismatch, line.conc->loc, names.size(),
                 line.conc->values.size());
        else
          for (size_t i = 0; i < ids.size(); ++i) {
            double value = line.conc->values[i];
            if (value < 0) {
              SourceLoc at = i < line.conc->valueLocs.size() ? line.conc->valueLocs[i]
                                                             : line.conc->loc;
              report(DiagId::NegativeConcentration, at, fmt::format("{:g}", value),
                     module_.liquids[ids[i]].name);
            }
            module_.liquids[ids[i]].concentration = Quantity{value, *unit};
          }
      }
    }
    if (line.dilution)
      if (auto ratio = quantity(*line.dilution, Dimension::Ratio, "`dilution`"))
        for (ir::LiquidId id : ids)
          module_.liquids[id].dilution = ratio->value;
    if (line.series)
      declareSeries(line, ids);

    std::optional<unsigned> replicates;
    if (line.replicates) {
      replicates = count(*line.replicates, "`replicates`");
      if (!replicates)
        continue;
    }
    if (!line.wells) {
      if (line.replicates) {
        report(DiagId::ReplicatesWithoutAt, line.replicates->loc);
        continue;
      }
      for (size_t i = 0; i < names.size(); ++i)
        gridNames_[names[i]] = declLoc;
      continue;
    }

    layoutWellsOnly_ = true;
    std::optional<Wells> at = wells(*line.wells, "a layout line's `at`");
    layoutWellsOnly_ = false;
    if (!at)
      continue;
    auto filled = layout::fill(at->set, static_cast<unsigned>(names.size()), replicates,
                               line.down);
    if (auto *error = std::get_if<layout::FillError>(&filled)) {
      if (error->kind == layout::FillError::Kind::CountMismatch)
        report(DiagId::FillCountMismatch, line.wells->loc, error->names,
               error->replicates, error->names * error->replicates, error->wells);
      else
        report(line.down ? DiagId::ReplicatesDoNotFitDown : DiagId::ReplicatesDoNotFit,
               line.wells->loc, error->wells, text(line.wells->loc, at->set.str()),
               error->replicates);
      continue;
    }
    const auto &sets = std::get<std::vector<WellSet>>(filled);
    for (size_t i = 0; i < ids.size(); ++i) {
      if (!claim(ids[i], sets[i], line.wells->loc))
        break;
      module_.liquids[ids[i]].wells = sets[i];
    }
  }

  if (script_.layout->grid)
    placeGrid(*script_.layout->grid);
  if (csvGrid)
    placeGrid(*csvGrid);
  for (const auto &[name, loc] : gridNames_)
    if (module_.liquid(liquidByName_.at(name)).wells.empty())
      report(DiagId::LayoutNameUnplaced, loc, name);
}

void Sema::placeGrid(const ast::Grid &grid) {
  const PlateShape &shape = module_.shape;
  std::vector<std::optional<unsigned>> columns;
  std::set<unsigned> seenColumns;
  for (size_t i = 0; i < grid.columns.size(); ++i) {
    unsigned col = grid.columns[i];
    SourceLoc loc = i < grid.columnLocs.size() ? grid.columnLocs[i] : grid.loc;
    if (col < 1 || col > shape.cols) {
      report(DiagId::BadColumn, loc, std::to_string(col), module_.plateType, shape.cols);
      columns.push_back(std::nullopt);
    } else if (!seenColumns.insert(col).second) {
      report(DiagId::GridColumnTwice, loc, col);
      columns.push_back(std::nullopt);
    } else {
      columns.push_back(col);
    }
  }

  std::set<unsigned> seenRows;
  for (const ast::GridRow &row : grid.rows) {
    const std::string &letter = row.row.text;
    unsigned index = 0;
    if (letter.size() == 1 && std::isalpha(static_cast<unsigned char>(letter[0])))
      index = static_cast<unsigned>(std::toupper(letter[0]) - 'A' + 1);
    if (index == 0 || index > shape.rows) {
      report(DiagId::BadRow, row.row.loc, letter, module_.plateType,
             std::string(1, static_cast<char>('A' + shape.rows - 1)));
      continue;
    }
    if (!seenRows.insert(index).second) {
      report(DiagId::GridRowTwice, row.row.loc, letter);
      continue;
    }
    if (row.cells.size() != columns.size()) {
      report(DiagId::GridShape, row.row.loc, letter, row.cells.size(), columns.size());
      continue;
    }
    for (size_t i = 0; i < row.cells.size(); ++i) {
      const ast::GridCell &cell = row.cells[i];
      if (cell.text == "." || !columns[i])
        continue;
      auto declared = gridNames_.find(cell.text);
      if (declared == gridNames_.end()) {
        auto found = liquidByName_.find(cell.text);
        if (found != liquidByName_.end()) {
          const ir::Liquid &liquid = module_.liquid(found->second);
          if (liquid.role == ir::LiquidRole::Reagent)
            report(DiagId::WrongKindOfName, cell.loc, cell.text, "reagent",
                   "a grid cell", "layout liquid")
                .note(liquid.loc, "`{}` is declared here", cell.text);
          else
            report(DiagId::PlacedByAtAndGrid, cell.loc, cell.text)
                .note(liquid.loc, "`{}` is declared here", cell.text);
          continue;
        }
        std::vector<std::string> candidates;
        for (const auto &[name, _] : gridNames_)
          candidates.push_back(name);
        std::string close = closestMatch(cell.text, candidates);
        if (close.empty())
          report(DiagId::UndefinedGridName, cell.loc, cell.text, cell.text);
        else
          report(DiagId::UndefinedName, cell.loc, cell.text, close).suggest(close);
        continue;
      }
      ir::LiquidId id = liquidByName_.at(cell.text);
      WellSet one;
      one.insert({static_cast<uint8_t>(index), static_cast<uint8_t>(*columns[i])});
      if (claim(id, one, cell.loc))
        module_.liquids[id].wells |= one;
    }
  }
}

/// A layout `series`: the first name is the starting material, each next
/// one is diluted once more by the ratio on the plate (`serial_dilution`
/// makes it). Calibrants and controls get concentrations from `from`;
/// every member's dilution factor grows by the ratio, so the analysis
/// back-calculates samples diluted on the plate.
void Sema::declareSeries(const ast::RoleLine &line, const std::vector<ir::LiquidId> &ids) {
  const ast::SeriesClause &series = *line.series;
  const std::string &first = line.names.first.text;
  if (line.role == ast::Role::Blank) {
    report(DiagId::SeriesOnBlank, series.loc, first);
    return;
  }
  if (ids.size() < 2) {
    std::string stem = first;
    while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back())))
      stem.pop_back();
    if (stem.empty())
      stem = "S";
    report(DiagId::SeriesOfOne, series.loc, first, stem, stem);
    return;
  }
  if (series.top && line.conc) {
    report(DiagId::SeriesAndConc, line.conc->loc, first);
    return;
  }
  if (series.top && line.role == ast::Role::Sample) {
    report(DiagId::SeriesFromOnSample, series.top->loc, first);
    return;
  }
  std::optional<Quantity> ratio = quantity(series.ratio, Dimension::Ratio, "`series`");
  if (!ratio)
    return;
  std::optional<Unit> unit;
  if (series.top && !(unit = concentrationUnit(*series.top)))
    return;
  if (series.top && !series.top->values.empty() && series.top->values.front() < 0) {
    // Reported once here; the series still gives its members their
    // (negative) values, so no "has no concentration" follows from it.
    report(DiagId::NegativeConcentration, series.top->loc,
           fmt::format("{:g}", series.top->values.front()), first);
  }
  double factor = 1;
  for (size_t i = 0; i < ids.size(); ++i, factor *= ratio->value) {
    ir::Liquid &liquid = module_.liquids[ids[i]];
    liquid.series = ir::Liquid::SeriesMember{series.loc, ids.front(),
                                             static_cast<unsigned>(i), ratio->value};
    if (unit)
      liquid.concentration = Quantity{series.top->values.front() / factor, *unit};
    // Without `from` a member is its first one diluted: the analysis
    // multiplies back by the factor. With `from` each member is a known
    // concentration of its own.
    if (!unit && i > 0)
      liquid.dilution = liquid.dilution.value_or(1) * factor;
  }
}

} // namespace plate::sema

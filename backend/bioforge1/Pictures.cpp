//===- Pictures.cpp - Plate maps, read heat maps and the run timeline -----===//
#include "backend/bioforge1/Pictures.h"
#include "backend/bioforge1/CommandTiming.h"

#include "backend/bioforge1/DeckState.h"
#include "backend/Svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace plate::backend {

namespace {

using svg::Anchor;
using svg::Canvas;
using svg::Paint;
using svg::TextStyle;

//===--- Colours and names ---------------------------------------------------===//

/// One light fill per role, so that black names on it stay readable, with
/// a darker edge of the same hue for the well's ring and the legend; the
/// roles of a layout tell apart at a glance, and positive and negative
/// controls differ in lightness, not only in red against green.
struct RoleLook {
  std::string_view fill, edge;
};

RoleLook roleLook(ir::LiquidRole role, ir::Polarity polarity) {
  switch (role) {
  case ir::LiquidRole::Blank: return {"#d9d9d9", "#737373"};
  case ir::LiquidRole::Calibrant: return {"#9ecae1", "#2171b5"};
  case ir::LiquidRole::Sample: return {"#fdd0a2", "#d94801"};
  case ir::LiquidRole::Control:
    return polarity == ir::Polarity::Positive   ? RoleLook{"#f4a6c0", "#c51b7d"}
           : polarity == ir::Polarity::Negative ? RoleLook{"#b5e0a8", "#238b45"}
                                                : RoleLook{"#cbc3e3", "#6a51a3"};
  case ir::LiquidRole::Nsb: return {"#bdbdbd", "#525252"};
  case ir::LiquidRole::Bmax: return {"#fee391", "#cc8a00"};
  case ir::LiquidRole::Cutoff: return {"#e6d5b8", "#8c6d31"};
  case ir::LiquidRole::Reagent: return {"#ffffff", "#636363"};
  }
  return {"#ffffff", "#636363"};
}
std::string_view roleColour(ir::LiquidRole role, ir::Polarity polarity) {
  return roleLook(role, polarity).fill;
}
std::string_view roleEdge(ir::LiquidRole role, ir::Polarity polarity) {
  return roleLook(role, polarity).edge;
}

std::string roleTitle(ir::LiquidRole role, ir::Polarity polarity) {
  std::string name(ir::roleName(role));
  if (role == ir::LiquidRole::Control && polarity != ir::Polarity::None)
    return std::string(ir::polarityName(polarity)) + " control";
  return name;
}

/// Reagents in the contents maps: strong colours, none of them a role's.
std::string_view reagentColour(size_t index) {
  static constexpr std::string_view colours[] = {"#1b9e77", "#7570b3", "#e6ab02", "#e7298a",
                                                 "#66a61e", "#a6761d", "#1f78b4", "#666666"};
  return colours[index % std::size(colours)];
}

/// `text` cut to `chars` characters (UTF-8 aware) with an ellipsis.
std::string fitText(const std::string &text, size_t chars) {
  size_t count = 0, cut = text.size();
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
      continue;
    if (count == chars) {
      cut = i;
      break;
    }
    ++count;
  }
  if (cut == text.size())
    return text;
  // Room for the ellipsis: drop the last character kept.
  size_t back = cut;
  do
    --back;
  while (back > 0 && (static_cast<unsigned char>(text[back]) & 0xC0) == 0x80);
  return text.substr(0, back) + "…";
}

std::string rowLetter(unsigned row) { return std::string(1, static_cast<char>('A' + row - 1)); }

/// A unit as the layout wrote it, µ for u: "µg/mL".
std::string unitText(const std::string &unit) {
  if (!unit.empty() && unit[0] == 'u')
    return "µ" + unit.substr(1);
  return unit;
}

//===--- The plate grid ------------------------------------------------------===//

/// Where a plate is drawn: its top-left well centre and the pitch, with the
/// column numbers above and the row letters to the left.
struct Grid {
  double x0 = 0, y0 = 0, pitch = 40;
  PlateShape shape;

  double cx(unsigned col) const { return x0 + (col - 1) * pitch; }
  double cy(unsigned row) const { return y0 + (row - 1) * pitch; }
  double right() const { return cx(shape.cols) + pitch / 2; }
  double bottom() const { return cy(shape.rows) + pitch / 2; }

  void drawFrame(Canvas &canvas, double labelSize) const {
    canvas.roundedRect(x0 - pitch * 0.6, y0 - pitch * 0.6, (shape.cols + 0.2) * pitch,
                       (shape.rows + 0.2) * pitch, pitch * 0.3, {"#fafafa", "#969696"});
    for (unsigned col = 1; col <= shape.cols; ++col)
      canvas.text(cx(col), y0 - pitch * 0.6 - 4, std::to_string(col),
                  {Anchor::Middle, labelSize, "#525252"});
    for (unsigned row = 1; row <= shape.rows; ++row)
      canvas.text(x0 - pitch * 0.6 - 4, cy(row) + labelSize * 0.35, rowLetter(row),
                  {Anchor::End, labelSize, "#525252"});
  }
};

struct LayoutEntry {
  const LayoutLiquid *liquid = nullptr;
  unsigned replicate = 0, replicates = 0; ///< 1-based index among its wells
};

/// Which layout liquid stands in each well, and its replicate number.
std::map<Well, LayoutEntry> layoutByWell(const RunSetup &setup) {
  std::map<Well, LayoutEntry> byWell;
  for (const LayoutLiquid &liquid : setup.layout) {
    unsigned index = 0;
    for (Well well : liquid.wells)
      byWell[well] = {&liquid, ++index, static_cast<unsigned>(liquid.wells.size())};
  }
  return byWell;
}

/// The second line of a well's label: what makes it differ from its
/// neighbours of the same role.
std::string wellDetail(const LayoutLiquid &liquid) {
  if (!liquid.madeFrom.empty() && !liquid.conc)
    return liquid.dilution ? fmt::format("÷{}", formatNumber(*liquid.dilution))
                           : "from " + liquid.madeFrom;
  if (liquid.conc)
    return formatNumber(*liquid.conc);
  if (liquid.dilution)
    return fmt::format("1:{}", formatNumber(*liquid.dilution));
  return {};
}

/// The layout drawn on `grid`: wells coloured by role with the liquid's
/// name and its detail; replicates numbered in the corner when the pitch
/// leaves room.
void drawLayout(Canvas &canvas, const Grid &grid, const RunSetup &setup) {
  const double radius = grid.pitch * 0.44;
  const bool roomy = grid.pitch >= 40;
  const double nameSize = roomy ? 11 : grid.pitch >= 26 ? 8 : 6.5;
  const size_t nameChars = static_cast<size_t>(grid.pitch * 1.8 / nameSize);
  auto byWell = layoutByWell(setup);
  for (unsigned row = 1; row <= grid.shape.rows; ++row)
    for (unsigned col = 1; col <= grid.shape.cols; ++col) {
      Well well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
      auto it = byWell.find(well);
      if (it == byWell.end()) {
        canvas.circle(grid.cx(col), grid.cy(row), radius,
                      {"white", "#d9d9d9", 1, {}, 1, well.name() + ": empty"});
        continue;
      }
      const LayoutLiquid &liquid = *it->second.liquid;
      std::string detail = wellDetail(liquid);
      std::vector<std::string> facts;
      if (liquid.conc)
        facts.push_back(fmt::format("{} {}", formatNumber(*liquid.conc), unitText(liquid.unit)));
      if (!liquid.madeFrom.empty())
        facts.push_back("diluted on the plate from " + liquid.madeFrom);
      else if (liquid.dilution)
        facts.push_back(fmt::format("pre-diluted 1:{}", formatNumber(*liquid.dilution)));
      std::string tooltip = fmt::format("{}: {} {}{}{}", well.name(), roleTitle(liquid.role, liquid.polarity),
                                        liquid.name,
                                        facts.empty() ? "" : fmt::format(", {}", fmt::join(facts, ", ")),
                                        it->second.replicates > 1
                                            ? fmt::format(", replicate {} of {}", it->second.replicate,
                                                          it->second.replicates)
                                            : "");
      canvas.circle(grid.cx(col), grid.cy(row), radius,
                    {roleColour(liquid.role, liquid.polarity), roleEdge(liquid.role, liquid.polarity),
                     1.2, liquid.madeFrom.empty() ? std::string_view{} : "3 2", 1, tooltip});
      double nameY = grid.cy(row) + nameSize * 0.35 - (roomy && !detail.empty() ? 5 : 0);
      canvas.text(grid.cx(col), nameY, fitText(liquid.name, nameChars),
                  {Anchor::Middle, nameSize, "black", roomy});
      if (roomy && !detail.empty())
        canvas.text(grid.cx(col), nameY + 12, fitText(detail, 8), {Anchor::Middle, 8.5, "#252525"});
      if (roomy && it->second.replicates > 1)
        canvas.text(grid.cx(col) + radius * 0.78, grid.cy(row) - radius * 0.62,
                    std::to_string(it->second.replicate), {Anchor::Middle, 7.5, "#525252"});
    }
}

/// One legend line per role present, in the order roles are declared.
double drawRoleLegend(Canvas &canvas, const RunSetup &setup, double x, double y, double maxX) {
  std::vector<std::pair<ir::LiquidRole, ir::Polarity>> seen;
  std::map<std::pair<ir::LiquidRole, ir::Polarity>, std::vector<const LayoutLiquid *>> members;
  for (const LayoutLiquid &liquid : setup.layout) {
    auto key = std::make_pair(liquid.role, liquid.polarity);
    if (!members.count(key))
      seen.push_back(key);
    members[key].push_back(&liquid);
  }
  double cursor = x;
  for (auto key : seen) {
    const auto &list = members[key];
    std::string names = list.size() == 1 ? list.front()->name
                        : list.size() == 2
                            ? list.front()->name + ", " + list.back()->name
                            : list.front()->name + " … " + list.back()->name;
    std::string label = fmt::format("{} ({})", roleTitle(key.first, key.second), names);
    double width = 22 + 6.6 * double(label.size());
    if (cursor > x && cursor + width > maxX) {
      cursor = x;
      y += 18;
    }
    canvas.circle(cursor + 6, y - 4, 6, {roleColour(key.first, key.second), roleEdge(key.first, key.second), 1.2});
    canvas.text(cursor + 16, y, label);
    cursor += width + 14;
  }
  return y;
}

bool anyMadeOnPlate(const RunSetup &setup) {
  return std::any_of(setup.layout.begin(), setup.layout.end(),
                     [](const LayoutLiquid &liquid) { return !liquid.madeFrom.empty(); });
}

bool anyReplicates(const RunSetup &setup) {
  return std::any_of(setup.layout.begin(), setup.layout.end(),
                     [](const LayoutLiquid &liquid) { return liquid.wells.size() > 1; });
}

double pitchFor(const PlateShape &shape) { return shape.cols > 12 ? 26 : 46; }

} // namespace

//===--- The layout ----------------------------------------------------------===//

std::string layoutMapSvg(const RunSetup &setup, const PlateShape &shape, const std::string &title) {
  Grid grid;
  grid.shape = shape;
  grid.pitch = pitchFor(shape);
  grid.x0 = 40 + grid.pitch * 0.6;
  grid.y0 = 62 + grid.pitch * 0.6;
  const double width = std::max(640.0, grid.right() + 30);
  const double legendTop = grid.bottom() + 34;
  const double height = legendTop + 56;
  Canvas canvas(width, height, title);
  canvas.text(width / 2, 40,
              fmt::format("{} wells of {} hold a liquid of the layout; hover a well for its details",
                          layoutByWell(setup).size(), shape.rows * shape.cols),
              {Anchor::Middle, 11, "#525252"});
  grid.drawFrame(canvas, grid.pitch >= 40 ? 12 : 9);
  drawLayout(canvas, grid, setup);
  double y = drawRoleLegend(canvas, setup, 40, legendTop, width - 20);
  std::vector<std::string> keys;
  if (anyReplicates(setup) && grid.pitch >= 40)
    keys.push_back("small number: replicate");
  for (const LayoutLiquid &liquid : setup.layout)
    if (liquid.conc) {
      keys.push_back(fmt::format("number under a name: concentration ({})", unitText(liquid.unit)));
      break;
    }
  if (std::any_of(setup.layout.begin(), setup.layout.end(), [](const LayoutLiquid &liquid) {
        return liquid.dilution && !liquid.conc && liquid.madeFrom.empty();
      }))
    keys.push_back("1:N: pre-diluted");
  if (anyMadeOnPlate(setup))
    keys.push_back("dashed ring: diluted on the plate (÷N: the dilution)");
  // The key wrapped to the canvas, one entry never split.
  std::string keyLine = "Key:";
  for (const std::string &key : keys) {
    if (keyLine.size() > 4 && 40 + 6.2 * double(keyLine.size() + key.size() + 2) > width - 20) {
      canvas.text(40, y += 18, keyLine, {Anchor::Start, 11, "#525252"});
      keyLine = "    ";
    }
    keyLine += (keyLine.size() > 4 ? "; " : " ") + key;
  }
  if (!keys.empty())
    canvas.text(40, y += 18, keyLine, {Anchor::Start, 11, "#525252"});
  canvas.setHeight(y + 16);
  return canvas.finish();
}

//===--- What the wells hold over the run -----------------------------------===//

namespace {

/// Panels of the wells picture, and rows of step labels on the timeline.
constexpr size_t kMaxPanels = 36;
constexpr size_t kMaxLabelRows = 8;

struct Panel {
  std::string heading, statement;
  std::vector<LiquidMix> wells; ///< row by row
};

/// The colour of each liquid of the run: a layout liquid its role's edge
/// colour (so samples look like samples on every map), a reagent its own.
class LiquidColours {
public:
  LiquidColours(const RunSetup &setup, const LiquidTable &liquids) {
    size_t reagents = 0;
    for (uint32_t id = 0; id < liquids.size(); ++id) {
      const LayoutLiquid *layout = setup.findLayout(liquids.name(id));
      if (layout)
        colours_.push_back(roleEdge(layout->role, layout->polarity));
      else
        colours_.push_back(reagentColour(reagents++));
    }
  }
  std::string_view operator()(uint32_t id) const { return colours_.at(id); }

private:
  std::vector<std::string_view> colours_;
};

bool sameMix(const LiquidMix &a, const LiquidMix &b) {
  if (a.parts.size() != b.parts.size())
    return false;
  for (size_t i = 0; i < a.parts.size(); ++i)
    if (a.parts[i].liquid != b.parts[i].liquid || std::fabs(a.parts[i].ul - b.parts[i].ul) > 1e-6)
      return false;
  return true;
}

/// "210 µL in 33 wells" or "10 µL in 15 wells, 20 µL in 18 wells, …": the
/// volumes a panel's wells hold, most common first.
std::string volumeSummary(const std::vector<LiquidMix> &wells) {
  std::map<double, unsigned> counts;
  for (const LiquidMix &mix : wells)
    if (!mix.empty())
      ++counts[std::round(mix.total() * 10) / 10];
  if (counts.empty())
    return "every well empty";
  std::vector<std::pair<double, unsigned>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  std::vector<std::string> parts;
  for (size_t i = 0; i < sorted.size() && i < 2; ++i)
    parts.push_back(fmt::format("{} µL in {} well{}", formatNumber(sorted[i].first),
                                sorted[i].second, sorted[i].second == 1 ? "" : "s"));
  if (sorted.size() > 2)
    parts.push_back(fmt::format("{} other volumes", sorted.size() - 2));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string compositionText(const LiquidMix &mix, const LiquidTable &liquids) {
  std::vector<std::string> parts;
  for (const LiquidMix::Part &part : mix.parts)
    parts.push_back(fmt::format("{} µL {}", formatNumber(std::round(part.ul * 10) / 10),
                                liquids.name(part.liquid)));
  return parts.empty() ? "empty" : fmt::format("{}", fmt::join(parts, " + "));
}

} // namespace

std::string contentsMapsSvg(llvm::ArrayRef<Command> commands, const RunSetup &setup,
                            const Platform &platform, const Labware &labware,
                            const std::string &title, const ScriptLineText &lineText) {
  DeckState twin(platform, labware, setup);
  const PlateShape &shape = labware.shape;
  std::vector<Panel> panels;
  auto snapshot = [&](std::string heading, std::string statement) {
    Panel panel{std::move(heading), std::move(statement), {}};
    for (unsigned row = 1; row <= shape.rows; ++row)
      for (unsigned col = 1; col <= shape.cols; ++col)
        panel.wells.push_back(twin.wellMix({static_cast<uint8_t>(row), static_cast<uint8_t>(col)}));
    panels.push_back(std::move(panel));
  };
  auto statementOf = [&](uint32_t line) { return lineText ? lineText(line) : std::string(); };

  // MANUAL work happens between commands: a panel of its own, headed by
  // the MANUAL statement, before the command it precedes.
  uint64_t stampBefore = twin.lastWellStamp();
  auto manualWork = [&](uint32_t seq) {
    std::optional<std::pair<uint32_t, std::string>> statement;
    twin.applyManualFills(seq, nullptr, [&](const ManualFill &fill) {
      statement = std::make_pair(fill.line, fill.step);
    });
    if (!statement || twin.lastWellStamp() == stampBefore)
      return;
    auto [line, step] = *statement;
    snapshot(step.empty() ? fmt::format("after MANUAL work (line {})", line)
                          : fmt::format("after MANUAL step {} (line {})", step, line),
             statementOf(line));
    stampBefore = twin.lastWellStamp();
  };
  for (size_t i = 0; i < commands.size(); ++i) {
    const Command &command = commands[i];
    manualWork(command.seq);
    if (twin.execute(command, /*commit=*/true))
      break;
    bool lastOfStatement = i + 1 == commands.size() || commands[i + 1].line != command.line ||
                           commands[i + 1].step != command.step;
    if (lastOfStatement && twin.lastWellStamp() != stampBefore) {
      std::string heading = command.step.empty()
                                ? fmt::format("after line {}", command.line)
                                : fmt::format("after step {} (line {})", command.step, command.line);
      snapshot(std::move(heading), statementOf(command.line));
      stampBefore = twin.lastWellStamp();
    }
  }

  // A picture of a thousand plates helps nobody and weighs tens of MB: a
  // long run shows its first panels and its last, and says what it left out.
  size_t omitted = 0;
  if (panels.size() > kMaxPanels) {
    omitted = panels.size() - kMaxPanels;
    Panel last = std::move(panels.back());
    panels.resize(kMaxPanels - 1);
    panels.push_back(std::move(last));
  }

  const LiquidTable &liquids = twin.liquids();
  LiquidColours colours(setup, liquids);
  const bool big = shape.cols > 12;
  Grid grid;
  grid.shape = shape;
  grid.pitch = big ? 10 : 18;
  const double panelWidth = (shape.cols + 1.4) * grid.pitch + 34;
  const double panelHeight = (shape.rows + 1.4) * grid.pitch + 72;
  const size_t perRow = 3;
  const size_t rows = (panels.size() + perRow - 1) / perRow;
  const double width = std::max(640.0, perRow * panelWidth + 40);

  // Legend: every liquid that stands in a well at some point.
  std::vector<bool> shown(liquids.size(), false);
  for (const Panel &panel : panels)
    for (const LiquidMix &mix : panel.wells)
      for (const LiquidMix::Part &part : mix.parts)
        shown[part.liquid] = true;
  // Layout liquids are many (IL-6 has 24 samples): one legend entry per
  // role, one per reagent.
  std::vector<std::pair<std::string, std::string_view>> legend;
  std::map<std::string, bool> roleListed;
  for (uint32_t id = 0; id < liquids.size(); ++id) {
    if (!shown[id])
      continue;
    if (const LayoutLiquid *layout = setup.findLayout(liquids.name(id))) {
      std::string role = roleTitle(layout->role, layout->polarity) + "s";
      if (!roleListed[role])
        legend.emplace_back(role, colours(id));
      roleListed[role] = true;
    } else {
      legend.emplace_back(liquids.name(id), colours(id));
    }
  }
  const double legendTop = 60 + double(rows) * panelHeight + 16;
  const double height = legendTop + 20 * std::ceil(double(legend.size()) / 5.0) + 40;
  Canvas canvas(width, height, title);
  canvas.text(width / 2, 40,
              "liquids as layers by volume (a thin one drawn at least 1/8 of the well); black "
              "ring: the step changed the well",
              {Anchor::Middle, 11, "#525252"});
  if (panels.empty())
    canvas.text(width / 2, 80, "no step of the run puts liquid into a well", {Anchor::Middle});
  if (omitted)
    canvas.text(width / 2, 54,
                fmt::format("{} steps between panel {} and the last are not drawn", omitted,
                            kMaxPanels - 1),
                {Anchor::Middle, 11, "#d62728"});
  for (size_t p = 0; p < panels.size(); ++p) {
    const Panel &panel = panels[p];
    double left = 20 + double(p % perRow) * panelWidth;
    double top = 60 + double(p / perRow) * panelHeight;
    canvas.text(left, top + 10, panel.heading, {Anchor::Start, 11, "black", true});
    if (!panel.statement.empty())
      canvas.text(left, top + 24, fitText(panel.statement, static_cast<size_t>(panelWidth / 6.2)),
                  {Anchor::Start, 10, "#525252"});
    canvas.text(left, top + 38, volumeSummary(panel.wells), {Anchor::Start, 10, "#525252"});
    grid.x0 = left + 16 + grid.pitch * 0.6;
    grid.y0 = top + 56 + grid.pitch * 0.6;
    grid.drawFrame(canvas, big ? 5 : 7);
    const double radius = grid.pitch * 0.44;
    for (unsigned row = 1; row <= shape.rows; ++row)
      for (unsigned col = 1; col <= shape.cols; ++col) {
        const LiquidMix &mix = panel.wells[(row - 1) * shape.cols + (col - 1)];
        Well well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
        double cx = grid.cx(col), cy = grid.cy(row);
        std::string tooltip =
            fmt::format("{}: {}", well.name(), compositionText(mix, liquids));
        if (!mix.empty()) {
          // Layers from the bottom of the well up in proportion to the
          // volumes, a thin one drawn at least an eighth of the well so
          // that 10 µL of sample under 200 µL of dye still shows.
          double total = mix.total();
          std::vector<double> shares;
          double sum = 0;
          for (const LiquidMix::Part &part : mix.parts) {
            shares.push_back(std::max(0.125, part.ul / total));
            sum += shares.back();
          }
          canvas.beginClipCircle(cx, cy, radius);
          double y = cy + radius;
          for (size_t k = 0; k < mix.parts.size(); ++k) {
            double h = 2 * radius * shares[k] / sum;
            canvas.rect(cx - radius, y - h, 2 * radius, h, {colours(mix.parts[k].liquid)});
            y -= h;
          }
          canvas.endGroup();
        }
        bool changed = p == 0 ? !mix.empty() : !sameMix(mix, panels[p - 1].wells[(row - 1) * shape.cols + (col - 1)]);
        if (changed)
          canvas.circle(cx, cy, radius, {"none", "#000000", 1.6, {}, 1, tooltip});
        else
        canvas.circle(cx, cy, radius, {"none", "#969696", 0.8, {}, 1, tooltip});
      }
  }
  double x = 20, y = legendTop;
  for (size_t i = 0; i < legend.size(); ++i) {
    if (i && i % 5 == 0) {
      x = 20;
      y += 20;
    }
    canvas.rect(x, y - 10, 12, 12, {legend[i].second});
    canvas.text(x + 17, y, fitText(legend[i].first, 18));
    x += (width - 40) / 5;
  }
  return canvas.finish();
}

//===--- Reads ---------------------------------------------------------------===//

std::string readHeatmapSvg(const PlateRead &read, const RunSetup &setup, const PlateShape &shape,
                           const std::string &title) {
  double low = INFINITY, high = -INFINITY;
  for (const auto &[well, value] : read.values)
    if (std::isfinite(value)) {
      low = std::min(low, value);
      high = std::max(high, value);
    }
  if (!(low <= high))
    low = high = 0;
  const double span = high > low ? high - low : 1;
  const bool big = shape.cols > 12;
  Grid heat;
  heat.shape = shape;
  heat.pitch = big ? 22 : 40;
  heat.x0 = 40 + heat.pitch * 0.6;
  const double top = read.simulated ? 104 : 84;
  heat.y0 = top + heat.pitch * 0.6;
  Grid layout = heat;
  layout.pitch = big ? 14 : 24;
  layout.x0 = heat.right() + 70 + layout.pitch * 0.6;
  const double width = layout.right() + 30;
  const double height = std::max(heat.bottom() + 70, layout.bottom() + 90);
  Canvas canvas(width, height, title);
  if (read.simulated)
    canvas.simulatedLabel();
  canvas.text(40, top - heat.pitch * 0.6 - 22,
              fmt::format("OD at {} nm{}", formatNumber(read.wavelengthNm),
                          read.referenceNm ? fmt::format(" − {} nm", formatNumber(*read.referenceNm)) : ""),
              {Anchor::Start, 12, "black", true});
  canvas.text(layout.x0 - layout.pitch * 0.6, top - heat.pitch * 0.6 - 22, "layout",
              {Anchor::Start, 12, "black", true});
  heat.drawFrame(canvas, big ? 8 : 11);
  std::map<Well, double> values(read.values.begin(), read.values.end());
  auto byWell = layoutByWell(setup);
  for (unsigned row = 1; row <= shape.rows; ++row)
    for (unsigned col = 1; col <= shape.cols; ++col) {
      Well well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
      double size = heat.pitch * 0.92;
      double x = heat.cx(col) - size / 2, y = heat.cy(row) - size / 2;
      auto it = values.find(well);
      if (it == values.end()) {
        canvas.rect(x, y, size, size, {"white", "#e0e0e0", 1, {}, 1, well.name() + ": not read"});
        continue;
      }
      double t = (it->second - low) / span;
      auto named = byWell.find(well);
      std::string tooltip = fmt::format("{}: OD {:.4f}{}", well.name(), it->second,
                                        named == byWell.end() ? "" : " (" + named->second.liquid->name + ")");
      std::string fill = svg::scaleColour(t);
      canvas.rect(x, y, size, size, {fill, "none", 1, {}, 1, tooltip});
      if (!big)
        canvas.text(heat.cx(col), heat.cy(row) + 3.5, fmt::format("{:.3f}", it->second),
                    {Anchor::Middle, 9.5, svg::darkOnScale(t) ? "white" : "black"});
    }
  // The colour scale under the heat map.
  const double barTop = heat.bottom() + 24, barLeft = heat.x0 - heat.pitch * 0.5;
  const double barWidth = std::min(300.0, heat.right() - barLeft);
  for (int i = 0; i < 60; ++i)
    canvas.rect(barLeft + barWidth * i / 60, barTop, barWidth / 60 + 0.5, 12,
                {svg::scaleColour(i / 59.0)});
  canvas.text(barLeft, barTop + 26, fmt::format("{:.3f}", low), {Anchor::Start, 11});
  canvas.text(barLeft + barWidth, barTop + 26, fmt::format("{:.3f}", high), {Anchor::End, 11});
  canvas.text(barLeft + barWidth / 2, barTop + 26, "OD", {Anchor::Middle, 11});
  layout.drawFrame(canvas, big ? 6 : 8);
  drawLayout(canvas, layout, setup);
  drawRoleLegend(canvas, setup, layout.x0 - layout.pitch * 0.6, layout.bottom() + 30, width - 10);
  return canvas.finish();
}

//===--- The run timeline ----------------------------------------------------===//

namespace {

struct Lane {
  std::string module, title;
  std::string_view colour;
};

std::vector<Lane> lanesOf(const Platform &platform) {
  std::vector<Lane> lanes;
  auto add = [&](const std::string &module, std::string title, std::string_view colour) {
    for (const Lane &lane : lanes)
      if (lane.module == module)
        return;
    lanes.push_back({module, std::move(title), colour});
  };
  add(platform.tipSwapModule, "plate transporter", "#8c6d31");
  add(platform.liquidHandler, "liquid handler", "#2171b5");
  for (const TransportRoute &route : platform.routes)
    add(route.module, "plate loader", "#807dba");
  add(platform.heaterModule, "heater", "#d94801");
  add(platform.shakerModule, "shaker", "#41ab5d");
  add(platform.readerModule, "reader", "#ce1256");
  add(platform.systemModule, "waits, prompts", "#969696");
  return lanes;
}

/// A tick step of 1, 2, 5, 10, 15, 30 or 60 minutes (or seconds for short
/// runs) giving at most about `count` ticks.
double timeStep(double seconds, int count) {
  for (double step : {10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0, 7200.0})
    if (seconds / step <= count)
      return step;
  return 14400;
}

std::string timeLabel(double seconds) {
  if (seconds < 60 || std::fmod(seconds, 60) != 0)
    return fmt::format("{} s", formatNumber(seconds));
  if (seconds < 3600 || std::fmod(seconds, 3600) != 0)
    return fmt::format("{} min", formatNumber(seconds / 60));
  return fmt::format("{} h", formatNumber(seconds / 3600));
}

struct Bar {
  size_t lane;
  double start, end;
  uint32_t line;
  std::string step;
  size_t commands = 0;
};

} // namespace

std::string timelineSvg(const std::vector<Command> &commands, size_t executed,
                        const Platform &platform, const std::string &title,
                        const ScriptLineText &lineText) {
  std::vector<Lane> lanes = lanesOf(platform);
  std::vector<Bar> bars;
  struct StepMark {
    double start;
    uint32_t line;
    std::string step;
  };
  std::vector<StepMark> marks;
  double clock = 0;
  std::optional<std::pair<double, double>> heaterSince; ///< start, °C
  std::vector<std::tuple<double, double, double>> heaterHolds; ///< from, to, °C
  for (size_t i = 0; i < std::min(executed, commands.size()); ++i) {
    const Command &command = commands[i];
    double seconds = commandSeconds(command, platform);
    size_t lane = lanes.size();
    for (size_t l = 0; l < lanes.size(); ++l)
      if (lanes[l].module == command.module)
        lane = l;
    if (lane == lanes.size()) {
      lanes.push_back({command.module, command.module, "#525252"});
    }
    if (marks.empty() || marks.back().line != command.line || marks.back().step != command.step)
      marks.push_back({clock, command.line, command.step});
    if (!bars.empty() && bars.back().lane == lane && bars.back().line == command.line &&
        bars.back().step == command.step && std::fabs(bars.back().end - clock) < 1e-9) {
      bars.back().end = clock + seconds;
      ++bars.back().commands;
    } else {
      bars.push_back({lane, clock, clock + seconds, command.line, command.step, 1});
    }
    if (command.module == platform.heaterModule) {
      if (heaterSince)
        heaterHolds.emplace_back(heaterSince->first, clock, heaterSince->second);
      heaterSince.reset();
      if (command.fields.op == CommandOp::SetTemperature)
        heaterSince = std::make_pair(clock + seconds, command.fields.celsius);
    }
    clock += seconds;
  }
  if (heaterSince)
    heaterHolds.emplace_back(heaterSince->first, clock, heaterSince->second);

  const double left = 170, right = 30, laneHeight = 30;
  const double width = 1000;
  const double plotWidth = width - left - right;
  const double total = clock > 0 ? clock : 1;
  auto px = [&](double seconds) { return left + seconds / total * plotWidth; };

  // Step labels above the lanes, in rows so that none overlaps another.
  const double labelRowHeight = 14;
  std::vector<double> rowEnds;
  struct Placed {
    double x;
    size_t row;
    std::string text;
    bool endAnchored;
  };
  std::vector<Placed> placed;
  for (const StepMark &mark : marks) {
    std::string text = mark.step.empty() ? fmt::format("line {}", mark.line)
                                         : fmt::format("{} (l.{})", mark.step, mark.line);
    double x = px(mark.start);
    double textWidth = 6.0 * double(text.size()) + 6;
    // Near the right edge a label ends at its mark instead of starting there.
    bool endAnchored = x + textWidth > width - 4;
    double start = endAnchored ? x - textWidth : x;
    size_t row = 0;
    while (row < rowEnds.size() && rowEnds[row] > start)
      ++row;
    // Beyond a few rows the labels of a dense stretch are left to the
    // bars' tooltips.
    if (row == kMaxLabelRows)
      continue;
    if (row == rowEnds.size())
      rowEnds.push_back(0);
    rowEnds[row] = start + textWidth;
    placed.push_back({x, row, std::move(text), endAnchored});
  }
  const double labelsTop = 60;
  const double lanesTop = labelsTop + double(rowEnds.size()) * labelRowHeight + 10;
  const double axisY = lanesTop + double(lanes.size()) * laneHeight + 6;
  const double height = axisY + 60;
  Canvas canvas(width, height, title);
  canvas.text(width / 2, 40,
              fmt::format("robot time {} over {} commands; bars are a statement's commands on one "
                          "module, labels its step and script line",
                          formatDuration(clock), std::min(executed, commands.size())),
              {Anchor::Middle, 11, "#525252"});
  for (const Placed &label : placed) {
    double y = labelsTop + double(label.row) * labelRowHeight + 10;
    canvas.line(label.x, y + 2, label.x, axisY, {"none", "#e0e0e0", 0.8});
    canvas.text(label.endAnchored ? label.x - 2 : label.x + 2, y, label.text,
                {label.endAnchored ? Anchor::End : Anchor::Start, 10, "#252525"});
  }
  for (size_t l = 0; l < lanes.size(); ++l) {
    double y = lanesTop + double(l) * laneHeight;
    canvas.rect(left, y + 2, plotWidth, laneHeight - 4, {l % 2 ? "#f7f7f7" : "#fcfcfc"});
    canvas.text(left - 8, y + laneHeight / 2 + 4,
                fmt::format("{} ({})", lanes[l].title, lanes[l].module), {Anchor::End, 11});
  }
  for (const auto &[from, to, celsius] : heaterHolds) {
    size_t lane = 0;
    for (size_t l = 0; l < lanes.size(); ++l)
      if (lanes[l].module == platform.heaterModule)
        lane = l;
    double y = lanesTop + double(lane) * laneHeight;
    canvas.rect(px(from), y + 9, px(to) - px(from), laneHeight - 18,
                {"#fdd0a2", "none", 1, {}, 1,
                 fmt::format("heater holds {} °C from {} to {}", formatNumber(celsius),
                             formatDuration(from), formatDuration(to))});
  }
  for (const Bar &bar : bars) {
    double y = lanesTop + double(bar.lane) * laneHeight;
    std::string statement = lineText ? lineText(bar.line) : std::string();
    std::string tooltip = fmt::format(
        "{}{}line {}{}: {} command(s), {} to {}", bar.step.empty() ? "" : "step ",
        bar.step.empty() ? "" : bar.step + ", ", bar.line,
        statement.empty() ? "" : " (" + statement + ")", bar.commands, formatDuration(bar.start),
        formatDuration(bar.end));
    // Instant commands (a prompt, the heater off) still show as a tick.
    double w = std::max(1.5, px(bar.end) - px(bar.start));
    // A white edge parts two statements' bars that touch.
    canvas.rect(px(bar.start), y + 5, w, laneHeight - 10,
                {lanes[bar.lane].colour, "white", 0.6, {}, 1, tooltip});
  }
  canvas.line(left, axisY, left + plotWidth, axisY);
  double step = timeStep(total, 10);
  for (double t = 0; t <= total + 1e-9; t += step) {
    canvas.line(px(t), axisY, px(t), axisY + 5);
    canvas.text(px(t), axisY + 18, timeLabel(t), {Anchor::Middle, 11});
  }
  canvas.text(left + plotWidth / 2, axisY + 40, "robot time (bioforge1.md §5 timing model)",
              {Anchor::Middle, 11, "#525252"});
  return canvas.finish();
}

} // namespace plate::backend

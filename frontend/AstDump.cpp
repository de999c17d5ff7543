//===- AstDump.cpp - The readable AST dump (plate compile --emit=ast) -----===//
//
// One node a line, indented two spaces per level, each with its line:col.
// Child nodes that fill a field are prefixed with the field name
// (`volume: Quantity 5:13 number 100 unit="uL"`). Strings and unit
// spellings are quoted as written so tests can see the exact spelling. The
// format is stable: lit tests and tools read it.
//
//===----------------------------------------------------------------------===//
#include "frontend/AST.h"

#include <fmt/format.h>

namespace plate::ast {
namespace {

std::string quotedText(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string at(SourceLoc loc) { return fmt::format("{}:{}", loc.line, loc.col); }

const char *tipsName(TipPolicy tips) {
  switch (tips) {
  case TipPolicy::Default: return "default";
  case TipPolicy::New: return "new";
  case TipPolicy::PerSource: return "per_source";
  case TipPolicy::PerWell: return "per_well";
  case TipPolicy::Reuse: return "reuse";
  }
  return "?";
}

const char *roleName(Role role) {
  switch (role) {
  case Role::Blank: return "blank";
  case Role::Calibrant: return "calibrant";
  case Role::Sample: return "sample";
  case Role::Control: return "control";
  case Role::Nsb: return "nsb";
  case Role::Bmax: return "bmax";
  case Role::Cutoff: return "cutoff";
  }
  return "?";
}

const char *paramTypeName(ParamType type) {
  switch (type) {
  case ParamType::Volume: return "Volume";
  case ParamType::Time: return "Time";
  case ParamType::Temperature: return "Temperature";
  case ParamType::Speed: return "Speed";
  case ParamType::Wavelength: return "Wavelength";
  case ParamType::Count: return "Count";
  case ParamType::Reagent: return "Reagent";
  case ParamType::Wells: return "Wells";
  }
  return "?";
}

class Dumper {
public:
  std::string take() { return std::move(out_); }

  void line(unsigned depth, std::string_view field, std::string_view text) {
    out_.append(depth * 2, ' ');
    if (!field.empty()) {
      out_ += field;
      out_ += ": ";
    }
    out_ += text;
    out_ += '\n';
  }

  void mix(unsigned depth, const std::optional<MixClause> &mix) {
    if (!mix)
      return;
    line(depth, "mix", fmt::format("MixClause {}", at(mix->loc)));
    quantity(depth + 1, "count", mix->count);
    quantity(depth + 1, "volume", mix->volume);
  }
  void name(unsigned depth, std::string_view field, const Name &name) {
    line(depth, field, fmt::format("Name {} {}", at(name.loc), name.text));
  }

  void quantity(unsigned depth, std::string_view field, const QuantityExpr &q) {
    std::string text;
    switch (q.kind) {
    case QuantityExpr::Kind::Number:
      text = fmt::format("Quantity {} number {}", at(q.loc), q.text);
      if (!q.unit.empty())
        text += fmt::format(" unit={} {}", quotedText(q.unit), at(q.unitLoc));
      break;
    case QuantityExpr::Kind::RoomTemp:
      text = fmt::format("Quantity {} room_temperature {}", at(q.loc), quotedText(q.text));
      break;
    case QuantityExpr::Kind::Overnight:
      text = fmt::format("Quantity {} overnight {}", at(q.loc), quotedText(q.text));
      break;
    case QuantityExpr::Kind::ColonRatio:
      text = fmt::format("Quantity {} ratio {} factor={}", at(q.loc), q.text, q.value);
      break;
    case QuantityExpr::Kind::Param:
      text = fmt::format("Quantity {} param {}", at(q.loc), q.param);
      break;
    }
    line(depth, field, text);
  }

  void quantity(unsigned depth, std::string_view field,
                const std::optional<QuantityExpr> &q) {
    if (q)
      quantity(depth, field, *q);
  }

  void wellItem(unsigned depth, const WellItem &item) {
    std::string text;
    switch (item.kind) {
    case WellItem::Kind::Well: text = (item.wellWord ? "Well well " : "Well ") + item.a; break;
    case WellItem::Kind::Block: text = "Block " + item.a + ".." + item.b; break;
    case WellItem::Kind::Row: text = "Row " + item.a; break;
    case WellItem::Kind::Rows: text = "Rows " + item.a + ".." + item.b; break;
    case WellItem::Kind::Col: text = "Col " + item.a; break;
    case WellItem::Kind::Cols: text = "Cols " + item.a + ".." + item.b; break;
    case WellItem::Kind::Name: text = "NameRef " + item.a; break;
    case WellItem::Kind::NameRange: text = "NameRange " + item.a + ".." + item.b; break;
    case WellItem::Kind::All: text = "All"; break;
    }
    line(depth, "", fmt::format("{} {}", text, at(item.loc)));
  }

  void wellSet(unsigned depth, std::string_view field, const WellSetExpr &set) {
    line(depth, field, fmt::format("WellSet {}", at(set.loc)));
    for (const WellItem &item : set.items)
      wellItem(depth + 1, item);
    if (!set.except.empty()) {
      line(depth + 1, "", "Except");
      for (const WellItem &item : set.except)
        wellItem(depth + 2, item);
    }
  }

  void wellSet(unsigned depth, std::string_view field,
               const std::optional<WellSetExpr> &set) {
    if (set)
      wellSet(depth, field, *set);
  }

  void statements(unsigned depth, const std::vector<Statement> &list) {
    for (const Statement &stmt : list)
      statement(depth, stmt);
  }

  void statement(unsigned depth, const Statement &stmt) {
    std::string suffix;
    if (!stmt.stepLabel.empty())
      suffix += " step=" + stmt.stepLabel;
    if (stmt.tips != TipPolicy::Default)
      suffix += fmt::format(" tips={} {}", tipsName(stmt.tips), at(stmt.tipsLoc));
    auto head = [&](std::string_view kind, std::string extra = {}) {
      line(depth, "", fmt::format("{} {}{}{}", kind, at(stmt.loc), extra, suffix));
    };
    unsigned d = depth + 1;
    std::visit(
        [&](const auto &node) {
          using T = std::decay_t<decltype(node)>;
          if constexpr (std::is_same_v<T, Dispense>) {
            head("Dispense", node.sourceIsLayout ? " from_layout" : "");
            quantity(d, "volume", node.volume);
            name(d, "source", node.source);
            wellSet(d, "wells", node.wells);
            mix(d, node.mix);
          } else if constexpr (std::is_same_v<T, Aspirate>) {
            head("Aspirate", node.toWaste ? " to_waste" : "");
            if (node.volume)
              quantity(d, "volume", *node.volume);
            else
              line(d, "volume", fmt::format("All {}", at(node.allLoc)));
            wellSet(d, "wells", node.wells);
          } else if constexpr (std::is_same_v<T, Wash>) {
            head("Wash");
            quantity(d, "count", node.count);
            quantity(d, "volume", node.volume);
            name(d, "reagent", node.reagent);
            quantity(d, "soak", node.soak);
            wellSet(d, "wells", node.wells);
          } else if constexpr (std::is_same_v<T, Incubate>) {
            std::string extra;
            if (node.lidOn)
              extra += fmt::format(" lid={} {}", *node.lidOn ? "on" : "off",
                                   at(node.lidLoc));
            if (node.dark)
              extra += " dark";
            head("Incubate", extra);
            quantity(d, "time", node.time);
            quantity(d, "temperature", node.temperature);
            quantity(d, "shaking", node.shaking);
          } else if constexpr (std::is_same_v<T, Shake>) {
            head("Shake");
            quantity(d, "time", node.time);
            quantity(d, "speed", node.speed);
          } else if constexpr (std::is_same_v<T, Mix>) {
            head("Mix");
            quantity(d, "count", node.count);
            quantity(d, "volume", node.volume);
            wellSet(d, "wells", node.wells);
          } else if constexpr (std::is_same_v<T, Transfer>) {
            head("Transfer");
            quantity(d, "volume", node.volume);
            wellSet(d, "from", node.from);
            wellSet(d, "to", node.to);
            mix(d, node.mix);
          } else if constexpr (std::is_same_v<T, SerialDilution>) {
            head("SerialDilution", node.down ? " down" : " across");
            quantity(d, "ratio", node.ratio);
            wellSet(d, "wells", node.wells);
            quantity(d, "volume", node.volume);
            if (node.diluent)
              name(d, "diluent", *node.diluent);
            mix(d, node.mix);
            if (node.discard)
              line(d, "discard", "true");
          } else if constexpr (std::is_same_v<T, Magnet>) {
            head("Magnet");
            quantity(d, "time", node.time);
          } else if constexpr (std::is_same_v<T, ReadAbsorbance>) {
            head("ReadAbsorbance");
            quantity(d, "wavelength", node.wavelength);
            quantity(d, "reference", node.reference);
            wellSet(d, "wells", node.wells);
          } else if constexpr (std::is_same_v<T, ReadFluorescence>) {
            head("ReadFluorescence");
            quantity(d, "excitation", node.excitation);
            quantity(d, "emission", node.emission);
            wellSet(d, "wells", node.wells);
          } else if constexpr (std::is_same_v<T, Analyze>) {
            // The kind is printed only when it is not the original
            // `standard_curve`, so existing dumps keep their shape.
            head("Analyze",
                 fmt::format("{}{}{}",
                             node.kind == Analyze::Kind::Competitive ? " kind=competitive"
                             : node.kind == Analyze::Kind::Cutoff    ? " kind=cutoff"
                                                                     : "",
                             node.kind == Analyze::Kind::Cutoff ? ""
                             : node.model == Analyze::Model::FourPL ? " model=4pl"
                                                                   : " model=linear",
                             node.subtractBlank ? " subtract_blank" : ""));
            quantity(d, "wavelength", node.wavelength);
          } else if constexpr (std::is_same_v<T, Wait>) {
            head("Wait");
            quantity(d, "time", node.time);
          } else if constexpr (std::is_same_v<T, Pause>) {
            head("Pause", " " + quotedText(node.message));
          } else if constexpr (std::is_same_v<T, Note>) {
            head("Note", " " + quotedText(node.text));
          } else if constexpr (std::is_same_v<T, Prepare>) {
            head("Prepare", node.from ? " from=" + quotedText(*node.from) : "");
            auto listed = [&](const NameRange &range) {
              if (range.last)
                line(d, "reagent", fmt::format("NameRange {} {}..{}", at(range.loc),
                                               range.first.text, range.last->text));
              else
                name(d, "reagent", range.first);
            };
            listed(node.names);
            for (const NameRange &more : node.moreNames)
              listed(more);
            quantity(d, "dilute", node.dilute);
            quantity(d, "volume", node.volume);
          } else if constexpr (std::is_same_v<T, Equilibrate>) {
            head("Equilibrate", node.allReagents ? " all reagents" : "");
            if (!node.allReagents)
              wellSet(d, "wells", node.wells);
            quantity(d, "temperature", node.temperature);
            quantity(d, "time", node.time);
          } else if constexpr (std::is_same_v<T, Use>) {
            head("Use", " " + quotedText(node.module));
          } else if constexpr (std::is_same_v<T, Call>) {
            head("Call", " " + node.callee.text);
            for (const Arg &arg : node.args) {
              line(d, "", fmt::format("Arg {}", at(arg.loc)));
              if (arg.quantity)
                quantity(d + 1, "quantity", *arg.quantity);
              wellSet(d + 1, "wells", arg.wells);
            }
          } else if constexpr (std::is_same_v<T, Repeat>) {
            head("Repeat");
            quantity(d, "count", node.count);
            statements(d, node.body);
          } else if constexpr (std::is_same_v<T, ProcDef>) {
            head("Proc", " " + node.name.text);
            for (const Param &param : node.params)
              line(d, "", fmt::format("Param {} {}: {} {}", at(param.name.loc),
                                      param.name.text, paramTypeName(param.type),
                                      at(param.typeLoc)));
            statements(d, node.body);
          }
        },
        stmt.kind);
  }

  void layout(const Layout &layout) {
    line(1, "", fmt::format("Layout {}", at(layout.loc)));
    if (layout.plateType)
      name(2, "plate", *layout.plateType);
    for (const RoleLine &role : layout.roles) {
      std::string names = role.names.first.text;
      if (role.names.last)
        names += ".." + role.names.last->text;
      for (const NameRange &more : role.moreNames)
        names += ", " + more.first.text + (more.last ? ".." + more.last->text : "");
      line(2, "", fmt::format("Role {} {}{} {} {}{}", at(role.loc),
                              role.polarity == Polarity::Positive   ? "positive "
                              : role.polarity == Polarity::Negative ? "negative "
                                                                    : "",
                              roleName(role.role),
                              names, at(role.names.loc),
                              role.replicates ? (role.down ? " down" : " across")
                                              : ""));
      wellSet(3, "wells", role.wells);
      if (role.conc) {
        std::string values;
        for (size_t i = 0; i < role.conc->values.size(); ++i)
          values += fmt::format("{}{}", i ? ", " : "", role.conc->values[i]);
        line(3, "conc",
             fmt::format("Conc {} [{}] unit={} {}", at(role.conc->loc), values,
                         quotedText(role.conc->unit), at(role.conc->unitLoc)));
      }
      quantity(3, "replicates", role.replicates);
      quantity(3, "dilution", role.dilution);
      if (role.series) {
        line(3, "series", fmt::format("Series {}", at(role.series->loc)));
        quantity(4, "ratio", role.series->ratio);
        if (role.series->top)
          line(4, "from",
               fmt::format("Conc {} [{}] unit={}", at(role.series->top->loc),
                           role.series->top->values.front(), quotedText(role.series->top->unit)));
      }
    }
    if (layout.grid) {
      std::string columns;
      for (size_t i = 0; i < layout.grid->columns.size(); ++i)
        columns += fmt::format("{}{}", i ? " " : "", layout.grid->columns[i]);
      line(2, "", fmt::format("Grid {} columns [{}]", at(layout.grid->loc), columns));
      for (const GridRow &row : layout.grid->rows) {
        std::string cells;
        for (const GridCell &cell : row.cells)
          cells += " " + cell.text;
        line(3, "", fmt::format("GridRow {} {}:{}", at(row.row.loc), row.row.text, cells));
      }
    }
  }

private:
  std::string out_;
};

} // namespace

std::string dump(const Script &script) {
  Dumper d;
  d.line(0, "", "Script");
  if (script.title)
    d.line(1, "", fmt::format("Title {} {}", at(script.titleLoc), quotedText(*script.title)));
  if (script.platform)
    d.name(1, "platform", *script.platform);
  if (script.layout)
    d.layout(*script.layout);
  if (script.hasReagents) {
    d.line(1, "", fmt::format("Reagents {}", at(script.reagentsLoc)));
    for (const ReagentDecl &reagent : script.reagents) {
      std::string extra;
      if (reagent.position)
        extra += fmt::format(" reservoir({},{}) {}", reagent.position->first,
                             reagent.position->second, at(reagent.positionLoc));
      for (const Name &flag : reagent.flags)
        extra += " " + flag.text;
      std::string names;
      auto list = [&](const NameRange &range) {
        names += (names.empty() ? "" : ", ") + range.first.text;
        if (range.last)
          names += ".." + range.last->text;
      };
      list(reagent.names);
      for (const NameRange &range : reagent.moreNames)
        list(range);
      d.line(2, "", fmt::format("Reagent {} {}{}", at(reagent.names.loc), names, extra));
      d.quantity(3, "volume", reagent.volume);
    }
  }
  for (const Section &section : script.sections) {
    d.line(1, "", fmt::format("{} {}",
                              section.kind == SectionKind::Manual ? "Manual"
                                                                  : "Instrument",
                              at(section.loc)));
    d.statements(2, section.statements);
  }
  return d.take();
}

} // namespace plate::ast

//===- LspHover.cpp - Hover: what a quantity, a name or a step means ------===//
//
// A quantity in its canonical unit, a name's declaration as Sema and the
// loading plan resolved it, an INSTRUMENT step as the BioForge-1 commands
// it lowers to (docs/lsp.md).
//
//===----------------------------------------------------------------------===//
#include "tools/plate/LspAnalysis.h"

#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/CommandSerializer.h"
#include "backend/bioforge1/CommandTiming.h"
#include "backend/bioforge1/LowerToCommands.h"
#include "frontend/Sema.h"

#include <fmt/format.h>

namespace plate::lsp {

std::string Analysis::hoverName(const Occurrence &occurrence) const {
  const Declaration *declaration = declarationOf(occurrence);
  if (!declaration)
    return fmt::format("`{}`: not declared", occurrence.name);
  std::string text;
  if (declaration->kind == NameKind::Parameter)
    return fmt::format("parameter **{}**: {} of `proc {}` (line {}); its value is the call's argument",
                       declaration->param->name.text,
                       sema::paramTypeName(declaration->param->type),
                       declaration->procedure->name.text, declaration->loc.line);
  if (declaration->kind == NameKind::Procedure) {
    const ast::ProcDef &proc = *declaration->procedure;
    std::string params;
    for (const ast::Param &param : proc.params)
      params += fmt::format("{}{}: {}", params.empty() ? "" : ", ", param.name.text,
                            sema::paramTypeName(param.type));
    std::string where =
        declaration->loc.fileId == fileId_
            ? fmt::format("line {}", declaration->loc.line)
            : fmt::format("{}:{}", compilation_->sources().name(declaration->loc.fileId),
                          declaration->loc.line);
    text = fmt::format("```plate\nproc {}({})\n```\nprocedure of {} statement{}, declared on {}",
                       proc.name.text, params, proc.body.size(), proc.body.size() == 1 ? "" : "s",
                       where);
    return text;
  }
  // What Sema made of the declaration (expanded wells, concentrations in
  // their unit, the reservoir position the loading plan chose), when the
  // script got that far; otherwise the declaration as written.
  const ir::Liquid *liquid = nullptr;
  std::optional<ir::ReservoirPos> position;
  if (compilation_->hasCheckedModule())
    for (const ir::Liquid &candidate : compilation_->checkedModule().liquids)
      if (candidate.name == occurrence.name)
        liquid = &candidate;
  if (liquid && compiled_) {
    const ir::Module &module = compilation_->module();
    for (const ir::ReservoirLoad &load : module.loadingPlan)
      if (load.liquid < module.liquids.size() && module.liquids[load.liquid].name == liquid->name)
        position = load.pos;
  }
  std::string role =
      declaration->kind == NameKind::Reagent ? "reagent" : written(declaration->roleLine->roleLoc);
  text = fmt::format("**{}** — {}", occurrence.name, liquid ? ir::roleName(liquid->role) : role);
  if (liquid && liquid->polarity != ir::Polarity::None)
    text += fmt::format(" ({})", ir::polarityName(liquid->polarity));
  text += "\n\n";
  if (liquid) {
    if (!liquid->wells.empty())
      text += fmt::format("- wells: {} ({} well{})\n", liquid->wells.str(), liquid->wells.size(),
                          liquid->wells.size() == 1 ? "" : "s");
    if (liquid->concentration)
      text += fmt::format("- concentration: {}\n", *liquid->concentration);
    if (liquid->dilution)
      text += fmt::format("- dilution: 1:{}\n", formatNumber(*liquid->dilution));
    if (liquid->series)
      text += fmt::format("- member {} of a 1:{} series made on the plate\n", liquid->series->index,
                          formatNumber(liquid->series->ratio));
    if (liquid->declaredVolume)
      text += fmt::format("- volume: {}\n", *liquid->declaredVolume);
    if (liquid->fixedPosition)
      text += fmt::format("- reservoir position: ({},{}) as declared\n", liquid->fixedPosition->row,
                          liquid->fixedPosition->col);
    else if (position)
      text += fmt::format("- reservoir position: ({},{}) from the loading plan\n", position->row,
                          position->col);
    else if (liquid->role == ir::LiquidRole::Reagent)
      text += liquid->pipettedByInstrument
                  ? "- reservoir position: not assigned (the script does not compile)\n"
                  : "- not in the reservoir: no INSTRUMENT step pipettes it\n";
    for (const std::string &flag : liquid->flags)
      text += fmt::format("- {}\n", flag);
  } else if (declaration->reagent && declaration->reagent->position) {
    text += fmt::format("- reservoir position: ({},{}) as declared\n",
                        declaration->reagent->position->first,
                        declaration->reagent->position->second);
  }
  text += fmt::format("\ndeclared on line {}:\n```plate\n{}\n```", declaration->loc.line,
                      trimmedLine(declaration->loc.line));
  return text;
}

std::string Analysis::hoverQuantity(const ast::QuantityExpr &quantity) const {
  const Platform *platform = compilation_->loadedPlatform();
  switch (quantity.kind) {
  case ast::QuantityExpr::Kind::RoomTemp:
    return platform ? fmt::format("room temperature: **{} °C** on {}",
                                  formatNumber(platform->ambientCelsius), platform->name)
                    : "room temperature: the platform's ambient temperature";
  case ast::QuantityExpr::Kind::Overnight:
    return platform ? fmt::format("overnight: **{} h** ({} s) on {}",
                                  formatNumber(platform->overnightSeconds / 3600),
                                  formatNumber(platform->overnightSeconds), platform->name)
                    : "overnight: the platform's overnight duration";
  case ast::QuantityExpr::Kind::ColonRatio:
    return fmt::format("ratio 1:{}: a factor of **{}**", quantity.text, formatNumber(quantity.value));
  case ast::QuantityExpr::Kind::Param:
    return fmt::format("procedure parameter `{}`", quantity.param);
  case ast::QuantityExpr::Kind::Number:
    break;
  }
  if (quantity.unit.empty())
    return fmt::format("**{}** (a number without a unit)", quantity.text);
  if (quantity.unit == "x" || quantity.unit == "times" || quantity.unit == "×")
    return fmt::format("**{}** times (count)", formatNumber(quantity.value));
  std::optional<Unit> unit = lookupUnit(quantity.unit);
  if (!unit)
    return fmt::format("`{}`: not a unit plate knows", quantity.unit);
  Quantity written{quantity.value, *unit};
  Quantity canonical = written.canonical();
  std::string dimension(dimensionName(written.dimension()));
  if (written.isCanonical())
    return fmt::format("**{}** ({}, canonical unit)", canonical, dimension);
  return fmt::format("**{}** = {} ({}; canonical unit {})", written, canonical, dimension,
                     unitInfo(canonical.unit).symbol);
}

std::string Analysis::hoverStatement(const StatementEntry &entry) const {
  const ast::Statement &statement = *entry.statement;
  std::string label = statement.stepLabel.empty()
                          ? fmt::format("line {}", statement.loc.line)
                          : fmt::format("step {}", statement.stepLabel);
  if (entry.section == ast::SectionKind::Manual)
    return fmt::format("**{}** (MANUAL): done by a person; the robot gets no commands", label);
  if (!compiled_)
    return fmt::format("**{}** (INSTRUMENT): no commands while the script has errors", label);
  // The ops of this line: its own, or those it expands to (a call, a
  // repeat), or those of a procedure body line at every call. Lowering
  // them alone gives exactly their commands, each still carrying its
  // step label and script line.
  const ir::Module &module = compilation_->module();
  ir::Module selected = module;
  selected.ops.clear();
  uint32_t line = statement.loc.line;
  for (const ir::Op &op : module.ops)
    if (!op.manual && ((op.loc.fileId == fileId_ && op.loc.line == line) ||
                       (op.origin.fileId == fileId_ && op.origin.line == line)))
      selected.ops.push_back(op);
  std::vector<backend::Command> commands =
      backend::lowerToCommands(selected, compilation_->platform());
  if (commands.empty())
    return fmt::format("**{}** (INSTRUMENT): no robot commands (computed on the host)", label);
  unsigned tips = 0;
  for (const backend::Command &command : commands)
    if (command.fields.op == backend::CommandOp::PickTips)
      tips += static_cast<unsigned>(__builtin_popcountll(command.fields.maskBits));
  double seconds = backend::robotSeconds(commands, compilation_->platform());
  std::string text = fmt::format(
      "**{}** lowers to **{}** BioForge-1 command{} · robot time **{}** · **{}** tip{}\n\n```\n",
      label, commands.size(), commands.size() == 1 ? "" : "s", backend::formatDuration(seconds),
      tips, tips == 1 ? "" : "s");
  constexpr size_t kShown = 12;
  for (size_t i = 0; i < commands.size() && i < kShown; ++i)
    text += backend::commandToText(commands[i]) + "\n";
  if (commands.size() > kShown)
    text += fmt::format("… {} more\n", commands.size() - kShown);
  text += "```";
  return text;
}

Json Analysis::hover(Position position) const {
  Located at = locate(position);
  std::string text;
  SourceLoc where;
  if (const Occurrence *occurrence = occurrenceAt(at)) {
    text = hoverName(*occurrence);
    where = occurrence->loc;
  }
  if (text.empty())
    for (const ast::QuantityExpr *quantity : quantities_)
      if (covers(quantity->loc, at)) {
        text = hoverQuantity(*quantity);
        where = quantity->loc;
        break;
      }
  if (text.empty())
    for (const ast::ConcList *list : concLists_)
      for (size_t i = 0; i < list->valueLocs.size() && text.empty(); ++i)
        if (covers(list->valueLocs[i], at)) {
          ast::QuantityExpr value;
          value.value = list->values[i];
          value.text = formatNumber(list->values[i]);
          value.unit = list->unit;
          text = hoverQuantity(value);
          where = list->valueLocs[i];
        }
  if (text.empty())
    for (const StatementEntry &entry : statements_)
      if (entry.statement->loc.isValid() && entry.statement->loc.fileId == fileId_ &&
          entry.statement->loc.line == at.line &&
          !std::holds_alternative<ast::ProcDef>(entry.statement->kind)) {
        text = hoverStatement(entry);
        where = SourceLoc{};
        break;
      }
  if (text.empty())
    return nullptr;
  Json result{{"contents", {{"kind", "markdown"}, {"value", text}}}};
  if (where.isValid())
    result["range"] = range(where);
  return result;
}

} // namespace plate::lsp

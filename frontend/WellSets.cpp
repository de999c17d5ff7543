//===- WellSets.cpp - Well-set expressions evaluated against the plate ----===//
//
// Spec §6: wells, blocks, rows, columns, lists, roles, layout names, `all`
// and `except`, always against the plate type the LAYOUT declared, so that
// `H12` is fine on plate96 and `P24` is an error naming the plate's extent.
//
//===----------------------------------------------------------------------===//
#include "frontend/Sema.h"
#include "frontend/Layout.h"

#include <cctype>
#include <functional>

namespace plate::sema {

namespace {

char rowLetter(unsigned row) { return static_cast<char>('A' + row - 1); }

} // namespace

std::optional<ir::LiquidRole> roleWord(std::string word) {
  for (char &c : word)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (word.size() > 1 && word.back() == 's')
    word.pop_back();
  if (word == "blank")
    return ir::LiquidRole::Blank;
  if (word == "calibrant" || word == "standard")
    return ir::LiquidRole::Calibrant;
  if (word == "sample")
    return ir::LiquidRole::Sample;
  if (word == "control")
    return ir::LiquidRole::Control;
  if (word == "nsb")
    return ir::LiquidRole::Nsb;
  if (word == "bmax")
    return ir::LiquidRole::Bmax;
  if (word == "cutoff" || word == "cut_off")
    return ir::LiquidRole::Cutoff;
  return std::nullopt;
}

bool Sema::requireLayout(SourceLoc loc) {
  if (hasLayout_)
    return true;
  report(DiagId::NoLayout, loc);
  return false;
}

std::optional<Wells> Sema::defaultAll(SourceLoc stmtLoc) {
  if (!requireLayout(stmtLoc))
    return std::nullopt;
  Wells result{module_.layoutWells(), true, stmtLoc};
  if (result.set.empty()) {
    report(DiagId::EmptyDefaultAll, stmtLoc);
    return std::nullopt;
  }
  return result;
}

std::optional<Wells> Sema::wells(const ast::WellSetExpr &expr, std::string_view context) {
  if (!requireLayout(expr.loc))
    return std::nullopt;
  const PlateShape &shape = module_.shape;
  const std::string &plate = module_.plateType;
  bool ok = true;

  auto well = [&](const std::string &name, SourceLoc loc) -> std::optional<Well> {
    std::optional<Well> parsed = Well::parse(name);
    if (!parsed || !shape.contains(*parsed)) {
      report(DiagId::WellOutsidePlate, loc, name, plate, shape.last().name());
      return std::nullopt;
    }
    return parsed;
  };
  auto row = [&](const std::string &name, SourceLoc loc) -> std::optional<unsigned> {
    if (name.size() == 1 && std::isalpha(static_cast<unsigned char>(name[0]))) {
      unsigned index = static_cast<unsigned>(std::toupper(name[0]) - 'A' + 1);
      if (index <= shape.rows)
        return index;
    }
    report(DiagId::BadRow, loc, name, plate, std::string(1, rowLetter(shape.rows)));
    return std::nullopt;
  };
  auto col = [&](const std::string &name, SourceLoc loc) -> std::optional<unsigned> {
    unsigned index = 0;
    bool digits = !name.empty() && name.size() <= 4;
    for (char c : name) {
      digits = digits && std::isdigit(static_cast<unsigned char>(c));
      if (digits)
        index = index * 10 + static_cast<unsigned>(c - '0');
    }
    if (digits && index >= 1 && index <= shape.cols)
      return index;
    report(DiagId::BadColumn, loc, name, plate, shape.cols);
    return std::nullopt;
  };
  auto rows = [&](unsigned from, unsigned to, unsigned c1, unsigned c2) {
    WellSet set;
    for (unsigned r = std::min(from, to); r <= std::max(from, to); ++r)
      for (unsigned c = c1; c <= c2; ++c)
        set.insert({static_cast<uint8_t>(r), static_cast<uint8_t>(c)});
    return set;
  };

  // Recursive: a name range resolves each of its names as an item.
  std::function<void(const ast::WellItem &, Wells &)> item = [&](const ast::WellItem &it,
                                                                  Wells &into) {
    using K = ast::WellItem::Kind;
    switch (it.kind) {
    case K::Well: {
      // A coordinate that is also a layout liquid's name (samples P1..P40,
      // dilutions D1..D8): off the plate it can only be the liquid; on the
      // plate it is the well, unless the liquid sits elsewhere, which is
      // ambiguous. `well D1` and a layout line's `at` are always the well.
      const ir::Liquid *liquid = nullptr;
      if (!it.wellWord && !layoutWellsOnly_)
        if (auto found = liquidByName_.find(it.a); found != liquidByName_.end())
          if (module_.liquid(found->second).role != ir::LiquidRole::Reagent)
            liquid = &module_.liquid(found->second);
      std::optional<Well> parsed = Well::parse(it.a);
      if (liquid && !(parsed && shape.contains(*parsed))) {
        into.set |= liquid->wells;
        return;
      }
      if (liquid && !(liquid->wells.size() == 1 && liquid->wells.contains(*parsed))) {
        std::string role(ir::roleName(liquid->role));
        report(DiagId::WellNameAmbiguous, it.loc, it.a, it.a, role, it.a,
               liquid->wells.str(), role, it.a, it.a)
            .suggest(role + " " + it.a)
            .note(liquid->loc, "`{}` is declared here", it.a);
        ok = false;
        return;
      }
      if (auto w = well(it.a, it.loc))
        into.set.insert(*w);
      else
        ok = false;
      return;
    }
    case K::Block: {
      auto a = well(it.a, it.loc), b = well(it.b, it.loc);
      if (a && b)
        into.set |= WellSet::rectangle(*a, *b);
      else
        ok = false;
      return;
    }
    case K::Row:
    case K::Rows: {
      auto a = row(it.a, it.loc);
      auto b = it.kind == K::Rows ? row(it.b, it.loc) : a;
      if (a && b)
        into.set |= rows(*a, *b, 1, shape.cols);
      else
        ok = false;
      return;
    }
    case K::Col:
    case K::Cols: {
      auto a = col(it.a, it.loc);
      auto b = it.kind == K::Cols ? col(it.b, it.loc) : a;
      if (a && b)
        into.set |= rows(1, shape.rows, std::min(*a, *b), std::max(*a, *b));
      else
        ok = false;
      return;
    }
    case K::All:
      if (layoutWellsOnly_) {
        report(DiagId::WrongKindOfName, it.loc, "all", "well-set reference",
               "a layout line's `at`", "well coordinates such as `A1..H2`");
        ok = false;
        return;
      }
      into.set |= module_.layoutWells();
      if (!into.allLoc.isValid())
        into.allLoc = it.loc;
      return;
    case K::Name:
      break;
    case K::NameRange: {
      // `Std1..Std6`: the layout liquids of one family, each as if named.
      auto members = layout::expandNameRange(it.a, it.b);
      if (!members) {
        report(DiagId::BadNameRange, it.loc, it.a, it.b);
        ok = false;
        return;
      }
      for (const std::string &member : *members) {
        // A member the layout lacks (`Std1..Std9` over six standards) has
        // no nearest name to offer: the range, not a spelling, is wrong.
        if (!liquidByName_.count(member) && !param(member)) {
          report(DiagId::UndefinedWellSetName, it.loc, member);
          ok = false;
          continue;
        }
        ast::WellItem one = it;
        one.kind = K::Name;
        one.a = member;
        one.b.clear();
        item(one, into);
      }
      return;
    }
    }
    // A name: a Wells parameter, a role, a layout liquid.
    if (const Binding *binding = param(it.a)) {
      if (binding->type != ast::ParamType::Wells) {
        report(DiagId::WrongKindOfName, it.loc, it.a,
               fmt::format("{} parameter", paramTypeName(binding->type)), context,
               "well set");
        ok = false;
      } else if (binding->wells) {
        into.set |= *binding->wells;
      } else {
        into.known = false;
      }
      return;
    }
    if (layoutWellsOnly_) {
      report(DiagId::WrongKindOfName, it.loc, it.a, "name", "a layout line's `at`",
             "well coordinates such as `A1..H2`");
      ok = false;
      return;
    }
    if (!it.role.empty()) {
      // `sample D1`: the liquid, of that role.
      auto found = liquidByName_.find(it.a);
      std::optional<ir::LiquidRole> role = roleWord(it.role);
      if (found == liquidByName_.end()) {
        report(DiagId::UndefinedRoleName, it.loc, it.a, it.role);
        ok = false;
        return;
      }
      const ir::Liquid &liquid = module_.liquid(found->second);
      if (liquid.role != role) {
        std::string actual = liquid.role == ir::LiquidRole::Reagent
                                 ? std::string("reagent")
                                 : std::string(ir::roleName(liquid.role));
        auto diag = report(DiagId::WrongKindOfName, it.loc, it.a, actual,
                           fmt::format("`{} {}`", it.role, it.a),
                           std::string(ir::roleName(*role)));
        diag.note(liquid.loc, "`{}` is declared here", it.a);
        if (liquid.role != ir::LiquidRole::Reagent)
          diag.suggest(actual + " " + it.a);
        ok = false;
        return;
      }
      into.set |= liquid.wells;
      return;
    }
    // A layout liquid whose name is spelled exactly like a role word (a
    // `control NSB` of a script written before the `nsb` role) is that
    // liquid, as a `dispense` source already is.
    auto exact = liquidByName_.find(it.a);
    bool namesLayoutLiquid = exact != liquidByName_.end() &&
                             module_.liquid(exact->second).role != ir::LiquidRole::Reagent;
    if (std::optional<ir::LiquidRole> role = roleWord(it.a); role && !namesLayoutLiquid) {
      WellSet set;
      for (const ir::Liquid &liquid : module_.liquids)
        if (liquid.role == *role)
          set |= liquid.wells;
      if (set.empty()) {
        report(DiagId::EmptyRoleSet, it.loc, ir::roleName(*role));
        ok = false;
      }
      into.set |= set;
      return;
    }
    auto found = liquidByName_.find(it.a);
    if (found != liquidByName_.end()) {
      const ir::Liquid &liquid = module_.liquid(found->second);
      if (liquid.role == ir::LiquidRole::Reagent) {
        report(DiagId::WrongKindOfName, it.loc, it.a, "reagent", context, "well set")
            .note(liquid.loc, "`{}` is declared here", it.a);
        ok = false;
        return;
      }
      into.set |= liquid.wells;
      return;
    }
    std::vector<std::string> candidates = liquidNames(true);
    for (const char *word :
         {"blank", "calibrant", "sample", "control", "nsb", "bmax", "cutoff", "all"})
      candidates.emplace_back(word);
    if (env_)
      for (const auto &[name, binding] : *env_)
        if (binding.type == ast::ParamType::Wells)
          candidates.push_back(name);
    std::string close = closestMatch(it.a, candidates);
    // "A25" on a 384-well plate: a coordinate off the plate, which the
    // lexer hands over as a name (its well token stops at column 24); the
    // plate's extent says more than "not declared". Only a row letter of
    // some plate (A..P): "X9" beside samples X1..X8 is a name.
    auto wellShaped = [](std::string_view name) {
      return name.size() >= 2 && name.size() <= 4 && name[0] >= 'A' && name[0] <= 'P' &&
             name[1] != '0' &&
             std::all_of(name.begin() + 1, name.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    };
    std::optional<Well> onPlate = Well::parse(it.a);
    if (wellShaped(it.a) && !(onPlate && shape.contains(*onPlate))) {
      auto diagnostic = report(DiagId::WellOutsidePlate, it.loc, it.a, plate, shape.last().name());
      if (!close.empty())
        diagnostic.note(it.loc, "nor is `{}` a declared name; did you mean `{}`?", it.a, close);
      ok = false;
      return;
    }
    if (close.empty())
      report(DiagId::UndefinedWellSetName, it.loc, it.a);
    else
      report(DiagId::UndefinedName, it.loc, it.a, close).suggest(close);
    ok = false;
  };

  Wells result;
  for (const ast::WellItem &it : expr.items)
    item(it, result);
  if (!expr.except.empty()) {
    Wells removed;
    for (const ast::WellItem &it : expr.except)
      item(it, removed);
    result.set.subtract(removed.set);
    result.known = result.known && removed.known;
  }
  if (!ok)
    return std::nullopt;
  if (result.known && result.set.empty()) {
    if (expr.except.empty())
      report(DiagId::EmptyWellSet, expr.loc);
    else
      report(DiagId::ExceptRemovesAll, expr.loc);
    return std::nullopt;
  }
  return result;
}

} // namespace plate::sema

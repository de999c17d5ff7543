//===- Sema.cpp - Names, procedures and the checkScript() entry point -----===//
//
// The order of work: platform, layout (plate type, fills, grids), reagents,
// the procedure table (script procedures and `use` modules, so that calls
// inside bodies can name procedures defined later), recursion, then one
// walk over the sections in file order that checks each statement and
// emits its op. Procedure bodies are checked where they are defined.
//
//===----------------------------------------------------------------------===//
#include "frontend/Sema.h"
#include "frontend/Layout.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>

namespace plate {

std::optional<CheckedProgram> checkScript(const ast::Script &script,
                                          SourceManager &sources,
                                          DiagnosticEngine &diags,
                                          const FrontendOptions &options) {
  sema::Sema sema(script, sources, diags, options);
  return sema.run();
}

namespace sema {

Sema::Sema(const ast::Script &script, SourceManager &sources, DiagnosticEngine &diags,
           const FrontendOptions &options)
    : script_(script), sources_(sources), diags_(diags), scratch_(sources),
      options_(options),
      stdlibDir_(options.stdlibDir.empty() ? defaultStdlibDir() : options.stdlibDir) {}

std::optional<CheckedProgram> Sema::run() {
  std::string platformName = options_.defaultPlatform;
  SourceLoc platformLoc;
  PlatformLookup lookup = PlatformLookup::Script;
  if (!options_.platform.empty()) {
    platformName = options_.platform;
    lookup = PlatformLookup::CommandLine;
  } else if (script_.platform) {
    platformName = script_.platform->text;
    platformLoc = script_.platform->loc;
  }
  platform_ = loadPlatform(platformName, stdlibDir_, diags_, platformLoc, lookup);
  if (!platform_)
    return std::nullopt;
  module_.fileId = script_.fileId;
  module_.title = script_.title.value_or("");
  module_.platform = platform_->name;

  buildLayout();
  declareReagents();
  collectProcs();
  findRecursion();

  ordinal_ = 0;
  walking_ = true;
  for (const ast::Section &section : script_.sections) {
    manual_ = section.kind == ast::SectionKind::Manual;
    unsigned inSection = 0;
    for (const ast::Statement &stmt : section.statements) {
      ++ordinal_;
      ordinalStep_ = std::to_string(++inSection);
      auto [first, last] = deferred_.equal_range(ordinal_);
      for (auto it = first; it != last; ++it)
        it->second();
      statement(stmt);
    }
  }
  ordinalStep_.clear();

  for (const ir::Liquid &liquid : module_.liquids)
    if (liquid.role == ir::LiquidRole::Reagent && !usedReagents_.count(liquid.id))
      report(DiagId::UnusedName, liquid.loc, liquid.name);
  for (const std::string &name : procOrder_) {
    const ProcInfo &proc = procs_.at(name);
    if (proc.module.empty() && !proc.used)
      report(DiagId::UnusedName, proc.def->name.loc, name);
  }
  reportUnknownFlags();

  if (diags_.hasErrors())
    return std::nullopt;
  CheckedProgram program{std::move(module_), std::move(platform_)};
  return program;
}

//===--- Names -------------------------------------------------------------===//

const Binding *Sema::param(const std::string &name) const {
  if (!env_)
    return nullptr;
  auto it = env_->find(name);
  return it == env_->end() ? nullptr : &it->second;
}

std::vector<std::string> Sema::liquidNames(bool layout) const {
  std::vector<std::string> names;
  for (const ir::Liquid &liquid : module_.liquids)
    if ((liquid.role != ir::LiquidRole::Reagent) == layout)
      names.push_back(liquid.name);
  return names;
}

std::optional<ir::LiquidId> Sema::reagent(const ast::Name &name, std::string_view context) {
  if (const Binding *binding = param(name.text)) {
    if (binding->type != ast::ParamType::Reagent) {
      report(DiagId::WrongKindOfName, name.loc, name.text,
             fmt::format("{} parameter", paramTypeName(binding->type)), context, "reagent");
      return std::nullopt;
    }
    return binding->liquid ? *binding->liquid : kUnknownLiquid;
  }
  auto found = liquidByName_.find(name.text);
  if (found != liquidByName_.end()) {
    const ir::Liquid &liquid = module_.liquid(found->second);
    if (liquid.role != ir::LiquidRole::Reagent) {
      report(DiagId::WrongKindOfName, name.loc, name.text,
             fmt::format("{} of the layout", ir::roleName(liquid.role)), context, "reagent")
          .note(liquid.loc, "`{}` is declared here", name.text);
      return std::nullopt;
    }
    usedReagents_.insert(liquid.id);
    return liquid.id;
  }
  std::vector<std::string> candidates = liquidNames(false);
  if (env_)
    for (const auto &[param, binding] : *env_)
      if (binding.type == ast::ParamType::Reagent)
        candidates.push_back(param);
  // `Stock1 Stock2 Stock3` on one REAGENTS line declares Stock1 with two
  // flags: the name is there, in the wrong place.
  for (const ast::ReagentDecl &decl : script_.reagents)
    for (const ast::Name &flag : decl.flags)
      if (flag.text == name.text) {
        const std::string &owner = decl.names.first.text;
        flagsUsedAsNames_.insert(name.text);
        report(DiagId::NameReadAsFlag, name.loc, name.text, owner, owner, name.text)
            .note(flag.loc, "`{}` is read as a flag of `{}` here", name.text, owner);
        return std::nullopt;
      }
  std::string close = closestMatch(name.text, candidates);
  if (close.empty())
    report(DiagId::UndefinedReagent, name.loc, name.text);
  else
    report(DiagId::UndefinedName, name.loc, name.text, close).suggest(close);
  return std::nullopt;
}

bool Sema::expandNames(const ast::NameRange &first, const std::vector<ast::NameRange> &more,
                       std::vector<ast::Name> &names) {
  bool ok = true;
  auto expand = [&](const ast::NameRange &range) {
    if (!range.last) {
      names.push_back(range.first);
      return;
    }
    auto expanded = layout::expandNameRange(range.first.text, range.last->text);
    if (!expanded) {
      report(DiagId::BadNameRange, range.loc, range.first.text, range.last->text);
      ok = false;
      return;
    }
    for (std::string &member : *expanded)
      names.push_back({std::move(member), range.loc});
  };
  expand(first);
  for (const ast::NameRange &range : more)
    expand(range);
  return ok;
}

// The passes act on these flags only; any other word there is a typo or a
// name in the wrong place (`atp light_sensitve` would silently lose the
// light protection), so it is said and kept. A name that a statement uses
// has its own error (E225), which says more.
void Sema::reportUnknownFlags() {
  static const std::vector<std::string> knownFlags = {"light_sensitive", "dark", "substrate",
                                                      "conjugate", "stop"};
  for (const ast::ReagentDecl &decl : script_.reagents)
    for (const ast::Name &flag : decl.flags) {
      if (std::find(knownFlags.begin(), knownFlags.end(), flag.text) != knownFlags.end() ||
          flagsUsedAsNames_.count(flag.text))
        continue;
      std::string close = closestMatch(flag.text, knownFlags);
      auto diag = report(DiagId::UnknownReagentFlag, flag.loc, flag.text,
                         close.empty() ? std::string("; write a remark as a `# comment`")
                                       : fmt::format("; did you mean `{}`?", close));
      if (!close.empty())
        diag.suggest(close);
    }
}

void Sema::declareReagents() {
  std::map<std::pair<unsigned, unsigned>, ir::LiquidId> positions;
  for (const ast::ReagentDecl &decl : script_.reagents) {
    // Every member of a family gets the line's volume and flags.
    std::vector<ast::Name> names;
    if (!expandNames(decl.names, decl.moreNames, names))
      continue;
    if (decl.position && names.size() > 1) {
      report(DiagId::PositionForMany, decl.positionLoc, decl.position->first,
             decl.position->second, names.size());
      continue;
    }
    std::optional<Quantity> volume;
    if (decl.volume)
      volume = quantity(*decl.volume, Dimension::Volume, "a reagent's loaded volume");
    for (const ast::Name &name : names)
      declareReagent(decl, name, volume, positions);
  }
}

std::optional<ir::ReservoirPos>
Sema::reservePosition(const ast::ReagentDecl &decl, ir::LiquidId id,
                      std::map<std::pair<unsigned, unsigned>, ir::LiquidId> &positions) {
  auto [row, col] = *decl.position;
  if (row < 1 || col < 1 || row > platform_->reservoirRows || col > platform_->reservoirCols) {
    report(DiagId::ReservoirOutside, decl.positionLoc, row, col, platform_->name,
           platform_->reservoirRows, platform_->reservoirCols);
    return std::nullopt;
  }
  if (auto taken = positions.find(*decl.position); taken != positions.end()) {
    report(DiagId::ReservoirTaken, decl.positionLoc, row, col, module_.liquid(taken->second).name)
        .note(module_.liquid(taken->second).loc, "`{}` is declared here",
              module_.liquid(taken->second).name);
    return std::nullopt;
  }
  positions[*decl.position] = id;
  return ir::ReservoirPos{row, col};
}

void Sema::declareReagent(const ast::ReagentDecl &decl, const ast::Name &name,
                          const std::optional<Quantity> &volume,
                          std::map<std::pair<unsigned, unsigned>, ir::LiquidId> &positions) {
  // `dark` is how a protocol says light sensitive.
  auto addFlags = [&](ir::Liquid &liquid) {
    for (const ast::Name &flag : decl.flags)
      liquid.flags.push_back(flag.text == "dark" ? "light_sensitive" : flag.text);
  };
  auto found = liquidByName_.find(name.text);
  if (found != liquidByName_.end()) {
    ir::Liquid &existing = module_.liquids[found->second];
    // A layout liquid named again under REAGENTS gets its loading there
    // (volume, position, flags): "medium" is the blank and also what the
    // robot adds to every well.
    if (existing.role != ir::LiquidRole::Reagent && loadedLayoutLiquids_.insert(name.text).second) {
      if (volume)
        existing.declaredVolume = volume;
      if (decl.position)
        existing.fixedPosition = reservePosition(decl, existing.id, positions);
      addFlags(existing);
      return;
    }
    report(DiagId::DuplicateName, name.loc, name.text)
        .note(existing.loc, "`{}` is first declared here", name.text);
    return;
  }
  ir::Liquid liquid;
  liquid.id = static_cast<ir::LiquidId>(module_.liquids.size());
  liquid.name = name.text;
  liquid.role = ir::LiquidRole::Reagent;
  liquid.loc = name.loc;
  liquid.declaredVolume = volume;
  if (decl.position)
    liquid.fixedPosition = reservePosition(decl, liquid.id, positions);
  addFlags(liquid);
  liquidByName_[liquid.name] = liquid.id;
  module_.liquids.push_back(std::move(liquid));
}

//===--- Procedures ----------------------------------------------------------===//

void Sema::later(unsigned ordinal, std::function<void()> action) {
  if (walking_)
    action();
  else
    deferred_.emplace(ordinal, std::move(action));
}

void Sema::registerProc(const ast::ProcDef &def, unsigned ordinal,
                        const std::string &module, SourceLoc useLoc) {
  auto found = procs_.find(def.name.text);
  if (found != procs_.end()) {
    const ast::ProcDef *first = found->second.def;
    later(ordinal, [this, &def, first, module, useLoc] {
      auto diag = report(DiagId::ProcDefinedTwice, def.name.loc, def.name.text);
      diag.note(first->name.loc, "`{}` is first defined here", def.name.text);
      if (!module.empty())
        diag.note(useLoc, "`use \"{}\"` imports it here", module);
    });
    return;
  }
  std::map<std::string, SourceLoc> seenParams;
  for (const ast::Param &param : def.params)
    if (auto [it, inserted] = seenParams.emplace(param.name.text, param.name.loc); !inserted)
      later(ordinal, [this, &param, firstLoc = it->second] {
        report(DiagId::DuplicateName, param.name.loc, param.name.text)
            .note(firstLoc, "`{}` is first declared here", param.name.text);
      });
  ProcInfo info;
  info.def = &def;
  info.ordinal = ordinal;
  info.module = module;
  procs_[def.name.text] = info;
  procOrder_.push_back(def.name.text);
}

namespace {

/// A module name is what `use` may join to stdlib/modules: anything that
/// could leave that directory or name another file (a separator, `..`, a
/// drive, an extension) is refused before the file system sees it.
bool isModuleName(const std::string &name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

} // namespace

std::vector<std::string> Sema::knownModules() const {
  std::vector<std::string> known;
  std::error_code error;
  for (const auto &entry :
       std::filesystem::directory_iterator(stdlibDir_ + "/modules", error))
    if (entry.path().extension() == ".plate")
      known.push_back(entry.path().stem().string());
  std::sort(known.begin(), known.end());
  return known;
}

void Sema::useModule(const std::string &name, SourceLoc loc, SourceLoc nameLoc,
                     unsigned ordinal) {
  if (!loadedModules_.insert(name).second)
    return;
  if (!isModuleName(name)) {
    // The last part of a path, without `.plate`, is the module meant when
    // it is one; otherwise the message lists the modules.
    std::string last = name.substr(std::min(name.size(), name.find_last_of("/\\") + 1));
    if (llvm::StringRef(last).endswith_insensitive(".plate"))
      last.resize(last.size() - 6);
    std::vector<std::string> known = knownModules();
    std::string close = isModuleName(last) ? closestMatch(last, known) : "";
    later(ordinal, [this, nameLoc, name, close, known] {
      if (close.empty())
        report(DiagId::ModulePath, nameLoc, name, fmt::format("{}", fmt::join(known, ", ")));
      else
        report(DiagId::ModulePathOfModule, nameLoc, name, close).suggest("\"" + close + "\"");
    });
    return;
  }
  std::string dir = stdlibDir_ + "/modules";
  std::string path = dir + "/" + name + ".plate";
  std::optional<uint32_t> fileId;
  if (std::filesystem::is_regular_file(path))
    fileId = sources_.addFile(path);
  if (!fileId) {
    std::string close = closestMatch(name, knownModules());
    later(ordinal, [this, loc, name, dir, close] {
      auto diag = report(DiagId::UnknownModule, loc, name, dir);
      if (!close.empty())
        diag.suggest("use \"" + close + "\"");
    });
    return;
  }
  modules_.push_back(std::make_unique<ast::Script>(parseScript(sources_, *fileId, diags_)));
  const ast::Script &module = *modules_.back();
  for (const ast::Section &section : module.sections)
    for (const ast::Statement &stmt : section.statements) {
      if (const auto *def = std::get_if<ast::ProcDef>(&stmt.kind))
        registerProc(*def, ordinal, name, loc);
      else if (const auto *use = std::get_if<ast::Use>(&stmt.kind))
        useModule(use->module, stmt.loc, use->loc, ordinal);
    }
}

void Sema::collectProcs() {
  unsigned ordinal = 0;
  for (const ast::Section &section : script_.sections)
    for (const ast::Statement &stmt : section.statements) {
      ++ordinal;
      if (const auto *def = std::get_if<ast::ProcDef>(&stmt.kind))
        registerProc(*def, ordinal, "", {});
      else if (const auto *use = std::get_if<ast::Use>(&stmt.kind))
        useModule(use->module, stmt.loc, use->loc, ordinal);
    }
}

void Sema::collectCalls(const std::vector<ast::Statement> &body,
                        std::vector<const ast::Call *> &calls) {
  for (const ast::Statement &stmt : body) {
    if (const auto *call = std::get_if<ast::Call>(&stmt.kind))
      calls.push_back(call);
    else if (const auto *repeat = std::get_if<ast::Repeat>(&stmt.kind))
      collectCalls(repeat->body, calls);
  }
}

void Sema::findRecursion() {
  // Depth-first search over the call graph; a call to a procedure that is
  // still on the path closes a cycle.
  enum class Color { White, Gray, Black };
  std::map<std::string, Color> color;
  std::vector<std::string> path;
  std::function<void(const std::string &)> visit = [&](const std::string &name) {
    color[name] = Color::Gray;
    path.push_back(name);
    std::vector<const ast::Call *> calls;
    collectCalls(procs_.at(name).def->body, calls);
    for (const ast::Call *call : calls) {
      const std::string &callee = call->callee.text;
      if (!procs_.count(callee))
        continue;
      if (color[callee] == Color::Gray) {
        auto start = std::find(path.begin(), path.end(), callee);
        std::string cycle;
        for (auto it = start; it != path.end(); ++it) {
          cycle += fmt::format("`{}` -> ", *it);
          procs_.at(*it).recursive = true;
        }
        cycle += fmt::format("`{}`", callee);
        recursionReports_.emplace(name, std::make_pair(call->callee.loc,
                                                       callee + "\n" + cycle));
      } else if (color[callee] == Color::White) {
        visit(callee);
      }
    }
    path.pop_back();
    color[name] = Color::Black;
  };
  for (const std::string &name : procOrder_)
    if (color[name] == Color::White)
      visit(name);
}

void Sema::checkProc(ProcInfo &proc) {
  if (proc.checked)
    return;
  proc.checked = true;
  std::map<std::string, Binding> env;
  for (const ast::Param &param : proc.def->params)
    env.emplace(param.name.text, Binding{param.type, param.name.loc, {}, {}, {}, false});

  auto savedEnv = env_;
  bool savedEmit = emit_;
  std::string savedStep = step_, savedBlockStep = blockStep_;
  unsigned savedDepth = blockDepth_;
  env_ = &env;
  emit_ = false;
  blockStep_.clear();
  blockDepth_ = 1;
  unsigned errorsBefore = diags_.errorCount();

  if (auto it = recursionReports_.find(proc.def->name.text); it != recursionReports_.end()) {
    std::string payload = it->second.second;
    size_t split = payload.find('\n');
    report(DiagId::Recursion, it->second.first, payload.substr(0, split),
           payload.substr(split + 1));
  }
  statements(proc.def->body);

  proc.hasErrors = diags_.errorCount() > errorsBefore;
  env_ = savedEnv;
  emit_ = savedEmit;
  step_ = savedStep;
  blockStep_ = savedBlockStep;
  blockDepth_ = savedDepth;
}

bool Sema::bindArgs(const ast::Call &call, const ProcInfo &proc,
                    std::map<std::string, Binding> &env) {
  const auto &params = proc.def->params;
  const std::string &name = call.callee.text;
  if (call.args.size() != params.size()) {
    report(DiagId::CallArity, call.callee.loc, name, params.size(), call.args.size())
        .note(proc.def->name.loc, "`{}` is defined here", name);
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < params.size(); ++i) {
    const ast::Arg &arg = call.args[i];
    const ast::Param &p = params[i];
    Binding binding{p.type, p.name.loc, {}, {}, {}, true};
    std::string context = fmt::format("parameter `{}` of `{}`", p.name.text, name);
    // A bare word may arrive as a quantity parameter or as a one-name well set.
    std::optional<ast::Name> bare;
    if (arg.quantity && arg.quantity->kind == ast::QuantityExpr::Kind::Param)
      bare = ast::Name{arg.quantity->param, arg.quantity->loc};
    else if (arg.wells && arg.wells->items.size() == 1 && arg.wells->except.empty() &&
             arg.wells->items[0].kind == ast::WellItem::Kind::Name)
      bare = ast::Name{arg.wells->items[0].a, arg.wells->items[0].loc};

    switch (p.type) {
    case ast::ParamType::Reagent: {
      if (!bare) {
        report(DiagId::WrongKindOfName, arg.loc, text(arg.loc, "argument"),
               arg.quantity ? "quantity" : "well set", context, "reagent");
        ok = false;
        break;
      }
      std::optional<ir::LiquidId> id = reagent(*bare, context);
      if (!id)
        ok = false;
      else if (*id != kUnknownLiquid)
        binding.liquid = id;
      break;
    }
    case ast::ParamType::Wells: {
      std::optional<Wells> set;
      if (arg.wells) {
        set = wells(*arg.wells, context);
      } else if (bare) {
        ast::WellSetExpr expr;
        expr.loc = bare->loc;
        ast::WellItem item;
        item.kind = ast::WellItem::Kind::Name;
        item.loc = bare->loc;
        item.a = bare->text;
        expr.items.push_back(std::move(item));
        set = wells(expr, context);
      } else {
        report(DiagId::WrongKindOfName, arg.loc, text(arg.loc, "argument"), "quantity",
               context, "well set");
      }
      if (!set)
        ok = false;
      else if (set->known)
        binding.wells = set->set;
      break;
    }
    default: {
      static const std::map<ast::ParamType, Dimension> dims = {
          {ast::ParamType::Volume, Dimension::Volume},
          {ast::ParamType::Time, Dimension::Time},
          {ast::ParamType::Temperature, Dimension::Temperature},
          {ast::ParamType::Speed, Dimension::Speed},
          {ast::ParamType::Wavelength, Dimension::Wavelength},
          {ast::ParamType::Count, Dimension::Count}};
      Dimension dimension = dims.at(p.type);
      std::optional<Quantity> value;
      if (arg.quantity) {
        value = quantity(*arg.quantity, dimension, context);
      } else if (bare) {
        ast::QuantityExpr expr;
        expr.kind = ast::QuantityExpr::Kind::Param;
        expr.loc = bare->loc;
        expr.param = bare->text;
        value = quantity(expr, dimension, context);
      } else {
        report(DiagId::WrongKindOfName, arg.loc, text(arg.loc, "argument"), "well set",
               context, dimensionName(dimension));
      }
      if (!value)
        ok = false;
      binding.quantity = value;
      break;
    }
    }
    env[p.name.text] = binding;
  }
  return ok;
}

} // namespace sema
} // namespace plate

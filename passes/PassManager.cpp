//===- PassManager.cpp - Registry, pipeline parsing, running -------------===//
//
// The registry is PassRegistry.def expanded once. A pipeline is checked
// against the Requires column before it runs, so that `--passes=` with a
// pass whose input is not prepared is a usage error, not an internal error
// deep inside the pass.
//
//===----------------------------------------------------------------------===//
#include "passes/Pass.h"
#include "passes/Passes.h"

#include "ir/Verifier.h"

#include <algorithm>
#include <cstdlib>

namespace plate {

const std::vector<PassInfo> &registeredPasses() {
  static const std::vector<PassInfo> passes = {
#define PASS(Name, Factory, Requires, Description) {Name, Description, &Factory, Requires},
#include "passes/PassRegistry.def"
  };
  return passes;
}

std::vector<std::string_view> PassInfo::prerequisites() const {
  std::vector<std::string_view> names;
  std::string_view rest = requiresText;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view name = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (!name.empty())
      names.push_back(name);
  }
  return names;
}

bool verifyEachByDefault() {
  if (const char *setting = std::getenv("PLATE_VERIFY_EACH"); setting && *setting)
    return std::string_view(setting) != "0";
#ifdef NDEBUG
  return false;
#else
  return true;
#endif
}

const PassInfo *findPass(std::string_view name) {
  for (const PassInfo &info : registeredPasses())
    if (info.name == name)
      return &info;
  return nullptr;
}

PassManager PassManager::defaultPipeline(PipelineOptions options) {
  PassManager manager(std::move(options));
  for (const PassInfo &info : registeredPasses())
    manager.add(info.create());
  return manager;
}

namespace {
struct OrderProblem {
  std::string_view pass, missing;
};

std::optional<OrderProblem> findOrderProblem(const std::vector<std::string_view> &names,
                                             const std::vector<std::string> &alreadyRun) {
  for (size_t i = 0; i < names.size(); ++i) {
    const PassInfo *info = findPass(names[i]);
    if (!info)
      continue;
    for (std::string_view needed : info->prerequisites())
      if (std::find(names.begin(), names.begin() + i, needed) == names.begin() + i &&
          std::find(alreadyRun.begin(), alreadyRun.end(), needed) == alreadyRun.end())
        return OrderProblem{names[i], needed};
  }
  return std::nullopt;
}

/// The shortest pipeline that can run `pass`: its prerequisites, closed
/// transitively, in default order, then the pass.
std::string minimalPipeline(std::string_view pass) {
  std::vector<std::string_view> wanted{pass};
  for (size_t i = 0; i < wanted.size(); ++i)
    if (const PassInfo *info = findPass(wanted[i]))
      for (std::string_view needed : info->prerequisites())
        if (std::find(wanted.begin(), wanted.end(), needed) == wanted.end())
          wanted.push_back(needed);
  std::string text;
  for (const PassInfo &info : registeredPasses())
    if (std::find(wanted.begin(), wanted.end(), info.name) != wanted.end())
      text += (text.empty() ? "" : ",") + std::string(info.name);
  return text;
}
} // namespace

std::string PassManager::checkOrder(const std::vector<std::string_view> &names,
                                    const std::vector<std::string> &alreadyRun) {
  std::optional<OrderProblem> problem = findOrderProblem(names, alreadyRun);
  if (!problem)
    return {};
  return fmt::format("pass `{}` needs `{}` earlier in the pipeline; for example "
                     "`--passes={}`",
                     problem->pass, problem->missing, minimalPipeline(problem->pass));
}

std::optional<PassManager> PassManager::parsePipeline(std::string_view text,
                                                      PipelineOptions options,
                                                      std::string &error) {
  PassManager manager(std::move(options));
  std::vector<std::string_view> names;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view name = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (name.empty())
      continue;
    const PassInfo *info = findPass(name);
    if (!info) {
      std::vector<std::string> knownNames;
      for (const PassInfo &known : registeredPasses())
        knownNames.emplace_back(known.name);
      error = fmt::format("unknown pass `{}`", name);
      if (std::string guess = closestMatch(name, knownNames); !guess.empty())
        error += fmt::format("; did you mean `{}`?", guess);
      return std::nullopt;
    }
    names.push_back(info->name);
    manager.add(info->create());
  }
  if (std::string problem = checkOrder(names, manager.options_.alreadyRun); !problem.empty()) {
    error = std::move(problem);
    return std::nullopt;
  }
  return manager;
}

bool PassManager::run(ir::Module &module, PassContext &context) {
  std::vector<std::string_view> names;
  for (const std::unique_ptr<Pass> &pass : passes_)
    names.push_back(pass->name());
  if (std::string problem = checkOrder(names, options_.alreadyRun); !problem.empty())
    internalError(__FILE__, __LINE__, "pipeline built out of order: " + problem);
  for (const std::unique_ptr<Pass> &pass : passes_) {
    bool ok = pass->run(module, context);
    bool wanted = options_.printAfterAll ||
                  std::find(options_.printAfter.begin(), options_.printAfter.end(),
                            pass->name()) != options_.printAfter.end();
    if (wanted && options_.printer)
      options_.printer(pass->name(), module);
    if (options_.observer)
      options_.observer(pass->name(), module);
    if (options_.verifyEach) {
      std::vector<std::string> problems = ir::verify(module);
      if (!problems.empty()) {
        std::string message = fmt::format("IR invalid after pass `{}`:", pass->name());
        for (const std::string &problem : problems)
          message += "\n  " + problem;
        internalError(__FILE__, __LINE__, message);
      }
    }
    if (!ok || context.diags.hasErrors())
      return false;
  }
  return true;
}

} // namespace plate

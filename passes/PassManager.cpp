//===- PassManager.cpp - Registry, pipeline parsing, running -------------===//
#include "passes/Pass.h"
#include "passes/Passes.h"

#include "ir/Verifier.h"

#include <algorithm>

namespace plate {

const std::vector<PassInfo> &registeredPasses() {
  static const std::vector<PassInfo> passes = {
#define PASS(Name, Factory, Description) {Name, Description, &Factory},
#include "passes/PassRegistry.def"
  };
  return passes;
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

std::optional<PassManager> PassManager::parsePipeline(std::string_view text,
                                                      PipelineOptions options,
                                                      std::string &error) {
  PassManager manager(std::move(options));
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view name = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (name.empty())
      continue;
    const PassInfo *info = findPass(name);
    if (!info) {
      std::vector<std::string> names;
      for (const PassInfo &known : registeredPasses())
        names.emplace_back(known.name);
      error = fmt::format("unknown pass `{}`", name);
      if (std::string guess = closestMatch(name, names); !guess.empty())
        error += fmt::format("; did you mean `{}`?", guess);
      return std::nullopt;
    }
    manager.add(info->create());
  }
  return manager;
}

bool PassManager::run(ir::Module &module, PassContext &context) {
  for (const std::unique_ptr<Pass> &pass : passes_) {
    bool ok = pass->run(module, context);
    bool wanted = options_.printAfterAll ||
                  std::find(options_.printAfter.begin(), options_.printAfter.end(),
                            pass->name()) != options_.printAfter.end();
    if (wanted && options_.printer)
      options_.printer(pass->name(), module);
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

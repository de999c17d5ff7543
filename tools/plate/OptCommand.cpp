//===- OptCommand.cpp - `plate opt` ---------------------------------------===//
//
// Exit codes as everywhere (Compilation.h): 1 for malformed or invalid IR
// text and for errors the passes report, 2 for the command line (an unknown
// pass, a pipeline whose prerequisites neither run earlier nor show in the
// input). The IR is printed only when no error was reported, like
// `plate compile --emit=ir`; dumps between passes are printed regardless.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/OptCommand.h"

#include "ir/IRReader.h"
#include "passes/Pass.h"
#include "tools/plate/Commands.h"
#include "tools/plate/Compilation.h"
#include "tools/plate/DiagnosticsSummary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace plate {

CLI::App *addOptCommand(CLI::App &app, OptOptions &options) {
  CLI::App *command = app.add_subcommand(
      "opt", "read IR text (what --emit=ir and --print-after-all print), run passes on it and "
             "print it again");
  command->add_option("FILE", options.input, "the IR text (.pir), or - for stdin")->required();
  command->add_option_function<std::string>(
      "--passes", [&options](const std::string &text) { options.passes = text; },
      "run this comma-separated pipeline (default: none; the input may stand anywhere in the "
      "pipeline)");
  command->add_flag("--print-after-all", options.printAfterAll, "print the IR after every pass");
  command->add_option("--print-after", options.printAfter,
                      "print the IR after the named pass (repeatable)");
  command->add_option("-o,--output", options.output, "output file (default: stdout)");
  command->add_option("--source", options.source,
                      "the script the IR was compiled from, for passes that quote it "
                      "(diagnostics, the operator checklist)");
  command->add_option("--stdlib", options.stdlibDir,
                      "directory of platforms, labware and modules (default: $PLATE_STDLIB or "
                      "the built-in one)");
  addTipCostOption(*command, options.tipCostSeconds);
  return command;
}

std::vector<std::string> passesEvidentIn(const ir::Module &module) {
  auto anyOp = [&](auto predicate) {
    return std::any_of(module.ops.begin(), module.ops.end(), predicate);
  };
  auto shows = [&](std::string_view pass) -> bool {
    if (pass == "normalize-units")
      return module.unitsNormalized;
    if (pass == "track-volumes")
      return anyOp([](const ir::Op &op) {
        const auto *aspirate = op.as<ir::AspirateOp>();
        const auto *wash = op.as<ir::WashOp>();
        return (aspirate && !aspirate->resolved.empty()) || (wash && !wash->emptied.empty());
      });
    if (pass == "group-wells")
      return anyOp([](const ir::Op &op) { return !op.blocks.empty(); });
    if (pass == "allocate-reservoir")
      return !module.loadingPlan.empty();
    if (pass == "lower-pipetting")
      return module.tipsUsed.has_value();
    if (pass == "route-transport")
      return module.lowered;
    if (pass == "operator-checklist")
      return anyOp([](const ir::Op &op) {
        const auto *prompt = op.as<ir::PromptOp>();
        return prompt && prompt->text.rfind("before the robot starts", 0) == 0;
      });
    return false; // check-platform and lint-protocol only report
  };
  const std::vector<PassInfo> &passes = registeredPasses();
  size_t through = 0;
  for (size_t i = 0; i < passes.size(); ++i)
    if (shows(passes[i].name))
      through = i + 1;
  std::vector<std::string> names;
  for (size_t i = 0; i < through; ++i)
    names.emplace_back(passes[i].name);
  return names;
}

namespace {

int exitCode(ExitCode code) { return static_cast<int>(code); }

std::optional<uint32_t> readInput(const std::string &path, SourceManager &sources) {
  if (path != "-")
    return sources.addFile(path);
  std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  return sources.addBuffer("<stdin>", std::move(text));
}

bool writeText(const std::string &path, const std::string &text) {
  if (path.empty() || path == "-") {
    std::cout << text;
    return true;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

} // namespace

int runOptCommand(const OptOptions &options) {
  for (const std::string &name : options.printAfter)
    if (!findPass(name)) {
      std::cerr << "plate: error: unknown pass `" << name
                << "` in --print-after; see --list-passes\n";
      return exitCode(ExitCode::Usage);
    }
  SourceManager sources;
  DiagnosticEngine diags(sources);
  diags.setConsumer([&sources](const Diagnostic &diagnostic) {
    std::cerr << renderText(diagnostic, sources, /*color=*/false);
  });
  auto finish = [&](ExitCode code) {
    std::cerr << diagnosticsSummary(diags);
    return exitCode(code);
  };

  std::optional<uint32_t> fileId = readInput(options.input, sources);
  if (!fileId) {
    diags.report(DiagId::CannotRead, SourceLoc{}, options.input, std::strerror(errno));
    return finish(ExitCode::InputErrors);
  }
  std::string stdlibDir = options.stdlibDir.empty() ? defaultStdlibDir() : options.stdlibDir;
  ir::ParseOptions parseOptions;
  parseOptions.modulesDir = (std::filesystem::path(stdlibDir) / "modules").string();
  if (!options.source.empty()) {
    std::optional<uint32_t> script = sources.addFile(options.source);
    if (!script) {
      diags.report(DiagId::CannotRead, SourceLoc{}, options.source, std::strerror(errno));
      return finish(ExitCode::InputErrors);
    }
    parseOptions.scriptFileId = *script;
  }
  std::optional<ir::Module> module = ir::parseModule(*fileId, sources, diags, parseOptions);
  if (!module)
    return finish(ExitCode::InputErrors);
  // The header's `platform=` names the platform, as `<PLATFORM>` does in a
  // script; an unknown one is reported at the header (E208).
  SourceLoc platformLoc;
  for (uint32_t line = 1; line <= sources.lineCount(*fileId) && !platformLoc.isValid(); ++line) {
    std::string_view text = sources.lineText(*fileId, line);
    size_t first = text.find_first_not_of(' ');
    size_t column = text.find(" platform=");
    if (first != std::string_view::npos && text.substr(first, 7) == "module " &&
        column != std::string_view::npos)
      platformLoc = {*fileId, line, static_cast<uint32_t>(column + 11),
                     static_cast<uint32_t>(module->platform.size())};
  }
  std::optional<Platform> platform = loadPlatform(module->platform, stdlibDir, diags, platformLoc);
  if (!platform)
    return finish(ExitCode::InputErrors);

  std::ostringstream dump;
  PipelineOptions pipelineOptions;
  // The tool for testing passes checks the IR after each of them in every
  // build: a failure is the pass's bug (an internal error).
  pipelineOptions.verifyEach = true;
  pipelineOptions.printAfterAll = options.printAfterAll;
  pipelineOptions.printAfter = options.printAfter;
  pipelineOptions.printer = [&](std::string_view pass, const ir::Module &printed) {
    dump << "// ----- IR after " << pass << " -----\n" << ir::print(printed, sources);
  };
  pipelineOptions.alreadyRun = passesEvidentIn(*module);
  std::string evident;
  for (const std::string &name : pipelineOptions.alreadyRun)
    evident += (evident.empty() ? "" : ",") + name;
  std::optional<PassManager> manager;
  if (options.passes) {
    std::string error;
    manager = PassManager::parsePipeline(*options.passes, std::move(pipelineOptions), error);
    if (!manager) {
      std::cerr << "plate: error: " << error << "; the input IR shows "
                << (evident.empty() ? std::string("no pass's products")
                                    : fmt::format("the products of `{}`", evident))
                << " (docs/ir.md, reading IR back)\n";
      return exitCode(ExitCode::Usage);
    }
  } else {
    manager.emplace(std::move(pipelineOptions));
  }
  PassOptions passOptions;
  passOptions.tipCostSeconds = options.tipCostSeconds;
  PassContext context{diags, sources, *platform, passOptions};
  bool ok = manager->run(*module, context) && !diags.hasErrors();
  std::cout << dump.str();
  if (ok && !writeText(options.output, ir::print(*module, sources))) {
    diags.report(DiagId::CannotRead, SourceLoc{}, options.output, "cannot write the file");
    ok = false;
  }
  return finish(ok ? ExitCode::Success : ExitCode::InputErrors);
}

} // namespace plate

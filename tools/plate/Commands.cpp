//===- Commands.cpp - check and compile -----------------------------------===//
#include "tools/plate/Commands.h"

#include "backend/bioforge1/Pictures.h"

#include "backend/bioforge1/Backend.h"
#include "backend/ot2/Ot2Emitter.h"
#include "backend/bioforge1/ScheduleQuality.h"
#include "backend/bioforge1/TranslationValidation.h"
#include "passes/TipBudgetSearch.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <chrono>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace plate {

const std::vector<std::string> &emitKinds() {
  static const std::vector<std::string> kinds = {"ast", "ir", "bf1", "bf1-json", "plate-map"};
  return kinds;
}

/// `--validate` (and PLATE_VALIDATE=1): the lowered stream must mean what
/// the script says. Returns the exit code when validation refuses.
static std::optional<int> validateCompile(Compilation &compilation, bool explicitly) {
  if (!compilation.module().lowered)
    return std::nullopt; // a partial pipeline: nothing reaches a robot
  auto start = std::chrono::steady_clock::now();
  std::vector<backend::Command> commands =
      backend::lowerToCommands(compilation.module(), compilation.platform());
  backend::RunSetup setup =
      backend::setupFromModule(compilation.module(), compilation.platform(), commands);
  if (!compilation.validate(commands, setup))
    return static_cast<int>(ExitCode::InternalError);
  if (explicitly) {
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                           start)
                    .count();
    std::cerr << fmt::format("validated: the {} command(s) do what the script says ({:.2f} ms)\n",
                             commands.size(), ms);
  }
  return std::nullopt;
}

void addTipCostOption(CLI::App &command, double &seconds) {
  CLI::Validator nonNegative(
      [](std::string &text) -> std::string {
        char *end = nullptr;
        errno = 0;
        double value = std::strtod(text.c_str(), &end);
        bool number = !text.empty() && end == text.c_str() + text.size() && errno == 0 &&
                      std::isfinite(value);
        if (number && value >= 0)
          return {};
        return fmt::format("`{}` is not a number of seconds >= 0 (robot seconds one fresh tip "
                           "is worth; default {})",
                           text, kDefaultTipCostSeconds);
      },
      "SECONDS>=0");
  command
      .add_option("--tip-cost", seconds,
                  fmt::format("robot seconds one fresh tip is worth: lower-pipetting minimises "
                              "robot time + this x fresh tips (default {}, docs/schedule.md)",
                              kDefaultTipCostSeconds))
      ->check(nonNegative);
}

static int exitFor(bool ok) {
  return static_cast<int>(ok ? ExitCode::Success : ExitCode::InputErrors);
}

int runCheckCommand(const CompileOptions &options) {
  Compilation compilation(options);
  // `check` reports everything `compile` would (physical, capability and
  // resource errors come from passes), it only emits nothing.
  std::ostringstream ignoredDump;
  bool ok = compilation.compile(ignoredDump);
  if (ok && backend::validateByDefault())
    if (std::optional<int> refused = validateCompile(compilation, false))
      return *refused;
  compilation.finishDiagnostics();
  return exitFor(ok);
}

int runListPasses() {
  for (const PassInfo &info : registeredPasses())
    std::cout << fmt::format("  {:<20} {}\n", info.name, info.description);
  return 0;
}

/// Writes `text` to `path`, or stdout when `path` is empty or "-".
static bool writeOutput(const std::string &path, const std::string &text,
                        DiagnosticEngine &diags) {
  if (path.empty() || path == "-") {
    std::cout << text;
    return true;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    diags.report(DiagId::CannotRead, SourceLoc{}, path, "cannot write the file");
    return false;
  }
  return true;
}

/// `--platform ot2`: the script as an Opentrons Python protocol, from the
/// passes that do not assume BioForge-1's head or deck (kOt2Pipeline).
static int runOt2Compile(const CompileCommandOptions &options) {
  if (options.emit != "bf1" || !options.loadingPlan.empty() || options.validate) {
    std::cerr << "plate: error: --platform ot2 writes a Python protocol (its deck setup is its "
                 "loading plan); --emit, --loading-plan and --validate are BioForge-1's\n";
    return static_cast<int>(ExitCode::Usage);
  }
  CompileOptions compileOptions = options.compile;
  if (!compileOptions.passes)
    compileOptions.passes = kOt2Pipeline;
  // The passes check the script against the OT-2's description.
  compileOptions.platform = options.platform;
  Compilation compilation(compileOptions);
  std::ostringstream dump;
  bool ok = compilation.compile(dump);
  std::cout << dump.str();
  std::optional<std::string> protocol;
  if (ok) {
    ot2::EmitOptions emitOptions;
    emitOptions.manualFallback = options.manualFallback;
    emitOptions.sourceName = std::filesystem::path(options.compile.input).filename().string();
    protocol = ot2::emitProtocol(compilation.module(), compilation.platform(),
                                 compilation.sources(), compilation.diags(), emitOptions);
  }
  ok = protocol && !compilation.diags().hasErrors() &&
       writeOutput(options.output, *protocol, compilation.diags());
  compilation.finishDiagnostics();
  return exitFor(ok);
}

/// The `schedule:` line: what the stream does against the fewest any
/// schedule of the same statements needs (backend/bioforge1/ScheduleQuality.h).
static std::string scheduleText(const backend::ScheduleFigures &figures) {
  return fmt::format("schedule: {} plate pipetting commands (bound {}), {} fresh tips (bound "
                     "{}), robot time {} s (bound {} s)\n",
                     figures.plateCommands, figures.plateCommandBound, figures.tips,
                     figures.tipBound, formatNumber(std::round(figures.robotSeconds * 10) / 10),
                     formatNumber(std::round(figures.robotSecondsBound * 10) / 10));
}

/// `--pareto`: the plans lower-pipetting compared that no other beats on
/// both robot time and fresh tips, fastest first, the chosen one marked.
/// Robot time is the stream's: the plans differ only in their pipetting
/// and tip commands, whose time each plan's figure holds.
static std::string paretoText(const lowering::PlanFrontier &frontier, const ir::Module &module,
                              double streamSeconds) {
  if (frontier.plans.empty())
    return "pareto: lower-pipetting found no legal plan\n";
  const lowering::PlanPoint &chosen = frontier.plans[frontier.chosen];
  double rest = streamSeconds - chosen.seconds;
  std::string text = fmt::format(
      "pareto: {} plan(s) that no other beats on both robot time and fresh tips, of {} "
      "lowered; tip cost {} s\n",
      frontier.plans.size(), frontier.lowered, formatNumber(frontier.tipCostSeconds));
  for (size_t i = 0; i < frontier.plans.size(); ++i) {
    const lowering::PlanPoint &plan = frontier.plans[i];
    std::string widths;
    for (const auto &[pos, width] : plan.widths) {
      std::string liquid;
      for (const ir::ReservoirLoad &load : module.loadingPlan)
        if (load.pos == pos && load.liquid < module.liquids.size())
          liquid = " " + module.liquids[load.liquid].name;
      widths += fmt::format("{}reservoir({},{}){} {}", widths.empty() ? "" : ", ", pos.row,
                            pos.col, liquid, width);
    }
    double seconds = rest + plan.seconds;
    text += fmt::format("  {} robot time {:>9} s  tips {:>4}  racks {}  cost {:>9} s  {}\n",
                        i == frontier.chosen ? "*" : " ",
                        formatNumber(std::round(seconds * 10) / 10), plan.tips,
                        plan.racks,
                        formatNumber(
                            std::round((seconds + frontier.tipCostSeconds * plan.tips) * 10) / 10),
                        widths.empty() ? "full width" : "channels per source: " + widths);
  }
  text += fmt::format("pareto: * = the plan --tip-cost {} picked (least robot time + {} s x "
                      "fresh tips)\n",
                      formatNumber(frontier.tipCostSeconds),
                      formatNumber(frontier.tipCostSeconds));
  return text;
}

int runCompileCommand(const CompileCommandOptions &options) {
  if (isOt2Target(options.platform))
    return runOt2Compile(options);
  CompileOptions compileOptions = options.compile;
  compileOptions.recordFrontier = options.pareto;
  compileOptions.keepHighLevel = options.emit == "bf1" || options.emit == "bf1-json";
  Compilation compilation(compileOptions);
  if (options.emit == "ast") {
    bool ok = compilation.parse();
    if (ok)
      ok = writeOutput(options.output, ast::dump(compilation.script()),
                       compilation.diags());
    compilation.finishDiagnostics();
    return exitFor(ok);
  }
  std::ostringstream dump;
  bool ok = compilation.compile(dump);
  // IR printed between passes is useful precisely when a later pass fails.
  std::cout << dump.str();
  if (ok && options.emit == "ir")
    ok = writeOutput(options.output, ir::print(compilation.module(), compilation.sources()),
                     compilation.diags());
  if (ok && options.emit == "plate-map") {
    const ir::Module &module = compilation.module();
    backend::RunSetup layout;
    layout.layout = backend::layoutOfModule(module);
    std::string name = std::filesystem::path(options.compile.input).stem().string();
    std::string title = module.title.empty()
                            ? fmt::format("Plate layout of {} ({})", name, module.plateType)
                            : fmt::format("{} ({})", module.title, module.plateType);
    ok = writeOutput(options.output, backend::layoutMapSvg(layout, module.shape, title),
                     compilation.diags());
  }
  bool wantsCommands = options.emit == "bf1" || options.emit == "bf1-json" ||
                       !options.loadingPlan.empty() || options.validate;
  if (ok && wantsCommands && !compilation.module().lowered) {
    compilation.diags().report(DiagId::EmitNeedsLowering, SourceLoc{});
    ok = false;
  }
  if (ok && (options.validate || backend::validateByDefault()))
    if (std::optional<int> refused = validateCompile(compilation, options.validate))
      return *refused;
  // The schedule line and the frontier are counted on the emitted stream.
  std::vector<backend::Command> commands;
  std::string schedule, pareto;
  if (ok && compilation.module().lowered) {
    commands = backend::lowerToCommands(compilation.module(), compilation.platform());
    if (const ir::Module *highLevel = compilation.highLevel())
      schedule = scheduleText(
          backend::measureSchedule(*highLevel, commands, compilation.platform()));
    if (const lowering::PlanFrontier *frontier = compilation.frontier())
      pareto = paretoText(*frontier, compilation.module(),
                          backend::robotSeconds(commands, compilation.platform()));
  }
  if (ok && options.pareto && !compilation.module().lowered)
    pareto = "pareto: no plan: the pipeline did not run lower-pipetting\n";
  if (ok && (options.emit == "bf1" || options.emit == "bf1-json")) {
    std::ostringstream out;
    if (options.emit == "bf1") {
      backend::emitListing(compilation.module(), compilation.platform(),
                           compilation.sources(), out);
      out << schedule << pareto;
      pareto.clear();
    } else {
      backend::emitJsonl(compilation.module(), compilation.platform(), out);
    }
    ok = writeOutput(options.output, out.str(), compilation.diags());
    // The JSON Lines file holds commands only; the plan and the summary
    // still reach the person running the compiler.
    if (ok && options.emit == "bf1-json" && !options.output.empty() && options.output != "-") {
      backend::RunSetup setup =
          backend::setupFromModule(compilation.module(), compilation.platform(), commands);
      std::cerr << backend::planText(setup, commands.size()) << schedule;
    }
  }
  // Elsewhere the frontier goes to stderr: stdout holds the emission.
  if (ok)
    std::cerr << pareto;
  if (ok && !options.loadingPlan.empty())
    ok = writeOutput(options.loadingPlan,
                     backend::loadingPlanJson(compilation.module(), compilation.platform()).dump(2) + "\n",
                     compilation.diags());
  compilation.finishDiagnostics();
  return exitFor(ok);
}

} // namespace plate

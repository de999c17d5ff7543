//===- Commands.cpp - check and compile -----------------------------------===//
#include "tools/plate/Commands.h"

#include "backend/Pictures.h"

#include "backend/Backend.h"
#include "backend/ot2/Ot2Emitter.h"
#include "backend/TranslationValidation.h"

#include <fmt/format.h>

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

/// The passes that do not assume BioForge-1's head or deck: what the OT-2
/// emitter lowers from (backend/ot2/Ot2Emitter.h).
static constexpr const char *kOt2Pipeline = "normalize-units,track-volumes,lint-protocol";

/// `--platform ot2`: the script as an Opentrons Python protocol.
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

int runCompileCommand(const CompileCommandOptions &options) {
  if (options.platform == "ot2")
    return runOt2Compile(options);
  Compilation compilation(options.compile);
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
  if (ok && (options.emit == "bf1" || options.emit == "bf1-json")) {
    std::ostringstream out;
    if (options.emit == "bf1")
      backend::emitListing(compilation.module(), compilation.platform(),
                           compilation.sources(), out);
    else
      backend::emitJsonl(compilation.module(), compilation.platform(), out);
    ok = writeOutput(options.output, out.str(), compilation.diags());
    // The JSON Lines file holds commands only; the plan and the summary
    // still reach the person running the compiler.
    if (ok && options.emit == "bf1-json" && !options.output.empty() && options.output != "-") {
      std::vector<backend::Command> commands =
          backend::lowerToCommands(compilation.module(), compilation.platform());
      backend::RunSetup setup =
          backend::setupFromModule(compilation.module(), compilation.platform(), commands);
      std::cerr << backend::planText(setup, commands.size());
    }
  }
  if (ok && !options.loadingPlan.empty())
    ok = writeOutput(options.loadingPlan,
                     backend::loadingPlanJson(compilation.module(), compilation.platform()).dump(2) + "\n",
                     compilation.diags());
  compilation.finishDiagnostics();
  return exitFor(ok);
}

} // namespace plate

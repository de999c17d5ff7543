//===- Commands.cpp - check and compile -----------------------------------===//
#include "tools/plate/Commands.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace plate {

const std::vector<std::string> &emitKinds() {
  static const std::vector<std::string> kinds = {"ast", "ir"};
  return kinds;
}

static int exitFor(bool ok) {
  return static_cast<int>(ok ? ExitCode::Success : ExitCode::InputErrors);
}

int runCheckCommand(const CompileOptions &options) {
  Compilation compilation(options);
  bool ok = compilation.check();
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

int runCompileCommand(const CompileCommandOptions &options) {
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
  compilation.finishDiagnostics();
  return exitFor(ok);
}

} // namespace plate

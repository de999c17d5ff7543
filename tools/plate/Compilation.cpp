//===- Compilation.cpp ----------------------------------------------------===//
#include "tools/plate/Compilation.h"

#include "backend/bioforge1/TranslationValidation.h"
#include "passes/TipBudgetSearch.h"
#include "tools/plate/DiagnosticsSummary.h"

#include <cerrno>
#include <cstring>
#include <iostream>

namespace plate {

Compilation::Compilation(CompileOptions options)
    : options_(std::move(options)), diags_(sources_) {
  if (options_.stdlibDir.empty())
    options_.stdlibDir = defaultStdlibDir();
  diags_.setWarningsAsErrors(options_.warningsAsErrors);
  if (options_.diagnosticsFormat == DiagnosticsFormat::Text) {
    // Stream text diagnostics as they come, so a long compile shows
    // progress and a crash still leaves what was found before it.
    diags_.setConsumer([this](const Diagnostic &diagnostic) {
      std::cerr << renderText(diagnostic, sources_, options_.color);
    });
  }
}

Compilation::~Compilation() { finishDiagnostics(); }

void Compilation::finishDiagnostics() {
  if (diagnosticsFinished_)
    return;
  diagnosticsFinished_ = true;
  if (options_.diagnosticsFormat == DiagnosticsFormat::Collect)
    return;
  if (options_.diagnosticsFormat == DiagnosticsFormat::Json) {
    std::cerr << renderJson(diags_.diagnostics(), sources_);
    return;
  }
  if (options_.diagnosticsFormat == DiagnosticsFormat::Sarif) {
    std::cerr << renderSarif(diags_.diagnostics(), sources_, PLATE_VERSION);
    return;
  }
  std::cerr << diagnosticsSummary(diags_);
}

std::string diagnosticsSummary(const DiagnosticEngine &diags) {
  unsigned errors = diags.errorCount(), warnings = diags.warningCount();
  if (!errors && !warnings)
    return {};
  std::string summary;
  if (warnings)
    summary += fmt::format("{} warning{}", warnings, warnings == 1 ? "" : "s");
  if (errors)
    summary += fmt::format("{}{} error{}", summary.empty() ? "" : " and ", errors,
                           errors == 1 ? "" : "s");
  return summary + " generated.\n";
}

bool Compilation::parse() {
  if (script_)
    return !diags_.hasErrors();
  std::optional<uint32_t> fileId =
      options_.source ? sources_.addBuffer(options_.input, *options_.source)
                      : sources_.addFile(options_.input);
  if (!fileId) {
    diags_.report(DiagId::CannotRead, SourceLoc{}, options_.input,
                  std::strerror(errno));
    return false;
  }
  script_ = parseScript(sources_, *fileId, diags_);
  return !diags_.hasErrors();
}

bool Compilation::check() {
  if (!parse())
    return false;
  if (program_)
    return true;
  FrontendOptions frontendOptions;
  frontendOptions.stdlibDir = options_.stdlibDir;
  frontendOptions.layoutCsv = options_.layoutCsv;
  frontendOptions.platform = options_.platform;
  program_ = checkScript(*script_, sources_, diags_, frontendOptions);
  if (program_)
    checked_ = program_->module;
  return program_.has_value() && !diags_.hasErrors();
}

bool Compilation::compile(std::ostream &dump) {
  if (!check())
    return false;
  PipelineOptions pipelineOptions;
  pipelineOptions.verifyEach = options_.verifyEach;
  pipelineOptions.printAfterAll = options_.printAfterAll;
  pipelineOptions.printAfter = options_.printAfter;
  pipelineOptions.printer = [this, &dump](std::string_view pass,
                                          const ir::Module &module) {
    dump << "// ----- IR after " << pass << " -----\n" << ir::print(module, sources_);
  };
  if (options_.keepHighLevel)
    pipelineOptions.observer = [this](std::string_view pass, const ir::Module &module) {
      if (pass == "track-volumes")
        highLevel_ = module;
    };
  std::optional<PassManager> manager;
  if (options_.passes) {
    std::string error;
    manager = PassManager::parsePipeline(*options_.passes, std::move(pipelineOptions), error);
    PLATE_ASSERT(manager, "pipeline must be validated by the driver: " + error);
  } else {
    manager = PassManager::defaultPipeline(std::move(pipelineOptions));
  }
  PassOptions passOptions;
  passOptions.tipCostSeconds = options_.tipCostSeconds;
  if (options_.recordFrontier) {
    frontier_ = std::make_unique<lowering::PlanFrontier>();
    passOptions.frontier = frontier_.get();
  }
  PassContext context{diags_, sources_, *program_->platform, passOptions};
  return manager->run(program_->module, context) && !diags_.hasErrors();
}

} // namespace plate

namespace plate {

std::optional<std::string>
Compilation::translationDifference(const std::vector<backend::Command> &commands,
                                   const backend::RunSetup &setup) const {
  PLATE_ASSERT(checked_, "validation before the script was checked");
  return backend::validateTranslation(*checked_, commands, setup, platform()).difference;
}

bool Compilation::validate(const std::vector<backend::Command> &commands,
                           const backend::RunSetup &setup) {
  std::optional<std::string> difference = translationDifference(commands, setup);
  if (!difference)
    return true;
  finishDiagnostics();
  std::cerr << fmt::format(
      "plate: internal compiler error: translation validation failed: the command stream "
      "does not do what the script says: {}\n"
      "No command was sent to the robot. This is a bug in plate, not in your script; please "
      "report it with the script.\n",
      *difference);
  return false;
}

} // namespace plate

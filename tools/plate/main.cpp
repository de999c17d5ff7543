//===- main.cpp - The plate driver ----------------------------------------===//
//
// Command-line parsing only; every phase lives in the libraries and the
// Compilation object (tools/plate/Compilation.h).
//
//===----------------------------------------------------------------------===//
#include "tools/plate/AlignCommand.h"
#include "tools/plate/Commands.h"
#include "tools/plate/EvalCommand.h"
#include "tools/plate/LspCommand.h"
#include "tools/plate/McpCommand.h"
#include "tools/plate/OptCommand.h"
#include "tools/plate/RunCommand.h"
#include "tools/plate/TranslateCommand.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace plate;

namespace {

/// The heap that a one-shot command grows from here on is backed by
/// transparent huge pages where the kernel allows it (madvise mode): a
/// `plate run` of the peer protocol touched about 1.6 MB of heap: about 390
/// first-touch faults of 4 KiB that cost 2-10 us each on this VM, against
/// one 2 MiB fault of about 60 us (bench/README.md, "Against the peers":
/// 623 faults in all, 237 with this, 22 ms -> 15 ms). glibc's main arena grows
/// the heap with brk, and a huge page can back only a 2 MiB-aligned range:
/// so an allocation that is never freed pads the heap up to the next 2 MiB
/// boundary (address space only; its pages are never touched), a block
/// that is freed at once makes brk reach past the range, and the range is
/// marked. The trim threshold keeps the freed block as the arena's top, from
/// which the next allocations are carved. Nothing depends on it: without
/// THP, or under another allocator (the sanitizers'), the range is not
/// where expected or the madvise fails, and the heap is what it was. The
/// price: where memory is fragmented, the kernel may compact to find a
/// huge page (a stall of tens of ms, seen once in an earlier session's
/// trials), which a one-shot command can afford and the servers are spared.
void backHeapWithHugePages() {
  constexpr std::uintptr_t kHugePage = 2 << 20;
  constexpr std::size_t kRange = 4 << 20;
  // No free chunk is this large this early, so the block is carved from
  // the arena's top, and freed it merges back: its address is where the
  // top begins.
  void *top = std::malloc(kRange + kHugePage);
  if (!top)
    return;
  std::free(top);
  auto topStart = reinterpret_cast<std::uintptr_t>(top);
  std::uintptr_t boundary = (topStart + kHugePage - 1) & ~(kHugePage - 1);
  if (boundary - topStart < 4096)
    boundary += kHugePage; // a small pad could come from a bin elsewhere
  // Kept for the process's life (a static, so that LeakSanitizer sees it
  // held): it holds the heap's first, small-page part. A chunk of this
  // request spans exactly up to the boundary (8 bytes of size field,
  // 16-byte chunks), so the next block starts there.
  static void *smallPagePart = std::malloc(boundary - topStart - 8);
  if (!smallPagePart)
    return;
  void *range = std::malloc(kRange);
  if (reinterpret_cast<std::uintptr_t>(range) == boundary)
    madvise(range, kRange, MADV_HUGEPAGE);
  std::free(range);
}

/// A one-shot command keeps the memory it frees instead of handing it
/// back to the kernel: a page the kernel hands out again costs a fault and
/// zeroing (about 3 us here), and each trial lowering of the tip-budget
/// search used to map its command vector fresh and unmap it after (`plate
/// run` of the peer protocol: 1,319 page faults, 810 with this;
/// bench/README.md, "Against the peers"). The servers (`lsp`, `mcp`) run
/// for hours and keep glibc's defaults, which return memory after a peak.
void keepFreedMemory(std::string_view invoked) {
  if (invoked == "lsp" || invoked == "mcp")
    return;
  // glibc's largest mmap threshold on 64-bit; a block above it is rare
  // enough to be mapped and unmapped on its own.
  constexpr int kLargeBlock = 32 << 20;
  mallopt(M_TRIM_THRESHOLD, kLargeBlock);
  mallopt(M_MMAP_THRESHOLD, kLargeBlock);
  backHeapWithHugePages();
}

void addCommonOptions(CLI::App &command, CompileOptions &options, std::string &format) {
  command.add_option("FILE", options.input, "the .plate script")->required();
  command.add_option("--layout", options.layoutCsv,
                     "plate layout grid as CSV (header of column numbers, row letters)");
  command.add_option("--stdlib", options.stdlibDir,
                     "directory of platforms, labware and modules (default: $PLATE_STDLIB or the built-in one)");
  command.add_option("--diagnostics", format, "diagnostics format: text, json or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  command.add_flag("--Werror", options.warningsAsErrors, "treat warnings as errors");
  addTipCostOption(command, options.tipCostSeconds);
}

void finishCommonOptions(CompileOptions &options, const std::string &format) {
  options.diagnosticsFormat = format == "json"    ? DiagnosticsFormat::Json
                              : format == "sarif" ? DiagnosticsFormat::Sarif
                                                  : DiagnosticsFormat::Text;
  const char *noColor = std::getenv("NO_COLOR");
  options.color = isatty(STDERR_FILENO) && !(noColor && *noColor) &&
                  options.diagnosticsFormat == DiagnosticsFormat::Text;
}

/// `plate compile` and its options.
CLI::App *addCompileCommand(CLI::App &app, CompileCommandOptions &options, std::string &format,
                            std::string &passes, bool &listPasses) {
  CLI::App *compile = app.add_subcommand(
      "compile", "compile a script; --emit chooses what to print");
  addCommonOptions(*compile, options.compile, format);
  compile->add_option("--emit", options.emit,
                      "what to emit: bf1 (commands, the default), bf1-json, ir, ast, or "
                      "plate-map (the layout as an SVG picture)")
      ->check(CLI::IsMember(emitKinds()));
  compile->add_option("-o,--output", options.output, "output file (default: stdout)");
  compile->add_option("--loading-plan", options.loadingPlan,
                      "write the loading plan as JSON (language spec §11)");
  compile->add_flag("--validate", options.validate,
                    "check that the command stream does what the script says (translation "
                    "validation; `plate run` always does)");
  compile->add_option("--platform", options.platform,
                      "the robot to compile for: bioforge1 (the default) or ot2 (an Opentrons "
                      "OT-2 Python protocol, docs/porting.md)")
      ->check(CLI::IsMember({"bioforge1", "ot2"}));
  compile->add_flag("--manual-fallback", options.manualFallback,
                    "--platform ot2: where the robot lacks a device (reader, lids, magnet), "
                    "pause for the operator instead of an error");
  compile->add_flag("--pareto", options.pareto,
                    "print the (robot time, fresh tips) plans the tip budget compared that no "
                    "other plan beats on both, and which one --tip-cost picked");
  compile->add_flag("--list-passes", listPasses,
                    "list the registered passes in default pipeline order and exit (no FILE)");
  compile->add_option("--passes", passes,
                      "run this comma-separated pipeline instead of the default (empty: none)");
  compile->add_flag("--print-after-all", options.compile.printAfterAll,
                    "print the IR after every pass");
  compile->add_option("--print-after", options.compile.printAfter,
                      "print the IR after the named pass (repeatable)");
  // Hidden: for debugging passes; the default is on in debug builds and
  // under PLATE_VERIFY_EACH=1 (the test suites), off in release builds.
  compile->add_flag("--verify-each,!--no-verify-each", options.compile.verifyEach,
                    "run the IR verifier after every pass")
      ->group("");
  return compile;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"plate: compile and run microplate protocols on lab robots", "plate"};
  app.set_version_flag("--version", std::string("plate ") + PLATE_VERSION);
  app.require_subcommand(1);

  // Only the invoked command's options are built: CLI11 spent about a
  // third of a short command's start-up on adding the options of every
  // command (bench/README.md, startup).
  static constexpr std::string_view kCommands[] = {"check", "compile", "run",   "translate",
                                                   "eval",  "align",   "mcp",   "lsp",
                                                   "opt"};
  std::string_view invoked = argc > 1 ? std::string_view(argv[1]) : std::string_view();
  bool known = std::find(std::begin(kCommands), std::end(kCommands), invoked) != std::end(kCommands);
  // An option of plate itself (`--version`) needs no command; help, an
  // unknown command and no argument at all list every command.
  bool all = !known && (invoked.empty() || invoked == "-h" || invoked == "--help" ||
                        invoked.front() != '-');
  auto wants = [&](std::string_view name) { return all || invoked == name; };
  keepFreedMemory(invoked);

  CompileOptions checkOptions;
  std::string checkFormat = "text";
  CLI::App *check = nullptr;
  if (wants("check")) {
    check = app.add_subcommand("check", "check a script and print its diagnostics");
    addCommonOptions(*check, checkOptions, checkFormat);
  }

  CompileCommandOptions compileOptions;
  std::string compileFormat = "text";
  std::string passes;
  bool listPasses = false;
  CLI::App *compile = nullptr;
  if (wants("compile")) {
    compile = addCompileCommand(app, compileOptions, compileFormat, passes, listPasses);
  }
  RunCommandOptions runOptions;
  std::string runFormat = "text";
  CLI::App *run = nullptr;
  if (wants("run")) {
    run = app.add_subcommand(
        "run", "compile a script (or read a saved .jsonl stream) and execute it on the simulator");
    addCommonOptions(*run, runOptions.compile, runFormat);
    run->get_option("FILE")->description("a .plate script or a .jsonl command stream");
    addRunOptions(*run, runOptions);
  }

  TranslateOptions translateOptions;
  CLI::App *translate = wants("translate") ? addTranslateCommand(app, translateOptions) : nullptr;
  EvalOptions evalOptions;
  CLI::App *eval = wants("eval") ? addEvalCommand(app, evalOptions) : nullptr;
  AlignOptions alignOptions;
  CLI::App *align = wants("align") ? addAlignCommand(app, alignOptions) : nullptr;
  McpOptions mcpOptions;
  CLI::App *mcp = wants("mcp") ? addMcpCommand(app, mcpOptions) : nullptr;
  LspOptions lspOptions;
  CLI::App *lsp = wants("lsp") ? addLspCommand(app, lspOptions) : nullptr;
  OptOptions optOptions;
  CLI::App *opt = wants("opt") ? addOptCommand(app, optOptions) : nullptr;
  auto chosen = [](CLI::App *command) { return command && *command; };

  // --list-passes needs no FILE, so it is handled before FILE is required.
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--list-passes")
      listPasses = true;
  if (listPasses)
    return runListPasses();

  // CLI11 reports a misspelt command as "a subcommand is required"; name
  // it instead, with the closest command.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> commands;
    for (CLI::App *command : app.get_subcommands([](CLI::App *) { return true; }))
      commands.push_back(command->get_name());
    if (std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
      std::cerr << "plate: error: unknown command `" << argv[1] << "`";
      if (std::string guess = closestMatch(argv[1], commands); !guess.empty())
        std::cerr << "; did you mean `" << guess << "`?";
      std::cerr << "\nRun with --help for more information.\n";
      return static_cast<int>(ExitCode::Usage);
    }
  }

  // `--passes=` means the empty pipeline; CLI11 would take the next
  // argument as its value instead, so pass the empty value explicitly.
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i] == "--passes=") {
      args[i] = "--passes";
      args.insert(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, "");
    }
  std::reverse(args.begin(), args.end()); // CLI11 takes them last to first

  try {
    app.parse(args);
  } catch (const CLI::ParseError &error) {
    return app.exit(error) == 0 ? 0 : static_cast<int>(ExitCode::Usage);
  }

  if (chosen(check)) {
    finishCommonOptions(checkOptions, checkFormat);
    return runCheckCommand(checkOptions);
  }
  if (chosen(compile)) {
    finishCommonOptions(compileOptions.compile, compileFormat);
    if (compile->count("--passes")) {
      std::string error;
      if (!PassManager::parsePipeline(passes, {}, error)) {
        std::cerr << "plate: error: " << error << "\n";
        return static_cast<int>(ExitCode::Usage);
      }
      compileOptions.compile.passes = passes;
    }
    for (const std::string &name : compileOptions.compile.printAfter)
      if (!findPass(name)) {
        std::vector<std::string> known;
        for (const PassInfo &info : registeredPasses())
          known.emplace_back(info.name);
        std::cerr << "plate: error: unknown pass `" << name << "` in --print-after";
        if (std::string guess = closestMatch(name, known); !guess.empty())
          std::cerr << "; did you mean `" << guess << "`?";
        std::cerr << "; see --list-passes\n";
        return static_cast<int>(ExitCode::Usage);
      }
    return runCompileCommand(compileOptions);
  }
  if (chosen(run)) {
    finishCommonOptions(runOptions.compile, runFormat);
    return runRunCommand(runOptions);
  }
  if (chosen(translate))
    return runTranslateCommand(translateOptions);
  if (chosen(eval))
    return runEvalCommand(evalOptions);
  if (chosen(align))
    return runAlignCommand(alignOptions);
  if (chosen(mcp))
    return runMcpCommand(mcpOptions);
  if (chosen(lsp))
    return runLspCommand(lspOptions);
  if (chosen(opt))
    return runOptCommand(optOptions);
  return static_cast<int>(ExitCode::Usage);
}

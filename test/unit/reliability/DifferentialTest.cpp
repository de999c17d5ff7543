//===- DifferentialTest.cpp - Every test script replays on the twin --------===//
//
// The differential check of docs/reliability.md: every .plate file the
// tests and docs use that compiles cleanly is lowered to commands, and
// that stream must (1) pass the interpreter's invariant checker command by
// command and (2) read back unchanged after emission as JSON Lines. A
// stream the checker rejects is a compiler bug that would otherwise only
// show on the robot.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/DeckState.h"
#include "test/unit/CorpusSample.h"
#include "tools/plate/Compilation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

using namespace plate;

namespace {

std::vector<std::string> scriptsUnder(const std::vector<std::string> &roots) {
  std::vector<std::string> scripts;
  for (const std::string &root : roots)
    for (const auto &entry : std::filesystem::recursive_directory_iterator(root))
      if (entry.is_regular_file() && entry.path().extension() == ".plate")
        scripts.push_back(entry.path().string());
  std::sort(scripts.begin(), scripts.end());
  return scripts;
}

} // namespace

TEST(Differential, EveryCompiledTestScriptReplaysOnTheTwin) {
  std::string source = PLATE_SOURCE_DIR;
  auto scripts = scriptsUnder({source + "/test", source + "/docs/examples"});
  ASSERT_GT(scripts.size(), 40u) << "the test scripts were not found under " << source;
  size_t replayed = 0, commandsChecked = 0;
  for (const std::string &path : testcorpus::sample(scripts)) {
    CompileOptions options;
    options.input = path;
    options.stdlibDir = PLATE_STDLIB_DIR;
    Compilation compilation(options);
    compilation.diags().setConsumer(nullptr); // expected errors stay off the test output
    std::ostringstream dump;
    bool compiled = compilation.compile(dump);
    if (!compiled || !compilation.module().lowered)
      continue; // an expected-error test: nothing reaches the robot
    const Platform &platform = compilation.platform();
    auto commands = backend::lowerToCommands(compilation.module(), platform);
    auto setup = backend::setupFromModule(compilation.module(), platform, commands);
    const Labware *labware = platform.findLabware(setup.plateType);
    ASSERT_NE(labware, nullptr) << path;
    backend::DeckState twin(platform, *labware, setup);
    bool legal = true;
    for (const backend::Command &command : commands) {
      twin.applyManualFills(command.seq);
      auto violation = twin.execute(command, /*commit=*/true);
      ++commandsChecked;
      if (violation) {
        ADD_FAILURE() << path << ": compiled without errors but command " << command.seq
                      << " `" << backend::commandToText(command) << "` (line " << command.line
                      << ") breaks the " << backend::ruleName(violation->rule)
                      << " rule: " << violation->message();
        legal = false;
        break; // the rest of this stream runs on a state the robot never reaches
      }
    }
    if (!legal)
      continue;

    std::ostringstream jsonl;
    backend::emitJsonl(compilation.module(), platform, jsonl, /*withPlan=*/true);
    SourceManager sources;
    DiagnosticEngine diags(sources);
    uint32_t fileId = sources.addBuffer(path + ".jsonl", jsonl.str());
    auto reread = backend::parseCommandStream(fileId, sources, diags);
    ASSERT_TRUE(reread.has_value()) << path << ": the emitted stream does not read back";
    ASSERT_EQ(reread->size(), commands.size()) << path;
    for (size_t i = 0; i < commands.size(); ++i) {
      EXPECT_EQ(backend::commandToJsonLine((*reread)[i]), backend::commandToJsonLine(commands[i]))
          << path << " command " << i + 1;
      // Lowering fills the typed fields as it writes the JSON; the checks
      // must see exactly what a saved and re-read stream gives them.
      EXPECT_TRUE((*reread)[i].fields == commands[i].fields)
          << path << " command " << i + 1 << " `" << backend::commandToText(commands[i])
          << "`: lowered fields differ from the decoded stream's";
    }
    ++replayed;
  }
  // Both examples and the run tests compile; a drop means scripts stopped
  // reaching the check, not that they became legal.
  EXPECT_GE(replayed, 10u / testcorpus::kStride);
  EXPECT_GT(commandsChecked, 500u / testcorpus::kStride);
  RecordProperty("scripts_replayed", static_cast<int>(replayed));
  RecordProperty("commands_checked", static_cast<int>(commandsChecked));
}

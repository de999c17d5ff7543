//===- IrRoundTripTest.cpp - Print, parse, print; and each pass from text --===//
//
// Over every script the lit suite, the corpus and the examples hold that
// compiles: the IR before any pass and after each pass of the default
// pipeline is printed, parsed back (ir/IRReader.h) and printed again, which
// must give the same bytes. Then each pass is run on the module parsed from
// the text before it, which must print what the pipeline printed after it:
// the text holds everything the passes read, so `plate opt` can test any
// pass on its own.
//
//===----------------------------------------------------------------------===//
#include "ir/IRReader.h"
#include "ir/Verifier.h"
#include "passes/Pass.h"
#include "test/unit/CorpusSample.h"
#include "tools/plate/Compilation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace plate {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> scripts() {
  std::vector<fs::path> found;
  for (const char *dir : {"test/lit", "test/corpus", "docs/examples"})
    for (const fs::directory_entry &entry :
         fs::recursive_directory_iterator(fs::path(PLATE_SOURCE_DIR) / dir))
      if (entry.is_regular_file() && entry.path().extension() == ".plate")
        found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  return found;
}

struct Stage {
  std::string pass; ///< empty: the frontend's IR
  std::string text;
};

/// The `--print-after-all` dump split at its `// ----- IR after PASS -----`
/// headings.
std::vector<Stage> splitDump(const std::string &dump) {
  constexpr std::string_view kHeading = "// ----- IR after ";
  std::vector<Stage> stages;
  std::istringstream in(dump);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(kHeading, 0) == 0) {
      std::string pass = line.substr(kHeading.size());
      pass = pass.substr(0, pass.find(' '));
      stages.push_back({pass, ""});
    } else if (!stages.empty()) {
      stages.back().text += line + "\n";
    }
  }
  return stages;
}

std::string rendered(const DiagnosticEngine &diags, const SourceManager &sources) {
  std::string text;
  for (const Diagnostic &diagnostic : diags.diagnostics())
    text += renderText(diagnostic, sources, false);
  return text;
}

TEST(IrRoundTrip, EveryStageOfEveryScriptThatCompiles) {
  std::vector<fs::path> inputs = scripts();
  ASSERT_GT(inputs.size(), 150u) << "the glob found too few scripts; is PLATE_SOURCE_DIR right?";
  unsigned compiled = 0, printed = 0, rerun = 0;
  for (const fs::path &path : testcorpus::sample(inputs)) {
    CompileOptions options;
    options.input = path.string();
    options.diagnosticsFormat = DiagnosticsFormat::Collect;
    options.printAfterAll = true;
    if (fs::path csv = fs::path(path).replace_extension(".csv"); fs::exists(csv))
      options.layoutCsv = csv.string();
    Compilation compilation(options);
    std::ostringstream dump;
    if (!compilation.compile(dump))
      continue; // only scripts that compile: the others have no pipeline
    ++compiled;
    SourceManager &sources = compilation.sources();
    std::vector<Stage> stages = splitDump(dump.str());
    ASSERT_EQ(stages.size(), registeredPasses().size()) << path;
    stages.insert(stages.begin(), Stage{"", ir::print(compilation.checkedModule(), sources)});

    ir::ParseOptions parseOptions;
    parseOptions.scriptFileId = compilation.module().fileId;
    parseOptions.modulesDir = (fs::path(PLATE_STDLIB_DIR) / "modules").string();
    auto parse = [&](const Stage &stage, DiagnosticEngine &diags) {
      std::string name = path.filename().string() + " after " +
                         (stage.pass.empty() ? std::string("the frontend") : stage.pass);
      uint32_t id = sources.addBuffer(name, stage.text);
      return ir::parseModule(id, sources, diags, parseOptions);
    };

    for (size_t i = 0; i < stages.size(); ++i) {
      const Stage &stage = stages[i];
      SCOPED_TRACE(path.string() + " after " + (stage.pass.empty() ? "the frontend" : stage.pass));
      DiagnosticEngine diags(sources);
      std::optional<ir::Module> module = parse(stage, diags);
      ASSERT_TRUE(module) << rendered(diags, sources) << stage.text;
      EXPECT_EQ(ir::print(*module, sources), stage.text);
      ++printed;
      if (i == 0)
        continue;
      // The pass on its own, from the text before it.
      DiagnosticEngine rerunDiags(sources);
      std::optional<ir::Module> before = parse(stages[i - 1], rerunDiags);
      ASSERT_TRUE(before) << rendered(rerunDiags, sources);
      const PassInfo *info = findPass(stage.pass);
      ASSERT_NE(info, nullptr) << stage.pass;
      PassContext context{rerunDiags, sources, compilation.platform()};
      EXPECT_TRUE(info->create()->run(*before, context)) << rendered(rerunDiags, sources);
      EXPECT_FALSE(rerunDiags.hasErrors()) << rendered(rerunDiags, sources);
      EXPECT_EQ(ir::verify(*before), std::vector<std::string>{});
      EXPECT_EQ(ir::print(*before, sources), stage.text)
          << stage.pass << " run on the parsed text differs from the pipeline's";
      ++rerun;
    }
  }
  // Most lit inputs are error tests; the rest, the corpus and the examples
  // must still give a real sample.
  EXPECT_GT(compiled, 100u / testcorpus::kStride);
  RecordProperty("scripts", static_cast<int>(compiled));
  RecordProperty("stages", static_cast<int>(printed));
  RecordProperty("passes_rerun", static_cast<int>(rerun));
  std::cout << "round trip: " << compiled << " scripts, " << printed << " IR texts, " << rerun
            << " passes rerun from text\n";
}

} // namespace
} // namespace plate

//===- EvalLayersTest.cpp - Layers of compiled scripts, and mutants -------===//
#include "agent/Eval.h"
#include "tools/plate/EvalCommand.h"

#include "ir/Diagnostics.h"
#include "ir/SourceManager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

using namespace plate;
using namespace plate::agent;

namespace {

const char *kScript = R"(<LAYOUT>
plate plate96
sample X1 at A1
</LAYOUT>
<REAGENTS>
buf
</REAGENTS>
<INSTRUMENT>
dispense 100 uL of buf to all
incubate 1 h at RT
read absorbance at 450 nm
</INSTRUMENT>
)";

Platform bioforge() {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  std::optional<Platform> platform = loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, SourceLoc{});
  EXPECT_TRUE(platform.has_value());
  return *platform;
}

const NamedParam *find(const StepRecord &step, const std::string &name) {
  for (const NamedParam &p : step.params)
    if (p.first == name)
      return &p;
  return nullptr;
}

} // namespace

TEST(EvalLayersTest, StepsAndBlocksOfACompiledScript) {
  ScriptLayers layers = layersOfScript(kScript, PLATE_STDLIB_DIR);
  ASSERT_TRUE(layers.compiled) << layers.diagnostics.dump();
  EXPECT_EQ(stepTypes(layers.steps),
            (std::vector<std::string>{"dispense", "incubate", "read.absorbance"}));
  ASSERT_NE(find(layers.steps[0], "volume"), nullptr);
  EXPECT_EQ(find(layers.steps[0], "volume")->second, "100 µL");
  EXPECT_EQ(find(layers.steps[0], "source")->second, "buf");
  EXPECT_EQ(find(layers.steps[0], "mix_cycles")->second, "none");
  EXPECT_EQ(find(layers.steps[1], "time")->second, "3600 s");
  EXPECT_EQ(find(layers.steps[1], "temperature")->second, "RT");
  EXPECT_EQ(find(layers.steps[2], "section")->second, "instrument");
  std::vector<std::string> blocks = blockTypes(layers.blocks);
  EXPECT_EQ(blocks.front(), "dispense");
  EXPECT_NE(std::find(blocks.begin(), blocks.end(), "read"), blocks.end());
  EXPECT_NE(std::find(blocks.begin(), blocks.end(), "wait"), blocks.end());
}

TEST(EvalLayersTest, UnitSpellingsAndRoomTemperatureCompareEqual) {
  std::string other = kScript;
  other.replace(other.find("100 uL"), 6, "0.1 mL");
  other.replace(other.find("1 h at RT"), 9, "60 min at 22 C");
  ScriptLayers a = layersOfScript(kScript, PLATE_STDLIB_DIR);
  ScriptLayers b = layersOfScript(other, PLATE_STDLIB_DIR);
  ASSERT_TRUE(a.compiled && b.compiled);
  ParameterAccuracy pa = scoreParameterAccuracy(a.steps, a.blocks, b.steps, b.blocks);
  EXPECT_DOUBLE_EQ(pa.value, 1.0);
}

TEST(EvalLayersTest, AWrongVolumeLowersBothLayers) {
  std::string other = kScript;
  other.replace(other.find("100 uL"), 6, "200 uL");
  ScriptLayers a = layersOfScript(kScript, PLATE_STDLIB_DIR);
  ScriptLayers b = layersOfScript(other, PLATE_STDLIB_DIR);
  ParameterAccuracy pa = scoreParameterAccuracy(a.steps, a.blocks, b.steps, b.blocks);
  EXPECT_EQ(pa.structured.total - pa.structured.correct, 1u); // only the volume
  EXPECT_LT(pa.command.correct, pa.command.total);
  EXPECT_EQ(pa.structured.penalty + pa.command.penalty, 0u);
  EXPECT_LT(pa.value, 1.0);
}

TEST(EvalLayersTest, ACandidateThatDoesNotCompileHasNoBlocks) {
  std::string broken = kScript;
  broken.replace(broken.find("450 nm"), 6, "450 uL");
  ScriptLayers layers = layersOfScript(broken, PLATE_STDLIB_DIR);
  EXPECT_FALSE(layers.compiled);
  EXPECT_TRUE(layers.blocks.empty());
}

TEST(EvalLayersTest, MutantsOfEveryKind) {
  Platform platform = bioforge();
  std::vector<Mutant> mutants = makeMutants(kScript, platform);
  std::map<std::string, std::vector<const Mutant *>> byKind;
  for (const Mutant &m : mutants)
    byKind[m.kind].push_back(&m);
  EXPECT_EQ(byKind["drop"].size(), 3u);
  EXPECT_EQ(byKind["to-manual"].size(), 3u);
  EXPECT_EQ(byKind["swap"].size(), 2u);
  ASSERT_EQ(byKind["volume"].size(), 1u);
  EXPECT_EQ(byKind["volume"][0]->description, "100 uL -> 200 uL");
  EXPECT_EQ(byKind["volume"][0]->line, 9u);
  ASSERT_EQ(byKind["time"].size(), 1u);
  EXPECT_EQ(byKind["time"][0]->description, "1 h -> 2 h");
  ASSERT_EQ(byKind["temperature"].size(), 1u);
  EXPECT_EQ(byKind["temperature"][0]->description, "RT -> 37 C");
  ASSERT_EQ(byKind["wavelength"].size(), 1u);
  // The nearest other filter of the reader (490 is 40 nm away, 405 is 45).
  EXPECT_EQ(byKind["wavelength"][0]->description, "450 nm -> 490 nm");
  EXPECT_EQ(mutants.size(), 12u);
  // Moving the first step leaves no empty INSTRUMENT section behind.
  const Mutant *moved = byKind["to-manual"][0];
  EXPECT_EQ(moved->script.find("<INSTRUMENT>\n</INSTRUMENT>"), std::string::npos);
  EXPECT_NE(moved->script.find("<MANUAL>\ndispense 100 uL of buf to all\n</MANUAL>"),
            std::string::npos);
  // Every mutant still differs from the original by exactly its change.
  for (const Mutant &m : mutants)
    EXPECT_NE(m.script, kScript) << m.kind;
}

TEST(EvalLayersTest, ProcedureBodiesAndRepeatsAreNotMutated) {
  Platform platform = bioforge();
  std::string script = R"(<LAYOUT>
plate plate96
sample X1 at A1
</LAYOUT>
<REAGENTS>
buf
</REAGENTS>
<INSTRUMENT>
proc add(v: Volume) {
  dispense v of buf to all
}
repeat 2 {
  add(50 uL)
}
read absorbance at 450 nm
</INSTRUMENT>
)";
  for (const Mutant &m : makeMutants(script, platform))
    EXPECT_EQ(m.line, 15u) << m.kind << " " << m.description;
}

TEST(EvalLayers, ScriptsCompileInMemoryOnSeveralThreadsAtOnce) {
  // Candidates compile from a buffer with their diagnostics collected: no
  // scratch file, no redirected std::cerr, no lock (issue 14), so a sweep
  // with -j compiles in parallel. Every thread must see exactly what one
  // compile alone sees.
  const std::string broken = std::string(kScript).replace(
      std::string(kScript).find("100 uL"), 6, "100 uX");
  ScriptLayers good = layersOfScript(kScript, PLATE_STDLIB_DIR);
  ScriptLayers bad = layersOfScript(broken, PLATE_STDLIB_DIR);
  ASSERT_TRUE(good.compiled);
  ASSERT_FALSE(bad.checked);
  ASSERT_FALSE(bad.diagnostics.empty());
  std::vector<std::thread> threads;
  std::atomic<unsigned> same{0};
  for (unsigned t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (unsigned i = 0; i < 10; ++i) {
        bool odd = (t + i) % 2;
        ScriptLayers layers = layersOfScript(odd ? broken : kScript, PLATE_STDLIB_DIR);
        const ScriptLayers &alone = odd ? bad : good;
        if (layers.compiled == alone.compiled && layers.diagnostics == alone.diagnostics &&
            layers.blocks.size() == alone.blocks.size() && layers.steps.size() == alone.steps.size())
          ++same;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(same.load(), 40u);
}

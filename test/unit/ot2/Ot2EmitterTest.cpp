//===- Ot2EmitterTest.cpp - The OT-2 description and emitter --------------===//
#include "backend/ot2/Ot2Emitter.h"
#include "tools/plate/Compilation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace plate;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Compiles a script with the OT-2 pipeline and emits its protocol.
std::optional<std::string> emitOt2(const std::string &path, bool fallback,
                                   std::vector<std::string> *codes = nullptr) {
  CompileOptions options;
  options.input = path;
  options.stdlibDir = PLATE_STDLIB_DIR;
  options.diagnosticsFormat = DiagnosticsFormat::Collect;
  options.passes = "normalize-units,track-volumes,lint-protocol";
  options.platform = "ot2";
  Compilation compilation(options);
  std::ostringstream dump;
  if (!compilation.compile(dump))
    return std::nullopt;
  ot2::EmitOptions emitOptions;
  emitOptions.manualFallback = fallback;
  emitOptions.sourceName = "test.plate";
  std::optional<std::string> protocol = ot2::emitProtocol(
      compilation.module(), compilation.platform(), compilation.sources(), compilation.diags(), emitOptions);
  if (codes)
    for (const Diagnostic &diagnostic : compilation.diags().diagnostics())
      codes->push_back(std::string(diagInfo(diagnostic.id).code));
  return protocol;
}

std::optional<Platform> loadOt2(const std::string &stdlibDir, DiagnosticEngine &diags) {
  return loadPlatform("ot2", stdlibDir, diags, SourceLoc{}, PlatformLookup::CommandLine);
}

TEST(Ot2Platform, LoadsTheStdlibDescription) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  std::optional<Platform> platform = loadOt2(PLATE_STDLIB_DIR, diags);
  ASSERT_TRUE(platform);
  EXPECT_EQ(platform->backend, "ot2");
  EXPECT_EQ(platform->apiLevel, "2.20");
  ASSERT_NE(platform->findLabware("plate96"), nullptr);
  EXPECT_EQ(platform->findLabware("plate96")->loadName, "corning_96_wellplate_360ul_flat");
  // BioForge-1's plate96 holds 350 µL: the OT-2 plate must hold as much.
  EXPECT_GE(platform->findLabware("plate96")->wellCapacityUl, 350.0);
  EXPECT_EQ(platform->findLabware("plate384")->shape.rows, 16u);
  ASSERT_NE(platform->findPipette("p300_multi_gen2"), nullptr);
  EXPECT_EQ(platform->findPipette("p300_multi_gen2")->channels, 8u);
  EXPECT_DOUBLE_EQ(platform->findPipette("p20_single_gen2")->minUl, 1.0);
  EXPECT_EQ(platform->reservoir().wells, 12u);
  EXPECT_DOUBLE_EQ(platform->largeReservoir.capacityUl, 290000.0);
  // What the passes ask: the same fields as BioForge-1's, the OT-2's values.
  EXPECT_DOUBLE_EQ(platform->solutionWasteMl, 290.0);
  EXPECT_EQ(platform->channels, 8u);
  EXPECT_DOUBLE_EQ(platform->tipCapacityUl, 300.0);
  EXPECT_DOUBLE_EQ(platform->heaterMinCelsius, 37.0);
  EXPECT_DOUBLE_EQ(platform->shakerMaxRpm, 3000.0);
  EXPECT_DOUBLE_EQ(platform->coolerMinCelsius, 4.0);
  EXPECT_TRUE(platform->readerModule.empty());
  EXPECT_TRUE(platform->magnetSlot.empty());
}

TEST(Ot2Platform, AScriptTagDoesNotReachAVendorFolder) {
  // stdlib/platforms/*.toml are what `<PLATFORM>` names; the OT-2 is a
  // compile target, chosen on the command line.
  SourceManager sources;
  DiagnosticEngine diags(sources);
  EXPECT_FALSE(loadPlatform("ot2", PLATE_STDLIB_DIR, diags, SourceLoc{}));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_STREQ(diagInfo(diags.diagnostics()[0].id).code, "E208");
}

TEST(Ot2Platform, AMissingKeyIsE610NamingIt) {
  auto dir = std::filesystem::temp_directory_path() / "plate-ot2-malformed";
  std::filesystem::create_directories(dir / "platforms" / "opentrons");
  std::string text = readFile(std::string(PLATE_STDLIB_DIR) + "/platforms/opentrons/ot2.toml");
  size_t at = text.find("api_level = \"2.20\"\n");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, std::string("api_level = \"2.20\"\n").size());
  std::ofstream(dir / "platforms" / "opentrons" / "ot2.toml") << text;
  SourceManager sources;
  DiagnosticEngine diags(sources);
  EXPECT_FALSE(loadOt2(dir.string(), diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_STREQ(diagInfo(diags.diagnostics()[0].id).code, "E610");
  EXPECT_NE(diags.diagnostics()[0].message.find("`platform.api_level`"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Ot2Emitter, EveryCallOfTheRunNamesItsLine) {
  std::optional<std::string> protocol =
      emitOt2(std::string(PLATE_SOURCE_DIR) + "/docs/examples/il6_elisa.plate", true);
  ASSERT_TRUE(protocol);
  std::istringstream lines(*protocol);
  bool inRun = false;
  size_t calls = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("def run("))
      inRun = true;
    if (!inRun || !line.starts_with("    ") || line.starts_with("    #"))
      continue;
    ++calls;
    bool named = line.find("  # line ") != std::string::npos ||
                 line.find("  # deck setup") != std::string::npos;
    EXPECT_TRUE(named) << line;
  }
  EXPECT_GT(calls, 500u);
  // The wash buffer (230 mL) needs a trough; every column fills with the 8-channel.
  EXPECT_NE(protocol->find("trough_1[\"A1\"].load_liquid(liquid_wash_buffer"), std::string::npos);
  EXPECT_NE(protocol->find("p300_multi_gen2"), std::string::npos);
  EXPECT_EQ(protocol->find("p300_single_gen2"), std::string::npos);
}

TEST(Ot2Emitter, WithoutFallbackTheReadIsAnErrorAndNothingIsEmitted) {
  std::vector<std::string> codes;
  EXPECT_FALSE(emitOt2(std::string(PLATE_SOURCE_DIR) + "/docs/examples/il6_elisa.plate", false,
                       &codes));
  EXPECT_NE(std::find(codes.begin(), codes.end(), "E603"), codes.end());
}

// The issue's figure: IL-6 for the OT-2 in the time class of BioForge-1
// (well under 5 ms in process). Printed, not asserted: a timing assertion
// fails under load (bench/ has the guarded benchmarks).
TEST(Ot2Emitter, Il6CompileTime) {
  std::string path = std::string(PLATE_SOURCE_DIR) + "/docs/examples/il6_elisa.plate";
  std::vector<double> ms;
  for (int i = 0; i < 15; ++i) {
    auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(emitOt2(path, true));
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  std::cout << "il6_elisa for the OT-2, compile + emit in process: median " << ms[ms.size() / 2]
            << " ms, min " << ms.front() << " ms\n";
}

} // namespace

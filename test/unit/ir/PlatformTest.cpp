//===- PlatformTest.cpp - Loading stdlib/platforms/bioforge1.toml ----------===//
#include "ir/Platform.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace plate;

namespace {

TEST(Platform, LoadsBioForge1FromStdlib) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  std::optional<Platform> p = loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, {});
  ASSERT_TRUE(p) << (diags.diagnostics().empty() ? "" : diags.diagnostics()[0].message);
  EXPECT_EQ(p->channels, 4u);
  EXPECT_DOUBLE_EQ(p->ambientCelsius, 22);
  EXPECT_DOUBLE_EQ(p->tipCapacityUl, 300);
  EXPECT_EQ(p->reservoirRows * p->reservoirCols, 15u);
  EXPECT_EQ(p->readerFiltersNm.size(), 8u);
  EXPECT_EQ(p->moverBetween("1", "A1"), "PT");
  EXPECT_EQ(p->moverBetween("A1", "A3"), "PL");
  EXPECT_EQ(p->moverBetween("1", "3"), "LH");
  EXPECT_EQ(p->moverBetween("1", "A3"), "");
  ASSERT_TRUE(p->findLabware("plate384"));
  EXPECT_EQ(p->findLabware("plate384")->shape.rows, 16u);
  EXPECT_DOUBLE_EQ(p->findLabware("plate96")->wellCapacityUl, 350);
  EXPECT_EQ(p->lidHolders.at("analyzer"), "A2");
}

TEST(Platform, UnknownPlatformSuggestsTheClosest) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  EXPECT_FALSE(loadPlatform("bioforge", PLATE_STDLIB_DIR, diags, {}));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].id, DiagId::UnknownPlatform);
  EXPECT_EQ(diags.diagnostics()[0].suggestion, "bioforge1");
}

TEST(Platform, MalformedFileIsAnErrorNotADefault) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "plate-platform-test";
  fs::create_directories(dir / "platforms");
  std::ofstream(dir / "platforms" / "broken.toml") << "[platform]\nname = 3\n";
  SourceManager sources;
  DiagnosticEngine diags(sources);
  EXPECT_FALSE(loadPlatform("broken", dir.string(), diags, {}));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].id, DiagId::PlatformKeyType);
  EXPECT_NE(diags.diagnostics()[0].message.find("platform.name"), std::string::npos);
  fs::remove_all(dir);
}

} // namespace

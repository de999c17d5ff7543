//===- PassTestUtil.h - Building IR modules by hand for pass tests --------===//
//
// The pass tests construct ir::Module values directly (no frontend) and load
// the real BioForge-1 description from stdlib/, so the tests follow the
// platform file rather than numbers copied into them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Verifier.h"
#include "passes/Pass.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace plate::test {

inline Well W(std::string_view name) {
  std::optional<Well> well = Well::parse(name);
  EXPECT_TRUE(well.has_value()) << name;
  return well.value_or(Well{1, 1});
}

inline WellSet wells(std::string_view a, std::string_view b) {
  return WellSet::rectangle(W(a), W(b));
}
inline WellSet wells(std::initializer_list<std::string_view> names) {
  WellSet set;
  for (std::string_view name : names)
    set.insert(W(name));
  return set;
}

inline Quantity uL(double v) { return Quantity::microliters(v); }
inline Quantity mL(double v) { return {v, Unit::MilliLiter}; }

/// A module on a plate of the loaded platform, a fake script buffer with
/// one line per op (so every op has its own valid location), and the pass
/// context around them.
class PassFixture : public ::testing::Test {
protected:
  PassFixture() : diags(sources) {}

  void SetUp() override {
    fileId = sources.addBuffer("test.plate", std::string(200, '\n'));
    std::optional<Platform> loaded =
        loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, SourceLoc{});
    ASSERT_TRUE(loaded.has_value());
    platform = std::move(*loaded);
    usePlate("plate96");
  }

  void usePlate(const std::string &type) {
    const Labware *labware = platform.findLabware(type);
    ASSERT_NE(labware, nullptr) << type;
    module.plateType = type;
    module.shape = labware->shape;
    module.wellCapacityUl = labware->wellCapacityUl;
    module.fileId = fileId;
  }

  SourceLoc lineLoc(uint32_t line, uint32_t col = 1) {
    return SourceLoc{fileId, line, col, 1};
  }

  ir::LiquidId addLiquid(std::string name, ir::LiquidRole role,
                         WellSet liquidWells = {}) {
    ir::Liquid liquid;
    liquid.id = static_cast<ir::LiquidId>(module.liquids.size());
    liquid.name = std::move(name);
    liquid.role = role;
    liquid.wells = liquidWells;
    liquid.loc = lineLoc(100 + liquid.id, 1);
    module.liquids.push_back(std::move(liquid));
    return module.liquids.back().id;
  }
  ir::LiquidId addReagent(std::string name) {
    return addLiquid(std::move(name), ir::LiquidRole::Reagent);
  }

  /// Appends an op on source line `ops.size() + 1`; returns its index.
  template <typename T> size_t addOp(T payload, bool manual = false) {
    ir::Op op;
    op.payload = std::move(payload);
    op.loc = lineLoc(static_cast<uint32_t>(module.ops.size() + 1), 4);
    op.step = std::to_string(module.ops.size() + 1);
    op.manual = manual;
    module.ops.push_back(std::move(op));
    return module.ops.size() - 1;
  }

  /// Runs the named passes in order through the real pass manager (with
  /// the verifier between passes). Returns the manager's verdict.
  bool runPasses(const std::string &names) {
    std::string error;
    std::optional<PassManager> manager =
        PassManager::parsePipeline(names, PipelineOptions{}, error);
    EXPECT_TRUE(manager.has_value()) << error;
    if (!manager)
      return false;
    // Tip cost 0: the fastest plan, which these tests were written against.
    PassContext context{diags, sources, platform, PassOptions{0}};
    return manager->run(module, context);
  }

  /// Codes of all reported diagnostics, in order.
  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const Diagnostic &diagnostic : diags.diagnostics())
      out.push_back(diagInfo(diagnostic.id).code);
    return out;
  }
  const Diagnostic &only(std::string_view code) const {
    const Diagnostic *found = nullptr;
    for (const Diagnostic &diagnostic : diags.diagnostics())
      if (diagInfo(diagnostic.id).code == code) {
        EXPECT_EQ(found, nullptr) << "more than one " << code;
        found = &diagnostic;
      }
    EXPECT_NE(found, nullptr) << "no " << code;
    static const Diagnostic none{};
    return found ? *found : none;
  }

  SourceManager sources;
  DiagnosticEngine diags;
  Platform platform;
  ir::Module module;
  uint32_t fileId = 0;
};

} // namespace plate::test

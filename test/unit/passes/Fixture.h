//===- Fixture.h - Hand-built modules for the lowering pass tests --------===//
#pragma once

#include "ir/IR.h"
#include "ir/Platform.h"
#include "passes/Pass.h"

#include <gtest/gtest.h>

#include <memory>

namespace plate::testing {

class PassFixture : public ::testing::Test {
protected:
  void SetUp() override {
    fileId_ = sources_.addBuffer("test.plate", std::string(200, '\n'));
    diags_ = std::make_unique<DiagnosticEngine>(sources_);
    auto loaded = loadPlatform("bioforge1", PLATE_STDLIB_DIR, *diags_, {});
    ASSERT_TRUE(loaded.has_value());
    platform_ = *loaded;
    module_.fileId = fileId_;
    module_.unitsNormalized = true;
  }

  SourceLoc at(uint32_t line, uint32_t col = 1) { return {fileId_, line, col, 1}; }

  ir::LiquidId addLiquid(std::string name, ir::LiquidRole role, WellSet wells = {}) {
    ir::Liquid liquid;
    liquid.id = static_cast<ir::LiquidId>(module_.liquids.size());
    liquid.name = std::move(name);
    liquid.role = role;
    liquid.loc = at(1);
    liquid.wells = wells;
    module_.liquids.push_back(liquid);
    return liquid.id;
  }

  void load(ir::LiquidId liquid, unsigned row, unsigned col, double ml) {
    module_.loadingPlan.push_back({{row, col}, liquid, ml});
  }

  ir::Op &add(ir::OpPayload payload, uint32_t line, std::string step = "") {
    ir::Op op;
    op.payload = std::move(payload);
    op.loc = at(line);
    op.step = std::move(step);
    module_.ops.push_back(std::move(op));
    return module_.ops.back();
  }

  bool runPass(std::unique_ptr<Pass> pass) {
    PassContext context{*diags_, sources_, platform_, passOptions_};
    return pass->run(module_, context);
  }

  size_t count(ir::OpKind kind) const {
    size_t n = 0;
    for (const ir::Op &op : module_.ops)
      n += op.kind() == kind;
    return n;
  }

  static WellSet wells(const char *from, const char *to) {
    return WellSet::rectangle(*Well::parse(from), *Well::parse(to));
  }
  static Quantity ul(double v) { return Quantity::microliters(v); }

  SourceManager sources_;
  std::unique_ptr<DiagnosticEngine> diags_;
  Platform platform_;
  /// These tests pin mechanisms of the fastest (full-width) plans: tips
  /// cost nothing unless a test says otherwise (docs/schedule.md, "Tip
  /// cost").
  PassOptions passOptions_{0};
  ir::Module module_;
  uint32_t fileId_ = 0;
};

} // namespace plate::testing

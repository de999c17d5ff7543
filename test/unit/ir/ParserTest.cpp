//===- ParserTest.cpp - What ir::parseModule builds from IR text ----------===//
//
// The round trip over every script (IrRoundTripTest.cpp) shows that text
// comes back as text; these pin what the module in between holds: typed
// quantities, escapes, the derived flags, and where errors point.
//
//===----------------------------------------------------------------------===//
#include "ir/IRReader.h"

#include <gtest/gtest.h>

namespace plate::ir {
namespace {

struct Parsed {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::optional<Module> module;

  explicit Parsed(std::string text) {
    uint32_t id = sources.addBuffer("test.pir", std::move(text));
    module = parseModule(id, sources, diags);
  }
  std::string firstError() const {
    return diags.diagnostics().empty() ? "" : diags.diagnostics().front().message;
  }
};

constexpr const char *kHeader =
    "module \"a \\\"quoted\\\" \\\\ title\\nover two lines\" platform=bioforge1 plate=plate96 "
    "wells=8x12 capacity=350\n";

TEST(IrParser, ReadsTypedQuantitiesAndEscapes) {
  Parsed parsed(std::string(kHeader) +
                "  liquid %S1 calibrant wells=A1..B2,D4 conc=2.5 ng/mL pipetted\n"
                "  liquid %buffer reagent declared=0.05 L light_sensitive pipetted\n"
                "  incubate overnight at RT lid=off  loc=9:4 step=2a)\n"
                "  dispense 100 µL of %buffer->A1..B2 mix=3x50 µL tips=per_source reuse  loc=10:1\n");
  ASSERT_TRUE(parsed.module) << parsed.firstError();
  const Module &module = *parsed.module;
  EXPECT_EQ(module.title, "a \"quoted\" \\ title\nover two lines");
  ASSERT_EQ(module.liquids.size(), 2u);
  EXPECT_EQ(module.liquids[0].concentration, (Quantity{2.5, Unit::NanogramPerMl}));
  EXPECT_EQ(module.liquids[0].wells.size(), 5u);
  EXPECT_EQ(module.liquids[1].declaredVolume, (Quantity{0.05, Unit::Liter}));
  EXPECT_EQ(module.liquids[1].flags, std::vector<std::string>{"light_sensitive"});
  EXPECT_TRUE(module.liquids[1].pipettedByInstrument);
  const auto *incubate = module.ops[0].as<IncubateOp>();
  ASSERT_TRUE(incubate);
  EXPECT_EQ(incubate->time.unit, Unit::Overnight);
  EXPECT_EQ(incubate->temperature.unit, Unit::Ambient);
  EXPECT_FALSE(incubate->lidOn);
  EXPECT_EQ(module.ops[0].step, "2a)");
  EXPECT_EQ(module.ops[0].loc.line, 9u);
  EXPECT_EQ(module.ops[0].loc.col, 4u);
  EXPECT_EQ(module.ops[0].loc.fileId, module.fileId);
  const auto *dispense = module.ops[1].as<DispenseOp>();
  ASSERT_TRUE(dispense);
  EXPECT_EQ(dispense->volume, Quantity::microliters(100));
  ASSERT_TRUE(dispense->mix);
  EXPECT_EQ(dispense->mix->cycles, 3u);
  EXPECT_TRUE(module.ops[1].tipsReuse);
  // Symbolic and non-canonical quantities: not yet normalized.
  EXPECT_FALSE(module.unitsNormalized);
  EXPECT_FALSE(module.lowered);
}

TEST(IrParser, DerivesNormalizedAndLoweredFromTheText) {
  Parsed parsed(std::string(kHeader) + "  liquid %buffer reagent declared=500 µL pipetted\n"
                                       "  tips 4 racks 1\n"
                                       "  dev.pick_tips rack (1,1) mask=1111  loc=3:1 step=1\n"
                                       "  dev.aspirate slot 2 (1,1) mask=1111 100 µL of %buffer  loc=3:1\n"
                                       "  dev.wait 60 s  loc=4:1\n");
  ASSERT_TRUE(parsed.module) << parsed.firstError();
  EXPECT_TRUE(parsed.module->unitsNormalized);
  EXPECT_TRUE(parsed.module->lowered);
  EXPECT_EQ(parsed.module->tipsUsed, 4u);
  const auto *aspirate = parsed.module->ops[1].as<DevAspirateOp>();
  ASSERT_TRUE(aspirate);
  EXPECT_EQ(aspirate->place, (Place{"2", 1, 1}));
  EXPECT_EQ(aspirate->mask.bits, 0b1111);
}

TEST(IrParser, ErrorsPointAtTheLineAndColumn) {
  Parsed parsed(std::string(kHeader) + "  liquid %buffer reagent\n"
                                       "  wait 60 µL  loc=3:1\n");
  ASSERT_FALSE(parsed.module);
  ASSERT_EQ(parsed.diags.diagnostics().size(), 1u);
  const Diagnostic &error = parsed.diags.diagnostics().front();
  EXPECT_EQ(error.id, DiagId::IrWrongDimension);
  EXPECT_EQ(error.loc.line, 3u);
  EXPECT_EQ(error.loc.col, 8u);
  EXPECT_EQ(error.message, "`60 µL` is a volume; a wait takes a time");
}

TEST(IrParser, VerifierFindingsAreUserErrorsAtTheOpsLine) {
  Parsed parsed(std::string(kHeader) + "  liquid %buffer reagent\n"
                                       "  dispense 10 µL of %buffer->P24 tips=new  loc=3:1\n");
  ASSERT_FALSE(parsed.module);
  ASSERT_EQ(parsed.diags.diagnostics().size(), 1u);
  EXPECT_EQ(parsed.diags.diagnostics()[0].id, DiagId::IrInvalid);
  EXPECT_EQ(parsed.diags.diagnostics()[0].loc.line, 3u);
  EXPECT_EQ(parsed.diags.diagnostics()[0].message,
            "the IR breaks an invariant of the verifier: portion has well P24 outside 8x12");
}

TEST(IrParser, EmptyAndBinaryInputAreErrorsNotCrashes) {
  EXPECT_FALSE(Parsed("").module);
  EXPECT_FALSE(Parsed(std::string("\0\xff\n  liquid", 10)).module);
  EXPECT_FALSE(Parsed(std::string(kHeader) + "  dispense").module);
}

} // namespace
} // namespace plate::ir

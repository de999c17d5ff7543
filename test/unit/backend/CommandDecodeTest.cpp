//===- CommandDecodeTest.cpp - Typed command fields match the JSON arguments ---===//
//
// decodeFields turns a stream line's JSON arguments into CommandFields
// once; every layer reads the fields afterwards, so they must say what the
// JSON says, with the fallbacks the checks have always used for absent or
// mistyped arguments.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/CommandDecode.h"
#include "backend/bioforge1/CommandTiming.h"

#include <gtest/gtest.h>

#include <map>

using namespace plate;
using namespace plate::backend;

namespace {

Command decoded(std::string module, std::string op, Json args) {
  return decodeCommand(std::move(module), op, args);
}

} // namespace

TEST(CommandDecode, EveryRowDecodesToItsOp) {
  for (const CommandSpec &spec : commandSchema()) {
    Command command = decoded(spec.module, std::string(opName(spec.op)), Json::object());
    EXPECT_EQ(command.fields.op, spec.op) << command.name();
    EXPECT_NE(command.fields.op, CommandOp::Other) << command.name();
    EXPECT_EQ(findCommandSpec(spec.module, opName(spec.op)), &spec);
  }
  Command unknown = decoded("XX", "MovePlate", Json::object());
  EXPECT_EQ(findCommandSpec("XX", "MovePlate"), nullptr);
  EXPECT_EQ(unknown.fields.op, CommandOp::MovePlate); // the twin names the module
  EXPECT_EQ(decoded("LH", "Aspirat", Json::object()).fields.op, CommandOp::Other);
  EXPECT_EQ(opName(CommandOp::Other), "");
}

TEST(CommandSchema, ArgumentsDependOnTheOpOnly) {
  // The serializer writes an op's arguments without looking at the module
  // (a platform may rename modules): every row of an op agrees.
  std::map<CommandOp, const CommandSpec *> first;
  for (const CommandSpec &spec : commandSchema()) {
    first.emplace(spec.op, &spec);
    const std::vector<ArgSpec> &args = opArgs(spec.op);
    ASSERT_EQ(args.size(), spec.args.size()) << spec.module << "." << opName(spec.op);
    for (size_t i = 0; i < args.size(); ++i) {
      EXPECT_STREQ(args[i].name, spec.args[i].name);
      EXPECT_EQ(args[i].type, spec.args[i].type);
      EXPECT_EQ(args[i].required, spec.args[i].required);
      EXPECT_EQ(args[i].key, spec.args[i].key);
    }
  }
  EXPECT_EQ(first.size(), static_cast<size_t>(CommandOp::Other)); // every op has a row
  EXPECT_TRUE(opArgs(CommandOp::Other).empty());
}

TEST(CommandDecode, PipettingFields) {
  Command aspirate = decoded("LH", "Aspirate",
                             Json{{"slot", 5}, {"row", 2}, {"col", 3}, {"mask", "1011"},
                                  {"volume_ul", 12.5}});
  const CommandFields &f = aspirate.fields;
  EXPECT_EQ(f.slot, "5");
  EXPECT_TRUE(f.hasRowKey && f.hasColKey);
  EXPECT_EQ(f.row, 2.0);
  EXPECT_EQ(f.colIndex, 3u);
  EXPECT_EQ(f.maskLength, 4u);
  EXPECT_TRUE(f.maskBinary);
  EXPECT_EQ(f.maskBits, 0b1101u); // bit c: channel c
  EXPECT_TRUE(f.maskSpelling.empty()); // the bits say it all
  EXPECT_DOUBLE_EQ(f.volumeUl, 12.5);

  Command waste = decoded("LH", "Dispense", Json{{"slot", 8}, {"mask", "10x1"}, {"volume_ul", "5"}});
  EXPECT_FALSE(waste.fields.hasRowKey);
  EXPECT_FALSE(waste.fields.row);
  EXPECT_FALSE(waste.fields.maskBinary);
  EXPECT_EQ(waste.fields.maskSpelling, "10x1"); // kept for the twin's diagnostic
  EXPECT_EQ(waste.fields.volumeUl, 0); // mistyped: 0, as the checks read it
  EXPECT_EQ(decoded("PL", "RemoveLid", Json{{"slot", "A3"}}).fields.slot, "A3");
}

TEST(CommandDecode, ReadFields) {
  Command read = decoded("RDR", "ReadAbsorbance",
                         Json{{"wavelength_nm", 450}, {"reference_nm", 620},
                              {"wells", Json::array({"A1", "P24", "Z99x", 7})}});
  const CommandFields &f = read.fields;
  EXPECT_EQ(f.wavelengthNm, 450.0);
  EXPECT_EQ(f.referenceNm, 620.0);
  EXPECT_TRUE(f.hasReferenceKey);
  ASSERT_TRUE(f.wellsIsArray);
  ASSERT_EQ(f.wells.size(), 4u);
  EXPECT_EQ(f.wells[0], (Well{1, 1}));
  EXPECT_EQ(f.wells[1], (Well{16, 24}));
  EXPECT_EQ(f.wells[2], Well{}); // not a well: outside every plate
  EXPECT_EQ(f.wells[3], Well{});
  EXPECT_FALSE(f.wellsAllNamed);
  EXPECT_EQ(f.wellSpellings, (std::vector<std::string>{"A1", "P24", "Z99x", "7"}));
  EXPECT_EQ(f.wellsMaxRow, 16);
  EXPECT_EQ(f.wellsMaxCol, 24);

  Command plain = decoded("RDR", "ReadAbsorbance",
                          Json{{"wavelength_nm", 595}, {"wells", Json::array({"B2", "C1"})}});
  EXPECT_TRUE(plain.fields.wellsAllNamed);
  EXPECT_TRUE(plain.fields.wellSpellings.empty()); // the wells name themselves
  EXPECT_FALSE(plain.fields.hasReferenceKey);
  EXPECT_EQ(plain.fields.wellsMaxRow, 3);
  EXPECT_EQ(plain.fields.wellsMaxCol, 2);
}

TEST(CommandDecode, TimingReadsTheFields) {
  Platform platform;
  EXPECT_EQ(commandSeconds(decoded("SHK", "Shake", Json{{"rpm", 600}, {"seconds", 90}}), platform),
            90);
  EXPECT_EQ(commandSeconds(decoded("SYS", "Wait", Json{{"seconds", 12.5}}), platform), 12.5);
  EXPECT_EQ(commandSeconds(decoded("LH", "PickTips", Json::object()), platform),
            platform.timing.tipSeconds);
}

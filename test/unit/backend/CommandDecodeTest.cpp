//===- CommandDecodeTest.cpp - Typed command fields match the JSON arguments ---===//
//
// decodeCommand turns a command's JSON arguments into CommandFields once;
// every layer reads the fields afterwards, so they must say what the JSON
// says, with the fallbacks the checks have always used for absent or
// mistyped arguments.
//
//===----------------------------------------------------------------------===//
#include "backend/Command.h"

#include <gtest/gtest.h>

using namespace plate;
using namespace plate::backend;

namespace {

Command decoded(std::string module, std::string op, Json args) {
  Command command;
  command.module = std::move(module);
  command.op = std::move(op);
  command.args = std::move(args);
  decodeCommand(command);
  return command;
}

} // namespace

TEST(CommandDecode, OpcodeIsTheSchemaRow) {
  const std::vector<CommandSpec> &schema = commandSchema();
  ASSERT_EQ(schema.size(), static_cast<size_t>(Opcode::Unknown));
  for (size_t row = 0; row < schema.size(); ++row) {
    Command command = decoded(schema[row].module, schema[row].op, Json::object());
    EXPECT_TRUE(command.fields.decoded);
    EXPECT_EQ(static_cast<size_t>(command.fields.opcode), row) << command.name();
    EXPECT_NE(command.fields.op, CommandOp::Other) << command.name();
  }
  Command unknown = decoded("XX", "MovePlate", Json::object());
  EXPECT_EQ(unknown.fields.opcode, Opcode::Unknown);
  EXPECT_EQ(unknown.fields.op, CommandOp::MovePlate); // the twin names the module
  EXPECT_EQ(decoded("LH", "Aspirat", Json::object()).fields.op, CommandOp::Other);
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
  EXPECT_DOUBLE_EQ(f.volumeUl, 12.5);

  Command waste = decoded("LH", "Dispense", Json{{"slot", 8}, {"mask", "10x1"}, {"volume_ul", "5"}});
  EXPECT_FALSE(waste.fields.hasRowKey);
  EXPECT_FALSE(waste.fields.row);
  EXPECT_FALSE(waste.fields.maskBinary);
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
  EXPECT_EQ(f.wellsMaxRow, 16);
  EXPECT_EQ(f.wellsMaxCol, 24);

  Command plain = decoded("RDR", "ReadAbsorbance",
                          Json{{"wavelength_nm", 595}, {"wells", Json::array({"B2", "C1"})}});
  EXPECT_TRUE(plain.fields.wellsAllNamed);
  EXPECT_FALSE(plain.fields.hasReferenceKey);
  EXPECT_EQ(plain.fields.wellsMaxRow, 3);
  EXPECT_EQ(plain.fields.wellsMaxCol, 2);
}

TEST(CommandDecode, TimingReadsTheFields) {
  // commandSeconds of a command built by hand (never decoded) equals that
  // of its decoded copy.
  Command shake;
  shake.module = "SHK";
  shake.op = "Shake";
  shake.args = Json{{"rpm", 600}, {"seconds", 90}};
  EXPECT_FALSE(shake.fields.decoded);
  Platform platform;
  EXPECT_EQ(commandSeconds(shake, platform), 90);
  decodeCommand(shake);
  EXPECT_EQ(commandSeconds(shake, platform), 90);
}

//===- CommandEmitTest.cpp - Lines written from typed fields equal the JSON dump ---===//
//
// Lowering fills CommandFields straight from the IR and the serializer
// writes each stream line straight from the fields (issue 7). These tests
// hold that path to nlohmann's: for every command of the examples, the
// bench's full ELISA and a script made for the slow paths (fractional
// volumes and seconds, a prompt with quotes, a backslash and `µ`), the
// line is its own JSON dump, the command decoded from its arguments has
// the lowered fields and writes the same line and text, and the stream
// reads back to the same fields.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"
#include "tools/plate/Compilation.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace plate;
using namespace plate::backend;

namespace {

/// The command decoded from the JSON arguments the serializer writes for
/// it: what the stream reader makes of its line.
Command spelledOut(const Command &command) {
  Command spelled = decodeCommand(command.module, opName(command.fields.op), commandArgs(command));
  spelled.seq = command.seq;
  spelled.step = command.step;
  spelled.line = command.line;
  spelled.tipsReuse = command.tipsReuse;
  return spelled;
}

struct Lowered {
  std::unique_ptr<Compilation> compilation;
  std::vector<Command> commands;
};

Lowered lowerScript(const std::string &path) {
  CompileOptions options;
  options.input = path;
  options.stdlibDir = PLATE_STDLIB_DIR;
  Lowered lowered{std::make_unique<Compilation>(options), {}};
  std::ostringstream dump;
  EXPECT_TRUE(lowered.compilation->compile(dump)) << path;
  EXPECT_TRUE(lowered.compilation->module().lowered) << path;
  lowered.commands =
      lowerToCommands(lowered.compilation->module(), lowered.compilation->platform());
  return lowered;
}

const char *const kScripts[] = {
    "/docs/examples/bradford.plate",
    "/docs/examples/il6_elisa.plate",
    "/bench/elisa96_full.plate",
    "/test/unit/backend/Inputs/emit_slow_paths.plate",
};

} // namespace

TEST(CommandEmit, LoweredLinesAreTheJsonDump) {
  size_t checked = 0;
  for (const char *script : kScripts) {
    std::string path = std::string(PLATE_SOURCE_DIR) + script;
    Lowered lowered = lowerScript(path);
    ASSERT_FALSE(lowered.commands.empty()) << path;
    for (const Command &command : lowered.commands) {
      SCOPED_TRACE(path + " command " + std::to_string(command.seq));
      Command spelled = spelledOut(command);
      std::string line = commandToJsonLine(command);
      EXPECT_EQ(line, commandToJson(command).dump());
      EXPECT_EQ(line, commandToJson(spelled).dump());
      EXPECT_EQ(line, commandToJsonLine(spelled));
      EXPECT_EQ(commandToText(command), commandToText(spelled));
      EXPECT_TRUE(spelled.fields == command.fields)
          << "`" << commandToText(command) << "`: fields differ from those decoded from its JSON";
      ++checked;
    }
  }
  EXPECT_GT(checked, 3000u); // 83 + 1945 + 1775 + the slow-path script
}

TEST(CommandEmit, EmittedStreamReadsBackToTheLoweredFields) {
  for (const char *script : kScripts) {
    std::string path = std::string(PLATE_SOURCE_DIR) + script;
    Lowered lowered = lowerScript(path);
    std::ostringstream jsonl;
    emitJsonl(lowered.compilation->module(), lowered.compilation->platform(), jsonl,
              /*withPlan=*/false);
    std::string expected;
    for (const Command &command : lowered.commands)
      expected += commandToJsonLine(command) + "\n";
    EXPECT_EQ(jsonl.str(), expected) << path; // the one-buffer emitter writes the same lines

    SourceManager sources;
    DiagnosticEngine diags(sources);
    uint32_t fileId = sources.addBuffer(path + ".jsonl", jsonl.str());
    auto reread = parseCommandStream(fileId, sources, diags);
    ASSERT_TRUE(reread.has_value()) << path;
    ASSERT_EQ(reread->size(), lowered.commands.size()) << path;
    for (size_t i = 0; i < reread->size(); ++i) {
      const Command &read = (*reread)[i], &command = lowered.commands[i];
      SCOPED_TRACE(path + " command " + std::to_string(command.seq));
      EXPECT_TRUE(read.fields == command.fields);
      EXPECT_EQ(commandToJsonLine(read), commandToJsonLine(command));
      EXPECT_EQ(commandToJson(read), commandToJson(command)); // the journal's resume check
      EXPECT_EQ(commandToText(read), commandToText(command));
    }
  }
}

TEST(CommandEmit, SlowPathsAreSpelledAsTheSerializerDoes) {
  Lowered lowered =
      lowerScript(std::string(PLATE_SOURCE_DIR) + "/test/unit/backend/Inputs/emit_slow_paths.plate");
  std::string stream;
  for (const Command &command : lowered.commands)
    stream += commandToJsonLine(command) + "\n";
  // Non-integral numbers in nlohmann's shortest form, integral ones as
  // integers.
  EXPECT_NE(stream.find(R"("volume_ul":12.5})"), std::string::npos) << stream;
  EXPECT_NE(stream.find(R"("volume_ul":0.1})"), std::string::npos) << stream;
  // A sum (two 0.1 µL dispenses drawn in one aspirate) in shortest form too.
  EXPECT_NE(stream.find(R"("volume_ul":0.2})"), std::string::npos) << stream;
  EXPECT_NE(stream.find(R"("args":{"rpm":300,"seconds":12.5})"), std::string::npos) << stream;
  // Quotes and backslashes escaped, UTF-8 kept as is.
  EXPECT_NE(stream.find(R"("args":{"text":"add 5 µL of \"stop\" solution, then wipe the C:\\ tray"})"),
            std::string::npos)
      << stream;
  // Analyzer Deck slots are strings, Main Deck slots numbers.
  EXPECT_NE(stream.find(R"("args":{"from":1,"to":"A1"})"), std::string::npos) << stream;
  EXPECT_NE(stream.find(R"("wavelength_nm":450,"reference_nm":620,"wells":["A1","B1","C1",)"),
            std::string::npos)
      << stream;
  const Command *prompt = nullptr;
  for (const Command &command : lowered.commands)
    if (command.fields.op == CommandOp::Prompt)
      prompt = &command;
  ASSERT_NE(prompt, nullptr);
  EXPECT_EQ(prompt->fields.text, "add 5 µL of \"stop\" solution, then wipe the C:\\ tray");
  EXPECT_EQ(commandToText(*prompt),
            "SYS.Prompt text=add 5 µL of \"stop\" solution, then wipe the C:\\ tray");
}

TEST(CommandEmit, WasteDispenseHasNoCoordinates) {
  Lowered lowered = lowerScript(std::string(PLATE_SOURCE_DIR) + "/docs/examples/il6_elisa.plate");
  const Platform &platform = lowered.compilation->platform();
  size_t waste = 0;
  for (const Command &command : lowered.commands) {
    if (command.fields.op != CommandOp::Dispense || command.fields.slot != platform.solutionWasteSlot)
      continue;
    ++waste;
    Json args = commandArgs(command);
    EXPECT_FALSE(args.contains("row"));
    EXPECT_FALSE(args.contains("col"));
    EXPECT_EQ(commandToJsonLine(command).find("\"row\""), std::string::npos);
  }
  EXPECT_GT(waste, 0u); // the washes empty into the Solution Waste
}

TEST(CommandEmit, ArgumentsBeyondTheBitsKeepTheirSpelling) {
  // A well with no name and a mask wider than the 64 bits of maskBits:
  // the fields keep their spelling, and the line is what it always was.
  Platform platform;
  platform.readerModule = "RDR";
  platform.liquidHandler = "LH";
  ir::Module module;
  ir::Op read;
  read.payload = ir::DevReadOp{"", Quantity{450, Unit::Nanometer}, std::nullopt,
                               {Well{1, 1}, Well{0, 0}}};
  read.step = "1";
  ir::Op drop;
  drop.payload = ir::DropTipsOp{ir::ChannelMask{0, 65}};
  drop.step = "2";
  module.ops = {read, drop};
  std::vector<Command> commands = lowerToCommands(module, platform);
  ASSERT_EQ(commands.size(), 2u);

  EXPECT_EQ(commandArgs(commands[0]).dump(),
            Json({{"wavelength_nm", 450}, {"wells", Json::array({"A1", Well{0, 0}.name()})}}).dump());
  EXPECT_EQ(commands[0].fields.wells[1], Well{}); // decoded: not a well
  EXPECT_FALSE(commands[0].fields.wellsAllNamed);
  EXPECT_EQ(commands[0].fields.wellSpellings,
            (std::vector<std::string>{"A1", Well{0, 0}.name()}));

  EXPECT_EQ(commandArgs(commands[1])["mask"], std::string(65, '0'));
  EXPECT_EQ(commands[1].fields.maskLength, 65u);
  EXPECT_EQ(commands[1].fields.maskSpelling, std::string(65, '0'));
  for (const Command &command : commands) {
    EXPECT_EQ(commandToJsonLine(command), commandToJson(command).dump());
    Command spelled = spelledOut(command);
    EXPECT_TRUE(spelled.fields == command.fields) << commandToText(command);
    EXPECT_EQ(commandToJsonLine(spelled), commandToJsonLine(command));
  }
}

TEST(CommandEmit, ReadingWritesTheCanonicalLine) {
  // A hand-written line in another key order, with a float for an integer
  // and a Main Deck slot as a string, reads to the fields of the canonical
  // line, which is what is written back. What the fields cannot normalise
  // (a mask that is not `0`/`1`, a name that is no well) is kept as spelled.
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t fileId = sources.addBuffer(
      "hand.jsonl",
      R"({"seq":1,"module":"LH","op":"Aspirate","args":{"volume_ul":100.0,"mask":"10x1","col":2,"row":1.0,"slot":"5"},"step":"2","line":7})"
      "\n"
      R"({"seq":2,"module":"RDR","op":"ReadAbsorbance","args":{"wells":["A1","Q\"1"],"wavelength_nm":450},"step":"3","line":8})"
      "\n");
  auto commands = parseCommandStream(fileId, sources, diags);
  ASSERT_TRUE(commands.has_value());
  ASSERT_EQ(commands->size(), 2u);
  EXPECT_EQ(commandToJsonLine((*commands)[0]),
            R"({"seq":1,"module":"LH","op":"Aspirate","args":{"slot":5,"row":1,"col":2,"mask":"10x1","volume_ul":100},"step":"2","line":7})");
  EXPECT_EQ(commandToText((*commands)[0]), "LH.Aspirate slot=5 row=1 col=2 mask=10x1 volume_ul=100");
  EXPECT_EQ(commandToJsonLine((*commands)[1]),
            R"({"seq":2,"module":"RDR","op":"ReadAbsorbance","args":{"wavelength_nm":450,"wells":["A1","Q\"1"]},"step":"3","line":8})");
  EXPECT_EQ(commandToText((*commands)[1]), "RDR.ReadAbsorbance wavelength_nm=450 wells=A1,Q\"1");
}

// The journal and the stream write doubles without building a Json
// (appendJsonDouble); the bytes must be those of Json(value).dump().
TEST(CommandEmit, JsonDoublesAreTheSerializers) {
  std::vector<double> values = {0.0,    -0.0,   0.1,     0.25,   1.0 / 3,  12.0,  1e-5,
                                1e-4,   1e15,   1e16,    1e300,  5e-324,   -7.25, 3456.5,
                                2.0e-7, 123456789012345.6, std::nan(""), INFINITY, -INFINITY};
  for (int i = 1; i < 5000; ++i)
    values.push_back(i * 0.7 + 1.0 / i);
  for (double value : values) {
    std::string line;
    appendJsonDouble(line, value);
    EXPECT_EQ(line, Json(value).dump()) << value;
  }
}

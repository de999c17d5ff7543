//===- CommandEmitTest.cpp - Lines written from typed fields equal the JSON dump ---===//
//
// Lowering fills only CommandFields and leaves `args` null; the emitter
// writes each stream line straight from the fields (issue 7). These tests
// hold that path to the JSON one: for every command of the examples, the
// bench's full ELISA and a script made for the slow paths (fractional
// volumes and seconds, a prompt with quotes, a backslash and `µ`), the
// fast line, commandToJson(...).dump() and the line of the same command
// with its arguments spelled as JSON are the same bytes, the listing text
// is the same, and the stream reads back to the same fields.
//
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "tools/plate/Compilation.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace plate;
using namespace plate::backend;

namespace {

/// The command with its arguments spelled as JSON (authoritative) and its
/// fields decoded from them: the form the stream reader produces, and the
/// form every lowered command had before lowering stopped building JSON.
Command spelledOut(const Command &command) {
  Command spelled = command;
  spelled.args = commandArgs(command);
  decodeCommand(spelled);
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
      // The fast path is the one under test: lowering left args null.
      ASSERT_TRUE(command.args.is_null());
      ASSERT_TRUE(command.fields.decoded);
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
      EXPECT_FALSE(read.args.is_null()); // a read command keeps its JSON
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
  EXPECT_NE(stream.find(R"("volume_ul":37.5})"), std::string::npos) << stream;
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

TEST(CommandEmit, ArgumentsTheFieldsCannotSpellStayJson) {
  // A well with no name and a mask wider than the 64 bits the fields keep:
  // lowering spells these as JSON, exactly as it always has.
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

  EXPECT_FALSE(commands[0].args.is_null());
  EXPECT_EQ(commands[0].args.dump(),
            Json({{"wavelength_nm", 450}, {"wells", Json::array({"A1", Well{0, 0}.name()})}}).dump());
  EXPECT_EQ(commands[0].fields.wells[1], Well{}); // decoded: not a well
  EXPECT_FALSE(commands[0].fields.wellsAllNamed);

  EXPECT_FALSE(commands[1].args.is_null());
  EXPECT_EQ(commands[1].args["mask"], std::string(65, '0'));
  EXPECT_EQ(commands[1].fields.maskLength, 65u);
  for (const Command &command : commands)
    EXPECT_EQ(commandToJsonLine(command), commandToJson(command).dump());
}

TEST(CommandEmit, HandBuiltArgumentsAreAuthoritative) {
  // A hand-built or read command keeps its JSON as written, even where it
  // is not what lowering would write (a string volume, an unknown key).
  Command command;
  command.module = "LH";
  command.op = "Dispense";
  command.args = Json{{"slot", 8}, {"volume_ul", "5"}, {"mask", "10x1"}, {"extra", true}};
  decodeCommand(command);
  EXPECT_EQ(commandArgs(command), command.args);
  EXPECT_EQ(commandToJsonLine(command), commandToJson(command).dump());
  EXPECT_NE(commandToJsonLine(command).find(R"("args":{"slot":8,"volume_ul":"5","mask":"10x1","extra":true})"),
            std::string::npos);
}

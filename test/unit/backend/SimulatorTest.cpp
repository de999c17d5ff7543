//===- SimulatorTest.cpp - Twin, interpreter, stream reader, lit files ----===//
//
// Runs the hand-written illegal streams of test/lit/backend through the
// backend API (the same files lit runs through `plate run`) and checks the
// diagnostic their CHECK line expects, plus hand-built command lists for
// the rules that need long streams (waste capacities) and for legal runs.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/DeckState.h"
#include "backend/bioforge1/Simulator.h"
#include "test/unit/backend/BackendTestUtil.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <unistd.h>

using namespace plate;
using namespace plate::backend;
using plate::test::bioforge;

namespace {

Command cmd(uint32_t seq, std::string module, std::string op, Json args, bool reuse = false) {
  Command command = decodeCommand(std::move(module), op, args);
  command.seq = seq;
  command.step = "1";
  command.line = 7;
  command.tipsReuse = reuse;
  return command;
}

/// Parses JSON Lines text as a stream file.
std::optional<std::vector<Command>> parse(SourceManager &sources, DiagnosticEngine &diags,
                                          const std::string &text) {
  uint32_t fileId = sources.addBuffer("test.jsonl", text);
  return parseCommandStream(fileId, sources, diags);
}

RunSetup plateWithBuffer(double ml = 20) {
  RunSetup setup;
  setup.reservoir.push_back({1, 1, "buffer", ml});
  return setup;
}

struct Outcome {
  RunResult result;
  std::vector<Diagnostic> diagnostics;
};

Outcome run(const std::vector<Command> &commands, const RunSetup &setup,
            RunOptions options = {}) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  options.writeFiles = false;
  Outcome outcome;
  outcome.result = runCommands(commands, setup, bioforge(), options, sources, diags);
  outcome.diagnostics = diags.diagnostics();
  return outcome;
}

/// A FileCheck pattern as a regex: literal text plus {{regex}} blocks.
std::regex fileCheckRegex(const std::string &pattern) {
  std::string regex;
  size_t at = 0;
  while (at < pattern.size()) {
    size_t open = pattern.find("{{", at);
    std::string literal = pattern.substr(at, open == std::string::npos ? std::string::npos : open - at);
    for (char c : literal) {
      if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos)
        regex += '\\';
      regex += c;
    }
    if (open == std::string::npos)
      break;
    size_t close = pattern.find("}}", open);
    regex += pattern.substr(open + 2, close - open - 2);
    at = close + 2;
  }
  return std::regex(regex);
}

} // namespace

//===--- The lit invariant files, through the API --------------------------===//

TEST(LitStreams, EveryIllegalStreamIsRejectedAsItsCheckLineSays) {
  std::filesystem::path dir = std::filesystem::path(PLATE_SOURCE_DIR) / "test/lit/backend";
  unsigned checked = 0;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".jsonl")
      continue;
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    std::smatch runLine, checkLine;
    if (!std::regex_search(text, runLine, std::regex("# RUN: %expect-exit 1 %plate run %s([^\n]*)")))
      continue;
    ASSERT_TRUE(std::regex_search(text, checkLine, std::regex("# CHECK: ([^\n]*)")))
        << entry.path();
    SCOPED_TRACE(entry.path().filename().string());
    SourceManager sources;
    DiagnosticEngine diags(sources);
    std::optional<RunSetup> setup = RunSetup{};
    std::smatch plan;
    std::string runArgs = runLine[1].str();
    if (std::regex_search(runArgs, plan, std::regex("--loading-plan %S/(\\S+)")))
      setup = readSetupFile((dir / plan[1].str()).string(), sources, diags);
    ASSERT_TRUE(setup);
    auto commands = readCommandStream(entry.path().string(), sources, diags);
    if (commands) {
      RunOptions options;
      options.writeFiles = false;
      RunResult result = runCommands(*commands, *setup, bioforge(), options, sources, diags);
      EXPECT_FALSE(result.ok);
    }
    ASSERT_FALSE(diags.diagnostics().empty());
    std::string rendered = renderText(diags.diagnostics().front(), sources, false);
    EXPECT_TRUE(std::regex_search(rendered, fileCheckRegex(checkLine[1].str())))
        << "expected: " << checkLine[1] << "\nrendered: " << rendered;
    ++checked;
  }
  EXPECT_GE(checked, 34u);
}

//===--- The twin's rows of Diagnostics.def --------------------------------===//

TEST(Violation, EveryTwinRowNamesItsRuleInItsRangeAndTheCommandFirst) {
  // E800-E899, a block per rule (ir/Diagnostics.def); the rule is read
  // from the row's words, which must agree with the block.
  auto ruleOfCode = [](int number) {
    if (number < 810) return Rule::Tips;
    if (number < 830) return Rule::Volume;
    if (number < 840) return Rule::Contact;
    if (number < 870) return Rule::Place;
    return Rule::Range;
  };
  unsigned rows = 0;
  for (unsigned i = 0; i < static_cast<unsigned>(DiagId::NumDiagIds); ++i) {
    const DiagInfo &info = diagInfo(static_cast<DiagId>(i));
    std::string_view code = info.code;
    if (code.size() != 4 || code[0] != 'E' || code[1] != '8')
      continue;
    SCOPED_TRACE(info.code);
    Violation violation(static_cast<DiagId>(i), DiagArgs());
    EXPECT_EQ(violation.rule, ruleOfCode(std::stoi(std::string(code.substr(1)))));
    EXPECT_TRUE(std::string_view(info.format).starts_with("command {} `{}` (source line {}) "));
    ++rows;
  }
  EXPECT_GE(rows, 60u);
}

TEST(Violation, ReportedWithTheCommandAndSaidWithoutIt) {
  Violation violation(DiagId::TwinTipGivesTooMuch,
                      DiagArgs(2u, Quantity::microliters(100), Quantity::microliters(150.5)));
  EXPECT_EQ(violation.rule, Rule::Volume);
  EXPECT_EQ(violation.message(), "channel 2 holds 100 µL; it cannot dispense 150.5 µL");
  Command command = cmd(4, "LH", "Dispense", Json::object());
  command.line = 17;
  SourceManager sources;
  DiagnosticEngine diags(sources);
  diags.reportWith(violation.id, SourceLoc{}, violation.argsFor(command));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].message,
            "command 4 `LH.Dispense` (source line 17) breaks the volume rule: " +
                violation.message());
  EXPECT_STREQ(diagInfo(diags.diagnostics()[0].id).code, "E816");
}

//===--- Stream reader -----------------------------------------------------===//

TEST(StreamReader, ReadsWhatTheEmitterWrites) {
  Command original = cmd(1, "LH", "Aspirate",
                         Json{{"slot", 5}, {"row", 1}, {"col", 2}, {"mask", "1111"},
                              {"volume_ul", 100}});
  original.step = "2";
  original.line = 23;
  std::string line = commandToJsonLine(original);
  EXPECT_EQ(line, R"({"seq":1,"module":"LH","op":"Aspirate","args":{"slot":5,"row":1,"col":2,)"
                  R"("mask":"1111","volume_ul":100},"step":"2","line":23})");
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto commands = parse(sources, diags, line + "\n");
  ASSERT_TRUE(commands);
  ASSERT_EQ(commands->size(), 1u);
  EXPECT_EQ(commandToJsonLine((*commands)[0]), line);
  EXPECT_EQ((*commands)[0].streamLoc.line, 1u);
}

TEST(StreamReader, ReportsEveryBadLineAndReturnsNothing) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto commands = parse(sources, diags,
                        "{\"seq\":1,\"module\":\"HP\",\"op\":\"Off\",\"args\":{}}\n"
                        "{\"seq\":2,\"module\":\"LH\",\"op\":\"Aspirat\",\"args\":{}}\n"
                        "{\"seq\":3,\"module\":\"SYS\",\"op\":\"Wait\",\"args\":{}}\n"
                        "{\"seq\":4,\"module\":\"SYS\",\"op\":\"Wait\",\"args\":{\"seconds\":\"5\"}}\n"
                        "{\"seq\":6,\"module\":\"HP\",\"op\":\"Off\"}\n"
                        "{\"seq\":7,\"module\":\"HP\" \"op\":\"Off\"}\n");
  EXPECT_FALSE(commands);
  std::vector<std::pair<std::string, uint32_t>> got;
  for (const Diagnostic &diagnostic : diags.diagnostics())
    got.emplace_back(diagInfo(diagnostic.id).code, diagnostic.loc.line);
  std::vector<std::pair<std::string, uint32_t>> expected = {
      {"E949", 2}, {"E922", 3}, {"E936", 4}, {"E923", 5}, {"E920", 6}};
  EXPECT_EQ(got, expected);
  EXPECT_NE(diags.diagnostics()[0].message.find("did you mean `LH.Aspirate`"), std::string::npos);
  EXPECT_NE(diags.diagnostics()[1].message.find("missing argument `seconds`"), std::string::npos);
  // The caret of a mistyped argument points at its key.
  EXPECT_EQ(diags.diagnostics()[2].loc.col, 45u);
  EXPECT_EQ(diags.diagnostics()[3].loc.col, 2u);
  // JSON errors point just past the token the parser could not take.
  EXPECT_EQ(diags.diagnostics()[4].loc.col, 27u);
}

TEST(StreamReader, SkipsCommentsAndBlankLines) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto commands = parse(sources, diags, "# plan\n\n{\"seq\":1,\"module\":\"HP\",\"op\":\"Off\"}\n");
  ASSERT_TRUE(commands);
  EXPECT_EQ(commands->size(), 1u);
  EXPECT_EQ((*commands)[0].streamLoc.line, 3u);
}

//===--- Interpreter and twin ---------------------------------------------===//

TEST(Simulator, LegalRunFillsWellsAndAdvancesTheClock) {
  const Platform &platform = bioforge();
  std::vector<Command> commands = {
      cmd(1, "LH", "RemoveLid", {{"slot", 1}}),
      cmd(2, "LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "1111"}}),
      cmd(3, "LH", "Aspirate",
          {{"slot", 5}, {"row", 1}, {"col", 1}, {"mask", "1111"}, {"volume_ul", 200}}),
      cmd(4, "LH", "Dispense",
          {{"slot", 1}, {"row", 1}, {"col", 1}, {"mask", "1111"}, {"volume_ul", 150}}),
      cmd(5, "LH", "Dispense", {{"slot", 8}, {"mask", "1111"}, {"volume_ul", 50}}),
      cmd(6, "LH", "DropTips", {{"mask", "1111"}}),
      cmd(7, "PT", "MovePlate", {{"from", 1}, {"to", "A1"}}),
      cmd(8, "PL", "MovePlate", {{"from", "A1"}, {"to", "A3"}}),
      cmd(9, "RDR", "ReadAbsorbance",
          {{"wavelength_nm", 450}, {"wells", Json::array({"A1", "A2", "B1"})}}),
  };
  Outcome outcome = run(commands, plateWithBuffer());
  ASSERT_TRUE(outcome.result.ok) << (outcome.diagnostics.empty() ? "" : outcome.diagnostics[0].message);
  EXPECT_EQ(outcome.result.executed, 9u);
  // §5: lid 8, tips 4, aspirate 2+2, dispense 2+1.5, dispense 2+0.5, drop 4,
  // PT 20, PL 8, read 15.
  EXPECT_DOUBLE_EQ(outcome.result.robotSeconds, 8 + 4 + 4 + 3.5 + 2.5 + 4 + 20 + 8 + 15);
  EXPECT_DOUBLE_EQ(outcome.result.robotSeconds, robotSeconds(commands, platform));
  ASSERT_EQ(outcome.result.reads.size(), 1u);
  const PlateRead &read = outcome.result.reads[0];
  EXPECT_EQ(read.values.size(), 3u); // only the wells read
  EXPECT_FALSE(read.values.count(Well{3, 1}));
}

TEST(Simulator, TwinTracksLiquidIdentitiesAndVolumes) {
  const Platform &platform = bioforge();
  RunSetup setup = plateWithBuffer();
  setup.reservoir.push_back({1, 2, "dye", 5});
  DeckState state(platform, *platform.findLabware("plate96"), setup);
  std::vector<Command> commands = {
      cmd(1, "LH", "RemoveLid", {{"slot", 1}}),
      cmd(2, "LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "1100"}}),
      cmd(3, "LH", "Aspirate",
          {{"slot", 5}, {"row", 1}, {"col", 1}, {"mask", "1100"}, {"volume_ul", 100}}),
      cmd(4, "LH", "Dispense",
          {{"slot", 1}, {"row", 2}, {"col", 3}, {"mask", "1100"}, {"volume_ul", 100}}),
      cmd(5, "LH", "DropTips", {{"mask", "1100"}}),
      cmd(6, "LH", "PickTips", {{"row", 1}, {"col", 3}, {"mask", "1000"}}),
      cmd(7, "LH", "Aspirate",
          {{"slot", 5}, {"row", 1}, {"col", 2}, {"mask", "1000"}, {"volume_ul", 50}}),
      cmd(8, "LH", "Dispense",
          {{"slot", 1}, {"row", 2}, {"col", 3}, {"mask", "1000"}, {"volume_ul", 50}}),
  };
  for (const Command &command : commands)
    ASSERT_FALSE(state.execute(command, true)) << command.seq;
  const Contents &b3 = state.well(Well{2, 3});
  EXPECT_DOUBLE_EQ(b3.at("buffer"), 100);
  EXPECT_DOUBLE_EQ(b3.at("dye"), 50);
  EXPECT_DOUBLE_EQ(totalVolume(state.well(Well{2, 4})), 100);
  EXPECT_DOUBLE_EQ(state.reservoirVolumeUl(1, 1), 20000 - 200);
  EXPECT_EQ(state.tipsInWaste(), 2u);
}

TEST(Simulator, RejectedCommandLeavesTheStateUntouched) {
  RunSetup setup = plateWithBuffer();
  const Platform &platform = bioforge();
  DeckState state(platform, *platform.findLabware("plate96"), setup);
  ASSERT_FALSE(state.execute(cmd(1, "LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "1111"}}), true));
  // Channel 4 reaches the reservoir's limit only after three channels took
  // theirs: the whole command must be refused, not partly applied.
  auto violation = state.execute(
      cmd(2, "LH", "Aspirate",
          {{"slot", 5}, {"row", 1}, {"col", 1}, {"mask", "1111"}, {"volume_ul", 301}}),
      true);
  ASSERT_TRUE(violation);
  EXPECT_EQ(violation->rule, Rule::Volume);
  EXPECT_DOUBLE_EQ(state.reservoirVolumeUl(1, 1), 20000);
  EXPECT_DOUBLE_EQ(state.tipVolume(0), 0);
}

std::vector<Command> pipettingRun() {
  return std::vector<Command>({
      cmd(1, "LH", "RemoveLid", {{"slot", 1}}),
      cmd(2, "LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "1111"}}),
      cmd(3, "LH", "Aspirate",
          {{"slot", 5}, {"row", 1}, {"col", 1}, {"mask", "1111"}, {"volume_ul", 200}}),
      cmd(4, "LH", "Dispense",
          {{"slot", 1}, {"row", 1}, {"col", 1}, {"mask", "1111"}, {"volume_ul", 200}}),
      cmd(5, "LH", "Mix",
          {{"slot", 1}, {"row", 1}, {"col", 1}, {"mask", "1111"}, {"volume_ul", 50},
           {"cycles", 3}}),
      cmd(6, "LH", "Aspirate",
          {{"slot", 1}, {"row", 1}, {"col", 1}, {"mask", "1111"}, {"volume_ul", 20}}),
      cmd(7, "LH", "Dispense", {{"slot", 8}, {"mask", "1111"}, {"volume_ul", 20}}),
      cmd(8, "LH", "ReturnTips", {{"row", 1}, {"col", 1}, {"mask", "1111"}}),
      cmd(9, "LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "0110"}}),
      cmd(10, "LH", "DropTips", {{"mask", "0110"}}),
  });
}

TEST(DeckState, CommittingACheckedCommandEqualsExecutingIt) {
  const Platform &platform = bioforge();
  RunSetup setup = plateWithBuffer();
  setup.manualFills.push_back(ManualFill::fill(3, Well{1, 2}, "serum", 40));
  const Labware &plate = *platform.findLabware("plate96");
  DeckState executed(platform, plate, setup), committed(platform, plate, setup);
  for (const Command &command : pipettingRun()) {
    executed.applyManualFills(command.seq);
    ASSERT_FALSE(executed.execute(command, true)) << command.seq;
    committed.applyManualFills(command.seq);
    ASSERT_FALSE(committed.check(command)) << command.seq;
    ASSERT_FALSE(committed.commitChecked(command)) << command.seq;
    ASSERT_EQ(committed.toJson(), executed.toJson()) << "after command " << command.seq;
  }
  EXPECT_DOUBLE_EQ(committed.solutionWasteUl(), 4 * 20);
}

TEST(DeckState, CommittingAnUncheckedOrStaleCommandChecksItFirst) {
  const Platform &platform = bioforge();
  RunSetup setup = plateWithBuffer();
  setup.manualFills.push_back(ManualFill::fill(4, Well{1, 1}, "serum", 300));
  DeckState state(platform, *platform.findLabware("plate96"), setup);
  std::vector<Command> commands = pipettingRun();
  ASSERT_FALSE(state.commitChecked(commands[0])); // never checked: full path
  auto noTips = state.commitChecked(commands[2]); // aspirate without tips
  ASSERT_TRUE(noTips);
  EXPECT_EQ(noTips->rule, Rule::Tips);
  // Checked, then executed by another path: the plan is stale, and the
  // commit checks again instead of picking the same tips twice.
  ASSERT_FALSE(state.check(commands[1]));
  ASSERT_FALSE(state.execute(commands[1], true));
  auto twice = state.commitChecked(commands[1]);
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->rule, Rule::Tips);
  ASSERT_FALSE(state.check(commands[2]));
  ASSERT_FALSE(state.commitChecked(commands[2]));
  EXPECT_DOUBLE_EQ(state.reservoirVolumeUl(1, 1), 20000 - 4 * 200);
  EXPECT_DOUBLE_EQ(state.tipVolume(3), 200);
  // A MANUAL fill landing between check and commit invalidates the plan:
  // 200 µL more into A1's 300 would overflow a 96-well.
  ASSERT_FALSE(state.check(commands[3]));
  state.applyManualFills(4);
  auto overflow = state.commitChecked(commands[3]);
  ASSERT_TRUE(overflow);
  EXPECT_EQ(overflow->rule, Rule::Volume);
  EXPECT_DOUBLE_EQ(totalVolume(state.well(Well{1, 1})), 300);
}

TEST(Simulator, FinalStateOnlyWhenAskedFor) {
  std::vector<Command> commands = pipettingRun();
  Outcome plain = run(commands, plateWithBuffer());
  ASSERT_TRUE(plain.result.ok);
  EXPECT_TRUE(plain.result.finalState.is_null());
  RunOptions options;
  options.keepFinalState = true;
  Outcome kept = run(commands, plateWithBuffer(), options);
  ASSERT_TRUE(kept.result.ok);
  ASSERT_TRUE(kept.result.finalState.is_object());
  EXPECT_EQ(kept.result.finalState["tips_in_waste"], 2);
}

TEST(Simulator, ReturnedTipKeepsItsContactAndIsPickedAgain) {
  RunSetup setup = plateWithBuffer();
  setup.manualFills.push_back(ManualFill::fill(1, Well{1, 1}, "serum", 200));
  setup.manualFills.push_back(ManualFill::fill(1, Well{1, 2}, "serum", 200));
  std::vector<Command> commands = {
      cmd(1, "LH", "RemoveLid", {{"slot", 1}}),
      cmd(2, "LH", "PickTips", {{"row", 3}, {"col", 5}, {"mask", "1000"}}),
      cmd(3, "LH", "Aspirate",
          {{"slot", 1}, {"row", 1}, {"col", 1}, {"mask", "1000"}, {"volume_ul", 50}}),
      cmd(4, "LH", "Dispense", {{"slot", 8}, {"mask", "1000"}, {"volume_ul", 50}}),
      cmd(5, "LH", "ReturnTips", {{"row", 3}, {"col", 5}, {"mask", "1000"}}),
      cmd(6, "LH", "PickTips", {{"row", 3}, {"col", 5}, {"mask", "1000"}}),
      cmd(7, "LH", "Aspirate",
          {{"slot", 1}, {"row", 1}, {"col", 1}, {"mask", "1000"}, {"volume_ul", 50}}),
      cmd(8, "LH", "Aspirate",
          {{"slot", 1}, {"row", 1}, {"col", 2}, {"mask", "1000"}, {"volume_ul", 50}}),
  };
  Outcome outcome = run(commands, setup);
  ASSERT_EQ(outcome.diagnostics.size(), 1u);
  EXPECT_EQ(outcome.diagnostics[0].id, DiagId::TwinWellTipOtherWell);
  EXPECT_EQ(outcome.result.failedSeq, 8u);
  EXPECT_EQ(outcome.result.executed, 7u);
}

TEST(Simulator, ReuseMarkedCommandsAreExemptFromTheContactRule) {
  RunSetup setup = plateWithBuffer();
  setup.reservoir.push_back({1, 2, "dye", 5});
  setup.manualFills.push_back(ManualFill::fill(1, Well{1, 1}, "serum", 200));
  auto asp = [](uint32_t seq, Json slot, unsigned row, unsigned col, bool reuse) {
    return cmd(seq, "LH", "Aspirate",
               {{"slot", slot}, {"row", row}, {"col", col}, {"mask", "1000"}, {"volume_ul", 20}},
               reuse);
  };
  std::vector<Command> commands = {
      cmd(1, "LH", "RemoveLid", {{"slot", 1}}),
      cmd(2, "LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "1000"}}),
      asp(3, 5, 1, 1, false),
      asp(4, 5, 1, 2, true),
      asp(5, 1, 1, 1, true),
  };
  EXPECT_TRUE(run(commands, setup).result.ok);
  commands[3].tipsReuse = false;
  Outcome strict = run(commands, setup);
  ASSERT_EQ(strict.diagnostics.size(), 1u);
  EXPECT_EQ(strict.diagnostics[0].id, DiagId::TwinReservoirTipOtherPosition);
}

TEST(Simulator, SolutionWasteNeverOverflows) {
  // The reservoir alone cannot fill 500 mL of waste, so MANUAL refills put
  // 300 uL back into A1..A4 before every aspiration.
  RunSetup setup;
  std::vector<Command> commands;
  auto add = [&](std::string module, std::string op, Json args) {
    commands.push_back(cmd(uint32_t(commands.size() + 1), module, op, std::move(args)));
  };
  add("LH", "RemoveLid", {{"slot", 1}});
  add("LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "1111"}});
  for (int i = 0; i < 500; ++i) {
    for (uint8_t col = 1; col <= 4; ++col)
      setup.manualFills.push_back(ManualFill::fill(uint32_t(commands.size() + 1), Well{1, col}, "serum", 300));
    add("LH", "Aspirate", {{"slot", 1}, {"row", 1}, {"col", 1}, {"mask", "1111"}, {"volume_ul", 300}});
    add("LH", "Dispense", {{"slot", 8}, {"mask", "1111"}, {"volume_ul", 300}});
  }
  Outcome outcome = run(commands, setup);
  ASSERT_FALSE(outcome.diagnostics.empty());
  EXPECT_EQ(outcome.diagnostics[0].id, DiagId::TwinSolutionWasteFull);
  EXPECT_NE(outcome.diagnostics[0].message.find("solution waste"), std::string::npos)
      << outcome.diagnostics[0].message;
}

TEST(Simulator, TipWasteNeverOverflows) {
  const Platform &platform = bioforge();
  std::vector<Command> commands;
  auto add = [&](std::string module, std::string op, Json args) {
    commands.push_back(cmd(uint32_t(commands.size() + 1), module, op, std::move(args)));
  };
  unsigned perRack = platform.tipRackRows * platform.tipRackCols / 4;
  for (unsigned rack = 0; rack <= platform.spareTipRacks; ++rack) {
    if (rack)
      add("PT", "SwapTipRack", Json::object());
    for (unsigned i = 0; i < perRack; ++i) {
      add("LH", "PickTips", {{"row", 1 + i / 3}, {"col", 1 + 4 * (i % 3)}, {"mask", "1111"}});
      add("LH", "DropTips", {{"mask", "1111"}});
    }
  }
  Outcome outcome = run(commands, RunSetup{});
  ASSERT_EQ(outcome.diagnostics.size(), 1u);
  EXPECT_EQ(outcome.diagnostics[0].id, DiagId::TwinTipWasteFull);
  EXPECT_NE(outcome.diagnostics[0].message.find("tip waste"), std::string::npos);
  EXPECT_EQ(countTips(commands, platform).racks, platform.spareTipRacks + 1);
}

TEST(Simulator, DiagnosticsPointAtTheScriptLineForLoweredCommands) {
  SourceManager sources;
  uint32_t script = sources.addBuffer("x.plate", "a\nb\nc\nd\ne\nf\nshake 30 s at 300 rpm\n");
  DiagnosticEngine diags(sources);
  RunOptions options;
  options.writeFiles = false;
  options.scriptFileId = script;
  std::vector<Command> commands = {cmd(1, "SHK", "Shake", {{"rpm", 300}, {"seconds", 30}})};
  runCommands(commands, RunSetup{}, bioforge(), options, sources, diags);
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].id, DiagId::TwinShakeOffShaker);
  EXPECT_EQ(diags.diagnostics()[0].loc.fileId, script);
  EXPECT_EQ(diags.diagnostics()[0].loc.line, 7u);
  EXPECT_EQ(diags.diagnostics()[0].step, "1");
}

//===--- Journal durability (docs/reliability.md) ---------------------------===//

namespace {
/// A robot as the interpreter sees one: any device but the simulator. It
/// does what the simulator does, under another name.
class ForwardingRobot : public Device {
public:
  ForwardingRobot(const RunSetup &setup)
      : simulator_(bioforge(), *bioforge().findLabware("plate96"), setup, {}, {}) {}
  std::string name() const override { return "test robot"; }
  DeviceResult execute(const Command &command) override { return simulator_.execute(command); }

private:
  SimulatedDevice simulator_;
};
} // namespace

TEST(JournalDurability, RobotSyncsEveryConfirmedCommandSimulatorNothing) {
  std::vector<Command> commands = {cmd(1, "LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "1111"}}),
                                   cmd(2, "LH", "DropTips", {{"mask", "1111"}})};
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("plate-journal-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);

  RunOptions simulated;
  simulated.journal = (dir / "simulated.jsonl").string();
  Outcome onSimulator = run(commands, plateWithBuffer(), simulated);
  ASSERT_TRUE(onSimulator.result.ok);
  EXPECT_EQ(onSimulator.result.journalSyncs, 0u) << "a simulated run is simulated again";
  // Unsynced, but written: the whole journal is in the file when the run
  // returns, end line last.
  std::ifstream simulatedJournal(simulated.journal);
  std::string line, last;
  size_t lines = 0;
  while (std::getline(simulatedJournal, line)) {
    last = line;
    ++lines;
  }
  EXPECT_EQ(lines, 1u + 2 * commands.size() + 1u) << "header, begin and done of each, end";
  EXPECT_NE(last.find("\"end\":\"complete\""), std::string::npos) << last;

  ForwardingRobot robot(plateWithBuffer());
  RunOptions onRobotOptions;
  onRobotOptions.device = &robot;
  onRobotOptions.journal = (dir / "robot.jsonl").string();
  Outcome onRobot = run(commands, plateWithBuffer(), onRobotOptions);
  ASSERT_TRUE(onRobot.result.ok);
  EXPECT_EQ(onRobot.result.device, "test robot");
  // The header, each command's "done" line and the end line; "begin" lines
  // need no sync.
  EXPECT_EQ(onRobot.result.journalSyncs, 1u + commands.size() + 1u);
  std::filesystem::remove_all(dir);
}

namespace {
/// A robot that stops at one command and, when the run is resumed, senses
/// a deck other than the journal's: someone handled the plate while the
/// run was stopped. Only a real device can tell; the simulator restores its
/// deck from the journal.
class HandledDeckRobot : public Device {
public:
  HandledDeckRobot(const RunSetup &setup, uint32_t stallAt, std::optional<std::string> sensed)
      : simulator_(bioforge(), *bioforge().findLabware("plate96"), setup, {}, {}),
        stallAt_(stallAt), sensed_(std::move(sensed)) {}
  std::string name() const override { return "test robot"; }
  DeviceResult execute(const Command &command) override {
    if (command.seq == stallAt_)
      return DeviceResult{DeviceStatus::Failed, "the head stalled", std::nullopt, FaultKind::None};
    return simulator_.execute(command);
  }
  std::optional<std::string> verifyState(const DeckState &) override { return sensed_; }

private:
  SimulatedDevice simulator_;
  uint32_t stallAt_;
  std::optional<std::string> sensed_;
};
} // namespace

TEST(JournalResume, ADeckHandledWhileStoppedIsNotResumedBlindly) {
  std::vector<Command> commands = {cmd(1, "LH", "PickTips", {{"row", 1}, {"col", 1}, {"mask", "1111"}}),
                                   cmd(2, "LH", "DropTips", {{"mask", "1111"}})};
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("plate-resume-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string journal = (dir / "run.jsonl").string();

  HandledDeckRobot stalling(plateWithBuffer(), 2, std::nullopt);
  RunOptions first;
  first.device = &stalling;
  first.journal = journal;
  Outcome stopped = run(commands, plateWithBuffer(), first);
  ASSERT_FALSE(stopped.result.ok);
  EXPECT_EQ(stopped.result.executed, 1u);

  HandledDeckRobot handled(plateWithBuffer(), 0, std::string("the plate is not in slot 1"));
  RunOptions resumed;
  resumed.device = &handled;
  resumed.resume = journal;
  resumed.journal = (dir / "resumed.jsonl").string();
  Outcome refused = run(commands, plateWithBuffer(), resumed);
  EXPECT_FALSE(refused.result.ok);
  ASSERT_FALSE(refused.diagnostics.empty());
  EXPECT_EQ(refused.diagnostics.back().id, DiagId::JournalDeviceDiffers);
  EXPECT_NE(refused.diagnostics.back().message.find(
                "after command 1: the plate is not in slot 1; check the deck"),
            std::string::npos)
      << refused.diagnostics.back().message;
  std::filesystem::remove_all(dir);
}

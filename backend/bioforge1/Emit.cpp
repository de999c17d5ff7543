//===- Emit.cpp - JSON Lines, the human listing, loading plan and summary --===//
//
// Both emitters end with the same loading plan and summary text, computed
// from the same RunSetup the run side uses, so the robot time the compiler
// promises is the one the simulator's clock reaches.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

namespace plate::backend {

std::string planText(const RunSetup &setup, size_t commandCount) {
  std::string text = "loading plan:\n";
  if (setup.reservoir.empty())
    text += "  (no reservoir positions used)\n";
  for (const ReservoirLoad &load : setup.reservoir)
    text += fmt::format("  reservoir({},{})  {:<20} {} mL\n", load.row, load.col, load.liquid,
                        formatNumber(load.volumeMl));
  text += fmt::format("summary: {} commands, {} tips, {} tip rack(s), robot time {} ({} s)\n",
                      commandCount, setup.tips, setup.tipRacks,
                      formatDuration(setup.robotTimeSeconds),
                      formatNumber(std::round(setup.robotTimeSeconds * 1000) / 1000));
  return text;
}

Json loadingPlanJson(const ir::Module &module, const Platform &platform) {
  std::vector<Command> commands = lowerToCommands(module, platform);
  return setupToJson(setupFromModule(module, platform, commands));
}

void emitJsonl(const ir::Module &module, const Platform &platform, std::ostream &out,
               bool withPlan) {
  std::vector<Command> commands = lowerToCommands(module, platform);
  // One buffer, written in chunks: a stream write per line costs more
  // than formatting the line.
  constexpr size_t kChunk = 1 << 16;
  std::string buffer;
  buffer.reserve(kChunk + 1024);
  for (const Command &command : commands) {
    appendCommandJsonLine(buffer, command);
    buffer += '\n';
    if (buffer.size() >= kChunk) {
      out << buffer;
      buffer.clear();
    }
  }
  out << buffer;
  if (withPlan) {
    std::istringstream plan(planText(setupFromModule(module, platform, commands),
                                     commands.size()));
    for (std::string line; std::getline(plan, line);)
      out << "# " << line << '\n';
  }
}

std::string statementText(const SourceManager &sources, uint32_t fileId, uint32_t line,
                          std::string_view label) {
  std::string text = statementText(sources, fileId, line);
  // The listing names the step already ("step 5.1 (line 9): dispense ..."):
  // the statement's own label, in any of its spellings ("5.1", "Step 3:",
  // "b)", "(iii)"), is not said twice.
  if (label.empty())
    return text;
  std::string_view rest = text;
  bool paren = !rest.empty() && rest.front() == '(';
  if (paren)
    rest.remove_prefix(1);
  if (rest.size() > 5 && (rest.substr(0, 5) == "Step " || rest.substr(0, 5) == "step "))
    rest.remove_prefix(5);
  if (rest.substr(0, label.size()) != label)
    return text;
  rest.remove_prefix(label.size());
  if (!rest.empty() && (rest.front() == '.' || rest.front() == ')' || rest.front() == ':'))
    rest.remove_prefix(1);
  else if (paren)
    return text;
  if (rest.empty() || (rest.front() != ' ' && rest.front() != '\t'))
    return text;
  return std::string(rest.substr(rest.find_first_not_of(" \t")));
}

std::string statementText(const SourceManager &sources, uint32_t fileId, uint32_t line) {
  std::string text(sources.lineText(fileId, line));
  auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos)
    return {};
  text = text.substr(first);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r' || text.back() == '\t'))
    text.pop_back();
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    ++digits;
  if (digits && digits + 1 < text.size() && text[digits] == '.' && text[digits + 1] == ' ')
    text = text.substr(digits + 2);
  return text;
}

void emitListing(const ir::Module &module, const Platform &platform,
                 const SourceManager &sources, std::ostream &out) {
  std::vector<Command> commands = lowerToCommands(module, platform);
  out << fmt::format("# {} for `{}`\n", platform.description, module.title);
  std::string currentStep;
  uint32_t currentLine = 0;
  bool first = true;
  double clock = 0;
  for (const Command &command : commands) {
    // A heading per statement: a procedure call's body lines share the
    // call's step label, so both step and line start a new group.
    if (first || command.step != currentStep || command.line != currentLine) {
      currentStep = command.step;
      currentLine = command.line;
      // An unnumbered statement has no step label: its line says it all.
      out << fmt::format("{}{}: {}\n", first ? "" : "\n",
                         command.step.empty()
                             ? fmt::format("line {}", command.line)
                             : fmt::format("step {} (line {})", command.step, command.line),
                         statementText(sources, module.fileId, command.line, command.step));
      first = false;
    }
    // A checklist prompt has a line per item: indent them under the text.
    std::string text = commandToText(command);
    for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1))
      text.insert(at + 1, 24, ' ');
    out << fmt::format("    {:>5}  {:>9}  {}\n", command.seq, formatDuration(clock), text);
    clock += commandSeconds(command, platform);
  }
  out << '\n'
      << planText(setupFromModule(module, platform, commands), commands.size());
}

} // namespace plate::backend

//===- Command.h - BioForge-1 commands, their lowering and their timing ---===//
//
// A Command is one line of the command stream of bioforge1.md §3: module,
// op and arguments in canonical units, plus the step label and source line
// that trace it back to the script. The emitter, the stream reader, the
// interpreter and the devices all speak this one type.
//
// Arguments stay a JSON object (insertion-ordered, so the emitted key order
// is the table order of §3); `commandSchema()` lists, per module.op, the
// arguments and their JSON types so that the reader validates a saved
// stream against the same table the emitter writes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/Platform.h"
#include "ir/SourceManager.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace plate::backend {

using Json = nlohmann::ordered_json;

struct Command {
  uint32_t seq = 0;
  std::string module; ///< LH, PT, PL, HP, SHK, RDR, SYS
  std::string op;     ///< PickTips, Aspirate, ...
  Json args = Json::object();
  std::string step;   ///< step label of the source statement
  uint32_t line = 0;  ///< source line in the script
  bool tipsReuse = false;
  /// Where the command was read from (a .jsonl line); invalid for commands
  /// lowered in this process. Diagnostics point here when it is valid.
  SourceLoc streamLoc;

  std::string name() const { return module + "." + op; }
};

/// JSON value of a number as the stream writes it: integral values as
/// integers (`100`, never `100.0`), others in shortest round-trip form.
Json jsonNumber(double value);
/// A slot as the stream writes it: Main Deck slots are numbers, Analyzer
/// Deck slots strings ("A1").
Json jsonSlot(const std::string &slot);
/// The slot id of a JSON slot value ("5", "A3"); empty if it is neither an
/// integer nor a string.
std::string slotId(const Json &value);

enum class ArgType : uint8_t { Integer, Number, String, Slot, Mask, WellList };

struct ArgSpec {
  const char *name;
  ArgType type;
  bool required;
};

struct CommandSpec {
  const char *module;
  const char *op;
  std::vector<ArgSpec> args;
};

/// Every module.op of bioforge1.md §3 with its arguments in table order.
const std::vector<CommandSpec> &commandSchema();
const CommandSpec *findCommandSpec(std::string_view module, std::string_view op);

/// Lowers a module whose ops are device ops (plus host ops Analyze/Note and
/// MANUAL-kept ops, which produce no commands) to commands numbered from 1.
std::vector<Command> lowerToCommands(const ir::Module &module,
                                     const Platform &platform);

/// The JSON object of one stream line, keys seq, module, op, args, step,
/// line and (for reuse) tips.
Json commandToJson(const Command &command);
/// One stream line without the newline.
std::string commandToJsonLine(const Command &command);
/// `LH.Aspirate slot=5 row=1 col=2 mask=1111 volume_ul=100`.
std::string commandToText(const Command &command);

/// Seconds the command takes under the platform's timing model (§5).
double commandSeconds(const Command &command, const Platform &platform);
/// Robot time of a whole stream: the sum of commandSeconds.
double robotSeconds(const std::vector<Command> &commands, const Platform &platform);
/// `1 h 02 min 05 s` style for summaries and progress.
std::string formatDuration(double seconds);

} // namespace plate::backend

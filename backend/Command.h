//===- Command.h - BioForge-1 commands, their lowering and their timing ---===//
//
// A Command is one line of the command stream of bioforge1.md §3: module,
// op and arguments in canonical units, plus the step label and source line
// that trace it back to the script. The emitter, the stream reader, the
// interpreter and the devices all speak this one type.
//
// Arguments have two forms. `CommandFields` (an opcode and typed fields)
// are what the interpreter, the digital twin, the simulator and the timing
// model read per command: no name lookups, no string compares on the hot
// path (bench/README.md, throughput). The JSON object of the arguments
// (insertion-ordered, keys in the table order of §3) is what the emitter
// writes, the journal records and diagnostics quote; `commandSchema()`
// lists, per module.op, the arguments and their JSON types so that the
// reader validates a saved stream against the same table the emitter
// writes.
//
// Which form is authoritative depends on where the command came from:
//  - Lowering fills only `fields` and leaves `args` null: building and
//    dumping a JSON object per command was half of `plate compile`'s time
//    on IL-6 (issue 7). The fields hold everything the stream line needs
//    (slot ids and numbers as they read back from the stream, the mask
//    as bits plus length, well positions, prompt text); a command whose
//    arguments the fields cannot spell (a mask wider than 64 channels, a
//    well with no name) is lowered with `args` set instead.
//  - The stream reader and commands built by hand (tests, the bench's
//    naive lowering) set `args` to the object as written; `fields` are
//    decoded from it by `decodeCommand` (consumers handed a command that
//    was never decoded decode a copy on the fly).
// So: if `args` is not null it is authoritative and `fields` were decoded
// from it; otherwise `fields` are. Output and diagnostics never read
// `args` directly but go through `commandArgs`, `commandToJson`,
// `commandToJsonLine` or `commandToText`, which give the same bytes for
// both forms (CommandEmit.LoweredLinesAreTheJsonDump proves it for the
// examples). Code that edits `args` calls `decodeCommand` again; code that
// edits a command with null `args` sets its fields.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/Platform.h"
#include "ir/SourceManager.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::backend {

using Json = nlohmann::ordered_json;

/// One value per module.op of bioforge1.md §3, in the order of
/// `commandSchema()` (the enum value is the row index).
enum class Opcode : uint8_t {
  LH_PickTips, LH_DropTips, LH_ReturnTips, LH_Aspirate, LH_Dispense, LH_Mix,
  LH_MovePlate, LH_RemoveLid, LH_PlaceLid,
  PT_MovePlate, PT_SwapTipRack,
  PL_MovePlate, PL_RemoveLid, PL_PlaceLid,
  HP_SetTemperature, HP_Off,
  SHK_Shake,
  RDR_ReadAbsorbance,
  SYS_Wait, SYS_Prompt,
  Unknown
};

/// The op part alone: the twin dispatches on it and checks the module
/// against the platform's module names separately, so that a wrong module
/// gets its own diagnostic.
enum class CommandOp : uint8_t {
  PickTips, DropTips, ReturnTips, Aspirate, Dispense, Mix, MovePlate, RemoveLid,
  PlaceLid, SwapTipRack, SetTemperature, Off, Shake, ReadAbsorbance, Wait, Prompt,
  Other
};

/// The arguments of a command, typed. Every field reads its JSON argument
/// the way the checks always have: absent or mistyped numbers are 0 (or
/// empty optionals), slots are slot ids ("5", "A3"), the mask is kept as
/// bits plus what its well-formedness needs, wells that are not well names
/// are Well{0, 0} (outside every plate).
struct CommandFields {
  bool decoded = false;
  Opcode opcode = Opcode::Unknown;
  CommandOp op = CommandOp::Other;
  bool hasRowKey = false, hasColKey = false;
  std::optional<double> row, col; ///< when the argument is a number
  unsigned rowIndex = 0, colIndex = 0;
  uint32_t maskLength = 0; ///< characters in `mask` (0 if absent)
  bool maskBinary = false; ///< only `0` and `1`
  uint64_t maskBits = 0;   ///< bit c: channel c (0-based) is `1`
  std::string slot, from, to;
  double volumeUl = 0, cycles = 0, celsius = 0, rpm = 0, seconds = 0;
  std::optional<double> wavelengthNm, referenceNm;
  bool hasReferenceKey = false;
  bool wellsIsArray = false;
  std::vector<Well> wells;
  /// Largest row and column in `wells`, and whether every entry is a well
  /// name: a read is inside a plate iff all parse and these fit.
  bool wellsAllNamed = false;
  uint8_t wellsMaxRow = 0, wellsMaxCol = 0;
  std::string text; ///< SYS.Prompt

  friend bool operator==(const CommandFields &, const CommandFields &) = default;
};

struct Command {
  Command() = default;
  /// Tag of a lowered command: null `args`, the fields carry the arguments
  /// (no empty JSON object allocated per command).
  struct FromFields {};
  explicit Command(FromFields) : args(nullptr) {}

  uint32_t seq = 0;
  std::string module; ///< LH, PT, PL, HP, SHK, RDR, SYS
  std::string op;     ///< PickTips, Aspirate, ...
  /// The arguments as a stream spelled them, or null for a lowered
  /// command (see the file comment; read them through `commandArgs`).
  Json args = Json::object();
  std::string step;   ///< step label of the source statement
  uint32_t line = 0;  ///< source line in the script
  bool tipsReuse = false;
  /// Where the command was read from (a .jsonl line); invalid for commands
  /// lowered in this process. Diagnostics point here when it is valid.
  SourceLoc streamLoc;
  /// Typed arguments (see the file comment).
  CommandFields fields;

  std::string name() const { return module + "." + op; }
};

/// Equality of short ids (module names, slot ids): one or two characters
/// compared in line, not through a call to memcmp.
inline bool sameId(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i])
      return false;
  return true;
}

/// Fills `command.fields` from module, op and args. Lowering and the
/// stream reader call it once per command.
void decodeCommand(Command &command);

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

/// The arguments as a JSON object: `args` when set, else built from the
/// fields in schema order (required arguments always, optional ones when
/// their key is present).
Json commandArgs(const Command &command);

/// The JSON object of one stream line, keys seq, module, op, args, step,
/// line and (for reuse) tips.
Json commandToJson(const Command &command);
/// One stream line without the newline: byte for byte
/// `commandToJson(command).dump()`, written straight from the fields for a
/// lowered command.
std::string commandToJsonLine(const Command &command);
/// Appends that line (without the newline) to `out`: the emitter writes a
/// whole stream into one buffer.
void appendCommandJsonLine(std::string &out, const Command &command);
/// `LH.Aspirate slot=5 row=1 col=2 mask=1111 volume_ul=100`.
std::string commandToText(const Command &command);

/// Seconds the command takes under the platform's timing model (§5).
double commandSeconds(const Command &command, const Platform &platform);
/// Robot time of a whole stream: the sum of commandSeconds.
double robotSeconds(const std::vector<Command> &commands, const Platform &platform);
/// `1 h 02 min 05 s` style for summaries and progress.
std::string formatDuration(double seconds);

} // namespace plate::backend

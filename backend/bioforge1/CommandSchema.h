//===- CommandSchema.h - The BioForge-1 command table of bioforge1.md §3 --===//
//
// What a command may be: one row per module.op with its arguments in table
// order and their JSON types. The stream reader validates a saved stream
// against this table, the serializer writes arguments in its order, and
// the agent quotes it in its prompt; nothing else spells a module.op.
//
// An op has one name in code, `CommandOp`. The module is not part of it:
// a platform names its modules (`head.module = "LH"`), so the twin
// dispatches on the op and checks the module against the platform's names
// separately, which gives a wrong module its own diagnostic. The table
// lists the bioforge1 module names; every op has the same arguments on
// every module that offers it (CommandSchema.ArgumentsDependOnTheOpOnly
// holds the table to that), so `opArgs` needs no module.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace plate::backend {

/// The op of a command, whatever module it is sent to.
enum class CommandOp : uint8_t {
  PickTips, DropTips, ReturnTips, Aspirate, Dispense, Mix, MovePlate, RemoveLid,
  PlaceLid, SwapTipRack, SetTemperature, Off, Shake, ReadAbsorbance, Wait, Prompt,
  /// No op of the table: only a command built by hand can have it (the
  /// stream reader rejects such a line, lowering never makes one).
  Other
};

/// `Aspirate` for CommandOp::Aspirate; empty for Other.
std::string_view opName(CommandOp op);
/// The op named `name`, Other if there is none.
CommandOp opNamed(std::string_view name);

enum class ArgType : uint8_t { Integer, Number, String, Slot, Mask, WellList };

/// Which typed field of CommandFields holds an argument.
enum class ArgKey : uint8_t {
  Row, Col, Mask, Slot, From, To, VolumeUl, Cycles, Celsius, Rpm, Seconds, WavelengthNm,
  ReferenceNm, Wells, Text
};

struct ArgSpec {
  const char *name;
  ArgType type;
  bool required;
  ArgKey key;
};

struct CommandSpec {
  const char *module;
  CommandOp op;
  std::vector<ArgSpec> args;
};

/// Every module.op of bioforge1.md §3 with its arguments in table order.
const std::vector<CommandSpec> &commandSchema();
/// The row of module.op; null if §3 has no such command.
const CommandSpec *findCommandSpec(std::string_view module, std::string_view op);
/// The arguments of `op` in table order (empty for Other).
const std::vector<ArgSpec> &opArgs(CommandOp op);

} // namespace plate::backend

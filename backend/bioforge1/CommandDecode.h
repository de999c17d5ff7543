//===- CommandDecode.h - JSON arguments of a stream line into typed fields ===//
//
// The reading edge of the command representation (Command.h): a stream
// line's `args` object becomes CommandFields once, right after the stream
// reader has checked it against commandSchema(). Nothing downstream sees
// the JSON again.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"

#include <string>
#include <string_view>
#include <vector>

namespace plate::backend {

/// The fields of `op` with the arguments `args` (a JSON object as a stream
/// spells it). Keys that name no field are skipped: the reader has
/// reported them already.
CommandFields decodeFields(CommandOp op, const Json &args);

/// A command from module, op name and arguments as a stream line spells
/// them (tests, the bench's naive lowering). seq, step and line are left
/// for the caller.
Command decodeCommand(std::string module, std::string_view op, const Json &args);

/// Sets the `wells` argument from well names, as a `wells` list decodes:
/// lowering spells this way a read whose wells have no names.
void setWellNames(CommandFields &fields, const std::vector<std::string> &names);

} // namespace plate::backend

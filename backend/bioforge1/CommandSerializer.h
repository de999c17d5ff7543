//===- CommandSerializer.h - Writing a command: stream line, JSON, text ---===//
//
// The writing edge of the command representation (Command.h). One writer
// walks a command's fields in the order of commandSchema() and spells each
// value in one of two syntaxes: a JSON Lines stream line (bioforge1.md §3,
// what the emitter writes and the journal hashes) or the listing's text
// (`LH.Aspirate slot=5 row=1 col=2 mask=1111 volume_ul=100`). The JSON
// object forms are the stream line parsed, so they cannot disagree with it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"

#include <string>

namespace plate::backend {

/// One stream line without the newline: keys seq, module, op, args (in
/// table order: required arguments always, optional ones when present),
/// step, line and (for reuse) tips.
std::string commandToJsonLine(const Command &command);
/// Appends that line (without the newline) to `out`: the emitter writes a
/// whole stream into one buffer.
void appendCommandJsonLine(std::string &out, const Command &command);
/// Appends what `Json(value).dump()` writes for a double (`12.0`, `0.25`,
/// `null` for NaN and infinities) without building a Json and its
/// serializer: the journal writes one per command.
void appendJsonDouble(std::string &out, double value);
/// `LH.Aspirate slot=5 row=1 col=2 mask=1111 volume_ul=100`.
std::string commandToText(const Command &command);

/// The stream line as a JSON object (the journal records it, MCP returns
/// it): commandToJsonLine parsed.
Json commandToJson(const Command &command);
/// The `args` object of that line: what diagnostics and the evaluation
/// quote of a single argument.
Json commandArgs(const Command &command);

} // namespace plate::backend

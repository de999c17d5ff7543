//===- Command.h - One BioForge-1 command and its typed arguments ---------===//
//
// A Command is one line of the command stream of bioforge1.md §3: module,
// op and arguments in canonical units, plus the step label and source line
// that trace it back to the script. Lowering, the stream reader, the
// interpreter, the twin and the devices all speak this one type.
//
// The arguments have one representation, `CommandFields`: typed fields
// that every layer reads without name lookups or string compares (the
// interpreter's hot path, bench/README.md). JSON exists only at the edges:
//  - a stream read from a file is decoded into fields once
//    (CommandDecode.h), after the reader has checked it against the table
//    of CommandSchema.h;
//  - lowering fills the fields straight from the IR (LowerToCommands.h);
//  - every output (the stream, the journal, the listing, diagnostics that
//    quote an argument) is written from the fields by the one serializer
//    (CommandSerializer.h).
// The fields can spell every command the reader accepts and every command
// lowering makes: a mask the 64 bits cannot hold (wider, or with characters
// other than `0` and `1`) and well names that are no well keep their
// spelling next to the typed value. Writing what was read gives the
// canonical line: the table's key order, integral numbers as integers,
// Main Deck slots as numbers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/CommandSchema.h"
#include "ir/Platform.h"
#include "ir/SourceManager.h"
#include "ir/Wells.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::backend {

using Json = nlohmann::ordered_json;

/// The op and the arguments of a command, typed. Absent or mistyped numbers
/// are 0 (or empty optionals), slots are slot ids ("5", "A3"), the mask is
/// bits plus what its well-formedness needs, wells that are not well names
/// are Well{0, 0} (outside every plate): what the checks have always read.
struct CommandFields {
  CommandOp op = CommandOp::Other;
  bool hasRowKey = false, hasColKey = false;
  std::optional<double> row, col; ///< when the argument is a number
  unsigned rowIndex = 0, colIndex = 0;
  uint32_t maskLength = 0; ///< characters in `mask` (0 if absent)
  bool maskBinary = false; ///< only `0` and `1`
  uint64_t maskBits = 0;   ///< bit c: channel c (0-based) is `1`
  /// The mask as spelled when `maskBits` cannot say it (a character other
  /// than `0`/`1`, or more than 64 channels); empty otherwise.
  std::string maskSpelling;
  std::string slot, from, to;
  double volumeUl = 0, cycles = 0, celsius = 0, rpm = 0, seconds = 0;
  std::optional<double> wavelengthNm, referenceNm;
  bool hasReferenceKey = false;
  bool wellsIsArray = false;
  std::vector<Well> wells;
  /// The names of `wells` as spelled when one of them is not the name of
  /// its well (no well at all, or not canonical); empty otherwise.
  std::vector<std::string> wellSpellings;
  /// Largest row and column in `wells`, and whether every entry is a well
  /// name: a read is inside a plate iff all parse and these fit.
  bool wellsAllNamed = false;
  uint8_t wellsMaxRow = 0, wellsMaxCol = 0;
  std::string text; ///< SYS.Prompt

  friend bool operator==(const CommandFields &, const CommandFields &) = default;
};

struct Command {
  uint32_t seq = 0;
  std::string module; ///< LH, PT, PL, HP, SHK, RDR, SYS (the platform's names)
  std::string step;   ///< step label of the source statement
  uint32_t line = 0;  ///< source line in the script
  bool tipsReuse = false;
  /// Where the command was read from (a .jsonl line); invalid for commands
  /// lowered in this process. Diagnostics point here when it is valid.
  SourceLoc streamLoc;
  /// The op and its arguments (see the file comment).
  CommandFields fields;

  /// `LH.Aspirate`.
  std::string name() const { return module + "." + std::string(opName(fields.op)); }
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

/// JSON value of a number as the stream writes it: integral values as
/// integers (`100`, never `100.0`), others in shortest round-trip form.
Json jsonNumber(double value);
/// A slot as the stream writes it: Main Deck slots are numbers, Analyzer
/// Deck slots strings ("A1").
Json jsonSlot(const std::string &slot);
/// The slot id of a JSON slot value ("5", "A3"); empty if it is neither an
/// integer nor a string.
std::string slotId(const Json &value);

} // namespace plate::backend

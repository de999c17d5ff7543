//===- IRReader.h - Reads the textual form of the IR back -----------------===//
//
// The inverse of ir::print: parses exactly the text the printer writes
// (`--emit=ir`, `--print-after-all`, docs/ir.md) into a Module, so that a
// pass can be run and tested on its own from IR text (`plate opt`), the way
// LLVM's opt and mlir-opt do. Malformed text is a user error: diagnostics
// E970-E979 at LINE:COL of the text, never a crash; a module that parses is
// then checked by the verifier, whose findings are user errors too (E978).
//
// The text has no hidden state. Two flags of Module that the printer does
// not show are derived from what it does show, by their definitions:
// `unitsNormalized` when every quantity (concentrations aside) is canonical,
// `lowered` when the module has its tip count (lower-pipetting ran) and
// only device ops, `analyze`, `note` and MANUAL ops remain.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <optional>
#include <string>

namespace plate::ir {

struct ParseOptions {
  /// The script the ops' `loc=LINE:COL` point into, already registered in
  /// the SourceManager; 0: an empty buffer named `<script>` stands for it
  /// (diagnostics then give its line and column without quoting it).
  uint32_t scriptFileId = 0;
  /// Where the file of a `loc=NAME.plate:LINE:COL` (a `use` module) is
  /// read from, so that diagnostics quote it; a name not found there gets
  /// an empty buffer of that name.
  std::string modulesDir;
};

/// Parses the IR text in buffer `fileId` of `sources` and verifies it.
/// Reports every problem to `diags`; nullopt when there was any.
std::optional<Module> parseModule(uint32_t fileId, SourceManager &sources,
                                  DiagnosticEngine &diags, const ParseOptions &options = {});

} // namespace plate::ir

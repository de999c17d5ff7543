//===- Pictures.h - Plate maps, read heat maps and the run timeline -*- C++ -*-===//
//
// What a scientist would rather look at than read (docs/pictures.md):
//
//  - the layout as a plate map: each well's liquid by name, coloured by
//    role, with concentrations, pre-dilutions and dilutions made on the
//    plate marked (`plate compile --emit=plate-map`, `plate run`);
//  - what each well holds after each INSTRUMENT step that changes wells,
//    one small plate per step, the liquids stacked in each well as layers
//    in proportion to their volumes (`plate run`);
//  - each read as a heat map of its values with the layout beside it;
//  - the run as a timeline: robot time across, one lane per module, each
//    bar a statement's commands on that module, labelled with its step and
//    script line.
//
// Every picture is drawn from what the run has (the RunSetup, the command
// stream, the reads), never from the IR, so a saved stream with its
// loading plan draws the same pictures as the script it came from.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/Device.h"
#include "backend/bioforge1/RunSetup.h"
#include "ir/Platform.h"

#include <llvm/ADT/ArrayRef.h>

#include <functional>
#include <string>
#include <vector>

namespace plate::backend {

/// The text of a script line for labels ("dispense 200 uL of bradford to
/// all"); empty when the commands came without their script.
using ScriptLineText = std::function<std::string(uint32_t line)>;

std::string layoutMapSvg(const RunSetup &setup, const PlateShape &shape, const std::string &title);

/// Replays `commands` on a twin of the deck and draws the wells after
/// every statement that changed one (MANUAL work before the first command
/// is the first panel). Stops at the first command the twin refuses (the
/// run itself reports it).
std::string contentsMapsSvg(llvm::ArrayRef<Command> commands, const RunSetup &setup,
                            const Platform &platform, const Labware &labware,
                            const std::string &title, const ScriptLineText &lineText);

std::string readHeatmapSvg(const PlateRead &read, const RunSetup &setup, const PlateShape &shape,
                           const std::string &title);

/// `executed`: how many commands ran (a stopped run draws what it did).
std::string timelineSvg(const std::vector<Command> &commands, size_t executed,
                        const Platform &platform, const std::string &title,
                        const ScriptLineText &lineText);

} // namespace plate::backend

//===- RouteTransport.h - Plate moves, lids, heater, shaker, reader ------===//
//
// `route-transport` is the last pass. It walks all ops in order, tracking
// where the plate stands (initially the sample plate slot with its lid on,
// bioforge1.md §4) and where its lid is, and lowers the remaining
// high-level ops:
//
//  - pipetting device ops on the plate: plate to the sample slot, lid off;
// Every module, slot and route comes from the Platform (its heater, shaker,
// reader and system modules as the description names them):
//
//  - incubate: RT -> one system Wait of its duration where the plate
//    stands, unless it stands on the heating plate; above room temperature
//    -> the heater's SetTemperature (unless already set), plate to the
//    heater slot, Wait, the heater's Off once no later incubation needs
//    heat; `shaking` -> plate to the shaker, one Shake of the duration (the
//    shake is the incubation; no separate Wait). Lid on unless `lid off`;
//    `dark` forces it on;
//  - the plate stands on the heating plate only for a heated incubation at
//    the set point: the heater stays on between heated incubations, so an
//    RT incubation, a wait, a pause, a MANUAL section or a change of set
//    point first takes the plate to the sample slot (docs/passes.md);
//  - shake -> plate to the shaker, Shake; magnet -> plate to the magnet
//    slot, Wait;
//  - read absorbance -> plate to the reader (along the routes, e.g. two
//    movers), lid off, the reader's ReadAbsorbance of the wells in
//    column-major order (all layout wells when the step names none);
//  - wait -> Wait; pause -> Prompt; note and analyze stay (host ops, no
//    command);
//  - MANUAL ops stay as they are; operator-checklist
//    (passes/OperatorChecklist.h) puts the prompts that ask for them.
//
// Moves follow the platform's routes (Platform::routes, shortest by move
// time); a lid is removed on the deck where the plate stands, with that
// deck's lid module, into that deck's holder; putting it back needs the
// plate on the deck whose holder has it. The plate is never moved unless
// the next op needs another place. Every inserted op carries the location
// and step label of the op that needed it. Sets module.lowered.
//
// Preconditions: lower-pipetting has run (no high-level pipetting ops
// left); normalize-units (canonical quantities); check-platform rejected
// what the platform cannot do (fluorescence, cooling, heated shaking).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

namespace plate {

std::unique_ptr<Pass> createRouteTransportPass();

} // namespace plate

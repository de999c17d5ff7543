//===- OperatorChecklist.h - What the operator does, as prompts -*- C++ -*-===//
//
// `operator-checklist` is the last pass. The robot can only start once a
// person has done the leading `<MANUAL>` steps, loaded the reservoir and
// set up the deck, and it must wait for a MANUAL section in the middle of
// a run; each becomes one Prompt of the platform's system module
// (dev.prompt) the operator confirms:
//
//  - before the first robot command, always (deck set-up and the loading
//    plan are needed by every run): a set-up checklist of the MANUAL steps
//    before the first robot step (each statement; a dispense also lists
//    each liquid with its volume and wells), the reservoir positions with
//    liquid and volume (Module::loadingPlan), and the deck (plate type on
//    the sample plate slot with its lid, the tip rack and spare racks in
//    the stacker, empty wastes and lid holders, free plate places, heater
//    off), then the confirmation. It carries the location and step label
//    of the first leading MANUAL statement, or of the first robot
//    statement when there is none;
//  - before each later MANUAL section: its checklist (the same statement
//    lines) and where the plate stands, then the confirmation, carrying
//    the section's first statement.
//
// The MANUAL ops stay after their prompt, so the loading plan's MANUAL
// fills land when the prompt is confirmed (RunSetup). A module with no
// robot command gets no prompt: nothing runs.
//
// Preconditions: allocate-reservoir (the loading plan), lower-pipetting
// (the tip and rack counts) and route-transport (the robot commands, and
// the plate moves and lids that say where the plate is at a MANUAL
// section).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

namespace plate {

std::unique_ptr<Pass> createOperatorChecklistPass();

} // namespace plate

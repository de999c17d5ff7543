//===- CommandBlocks.cpp - What a block of BioForge-1 commands does -------===//
//
// Part of the BioForge-1 backend; CommandBlocks.h says what it is for.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/CommandBlocks.h"

#include "backend/bioforge1/CommandSerializer.h"

namespace plate::backend {

std::string blockKind(const std::vector<Command> &commands, const Platform &platform) {
  bool read = false, prompt = false, shake = false, wait = false, heat = false, mix = false;
  bool aspiratePlate = false, aspirateReservoir = false, dispensePlate = false,
       dispenseWaste = false;
  for (const Command &c : commands) {
    std::string name = c.name();
    Json args = commandArgs(c);
    bool onPlate = args.contains("slot") && slotId(args["slot"]) == platform.samplePlateSlot;
    if (name == "RDR.ReadAbsorbance")
      read = true;
    else if (name == "SYS.Prompt")
      prompt = true;
    else if (name == "SHK.Shake")
      shake = true;
    else if (name == "SYS.Wait")
      wait = true;
    else if (name == "HP.SetTemperature")
      heat = true;
    else if (name == "LH.Mix")
      mix = true;
    else if (name == "LH.Aspirate")
      (onPlate ? aspiratePlate : aspirateReservoir) = true;
    else if (name == "LH.Dispense")
      (onPlate ? dispensePlate : dispenseWaste) = true;
  }
  if (read)
    return "read";
  if (aspiratePlate && dispenseWaste && dispensePlate && aspirateReservoir)
    return "wash";
  if (aspiratePlate && dispenseWaste)
    return "remove";
  if (aspiratePlate && dispensePlate)
    return "transfer";
  if (dispensePlate)
    return "dispense";
  if (mix)
    return "mix";
  if (shake)
    return "shake";
  if (heat)
    return "heat";
  if (wait)
    return "wait";
  if (prompt)
    return "prompt";
  return "move";
}

} // namespace plate::backend

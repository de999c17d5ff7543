//===- Ot2Platform.h - The Opentrons OT-2 as the OT-2 backend sees it -----===//
//
// Load names, ranges and deck rules of stdlib/platforms/opentrons/ot2.toml.
// The emitter (Ot2Emitter.h) reads every Opentrons name and number from
// here, so a change of labware is a change of that file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace plate::ot2 {

struct Pipette {
  std::string name;  ///< load name, p300_single_gen2
  std::string label; ///< what Opentrons calls it, for messages
  unsigned channels = 1;
  double minUl = 0, maxUl = 0;
  std::string tipRack; ///< load name of its tip racks
};

struct PlateLabware {
  std::string type;     ///< the script's plate type, plate96
  std::string loadName; ///< corning_96_wellplate_360ul_flat
  double capacityUl = 0;
  bool multichannel = false; ///< an 8-channel covers one column
};

struct Container {
  std::string loadName;
  unsigned wells = 1;
  double capacityUl = 0;
  double deadUl = 0;
};

struct HeaterShaker {
  std::string loadName, adapter;
  double minCelsius = 0, maxCelsius = 0;
  double minRpm = 0, maxRpm = 0;
};

struct TemperatureModule {
  std::string loadName, adapter;
  double minCelsius = 0, maxCelsius = 0;
};

struct Ot2Platform {
  std::string name, description, robotType, apiLevel;
  double roomTempMinCelsius = 20, roomTempMaxCelsius = 25;
  std::string trashSlot;
  std::vector<Pipette> pipettes;
  std::vector<PlateLabware> plates;
  Container reservoir, largeReservoir, tubeRack, liquidWaste;
  HeaterShaker heaterShaker;
  TemperatureModule temperatureModule;
  std::string plateSlot;
  std::vector<std::string> freeSlots; ///< in the order labware takes them

  const Pipette *findPipette(std::string_view name) const;
  const PlateLabware *findPlate(std::string_view type) const;
};

/// Loads `<stdlibDir>/platforms/opentrons/ot2.toml`; E902 (at no location:
/// the file is the compiler's, not the script's) when it is missing or
/// malformed.
std::optional<Ot2Platform> loadOt2Platform(const std::string &stdlibDir, DiagnosticEngine &diags);

} // namespace plate::ot2

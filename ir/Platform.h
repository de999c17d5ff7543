//===- Platform.h - Platform and labware descriptions from stdlib/ --------===//
//
// Every number of bioforge1.md §1 and §5 lives in
// stdlib/platforms/<name>.toml and stdlib/labware/<type>.toml; passes and the
// simulator read them from here, never from constants in code, so a second
// platform is a new file plus a backend.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"
#include "ir/Wells.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plate {

struct Labware {
  std::string name; ///< plate96
  PlateShape shape;
  double pitchMm = 9;
  double wellCapacityUl = 350;
};

/// A place a plate can stand: a slot of a deck ("1".."9" on the Main Deck,
/// "A1".."A3" on the Analyzer Deck).
struct Slot {
  std::string id;
  std::string deck;    ///< "main" or "analyzer"
  std::string fixture; ///< sample_plate, magnet, heater, tip_rack, ...
};

/// A module that moves plates between a set of slots.
struct TransportRoute {
  std::string module;             ///< LH, PT, PL
  std::vector<std::string> slots; ///< places it serves, moves among them
  double moveSeconds = 8;
};

struct TimingModel {
  double tipSeconds = 4;          ///< PickTips, DropTips, ReturnTips
  double pipetteBaseSeconds = 2;  ///< Aspirate, Dispense: base + vol/per
  double pipetteUlPerSecond = 100;
  double lidSeconds = 8;
  double swapRackSeconds = 30;
  double heaterSettleSeconds = 120;
  double readSecondsPerWavelength = 15;
};

struct Platform {
  std::string name;
  std::string description;
  double ambientCelsius = 22;
  double roomTempMinCelsius = 20;
  double roomTempMaxCelsius = 25;
  double overnightSeconds = 16 * 3600;

  // Pipetting head and tips.
  std::string liquidHandler = "LH";
  unsigned channels = 4;
  double channelSpacingMm = 9;
  double tipCapacityUl = 300;
  std::string tipRackSlot = "4";
  unsigned tipRackRows = 8, tipRackCols = 12;
  unsigned spareTipRacks = 10;
  std::string tipSwapModule = "PT";
  std::string tipWasteSlot = "7";
  unsigned tipWasteCapacity = 960;

  // Reservoir.
  std::string reservoirSlot = "5";
  unsigned reservoirRows = 3, reservoirCols = 5;
  double reservoirCapacityMl = 25;
  double reservoirDeadMl = 0.5;
  unsigned reservoirMaxChannels = 4;

  std::string solutionWasteSlot = "8";
  double solutionWasteMl = 500;

  std::string samplePlateSlot = "1"; ///< the only place pipetting happens
  std::string magnetSlot = "2";

  // Heater.
  std::string heaterModule = "HP";
  std::string heaterSlot = "3";
  double heaterMaxCelsius = 70;

  // Shaker.
  std::string shakerModule = "SHK";
  std::string shakerSlot = "6";
  double shakerMinRpm = 100, shakerMaxRpm = 1500;
  bool shakerHeated = false;

  // Reader.
  std::string readerModule = "RDR";
  std::string readerSlot = "A3";
  bool readerAbsorbance = true;
  bool readerFluorescence = false;
  bool readerLuminescence = false;
  std::vector<double> readerFiltersNm;

  std::string systemModule = "SYS";
  /// Lid holder of each deck: deck name -> slot id.
  std::map<std::string, std::string> lidHolders;
  /// Which module removes/places lids on each deck.
  std::map<std::string, std::string> lidModules;

  std::vector<Slot> slots;
  std::vector<TransportRoute> routes;
  TimingModel timing;

  /// Labware this platform accepts, keyed by name.
  std::map<std::string, Labware> labware;

  const Slot *findSlot(const std::string &id) const;
  std::string deckOf(const std::string &slotId) const;
  /// The module that moves a plate directly between two slots; empty if none.
  std::string moverBetween(const std::string &from, const std::string &to) const;
  const Labware *findLabware(const std::string &name) const;
};

/// Loads stdlib/platforms/<name>.toml and the labware it lists from
/// stdlib/labware/. Reports E208 for an unknown name and E902 for a
/// malformed file, at `useLoc` (the `<PLATFORM>` tag or the command line).
std::optional<Platform> loadPlatform(const std::string &name,
                                     const std::string &stdlibDir,
                                     DiagnosticEngine &diags, SourceLoc useLoc);

/// Names of the platforms available in stdlib/platforms/.
std::vector<std::string> availablePlatforms(const std::string &stdlibDir);

/// The stdlib directory: $PLATE_STDLIB, else the install/build default.
std::string defaultStdlibDir();

} // namespace plate

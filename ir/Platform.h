//===- Platform.h - Platform and labware descriptions from stdlib/ --------===//
//
// Everything the compiler knows about a robot lives in its description in
// stdlib/platforms/ (bioforge1.toml, opentrons/ot2.toml) and comes from
// here: capabilities, ranges, channel geometry, deck, labware, modules,
// timing. Passes, the simulator and the backends ask this Platform, never
// constants in code, so a second platform is a new file plus a backend.
//
// Two description formats are read: BioForge-1's (a fixed deck whose
// modules the command stream names) and Opentrons' (labware, pipettes and
// modules loaded by name onto a free deck). Both fill the same fields; what
// only a backend that loads labware by name needs is grouped at the end.
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
  /// The robot software's definition of this plate
  /// (corning_96_wellplate_360ul_flat); empty where the robot has none.
  std::string loadName;
  /// Whether a multi-channel pipette covers one column in one position.
  bool multichannel = false;
};

/// A pipette the robot can mount. BioForge-1's fixed head is one, 4
/// channels along a row; the OT-2 chooses among several.
struct Pipette {
  std::string name;  ///< load name, p300_single_gen2; the module on BioForge-1
  std::string label; ///< what the vendor calls it, for messages
  unsigned channels = 1;
  double minUl = 0, maxUl = 0;
  std::string tipRack; ///< load name of its tip racks; empty on BioForge-1
  /// Its default aspirate and dispense flow rate; 0: the platform's timing
  /// model's pipetteUlPerSecond.
  double flowUlPerSecond = 0;
};

/// A container a backend loads by name: a reservoir, a tube rack, the
/// liquid waste.
struct Container {
  std::string loadName;
  unsigned wells = 1;
  double capacityUl = 0;
  double deadUl = 0;
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
  /// Which backend writes what this robot runs: "bioforge1" (the command
  /// stream of backend/) or "ot2" (backend/ot2/, a Python protocol).
  std::string backend;
  double ambientCelsius = 22;
  double roomTempMinCelsius = 20;
  double roomTempMaxCelsius = 25;
  double overnightSeconds = 16 * 3600;

  // Pipetting: the widest head and the largest tip of `pipettes`.
  std::string liquidHandler;
  unsigned channels = 4;
  double channelSpacingMm = 9;
  double tipCapacityUl = 300;
  std::vector<Pipette> pipettes;
  std::string tipRackSlot;
  unsigned tipRackRows = 8, tipRackCols = 12;
  unsigned spareTipRacks = 10;
  std::string tipSwapModule;
  std::string tipWasteSlot; ///< the tip trash
  unsigned tipWasteCapacity = 960;

  // Reservoir: rows x cols positions, one reagent each.
  std::string reservoirSlot;
  unsigned reservoirRows = 3, reservoirCols = 5;
  double reservoirCapacityMl = 25;
  double reservoirDeadMl = 0.5;
  unsigned reservoirMaxChannels = 4;

  /// Where aspirations and washes discard liquid.
  std::string solutionWasteSlot;
  double solutionWasteMl = 500;

  std::string samplePlateSlot; ///< where pipetting on the plate happens
  std::string magnetSlot;      ///< empty: no magnet

  // Heater: above room temperature, from heaterMinCelsius (room
  // temperature where the description gives none) to heaterMaxCelsius.
  std::string heaterModule; ///< empty: no heater
  std::string heaterSlot;
  double heaterMinCelsius = 25;
  double heaterMaxCelsius = 70;

  // Shaker.
  std::string shakerModule; ///< empty: no shaker
  std::string shakerSlot;
  double shakerMinRpm = 100, shakerMaxRpm = 1500;
  bool shakerHeated = false;

  // Cooler: a module that holds a temperature below (and above) room
  // temperature, from coolerMinCelsius to coolerMaxCelsius.
  std::string coolerModule; ///< empty: the robot cannot cool
  double coolerMinCelsius = 0, coolerMaxCelsius = 0;

  // Reader.
  std::string readerModule; ///< empty: no reader
  std::string readerSlot;
  bool readerAbsorbance = false;
  bool readerFluorescence = false;
  bool readerLuminescence = false;
  std::vector<double> readerFiltersNm;

  std::string systemModule;
  /// Lid holder of each deck: deck name -> slot id.
  std::map<std::string, std::string> lidHolders;
  /// Which module removes/places lids on each deck.
  std::map<std::string, std::string> lidModules;

  std::vector<Slot> slots;
  std::vector<TransportRoute> routes;
  TimingModel timing;

  /// Labware this platform accepts, keyed by name.
  std::map<std::string, Labware> labware;

  // What a backend that loads labware by name onto a free deck needs (the
  // OT-2's Python protocol); empty on BioForge-1, whose fixed deck the
  // command stream names by slot.
  std::string robotType; ///< OT-2, for messages and the protocol's requirements
  std::string apiLevel;
  std::string reservoirLoadName;
  Container largeReservoir; ///< a reagent that needs more than a position
  Container tubeRack;       ///< blanks, calibrants, samples, controls
  std::string solutionWasteLoadName;
  std::string heaterAdapter, coolerAdapter; ///< what the plate stands on there
  std::vector<std::string> freeSlots; ///< in the order labware takes them
  /// The slot directly behind each slot (none for the back row).
  std::map<std::string, std::string> slotBehind;

  const Slot *findSlot(const std::string &id) const;
  std::string deckOf(const std::string &slotId) const;
  /// The module that moves a plate directly between two slots; empty if none.
  std::string moverBetween(const std::string &from, const std::string &to) const;
  const Labware *findLabware(const std::string &name) const;
  const Pipette *findPipette(std::string_view name) const;
  /// Whether the reader has a filter at `nm` (within kQuantitySlack): the
  /// one answer check-platform, semantic analysis and the twin give.
  bool hasFilter(double nm) const;
  /// Capacity of a well of plate `type`; nullopt for a plate the platform
  /// has no definition for.
  std::optional<double> wellCapacityUl(const std::string &type) const;
  /// The reservoir as a container (one well per position).
  Container reservoir() const;
  /// The liquid waste as a container.
  Container solutionWaste() const;
};

/// Where a platform may be found.
enum class PlatformLookup {
  /// stdlib/platforms/<name>.toml: what a script's `<PLATFORM>` names, the
  /// platforms BioForge-1's pipeline lowers for.
  Script,
  /// Also stdlib/platforms/<vendor>/<name>.toml: a compile target chosen
  /// on the command line (`plate compile --platform ot2`), whose backend
  /// decides the pipeline.
  CommandLine,
};

/// Loads a platform description (and for BioForge-1's format the labware it
/// lists from stdlib/labware/). Reports E208 for an unknown name and E902,
/// E610-E616 for a malformed file, at `useLoc` (the `<PLATFORM>` tag or the command
/// line).
std::optional<Platform> loadPlatform(const std::string &name,
                                     const std::string &stdlibDir,
                                     DiagnosticEngine &diags, SourceLoc useLoc,
                                     PlatformLookup lookup = PlatformLookup::Script);

/// Names of the platforms available in stdlib/platforms/.
std::vector<std::string> availablePlatforms(const std::string &stdlibDir);

/// The stdlib directory: $PLATE_STDLIB, else the install/build default.
std::string defaultStdlibDir();

} // namespace plate

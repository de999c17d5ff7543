//===- Platform.cpp - Load platform and labware TOML files ----------------===//
//
// One loader for both description formats (Platform.h): the Opentrons one
// is read into the same fields as BioForge-1's, so a pass asking for a
// well's capacity or the waste's gets the selected robot's number.
//
//===----------------------------------------------------------------------===//
#include "ir/Platform.h"
#include "ir/Units.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>

namespace plate {

const Slot *Platform::findSlot(const std::string &id) const {
  for (const Slot &slot : slots)
    if (slot.id == id)
      return &slot;
  return nullptr;
}

std::string Platform::deckOf(const std::string &slotId) const {
  const Slot *slot = findSlot(slotId);
  return slot ? slot->deck : std::string();
}

std::string Platform::moverBetween(const std::string &from,
                                   const std::string &to) const {
  for (const TransportRoute &route : routes) {
    bool hasFrom = std::find(route.slots.begin(), route.slots.end(), from) != route.slots.end();
    bool hasTo = std::find(route.slots.begin(), route.slots.end(), to) != route.slots.end();
    if (hasFrom && hasTo && from != to)
      return route.module;
  }
  return {};
}

const Labware *Platform::findLabware(const std::string &name) const {
  auto it = labware.find(name);
  return it == labware.end() ? nullptr : &it->second;
}

const Pipette *Platform::findPipette(std::string_view wanted) const {
  for (const Pipette &pipette : pipettes)
    if (pipette.name == wanted)
      return &pipette;
  return nullptr;
}

bool Platform::hasFilter(double nm) const {
  return std::any_of(readerFiltersNm.begin(), readerFiltersNm.end(),
                     [&](double filter) { return std::fabs(filter - nm) <= kQuantitySlack; });
}

std::optional<double> Platform::wellCapacityUl(const std::string &type) const {
  if (const Labware *plate = findLabware(type))
    return plate->wellCapacityUl;
  return std::nullopt;
}

Container Platform::reservoir() const {
  return {reservoirLoadName, reservoirRows * reservoirCols, reservoirCapacityMl * 1000,
          reservoirDeadMl * 1000};
}

Container Platform::solutionWaste() const {
  return {solutionWasteLoadName, 1, solutionWasteMl * 1000, 0};
}

std::string defaultStdlibDir() {
  if (const char *env = std::getenv("PLATE_STDLIB"); env && *env)
    return env;
#ifdef PLATE_STDLIB_DIR
  return PLATE_STDLIB_DIR;
#else
  return "stdlib";
#endif
}

std::vector<std::string> availablePlatforms(const std::string &stdlibDir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto &entry :
       std::filesystem::directory_iterator(stdlibDir + "/platforms", error))
    if (entry.path().extension() == ".toml")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

template <typename T> std::string_view typeName() {
  if constexpr (std::is_same_v<T, double>)
    return "a number";
  else if constexpr (std::is_same_v<T, unsigned>)
    return "a whole number";
  else if constexpr (std::is_same_v<T, bool>)
    return "true or false";
  else
    return "a string";
}

/// Reads typed fields and remembers the first problem, so that a malformed
/// file yields one clear diagnostic (E902, E610-E616) naming the key instead
/// of a default silently.
class Reader {
public:
  Reader(const toml::table &root, std::string file) : root_(root), file_(std::move(file)) {}

  template <typename T> void get(std::string_view path, T &out, bool required = true) {
    toml::node_view<const toml::node> node = root_.at_path(path);
    if (!node) {
      if (required)
        fail(DiagId::PlatformKeyMissing, std::string(path), file_);
      return;
    }
    if constexpr (std::is_same_v<T, double>) {
      if (auto value = node.value<double>()) {
        out = *value;
        return;
      }
    } else if constexpr (std::is_same_v<T, unsigned>) {
      if (auto value = node.value<int64_t>(); value && *value >= 0) {
        out = static_cast<unsigned>(*value);
        return;
      }
    } else if constexpr (std::is_same_v<T, bool>) {
      if (auto value = node.value<bool>()) {
        out = *value;
        return;
      }
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (auto value = node.value<std::string>()) {
        out = *value;
        return;
      }
    }
    fail(DiagId::PlatformKeyType, std::string(path), file_, std::string(typeName<T>()));
  }

  /// Keeps the first problem as a row and its values, reported where the
  /// platform is named once the whole file has been read.
  template <typename... Args> void fail(DiagId id, Args... args) {
    if (!firstProblem_)
      firstProblem_ = [id, args...](DiagnosticEngine &diags, SourceLoc at) {
        diags.report(id, at, args...);
      };
  }
  /// Takes over the first problem of a reader of a nested table or file.
  void failWith(const Reader &inner) {
    if (!firstProblem_)
      firstProblem_ = inner.firstProblem_;
  }
  bool failed() const { return static_cast<bool>(firstProblem_); }
  void report(DiagnosticEngine &diags, SourceLoc at) const { firstProblem_(diags, at); }
  const std::string &file() const { return file_; }
  const toml::table &root() const { return root_; }

private:
  const toml::table &root_;
  std::string file_;
  std::function<void(DiagnosticEngine &, SourceLoc)> firstProblem_;
};

/// The file's table, or nullopt after recording toml++'s own account of
/// where the text breaks the TOML grammar.
std::optional<toml::table> parseFile(const std::string &path, Reader &failures) {
  try {
    return toml::parse_file(path);
  } catch (const toml::parse_error &e) {
    const auto &where = e.source().begin;
    failures.fail(DiagId::MalformedPlatform, path, where.line, where.column,
                  std::string(e.description()));
    return std::nullopt;
  }
}

/// Where a format keeps a plate's name, extent, pitch and well capacity.
struct PlateKeys {
  std::string_view name, rows, cols, pitch, capacity;
};

void readPlate(Reader &r, const PlateKeys &keys, const std::string &file, Labware &plate) {
  r.get(keys.name, plate.name);
  r.get(keys.rows, plate.shape.rows);
  r.get(keys.cols, plate.shape.cols);
  r.get(keys.pitch, plate.pitchMm);
  r.get(keys.capacity, plate.wellCapacityUl);
  if (plate.shape.rows == 0 || plate.shape.rows > kMaxRows || plate.shape.cols == 0 ||
      plate.shape.cols > kMaxCols)
    r.fail(DiagId::PlatformPlateExtent, plate.name, file, kMaxRows, kMaxCols);
}

/// The fields both formats share: names and the room.
void readCommon(Reader &r, Platform &p) {
  r.get("platform.name", p.name);
  r.get("platform.description", p.description, false);
  r.get("platform.ambient_celsius", p.ambientCelsius);
  r.get("platform.room_temperature_min_celsius", p.roomTempMinCelsius);
  r.get("platform.room_temperature_max_celsius", p.roomTempMaxCelsius);
  double overnightHours = 16;
  r.get("platform.overnight_hours", overnightHours);
  p.overnightSeconds = overnightHours * 3600;
}

/// BioForge-1's format: a fixed deck whose modules the command stream
/// names, and the labware it lists from stdlib/labware/.
void readBioForge1(const toml::table &root, const std::string &path,
                   const std::string &stdlibDir, Reader &r, Platform &p) {
  const toml::table *table = &root;
  r.get("head.module", p.liquidHandler);
  r.get("head.channels", p.channels);
  r.get("head.channel_spacing_mm", p.channelSpacingMm);
  r.get("head.tip_capacity_ul", p.tipCapacityUl);
  if (p.channels == 0 || p.channels > 8)
    r.fail(DiagId::PlatformValueRange, std::string("head.channels"), path, 1, 8);

  r.get("tips.rack_slot", p.tipRackSlot);
  r.get("tips.rack_rows", p.tipRackRows);
  r.get("tips.rack_cols", p.tipRackCols);
  r.get("tips.spare_racks", p.spareTipRacks);
  r.get("tips.swap_module", p.tipSwapModule);
  r.get("tips.waste_slot", p.tipWasteSlot);
  r.get("tips.waste_capacity", p.tipWasteCapacity);

  r.get("reservoir.slot", p.reservoirSlot);
  r.get("reservoir.rows", p.reservoirRows);
  r.get("reservoir.cols", p.reservoirCols);
  r.get("reservoir.capacity_ml", p.reservoirCapacityMl);
  r.get("reservoir.dead_volume_ml", p.reservoirDeadMl);
  r.get("reservoir.max_channels", p.reservoirMaxChannels);

  r.get("solution_waste.slot", p.solutionWasteSlot);
  r.get("solution_waste.capacity_ml", p.solutionWasteMl);
  r.get("sample_plate.slot", p.samplePlateSlot);
  r.get("magnet.slot", p.magnetSlot);

  r.get("heater.module", p.heaterModule);
  r.get("heater.slot", p.heaterSlot);
  r.get("heater.max_celsius", p.heaterMaxCelsius);

  r.get("shaker.module", p.shakerModule);
  r.get("shaker.slot", p.shakerSlot);
  r.get("shaker.min_rpm", p.shakerMinRpm);
  r.get("shaker.max_rpm", p.shakerMaxRpm);
  r.get("shaker.heated", p.shakerHeated);

  r.get("reader.module", p.readerModule);
  r.get("reader.slot", p.readerSlot);
  r.get("reader.absorbance", p.readerAbsorbance);
  r.get("reader.fluorescence", p.readerFluorescence);
  r.get("reader.luminescence", p.readerLuminescence);
  if (const toml::array *filters = table->at_path("reader.filters_nm").as_array()) {
    for (const toml::node &filter : *filters) {
      if (auto value = filter.value<double>())
        p.readerFiltersNm.push_back(*value);
      else
        r.fail(DiagId::PlatformKeyType, std::string("reader.filters_nm"), path,
               std::string("a list of numbers"));
    }
  } else {
    r.fail(DiagId::PlatformKeyMissing, std::string("reader.filters_nm"), path);
  }

  r.get("system.module", p.systemModule);

  if (const toml::table *lids = table->at_path("lids").as_table()) {
    for (const auto &[deck, node] : *lids) {
      const toml::table *entry = node.as_table();
      auto holder = entry ? (*entry)["holder"].value<std::string>() : std::nullopt;
      auto module = entry ? (*entry)["module"].value<std::string>() : std::nullopt;
      if (!holder || !module) {
        r.fail(DiagId::PlatformEntryIncomplete, fmt::format("`lids.{}`", deck.str()), path,
               std::string("`holder` and `module`"));
        continue;
      }
      p.lidHolders[std::string(deck.str())] = *holder;
      p.lidModules[std::string(deck.str())] = *module;
    }
  } else {
    r.fail(DiagId::PlatformKeyMissing, std::string("lids"), path);
  }

  if (const toml::array *slots = table->at_path("slots").as_array()) {
    for (const toml::node &node : *slots) {
      const toml::table *entry = node.as_table();
      auto id = entry ? (*entry)["id"].value<std::string>() : std::nullopt;
      auto deck = entry ? (*entry)["deck"].value<std::string>() : std::nullopt;
      auto fixture = entry ? (*entry)["fixture"].value<std::string>() : std::nullopt;
      if (!id || !deck || !fixture) {
        r.fail(DiagId::PlatformEntryIncomplete, std::string("every `[[slots]]` entry"), path,
               std::string("`id`, `deck` and `fixture`"));
        continue;
      }
      p.slots.push_back({*id, *deck, *fixture});
    }
  } else {
    r.fail(DiagId::PlatformKeyMissing, std::string("slots"), path);
  }

  if (const toml::array *routes = table->at_path("routes").as_array()) {
    for (const toml::node &node : *routes) {
      const toml::table *entry = node.as_table();
      TransportRoute route;
      auto module = entry ? (*entry)["module"].value<std::string>() : std::nullopt;
      auto seconds = entry ? (*entry)["move_seconds"].value<double>() : std::nullopt;
      const toml::array *served = entry ? (*entry)["slots"].as_array() : nullptr;
      if (!module || !seconds || !served) {
        r.fail(DiagId::PlatformEntryIncomplete, std::string("every `[[routes]]` entry"), path,
               std::string("`module`, `slots` and `move_seconds`"));
        continue;
      }
      route.module = *module;
      route.moveSeconds = *seconds;
      for (const toml::node &slot : *served)
        if (auto id = slot.value<std::string>())
          route.slots.push_back(*id);
      p.routes.push_back(std::move(route));
    }
  } else {
    r.fail(DiagId::PlatformKeyMissing, std::string("routes"), path);
  }

  TimingModel &t = p.timing;
  r.get("timing.tip_seconds", t.tipSeconds);
  r.get("timing.pipette_base_seconds", t.pipetteBaseSeconds);
  r.get("timing.pipette_ul_per_second", t.pipetteUlPerSecond);
  r.get("timing.lid_seconds", t.lidSeconds);
  r.get("timing.swap_rack_seconds", t.swapRackSeconds);
  r.get("timing.heater_settle_seconds", t.heaterSettleSeconds);
  r.get("timing.read_seconds_per_wavelength", t.readSecondsPerWavelength);

  if (const toml::array *labware = table->at_path("platform.labware").as_array()) {
    for (const toml::node &node : *labware) {
      auto labwareName = node.value<std::string>();
      if (!labwareName) {
        r.fail(DiagId::PlatformKeyType, std::string("platform.labware"), path,
               std::string("a list of names"));
        continue;
      }
      std::string labwarePath = stdlibDir + "/labware/" + *labwareName + ".toml";
      std::optional<toml::table> labwareTable = parseFile(labwarePath, r);
      if (!labwareTable)
        continue;
      Reader lr(*labwareTable, labwarePath);
      Labware lw;
      readPlate(lr,
                {"labware.name", "labware.rows", "labware.cols", "labware.pitch_mm",
                 "labware.well_capacity_ul"},
                labwarePath, lw);
      if (lr.failed())
        r.failWith(lr);
      else
        p.labware[lw.name] = lw;
    }
  } else {
    r.fail(DiagId::PlatformKeyMissing, std::string("platform.labware"), path);
  }

  p.heaterMinCelsius = p.roomTempMaxCelsius;
  r.get("heater.min_celsius", p.heaterMinCelsius, false);
  p.pipettes.push_back({p.liquidHandler, "", p.channels, 0, p.tipCapacityUl, ""});
}

/// Opentrons' format (stdlib/platforms/opentrons/): pipettes, labware and
/// modules loaded by name onto a free deck. Read into the same fields, so
/// that the passes see the OT-2's wells, waste and ranges.
void readOpentrons(const toml::table &root, const std::string &path, Reader &r, Platform &p) {
  r.get("platform.robot_type", p.robotType);
  r.get("platform.api_level", p.apiLevel);
  r.get("platform.trash_slot", p.tipWasteSlot);
  r.get("platform.channel_spacing_mm", p.channelSpacingMm);
  // What the OT-2 backend estimates the robot's time with (docs/porting.md).
  r.get("timing.tip_seconds", p.timing.tipSeconds);
  r.get("timing.pipette_base_seconds", p.timing.pipetteBaseSeconds);
  r.get("timing.pipette_ul_per_second", p.timing.pipetteUlPerSecond);
  r.get("timing.heater_settle_seconds", p.timing.heaterSettleSeconds);
  // Reads the fields of one entry of an array of tables; the first problem
  // goes to `r` with the file's name.
  auto entries = [&](std::string_view key, auto &&read) {
    const toml::array *array = root.at_path(key).as_array();
    if (!array) {
      r.fail(DiagId::PlatformKeyMissing, std::string(key), path);
      return;
    }
    for (const toml::node &node : *array) {
      const toml::table *entry = node.as_table();
      if (!entry) {
        r.fail(DiagId::PlatformKeyType, fmt::format("[[{}]]", key), path, std::string("a table"));
        continue;
      }
      Reader er(*entry, fmt::format("[[{}]] of {}", key, path));
      read(er);
      if (er.failed())
        r.failWith(er);
    }
  };
  p.channels = 0;
  p.tipCapacityUl = 0;
  entries("pipettes", [&](Reader &er) {
    Pipette pipette;
    er.get("name", pipette.name);
    er.get("label", pipette.label);
    er.get("channels", pipette.channels);
    er.get("min_ul", pipette.minUl);
    er.get("max_ul", pipette.maxUl);
    er.get("tip_rack", pipette.tipRack);
    er.get("flow_ul_per_second", pipette.flowUlPerSecond, false);
    p.channels = std::max(p.channels, pipette.channels);
    p.tipCapacityUl = std::max(p.tipCapacityUl, pipette.maxUl);
    p.pipettes.push_back(std::move(pipette));
  });
  entries("plates", [&](Reader &er) {
    Labware plate;
    readPlate(er, {"type", "rows", "cols", "pitch_mm", "capacity_ul"}, path, plate);
    er.get("load_name", plate.loadName);
    er.get("multichannel", plate.multichannel);
    p.labware[plate.name] = plate;
  });

  // The reservoir's columns are its positions: one row of `wells`.
  r.get("reservoir.load_name", p.reservoirLoadName);
  p.reservoirRows = 1;
  r.get("reservoir.wells", p.reservoirCols);
  r.get("reservoir.capacity_ml", p.reservoirCapacityMl);
  r.get("reservoir.dead_volume_ml", p.reservoirDeadMl);
  p.reservoirMaxChannels = p.channels;
  r.get("large_reservoir.load_name", p.largeReservoir.loadName);
  r.get("large_reservoir.capacity_ml", p.largeReservoir.capacityUl);
  r.get("large_reservoir.dead_volume_ml", p.largeReservoir.deadUl);
  p.largeReservoir.capacityUl *= 1000;
  p.largeReservoir.deadUl *= 1000;
  r.get("tube_rack.load_name", p.tubeRack.loadName);
  r.get("tube_rack.tubes", p.tubeRack.wells);
  r.get("tube_rack.capacity_ul", p.tubeRack.capacityUl);
  r.get("tube_rack.dead_volume_ul", p.tubeRack.deadUl);
  r.get("liquid_waste.load_name", p.solutionWasteLoadName);
  r.get("liquid_waste.capacity_ml", p.solutionWasteMl);

  // The heater-shaker heats and shakes at once; the plate stands on it,
  // as on the temperature module, in the plate's slot.
  r.get("deck.plate_slot", p.samplePlateSlot);
  r.get("heater_shaker.load_name", p.heaterModule);
  r.get("heater_shaker.adapter", p.heaterAdapter);
  r.get("heater_shaker.min_celsius", p.heaterMinCelsius);
  r.get("heater_shaker.max_celsius", p.heaterMaxCelsius);
  r.get("heater_shaker.min_rpm", p.shakerMinRpm);
  r.get("heater_shaker.max_rpm", p.shakerMaxRpm);
  p.shakerModule = p.heaterModule;
  p.heaterSlot = p.shakerSlot = p.samplePlateSlot;
  p.shakerHeated = true;
  r.get("temperature_module.load_name", p.coolerModule);
  r.get("temperature_module.adapter", p.coolerAdapter);
  r.get("temperature_module.min_celsius", p.coolerMinCelsius);
  r.get("temperature_module.max_celsius", p.coolerMaxCelsius);

  // Rows of slots from the back of the deck to the front: what lies
  // behind a slot, for Opentrons' partial-nozzle collision rule.
  if (const toml::array *rows = root.at_path("deck.rows").as_array()) {
    std::vector<std::string> previous;
    for (const toml::node &row : *rows) {
      std::vector<std::string> current;
      if (const toml::array *slots = row.as_array())
        for (const toml::node &slot : *slots)
          if (auto id = slot.value<std::string>())
            current.push_back(*id);
      for (size_t i = 0; i < current.size() && i < previous.size(); ++i)
        p.slotBehind[current[i]] = previous[i];
      previous = std::move(current);
    }
  }
  if (const toml::array *slots = root.at_path("deck.slots").as_array())
    for (const toml::node &slot : *slots)
      if (auto id = slot.value<std::string>())
        p.freeSlots.push_back(*id);
  if (p.pipettes.empty() || p.labware.empty() || p.freeSlots.empty())
    r.fail(DiagId::PlatformEmpty, path);
}

/// The description file of `name`; empty when there is none.
std::string platformFile(const std::string &name, const std::string &stdlibDir,
                         PlatformLookup lookup) {
  std::string top = stdlibDir + "/platforms/" + name + ".toml";
  if (std::filesystem::exists(top))
    return top;
  if (lookup == PlatformLookup::Script)
    return {};
  std::error_code error;
  for (const auto &entry :
       std::filesystem::directory_iterator(stdlibDir + "/platforms", error))
    if (entry.is_directory() && std::filesystem::exists(entry.path() / (name + ".toml")))
      return (entry.path() / (name + ".toml")).string();
  return {};
}

} // namespace

std::optional<Platform> loadPlatform(const std::string &name,
                                     const std::string &stdlibDir,
                                     DiagnosticEngine &diags, SourceLoc useLoc,
                                     PlatformLookup lookup) {
  std::string path = platformFile(name, stdlibDir, lookup);
  if (path.empty()) {
    std::vector<std::string> known = availablePlatforms(stdlibDir);
    std::string list;
    for (const std::string &k : known)
      list += (list.empty() ? "" : ", ") + k;
    auto diag = diags.report(DiagId::UnknownPlatform, useLoc, name,
                             list.empty() ? "none in " + stdlibDir : list);
    if (std::string guess = closestMatch(name, known); !guess.empty())
      diag.suggest(guess);
    // A compile target of its own backend (the OT-2): the script stays the
    // same, the command line picks the robot.
    if (lookup == PlatformLookup::Script &&
        !platformFile(name, stdlibDir, PlatformLookup::CommandLine).empty())
      diag.note(useLoc,
                "`{}` is chosen on the command line, not in the script: `plate compile FILE "
                "--platform {}` (docs/porting.md)",
                name, name);
    return std::nullopt;
  }
  static const toml::table kNoTable;
  Reader failures(kNoTable, path);
  std::optional<toml::table> table = parseFile(path, failures);
  if (!table) {
    failures.report(diags, useLoc);
    return std::nullopt;
  }

  Platform p;
  Reader r(*table, path);
  readCommon(r, p);
  p.backend = "bioforge1";
  r.get("platform.backend", p.backend, false);
  if (p.backend == "bioforge1")
    readBioForge1(*table, path, stdlibDir, r, p);
  else if (p.backend == "ot2")
    readOpentrons(*table, path, r, p);
  else
    r.fail(DiagId::PlatformUnknownBackend, path, p.backend);
  if (r.failed()) {
    r.report(diags, useLoc);
    return std::nullopt;
  }
  return p;
}

} // namespace plate

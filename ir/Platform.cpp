//===- Platform.cpp - Load platform and labware TOML files ----------------===//
#include "ir/Platform.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

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

/// Reads typed fields and remembers the first problem, so that a malformed
/// file yields one clear E902 naming the key instead of a default silently.
class Reader {
public:
  Reader(const toml::table &root, std::string file) : root_(root), file_(std::move(file)) {}

  template <typename T> void get(std::string_view path, T &out, bool required = true) {
    toml::node_view<const toml::node> node = root_.at_path(path);
    if (!node) {
      if (required)
        fail(fmt::format("`{}` is missing in {}", path, file_));
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
    fail(fmt::format("`{}` in {} has the wrong type", path, file_));
  }

  void fail(std::string message) {
    if (error_.empty())
      error_ = std::move(message);
  }
  const std::string &error() const { return error_; }
  const toml::table &root() const { return root_; }

private:
  const toml::table &root_;
  std::string file_;
  std::string error_;
};

std::optional<toml::table> parseFile(const std::string &path, std::string &error) {
  try {
    return toml::parse_file(path);
  } catch (const toml::parse_error &e) {
    const auto &where = e.source().begin;
    error = fmt::format("{}:{}:{}: {}", path, where.line, where.column,
                        std::string(e.description()));
    return std::nullopt;
  }
}

} // namespace

std::optional<Platform> loadPlatform(const std::string &name,
                                     const std::string &stdlibDir,
                                     DiagnosticEngine &diags, SourceLoc useLoc) {
  std::string path = stdlibDir + "/platforms/" + name + ".toml";
  if (!std::filesystem::exists(path)) {
    std::vector<std::string> known = availablePlatforms(stdlibDir);
    std::string list;
    for (const std::string &k : known)
      list += (list.empty() ? "" : ", ") + k;
    auto diag = diags.report(DiagId::UnknownPlatform, useLoc, name,
                             list.empty() ? "none in " + stdlibDir : list);
    if (std::string guess = closestMatch(name, known); !guess.empty())
      diag.suggest(guess);
    return std::nullopt;
  }
  std::string parseError;
  std::optional<toml::table> table = parseFile(path, parseError);
  if (!table) {
    diags.report(DiagId::MalformedPlatform, useLoc, parseError);
    return std::nullopt;
  }

  Platform p;
  Reader r(*table, path);
  r.get("platform.name", p.name);
  r.get("platform.description", p.description, false);
  r.get("platform.ambient_celsius", p.ambientCelsius);
  r.get("platform.room_temperature_min_celsius", p.roomTempMinCelsius);
  r.get("platform.room_temperature_max_celsius", p.roomTempMaxCelsius);
  double overnightHours = 16;
  r.get("platform.overnight_hours", overnightHours);
  p.overnightSeconds = overnightHours * 3600;

  r.get("head.module", p.liquidHandler);
  r.get("head.channels", p.channels);
  r.get("head.channel_spacing_mm", p.channelSpacingMm);
  r.get("head.tip_capacity_ul", p.tipCapacityUl);
  if (p.channels == 0 || p.channels > 8)
    r.fail(fmt::format("`head.channels` in {} must be 1..8", path));

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
        r.fail(fmt::format("`reader.filters_nm` in {} must list numbers", path));
    }
  } else {
    r.fail(fmt::format("`reader.filters_nm` is missing in {}", path));
  }

  r.get("system.module", p.systemModule);

  if (const toml::table *lids = table->at_path("lids").as_table()) {
    for (const auto &[deck, node] : *lids) {
      const toml::table *entry = node.as_table();
      auto holder = entry ? (*entry)["holder"].value<std::string>() : std::nullopt;
      auto module = entry ? (*entry)["module"].value<std::string>() : std::nullopt;
      if (!holder || !module) {
        r.fail(fmt::format("`lids.{}` in {} needs `holder` and `module`", deck.str(), path));
        continue;
      }
      p.lidHolders[std::string(deck.str())] = *holder;
      p.lidModules[std::string(deck.str())] = *module;
    }
  } else {
    r.fail(fmt::format("`lids` is missing in {}", path));
  }

  if (const toml::array *slots = table->at_path("slots").as_array()) {
    for (const toml::node &node : *slots) {
      const toml::table *entry = node.as_table();
      auto id = entry ? (*entry)["id"].value<std::string>() : std::nullopt;
      auto deck = entry ? (*entry)["deck"].value<std::string>() : std::nullopt;
      auto fixture = entry ? (*entry)["fixture"].value<std::string>() : std::nullopt;
      if (!id || !deck || !fixture) {
        r.fail(fmt::format("every `[[slots]]` entry in {} needs id, deck and fixture", path));
        continue;
      }
      p.slots.push_back({*id, *deck, *fixture});
    }
  } else {
    r.fail(fmt::format("`slots` is missing in {}", path));
  }

  if (const toml::array *routes = table->at_path("routes").as_array()) {
    for (const toml::node &node : *routes) {
      const toml::table *entry = node.as_table();
      TransportRoute route;
      auto module = entry ? (*entry)["module"].value<std::string>() : std::nullopt;
      auto seconds = entry ? (*entry)["move_seconds"].value<double>() : std::nullopt;
      const toml::array *served = entry ? (*entry)["slots"].as_array() : nullptr;
      if (!module || !seconds || !served) {
        r.fail(fmt::format("every `[[routes]]` entry in {} needs module, slots and move_seconds", path));
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
    r.fail(fmt::format("`routes` is missing in {}", path));
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
        r.fail(fmt::format("`platform.labware` in {} must list names", path));
        continue;
      }
      std::string labwarePath = stdlibDir + "/labware/" + *labwareName + ".toml";
      std::string labwareError;
      std::optional<toml::table> labwareTable = parseFile(labwarePath, labwareError);
      if (!labwareTable) {
        r.fail(labwareError.empty() ? "cannot read " + labwarePath : labwareError);
        continue;
      }
      Reader lr(*labwareTable, labwarePath);
      Labware lw;
      lr.get("labware.name", lw.name);
      lr.get("labware.rows", lw.shape.rows);
      lr.get("labware.cols", lw.shape.cols);
      lr.get("labware.pitch_mm", lw.pitchMm);
      lr.get("labware.well_capacity_ul", lw.wellCapacityUl);
      if (lw.shape.rows == 0 || lw.shape.rows > kMaxRows || lw.shape.cols == 0 ||
          lw.shape.cols > kMaxCols)
        lr.fail(fmt::format("plate extent in {} must be within 16 x 24", labwarePath));
      if (!lr.error().empty())
        r.fail(lr.error());
      else
        p.labware[lw.name] = lw;
    }
  } else {
    r.fail(fmt::format("`platform.labware` is missing in {}", path));
  }

  if (!r.error().empty()) {
    diags.report(DiagId::MalformedPlatform, useLoc, r.error());
    return std::nullopt;
  }
  return p;
}

} // namespace plate

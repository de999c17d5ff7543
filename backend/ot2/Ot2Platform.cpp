//===- Ot2Platform.cpp - Read stdlib/platforms/opentrons/ot2.toml ---------===//
#include "backend/ot2/Ot2Platform.h"

#include <toml++/toml.h>

namespace plate::ot2 {

const Pipette *Ot2Platform::findPipette(std::string_view wanted) const {
  for (const Pipette &pipette : pipettes)
    if (pipette.name == wanted)
      return &pipette;
  return nullptr;
}

const PlateLabware *Ot2Platform::findPlate(std::string_view type) const {
  for (const PlateLabware &plate : plates)
    if (plate.type == type)
      return &plate;
  return nullptr;
}

namespace {

/// Typed access that keeps the first problem, so a malformed file gives one
/// E902 naming the key rather than a silent default.
class Fields {
public:
  explicit Fields(std::string file) : file_(std::move(file)) {}

  template <typename T> T get(const toml::node_view<const toml::node> &node, std::string_view key) {
    toml::node_view<const toml::node> field = node[key];
    if constexpr (std::is_same_v<T, double>) {
      if (auto value = field.value<double>())
        return *value;
    } else if constexpr (std::is_same_v<T, unsigned>) {
      if (auto value = field.value<int64_t>(); value && *value >= 0)
        return static_cast<unsigned>(*value);
    } else if constexpr (std::is_same_v<T, bool>) {
      if (auto value = field.value<bool>())
        return *value;
    } else {
      if (auto value = field.value<std::string>())
        return *value;
    }
    if (error_.empty())
      error_ = fmt::format("`{}` is missing or has the wrong type in {}", key, file_);
    return T{};
  }
  Container container(const toml::node_view<const toml::node> &node, bool wells, bool mL) {
    Container container;
    container.loadName = get<std::string>(node, "load_name");
    if (wells)
      container.wells = get<unsigned>(node, "wells");
    double scale = mL ? 1000 : 1;
    container.capacityUl = get<double>(node, mL ? "capacity_ml" : "capacity_ul") * scale;
    return container;
  }
  const std::string &error() const { return error_; }
  void fail(std::string message) {
    if (error_.empty())
      error_ = std::move(message);
  }

private:
  std::string file_;
  std::string error_;
};

} // namespace

std::optional<Ot2Platform> loadOt2Platform(const std::string &stdlibDir, DiagnosticEngine &diags) {
  std::string path = stdlibDir + "/platforms/opentrons/ot2.toml";
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error &error) {
    diags.report(DiagId::MalformedPlatform, SourceLoc{},
                 fmt::format("{}: {}", path, std::string(error.description())));
    return std::nullopt;
  }
  Fields fields(path);
  toml::node_view<const toml::node> top(root);
  Ot2Platform platform;
  auto head = top["platform"];
  platform.name = fields.get<std::string>(head, "name");
  platform.description = fields.get<std::string>(head, "description");
  platform.robotType = fields.get<std::string>(head, "robot_type");
  platform.apiLevel = fields.get<std::string>(head, "api_level");
  platform.roomTempMinCelsius = fields.get<double>(head, "room_temperature_min_celsius");
  platform.roomTempMaxCelsius = fields.get<double>(head, "room_temperature_max_celsius");
  platform.trashSlot = fields.get<std::string>(head, "trash_slot");
  if (const toml::array *pipettes = root["pipettes"].as_array())
    for (const toml::node &entry : *pipettes) {
      toml::node_view<const toml::node> node(entry);
      platform.pipettes.push_back({fields.get<std::string>(node, "name"),
                                   fields.get<std::string>(node, "label"),
                                   fields.get<unsigned>(node, "channels"),
                                   fields.get<double>(node, "min_ul"),
                                   fields.get<double>(node, "max_ul"),
                                   fields.get<std::string>(node, "tip_rack")});
    }
  if (const toml::array *plates = root["plates"].as_array())
    for (const toml::node &entry : *plates) {
      toml::node_view<const toml::node> node(entry);
      platform.plates.push_back({fields.get<std::string>(node, "type"),
                                 fields.get<std::string>(node, "load_name"),
                                 fields.get<double>(node, "capacity_ul"),
                                 fields.get<bool>(node, "multichannel")});
    }
  platform.reservoir = fields.container(top["reservoir"], true, true);
  platform.reservoir.deadUl = fields.get<double>(top["reservoir"], "dead_volume_ml") * 1000;
  platform.largeReservoir = fields.container(top["large_reservoir"], false, true);
  platform.largeReservoir.deadUl =
      fields.get<double>(top["large_reservoir"], "dead_volume_ml") * 1000;
  platform.tubeRack = fields.container(top["tube_rack"], false, false);
  platform.tubeRack.wells = fields.get<unsigned>(top["tube_rack"], "tubes");
  platform.tubeRack.deadUl = fields.get<double>(top["tube_rack"], "dead_volume_ul");
  platform.liquidWaste = fields.container(top["liquid_waste"], false, true);
  auto heaterShaker = top["heater_shaker"];
  platform.heaterShaker = {fields.get<std::string>(heaterShaker, "load_name"),
                           fields.get<std::string>(heaterShaker, "adapter"),
                           fields.get<double>(heaterShaker, "min_celsius"),
                           fields.get<double>(heaterShaker, "max_celsius"),
                           fields.get<double>(heaterShaker, "min_rpm"),
                           fields.get<double>(heaterShaker, "max_rpm")};
  auto temperatureModule = top["temperature_module"];
  platform.temperatureModule = {fields.get<std::string>(temperatureModule, "load_name"),
                                fields.get<std::string>(temperatureModule, "adapter"),
                                fields.get<double>(temperatureModule, "min_celsius"),
                                fields.get<double>(temperatureModule, "max_celsius")};
  platform.plateSlot = fields.get<std::string>(top["deck"], "plate_slot");
  if (const toml::array *slots = root.at_path("deck.slots").as_array())
    for (const toml::node &slot : *slots)
      if (auto id = slot.value<std::string>())
        platform.freeSlots.push_back(*id);
  if (platform.pipettes.empty() || platform.plates.empty() || platform.freeSlots.empty())
    fields.fail(fmt::format("{} lists no pipettes, plates or deck slots", path));
  if (!fields.error().empty()) {
    diags.report(DiagId::MalformedPlatform, SourceLoc{}, fields.error());
    return std::nullopt;
  }
  return platform;
}

} // namespace plate::ot2

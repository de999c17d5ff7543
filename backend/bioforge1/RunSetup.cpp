//===- RunSetup.cpp - Initial state and layout of a run, as plan JSON ------===//
//
// The plan file is how a saved command stream keeps what the compiler knew:
// reservoir loads, what MANUAL steps put in the wells, the layout and the
// analyze steps. Reading it back validates each key and names the problem.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/RunSetup.h"
#include "backend/bioforge1/CommandTiming.h"
#include "ir/JsonParse.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace plate::backend {

const LayoutLiquid *RunSetup::findLayout(const std::string &name) const {
  for (const LayoutLiquid &liquid : layout)
    if (liquid.name == name)
      return &liquid;
  return nullptr;
}

std::vector<LayoutLiquid> layoutOfModule(const ir::Module &module) {
  std::vector<LayoutLiquid> layout;
  for (const ir::Liquid &liquid : module.liquids) {
    if (liquid.role == ir::LiquidRole::Reagent)
      continue;
    LayoutLiquid entry;
    entry.name = liquid.name;
    entry.role = liquid.role;
    entry.wells = liquid.wells.columnMajor();
    if (liquid.concentration) {
      entry.conc = liquid.concentration->value;
      entry.unit = unitInfo(liquid.concentration->unit).symbol;
    }
    entry.dilution = liquid.dilution;
    if (liquid.madeOnPlate())
      entry.madeFrom = module.liquid(liquid.series->first).name;
    entry.polarity = liquid.polarity;
    layout.push_back(std::move(entry));
  }
  return layout;
}

RunSetup setupFromModule(const ir::Module &module, const Platform &platform,
                         const std::vector<Command> &commands) {
  RunSetup setup;
  setup.plateType = module.plateType;
  setup.title = module.title;
  for (const ir::ReservoirLoad &load : module.loadingPlan)
    setup.reservoir.push_back(
        {load.pos.row, load.pos.col, module.liquid(load.liquid).name, load.volumeMl});
  setup.layout = layoutOfModule(module);

  // Walk the ops as the lowering does, so MANUAL fills and analyses know
  // which command they come before or after.
  uint32_t emitted = 0;
  for (const ir::Op &op : module.ops) {
    if (!op.manual && ir::isDeviceOp(op.kind())) {
      ++emitted;
      continue;
    }
    if (const auto *analyze = op.as<ir::AnalyzeOp>(); analyze && !op.manual) {
      AnalysisStep step;
      step.afterSeq = emitted;
      step.fourPL = analyze->fourPL;
      step.kind = analyze->kind;
      if (analyze->wavelength)
        step.wavelengthNm = analyze->wavelength->canonicalValue();
      step.subtractBlank = analyze->subtractBlank;
      step.step = op.step;
      step.line = op.loc.line;
      setup.analyses.push_back(step);
      continue;
    }
    if (!op.manual)
      continue;
    // What the operator does to the plate, in the statement's own order.
    auto action = [&](ManualFill::Action kind, Well well) {
      ManualFill fill;
      fill.beforeSeq = emitted + 1;
      fill.well = well;
      fill.action = kind;
      fill.line = op.loc.line;
      fill.step = op.step;
      setup.manualFills.push_back(std::move(fill));
      return &setup.manualFills.back();
    };
    if (const auto *dispense = op.as<ir::DispenseOp>()) {
      for (const ir::Portion &portion : dispense->portions)
        for (const Well &well : portion.wells.columnMajor()) {
          ManualFill *fill = action(ManualFill::Action::Fill, well);
          fill->liquid = module.liquid(portion.liquid).name;
          fill->volumeUl = dispense->volume.canonicalValue();
        }
    } else if (const auto *aspirate = op.as<ir::AspirateOp>()) {
      if (!aspirate->volume) {
        // `all` takes from the wells that hold something by the volume
        // model; the contents a plate held before the script (W502) are
        // none of the twin's, as they are none of the reference's.
        for (const ir::WellAmount &held : aspirate->resolved)
          action(ManualFill::Action::Remove, held.well)->all = true;
      } else {
        for (const Well &well : aspirate->wells.columnMajor())
          action(ManualFill::Action::Remove, well)->volumeUl =
              aspirate->volume->canonicalValue();
      }
    } else if (const auto *wash = op.as<ir::WashOp>()) {
      // A wash ends with its wells empty (language spec §7); what passes
      // through them on the way leaves nothing behind.
      for (const Well &well : wash->wells.columnMajor())
        action(ManualFill::Action::Remove, well)->all = true;
    } else if (const auto *transfer = op.as<ir::TransferOp>()) {
      for (const auto &[from, to] : transfer->pairs) {
        ManualFill *move = action(ManualFill::Action::Transfer, from);
        move->into = to;
        move->volumeUl = transfer->volume.canonicalValue();
      }
    }
  }

  TipCount count = countTips(commands, platform);
  setup.tips = module.tipsUsed.value_or(count.tips);
  setup.tipRacks = module.tipRacksUsed.value_or(count.racks);
  setup.robotTimeSeconds = robotSeconds(commands, platform);
  return setup;
}

Json setupToJson(const RunSetup &setup) {
  Json json = Json::object();
  Json reservoir = Json::array();
  for (const ReservoirLoad &load : setup.reservoir)
    reservoir.push_back(Json{{"row", load.row},
                             {"col", load.col},
                             {"liquid", load.liquid},
                             {"volume_ml", jsonNumber(load.volumeMl)}});
  json["reservoir"] = std::move(reservoir);
  json["tips"] = setup.tips;
  json["tip_racks"] = setup.tipRacks;
  json["robot_time_s"] = jsonNumber(std::round(setup.robotTimeSeconds * 1000) / 1000);
  json["plate_type"] = setup.plateType;
  Json layout = Json::array();
  for (const LayoutLiquid &liquid : setup.layout) {
    Json entry = Json::object();
    entry["name"] = liquid.name;
    entry["role"] = std::string(ir::roleName(liquid.role));
    Json wells = Json::array();
    for (const Well &well : liquid.wells)
      wells.push_back(well.name());
    entry["wells"] = std::move(wells);
    if (liquid.conc) {
      entry["conc"] = jsonNumber(*liquid.conc);
      entry["unit"] = liquid.unit;
    }
    if (liquid.dilution)
      entry["dilution"] = jsonNumber(*liquid.dilution);
    if (!liquid.madeFrom.empty())
      entry["made_from"] = liquid.madeFrom;
    if (liquid.polarity != ir::Polarity::None)
      entry["polarity"] = std::string(ir::polarityName(liquid.polarity));
    layout.push_back(std::move(entry));
  }
  json["layout"] = std::move(layout);
  Json fills = Json::array();
  for (const ManualFill &fill : setup.manualFills) {
    Json entry{{"before_seq", fill.beforeSeq}, {"well", fill.well.name()}};
    switch (fill.action) {
    case ManualFill::Action::Fill:
      entry["liquid"] = fill.liquid;
      entry["volume_ul"] = jsonNumber(fill.volumeUl);
      break;
    case ManualFill::Action::Remove:
      entry["action"] = "remove";
      if (fill.all)
        entry["all"] = true;
      else
        entry["volume_ul"] = jsonNumber(fill.volumeUl);
      break;
    case ManualFill::Action::Transfer:
      entry["action"] = "transfer";
      entry["into"] = fill.into.name();
      entry["volume_ul"] = jsonNumber(fill.volumeUl);
      break;
    }
    if (fill.line) {
      entry["line"] = fill.line;
      entry["step"] = fill.step;
    }
    fills.push_back(std::move(entry));
  }
  json["manual_wells"] = std::move(fills);
  Json analyses = Json::array();
  for (const AnalysisStep &step : setup.analyses) {
    Json entry = Json::object();
    entry["after_seq"] = step.afterSeq;
    // `kind` only when it is not the original standard curve, and a
    // cut-off index has no curve model.
    if (step.kind != ir::AnalysisKind::StandardCurve)
      entry["kind"] = std::string(ir::analysisKindName(step.kind));
    if (step.kind != ir::AnalysisKind::Cutoff)
      entry["model"] = step.fourPL ? "4pl" : "linear";
    if (step.wavelengthNm)
      entry["wavelength_nm"] = jsonNumber(*step.wavelengthNm);
    entry["subtract_blank"] = step.subtractBlank;
    entry["step"] = step.step;
    entry["line"] = step.line;
    analyses.push_back(std::move(entry));
  }
  json["analyses"] = std::move(analyses);
  return json;
}

namespace {

std::optional<ir::LiquidRole> parseRole(const std::string &text) {
  using ir::LiquidRole;
  for (LiquidRole role : {LiquidRole::Reagent, LiquidRole::Blank, LiquidRole::Calibrant,
                          LiquidRole::Sample, LiquidRole::Control, LiquidRole::Nsb,
                          LiquidRole::Bmax, LiquidRole::Cutoff})
    if (ir::roleName(role) == text)
      return role;
  if (text == "standard")
    return LiquidRole::Calibrant;
  return std::nullopt;
}

/// Small typed accessors that report the first error and return defaults:
/// one wrong field is enough to refuse the plan, and later ones would
/// mostly be consequences of it.
struct Fields {
  DiagnosticEngine &diags;
  SourceLoc at;
  std::string where;
  bool failed = false;

  template <typename... Args> void fail(DiagId id, Args &&...args) {
    if (!failed)
      diags.report(id, at, std::forward<Args>(args)...);
    failed = true;
  }
  const Json *get(const Json &object, const char *key, bool required) {
    auto it = object.find(key);
    if (it == object.end()) {
      if (required)
        fail(DiagId::PlanFieldMissing, where, key);
      return nullptr;
    }
    return &*it;
  }
  double number(const Json &object, const char *key, bool required = true) {
    const Json *value = get(object, key, required);
    if (!value)
      return 0;
    if (!value->is_number()) {
      fail(DiagId::PlanFieldType, key, where, "a number");
      return 0;
    }
    return value->get<double>();
  }
  /// A row, column, seq or count: a whole number below 2^32 (a cast of
  /// 1e300 or -5 to an index would be undefined, not a diagnostic).
  uint32_t count(const Json &object, const char *key, bool required = true) {
    const Json *value = get(object, key, required);
    if (!value)
      return 0;
    double number = value->is_number() ? value->get<double>() : -1;
    if (!(number >= 0) || number > std::numeric_limits<uint32_t>::max() ||
        number != std::floor(number)) {
      fail(DiagId::PlanFieldType, key, where, "a whole number");
      return 0;
    }
    return static_cast<uint32_t>(number);
  }
  std::string string(const Json &object, const char *key, bool required = true) {
    const Json *value = get(object, key, required);
    if (!value)
      return {};
    if (!value->is_string()) {
      fail(DiagId::PlanFieldType, key, where, "a string");
      return {};
    }
    return value->get<std::string>();
  }
  std::optional<Well> well(const std::string &text) {
    auto parsed = Well::parse(text);
    if (!parsed)
      fail(DiagId::PlanNotAWell, text, where);
    return parsed;
  }
};

} // namespace

std::optional<RunSetup> setupFromJson(const Json &json, DiagnosticEngine &diags, SourceLoc at) {
  if (!json.is_object()) {
    diags.report(DiagId::PlanNotObject, at);
    return std::nullopt;
  }
  RunSetup setup;
  Fields fields{diags, at, "the plan"};
  auto array = [&](const char *key) -> const Json * {
    auto it = json.find(key);
    if (it == json.end())
      return nullptr;
    if (!it->is_array()) {
      fields.fail(DiagId::PlanFieldType, key, "the plan", "an array");
      return nullptr;
    }
    return &*it;
  };
  if (const Json *reservoir = array("reservoir")) {
    for (size_t i = 0; i < reservoir->size(); ++i) {
      const Json &entry = (*reservoir)[i];
      fields.where = fmt::format("reservoir entry {}", i + 1);
      if (!entry.is_object()) {
        fields.fail(DiagId::PlanEntryNotObject, fields.where);
        return std::nullopt;
      }
      ReservoirLoad load;
      load.row = fields.count(entry, "row");
      load.col = fields.count(entry, "col");
      load.liquid = fields.string(entry, "liquid");
      load.volumeMl = fields.number(entry, "volume_ml");
      setup.reservoir.push_back(std::move(load));
    }
  }
  fields.where = "the plan";
  if (auto it = json.find("plate_type"); it != json.end())
    setup.plateType = fields.string(json, "plate_type");
  setup.tips = fields.count(json, "tips", false);
  setup.tipRacks = fields.count(json, "tip_racks", false);
  setup.robotTimeSeconds = fields.number(json, "robot_time_s", false);
  if (const Json *layout = array("layout")) {
    for (size_t i = 0; i < layout->size(); ++i) {
      const Json &entry = (*layout)[i];
      fields.where = fmt::format("layout entry {}", i + 1);
      if (!entry.is_object()) {
        fields.fail(DiagId::PlanEntryNotObject, fields.where);
        return std::nullopt;
      }
      LayoutLiquid liquid;
      liquid.name = fields.string(entry, "name");
      std::string role = fields.string(entry, "role");
      if (auto parsed = parseRole(role))
        liquid.role = *parsed;
      else
        fields.fail(DiagId::PlanUnknownValue, "role", role, fields.where,
                    "blank, calibrant, sample, control, nsb, bmax or cutoff");
      if (const Json *wells = fields.get(entry, "wells", true); wells && wells->is_array())
        for (const Json &well : *wells)
          if (auto parsed = fields.well(well.is_string() ? well.get<std::string>() : well.dump()))
            liquid.wells.push_back(*parsed);
      if (entry.contains("conc")) {
        liquid.conc = fields.number(entry, "conc");
        liquid.unit = fields.string(entry, "unit", false);
      }
      if (entry.contains("dilution"))
        liquid.dilution = fields.number(entry, "dilution");
      if (entry.contains("made_from"))
        liquid.madeFrom = fields.string(entry, "made_from");
      if (entry.contains("polarity")) {
        std::string polarity = fields.string(entry, "polarity");
        if (polarity == "positive")
          liquid.polarity = ir::Polarity::Positive;
        else if (polarity == "negative")
          liquid.polarity = ir::Polarity::Negative;
        else
          fields.fail(DiagId::PlanUnknownValue, "polarity", polarity, fields.where,
                      "`positive` or `negative`");
      }
      setup.layout.push_back(std::move(liquid));
    }
  }
  if (const Json *fills = array("manual_wells")) {
    for (size_t i = 0; i < fills->size(); ++i) {
      const Json &entry = (*fills)[i];
      fields.where = fmt::format("manual_wells entry {}", i + 1);
      ManualFill fill;
      fill.beforeSeq = fields.count(entry, "before_seq", false);
      if (fill.beforeSeq == 0)
        fill.beforeSeq = 1;
      if (auto well = fields.well(fields.string(entry, "well")))
        fill.well = *well;
      std::string kind = entry.contains("action") ? fields.string(entry, "action") : "fill";
      if (kind == "fill") {
        fill.liquid = fields.string(entry, "liquid");
        fill.volumeUl = fields.number(entry, "volume_ul");
      } else if (kind == "remove") {
        fill.action = ManualFill::Action::Remove;
        if (auto all = entry.find("all"); all != entry.end() && all->is_boolean())
          fill.all = all->get<bool>();
        if (!fill.all)
          fill.volumeUl = fields.number(entry, "volume_ul");
      } else if (kind == "transfer") {
        fill.action = ManualFill::Action::Transfer;
        if (auto into = fields.well(fields.string(entry, "into")))
          fill.into = *into;
        fill.volumeUl = fields.number(entry, "volume_ul");
      } else {
        fields.fail(DiagId::PlanUnknownValue, "action", kind, fields.where,
                    "`fill`, `remove` or `transfer`");
      }
      if (entry.contains("line")) {
        fill.line = fields.count(entry, "line");
        fill.step = fields.string(entry, "step", false);
      }
      setup.manualFills.push_back(std::move(fill));
    }
  }
  if (const Json *analyses = array("analyses")) {
    for (size_t i = 0; i < analyses->size(); ++i) {
      const Json &entry = (*analyses)[i];
      fields.where = fmt::format("analyses entry {}", i + 1);
      AnalysisStep step;
      step.afterSeq = fields.count(entry, "after_seq");
      std::string kind = entry.contains("kind") ? fields.string(entry, "kind") : "standard_curve";
      if (kind == "competitive")
        step.kind = ir::AnalysisKind::Competitive;
      else if (kind == "cutoff")
        step.kind = ir::AnalysisKind::Cutoff;
      else if (kind != "standard_curve")
        fields.fail(DiagId::PlanUnknownValue, "kind", kind, fields.where,
                    "`standard_curve`, `competitive` or `cutoff`");
      std::string model = step.kind == ir::AnalysisKind::Cutoff && !entry.contains("model")
                              ? "linear"
                              : fields.string(entry, "model");
      if (model != "linear" && model != "4pl")
        fields.fail(DiagId::PlanUnknownValue, "model", model, fields.where, "`linear` or `4pl`");
      step.fourPL = model == "4pl";
      if (entry.contains("wavelength_nm"))
        step.wavelengthNm = fields.number(entry, "wavelength_nm");
      if (auto it = entry.find("subtract_blank"); it != entry.end())
        step.subtractBlank = it->is_boolean() && it->get<bool>();
      step.step = fields.string(entry, "step", false);
      step.line = fields.count(entry, "line", false);
      setup.analyses.push_back(std::move(step));
    }
  }
  if (fields.failed)
    return std::nullopt;
  return setup;
}

std::optional<RunSetup> readSetupFile(const std::string &path, SourceManager &sources,
                                      DiagnosticEngine &diags) {
  auto fileId = sources.addFile(path);
  if (!fileId) {
    diags.report(DiagId::CannotRead, SourceLoc{}, path, std::strerror(errno));
    return std::nullopt;
  }
  Json json = parseJsonOrDiscarded<Json>(sources.contents(*fileId));
  if (json.is_discarded()) {
    diags.report(DiagId::PlanNotJson, SourceLoc{*fileId, 1, 1, 1});
    return std::nullopt;
  }
  return setupFromJson(json, diags, SourceLoc{*fileId, 1, 1, 1});
}

TipCount countTips(const std::vector<Command> &commands, const Platform &platform) {
  // Per rack position: 0 fresh, 1 taken, 2 holds a returned tip.
  std::vector<uint8_t> rack(platform.tipRackRows * platform.tipRackCols, 0);
  TipCount count;
  bool rackUsed = false;
  for (const Command &command : commands) {
    const CommandFields &fields = command.fields;
    if (fields.op == CommandOp::SwapTipRack) {
      std::fill(rack.begin(), rack.end(), 0);
      rackUsed = false;
      continue;
    }
    if (fields.op != CommandOp::PickTips && fields.op != CommandOp::ReturnTips)
      continue;
    unsigned row = fields.rowIndex, col = fields.colIndex;
    for (unsigned channel = 0; channel < fields.maskLength && channel < 64; ++channel) {
      if (!(fields.maskBits >> channel & 1))
        continue;
      unsigned c = col + channel;
      if (row < 1 || row > platform.tipRackRows || c < 1 || c > platform.tipRackCols)
        continue;
      uint8_t &slot = rack[(row - 1) * platform.tipRackCols + (c - 1)];
      if (fields.op == CommandOp::ReturnTips) {
        slot = 2;
      } else {
        if (slot == 0) {
          ++count.tips;
          if (!rackUsed) {
            rackUsed = true;
            ++count.racks;
          }
        }
        slot = 1;
      }
    }
  }
  return count;
}

} // namespace plate::backend

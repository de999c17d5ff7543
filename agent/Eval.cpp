//===- Eval.cpp - Layers of a compiled script, and single-change mutants --===//
//
// Parameter lists are fixed per step type and always complete (an absent
// option renders as `none`): a candidate that omits a `soak` the truth has
// loses that parameter, and one that adds a soak the truth lacks loses it
// too, instead of the difference vanishing from both T and C.
//
//===----------------------------------------------------------------------===//
#include "agent/Eval.h"

#include "backend/bioforge1/CommandBlocks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>

namespace plate::agent {

namespace {

std::string renderQuantity(const Quantity &q, const Platform &platform) {
  if (q.unit == Unit::Ambient)
    return "RT";
  if (q.unit == Unit::Overnight)
    return fmt::format("{} s", formatNumber(platform.overnightSeconds));
  double value = q.canonicalValue();
  if (q.dimension() == Dimension::Temperature && value >= platform.roomTempMinCelsius &&
      value <= platform.roomTempMaxCelsius)
    return "RT";
  return fmt::format("{} {}", formatNumber(value), unitInfo(canonicalUnit(q.unit)).symbol);
}

std::string renderOptional(const std::optional<Quantity> &q, const Platform &platform) {
  return q ? renderQuantity(*q, platform) : "none";
}

std::string liquidNames(const ir::Module &module, const std::vector<ir::Portion> &portions) {
  std::vector<std::string> names;
  for (const ir::Portion &p : portions)
    names.push_back(module.liquid(p.liquid).name);
  std::sort(names.begin(), names.end());
  std::string joined;
  for (const std::string &n : names)
    joined += (joined.empty() ? "" : ",") + n;
  return joined;
}

/// The fixed parameter list of each kind of op, so that a parameter a
/// candidate leaves at its default still compares.
struct StepParameters {
  const ir::Module &module;
  const Platform &platform;

  std::string q(const Quantity &quantity) const { return renderQuantity(quantity, platform); }
  std::string oq(const std::optional<Quantity> &quantity) const {
    return renderOptional(quantity, platform);
  }
  static std::string tips(ir::TipPolicy policy) { return std::string(ir::tipPolicyName(policy)); }

  std::vector<NamedParam> operator()(const ir::DispenseOp &node) const {
    WellSet wells;
    for (const ir::Portion &portion : node.portions)
      wells |= portion.wells;
    return {{"volume", q(node.volume)},
            {"source", liquidNames(module, node.portions)},
            {"wells", wells.str()},
            {"mix_cycles", node.mix ? std::to_string(node.mix->cycles) : "none"},
            {"mix_volume", node.mix ? q(node.mix->volume) : "none"},
            {"tips", tips(node.tips)}};
  }
  std::vector<NamedParam> operator()(const ir::AspirateOp &node) const {
    return {{"wells", node.wells.str()},
            {"volume", node.volume ? q(*node.volume) : "all"},
            {"tips", tips(node.tips)}};
  }
  std::vector<NamedParam> operator()(const ir::WashOp &node) const {
    return {{"reagent", module.liquid(node.reagent).name},
            {"wells", node.wells.str()},
            {"volume", q(node.volume)},
            {"cycles", std::to_string(node.cycles)},
            {"soak", oq(node.soak)},
            {"tips", tips(node.tips)}};
  }
  std::vector<NamedParam> operator()(const ir::IncubateOp &node) const {
    return {{"time", q(node.time)},
            {"temperature", q(node.temperature)},
            {"shaking", oq(node.shaking)},
            {"lid", node.lidOn ? "on" : "off"},
            {"dark", node.dark ? "yes" : "no"}};
  }
  std::vector<NamedParam> operator()(const ir::ShakeOp &node) const {
    return {{"time", q(node.time)}, {"speed", q(node.speed)}};
  }
  std::vector<NamedParam> operator()(const ir::MixOp &node) const {
    return {{"wells", node.wells.str()},
            {"cycles", std::to_string(node.cycles)},
            {"volume", q(node.volume)},
            {"tips", tips(node.tips)}};
  }
  std::vector<NamedParam> operator()(const ir::TransferOp &node) const {
    std::string pairs;
    for (const auto &[from, to] : node.pairs)
      pairs += fmt::format("{}{}>{}", pairs.empty() ? "" : ",", from.name(), to.name());
    std::vector<NamedParam> p = {
        {"pairs", pairs}, {"volume", q(node.volume)}, {"tips", tips(node.tips)}};
    if (node.mix) {
      p.emplace_back("mix_cycles", std::to_string(node.mix->cycles));
      p.emplace_back("mix_volume", q(node.mix->volume));
    }
    return p;
  }
  std::vector<NamedParam> operator()(const ir::MagnetOp &node) const {
    return {{"time", q(node.time)}};
  }
  std::vector<NamedParam> operator()(const ir::ReadAbsorbanceOp &node) const {
    return {{"wavelength", q(node.wavelength)},
            {"reference", oq(node.reference)},
            {"wells", node.wells.str()}};
  }
  std::vector<NamedParam> operator()(const ir::ReadFluorescenceOp &node) const {
    return {{"excitation", q(node.excitation)},
            {"emission", q(node.emission)},
            {"wells", node.wells.str()}};
  }
  std::vector<NamedParam> operator()(const ir::AnalyzeOp &node) const {
    // The kind goes into the model's value, so the parameter count
    // (and every existing score) stays as it was.
    std::string model = node.kind == ir::AnalysisKind::Cutoff ? "cutoff"
                        : node.fourPL                         ? "4pl"
                                                              : "linear";
    if (node.kind == ir::AnalysisKind::Competitive)
      model = "competitive " + model;
    return {{"model", model},
            {"wavelength", oq(node.wavelength)},
            {"subtract_blank", node.subtractBlank ? "yes" : "no"}};
  }
  std::vector<NamedParam> operator()(const ir::WaitOp &node) const {
    return {{"time", q(node.time)}};
  }
  std::vector<NamedParam> operator()(const ir::PauseOp &node) const {
    return {{"message", node.message}};
  }
  std::vector<NamedParam> operator()(const ir::NoteOp &node) const { return {{"text", node.text}}; }
  std::vector<NamedParam> operator()(const ir::PrepareOp &node) const {
    return {{"reagent", module.liquid(node.reagent).name},
            {"from", node.from},
            {"dilute", oq(node.dilute)},
            {"volume", oq(node.volume)}};
  }
  std::vector<NamedParam> operator()(const ir::EquilibrateOp &node) const {
    std::vector<NamedParam> p = {{"wells", node.wells.str()},
                            {"temperature", q(node.temperature)},
                            {"time", oq(node.time)}};
    // Only for reagents, so the parameters of a plate's
    // equilibration (and the scores of old sweeps) stay as they were.
    if (!node.reagents.empty()) {
      std::string reagents;
      for (ir::LiquidId id : node.reagents)
        reagents += (reagents.empty() ? "" : ",") + module.liquid(id).name;
      p.emplace_back("reagents", reagents);
    }
    return p;
  }
  // Device ops do not occur in a checked module; they would carry only
  // their section.
  template <typename DeviceOp> std::vector<NamedParam> operator()(const DeviceOp &) const {
    return {};
  }
};

} // namespace

std::vector<StepRecord> structuredSteps(const ir::Module &module, const Platform &platform) {
  std::vector<StepRecord> steps;
  StepParameters parameters{module, platform};
  for (const ir::Op &op : module.ops) {
    StepRecord step;
    step.type = std::string(ir::opMnemonic(op.kind()));
    step.params = std::visit(parameters, op.payload);
    step.params.emplace_back("section", op.manual ? "manual" : "instrument");
    steps.push_back(std::move(step));
  }
  return steps;
}

std::vector<CommandBlock> commandBlocks(const std::vector<backend::Command> &commands,
                                        const Platform &platform) {
  std::vector<CommandBlock> blocks;
  size_t begin = 0;
  while (begin < commands.size()) {
    size_t end = begin + 1;
    while (end < commands.size() && commands[end].step == commands[begin].step &&
           commands[end].line == commands[begin].line)
      ++end;
    std::vector<backend::Command> group(commands.begin() + begin, commands.begin() + end);
    CommandBlock block;
    block.type = backend::blockKind(group, platform);
    block.step = commands[begin].step;
    for (const backend::Command &c : group) {
      CommandRow row;
      row.type = c.name();
      backend::Json args = backend::commandArgs(c);
      for (auto it = args.begin(); it != args.end(); ++it)
        row.args.emplace_back(it.key(), it.value().dump());
      block.rows.push_back(std::move(row));
    }
    blocks.push_back(std::move(block));
    begin = end;
  }
  return blocks;
}

std::vector<std::string> stepTypes(const std::vector<StepRecord> &steps) {
  std::vector<std::string> types;
  for (const StepRecord &s : steps)
    types.push_back(s.type);
  return types;
}

std::vector<std::string> blockTypes(const std::vector<CommandBlock> &blocks) {
  std::vector<std::string> types;
  for (const CommandBlock &b : blocks)
    types.push_back(b.type);
  return types;
}

//===----------------------------------------------------------------------===//
// Mutants
//===----------------------------------------------------------------------===//

const std::vector<std::string> &mutationKinds() {
  static const std::vector<std::string> kinds = {
      "drop", "drop-note", "volume", "time", "temperature", "wavelength", "speed", "count",
      "swap", "to-manual"};
  return kinds;
}

bool isParameterMutation(std::string_view kind) {
  return kind == "volume" || kind == "time" || kind == "temperature" || kind == "wavelength" ||
         kind == "speed" || kind == "count";
}

namespace {

enum class Section { None, Manual, Instrument, Other };

struct ScriptLine {
  std::string text;
  Section section = Section::None;
  bool statement = false; ///< a top-level statement of MANUAL or INSTRUMENT
};

std::string trim(std::string_view text) {
  size_t b = text.find_first_not_of(" \t\r");
  if (b == std::string_view::npos)
    return "";
  size_t e = text.find_last_not_of(" \t\r");
  return std::string(text.substr(b, e - b + 1));
}

/// The statement without its step label.
std::string withoutLabel(const std::string &text) {
  static const std::regex label(R"(^\s*\d+\s*[.)]\s*)");
  return std::regex_replace(text, label, "");
}

std::vector<ScriptLine> classifyLines(const std::string &script) {
  std::vector<ScriptLine> lines;
  std::istringstream in(script);
  Section section = Section::None;
  int depth = 0;
  for (std::string text; std::getline(in, text);) {
    ScriptLine line;
    line.text = text;
    std::string t = trim(text);
    std::string lowered = t;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), ::tolower);
    if (lowered.rfind("<manual>", 0) == 0)
      section = Section::Manual;
    else if (lowered.rfind("<instrument>", 0) == 0)
      section = Section::Instrument;
    else if (lowered.rfind("</", 0) == 0)
      section = Section::None;
    else if (!lowered.empty() && lowered[0] == '<')
      section = Section::Other;
    line.section = section;
    std::string body = withoutLabel(t);
    std::string first = body.substr(0, body.find_first_of(" \t("));
    std::transform(first.begin(), first.end(), first.begin(), ::tolower);
    bool opens = t.find('{') != std::string::npos;
    bool closes = t.find('}') != std::string::npos;
    line.statement = (section == Section::Manual || section == Section::Instrument) &&
                     depth == 0 && !opens && !t.empty() && t[0] != '#' && t[0] != '<' &&
                     first != "use" && first != "proc";
    if (opens)
      ++depth;
    if (closes)
      depth = std::max(0, depth - 1);
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string join(const std::vector<std::string> &lines) {
  std::string out;
  for (const std::string &l : lines)
    out += l + "\n";
  return out;
}

std::vector<std::string> texts(const std::vector<ScriptLine> &lines) {
  std::vector<std::string> out;
  for (const ScriptLine &l : lines)
    out.push_back(l.text);
  return out;
}

/// Drops section pairs left with nothing but tags, blanks and comments.
std::string dropEmptySections(const std::vector<std::string> &lines) {
  std::vector<std::string> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string t = trim(lines[i]);
    if (t == "<INSTRUMENT>" || t == "<MANUAL>") {
      std::string close = "</" + t.substr(1);
      size_t j = i + 1;
      bool empty = true;
      for (; j < lines.size() && trim(lines[j]) != close; ++j) {
        std::string inner = trim(lines[j]);
        if (!inner.empty() && inner[0] != '#')
          empty = false;
      }
      if (empty && j < lines.size()) {
        i = j;
        continue;
      }
    }
    out.push_back(lines[i]);
  }
  return join(out);
}

double nearestOther(const std::vector<double> &options, double value) {
  double best = value;
  double distance = INFINITY;
  for (double option : options)
    if (std::fabs(option - value) > 1e-9 && std::fabs(option - value) < distance) {
      distance = std::fabs(option - value);
      best = option;
    }
  return best;
}

/// A plausible wrong value for a quantity token, or empty if none.
std::string wrongValue(Dimension dimension, double value, const std::string &unit,
                       const Platform &platform) {
  auto number = [](double v) { return formatNumber(v); };
  switch (dimension) {
  case Dimension::Volume: {
    double ul = value * unitInfo(*lookupUnit(unit)).factor;
    double wrong = ul * 2 <= 300 ? value * 2 : value / 2;
    return number(wrong) + " " + unit;
  }
  case Dimension::Time:
    return number(value * 2) + " " + unit;
  case Dimension::Temperature: {
    // Common incubation temperatures; a different one is a plausible slip.
    double wrong = value >= 36 && value <= 38 ? 30 : value > 38 ? 37 : 37;
    return number(wrong) + " C";
  }
  case Dimension::Speed: {
    double wrong = value * 2 <= platform.shakerMaxRpm ? value * 2 : value / 2;
    return number(wrong) + " " + unit;
  }
  case Dimension::Wavelength: {
    std::vector<double> filters = platform.readerFiltersNm;
    if (filters.empty())
      return number(value + 50) + " " + unit;
    return number(nearestOther(filters, value)) + " " + unit;
  }
  case Dimension::Count:
    return number(value + 1) + (unit == "x" ? "x" : " " + unit);
  default:
    return "";
  }
}

} // namespace

namespace {

/// Collects the mutants of one script; a change that leaves the text as it
/// was is no mutant.
struct MutantSink {
  const std::string &script;
  std::vector<Mutant> mutants;
  void add(std::string kind, size_t index, std::string description, std::string text) {
    if (text == script)
      return;
    mutants.push_back({std::move(kind), static_cast<unsigned>(index + 1), std::move(description),
                       std::move(text)});
  }
};

/// The statement of INSTRUMENT line `i` dropped, and moved to a MANUAL
/// section of its own.
void structuralMutants(const std::vector<std::string> &original, size_t i,
                       const std::string &statement, const std::string &first, MutantSink &sink) {
  std::vector<std::string> dropped = original;
  dropped.erase(dropped.begin() + static_cast<long>(i));
  // A note or pause is a message for the operator, not a step the
  // robot does: dropping one is its own kind.
  sink.add(first == "note" || first == "pause" ? "drop-note" : "drop", i,
           "drop `" + statement + "`", dropEmptySections(dropped));

  // A note or pause is for the operator in either section: moving it
  // changes nothing, so it makes no mutant.
  if (first == "note" || first == "pause")
    return;
  std::vector<std::string> moved(original.begin(), original.begin() + static_cast<long>(i));
  moved.push_back("</INSTRUMENT>");
  moved.push_back("<MANUAL>");
  moved.push_back(original[i]);
  moved.push_back("</MANUAL>");
  moved.push_back("<INSTRUMENT>");
  moved.insert(moved.end(), original.begin() + static_cast<long>(i) + 1, original.end());
  sink.add("to-manual", i, "move `" + statement + "` to MANUAL", dropEmptySections(moved));
}

/// Each quantity of line `i` changed to a plausible wrong value; room
/// temperature and overnight, which have no number, changed too.
void parameterMutants(const std::vector<std::string> &original, size_t i,
                      const std::string &first, const Platform &platform, MutantSink &sink) {
  static const std::regex token(
      R"((^|[\s(,])(\d+(?:\.\d+)?)\s*(uL|µL|μL|ul|nL|mL|ml|L|s|sec|seconds?|min|minutes?|h|hr|hours?|°C|C|degC|rpm|nm|x|times)(?=$|[\s),]))");
  static const std::regex roomTemperature(R"(\b(RT|room temperature|ambient)\b)");
  static const std::regex overnight(R"(\bovernight\b)");
  const std::string &text = original[i];
  for (auto it = std::sregex_iterator(text.begin(), text.end(), token);
       it != std::sregex_iterator(); ++it) {
    const std::smatch &m = *it;
    std::string unit = m[3].str();
    double value = std::stod(m[2].str());
    Dimension dimension;
    if (unit == "x" || unit == "times") {
      dimension = Dimension::Count;
    } else if (auto u = lookupUnit(unit)) {
      dimension = unitInfo(*u).dimension;
    } else {
      continue;
    }
    std::string wrong = wrongValue(dimension, value, unit, platform);
    if (wrong.empty())
      continue;
    size_t begin = static_cast<size_t>(m.position(2));
    size_t end = static_cast<size_t>(m.position(0) + m.length(0));
    std::string original_quantity = text.substr(begin, end - begin);
    std::vector<std::string> changed = original;
    changed[i] = text.substr(0, begin) + wrong + text.substr(end);
    sink.add(std::string(dimensionName(dimension)), i, original_quantity + " -> " + wrong,
             join(changed));
  }
  std::smatch m;
  if (std::regex_search(text, m, roomTemperature) && first != "equilibrate") {
    std::vector<std::string> changed = original;
    changed[i] = m.prefix().str() + "37 C" + m.suffix().str();
    sink.add("temperature", i, m.str(0) + " -> 37 C", join(changed));
  } else if (std::regex_search(text, m, roomTemperature)) {
    std::vector<std::string> changed = original;
    changed[i] = m.prefix().str() + "30 C" + m.suffix().str();
    sink.add("temperature", i, m.str(0) + " -> 30 C", join(changed));
  }
  if (std::regex_search(text, m, overnight)) {
    std::vector<std::string> changed = original;
    changed[i] = m.prefix().str() + "8 h" + m.suffix().str();
    sink.add("time", i, "overnight -> 8 h", join(changed));
  }
}

} // namespace

std::vector<Mutant> makeMutants(const std::string &script, const Platform &platform) {
  MutantSink sink{script, {}};
  std::vector<ScriptLine> lines = classifyLines(script);
  std::vector<std::string> original = texts(lines);
  for (size_t i = 0; i < lines.size(); ++i) {
    const ScriptLine &line = lines[i];
    if (!line.statement)
      continue;
    std::string statement = withoutLabel(trim(line.text));
    std::string first = statement.substr(0, statement.find(' '));
    std::transform(first.begin(), first.end(), first.begin(), ::tolower);
    bool prose = first == "note" || first == "pause" || first == "prepare";
    if (line.section == Section::Instrument)
      structuralMutants(original, i, statement, first, sink);
    if (!prose)
      parameterMutants(original, i, first, platform, sink);
    // Swap with the next statement of the same section run.
    if (i + 1 < lines.size() && lines[i + 1].statement && lines[i + 1].section == line.section &&
        withoutLabel(trim(lines[i + 1].text)) != statement) {
      std::vector<std::string> swapped = original;
      std::swap(swapped[i], swapped[i + 1]);
      sink.add("swap", i,
               "swap `" + statement + "` and `" + withoutLabel(trim(lines[i + 1].text)) + "`",
               join(swapped));
    }
  }
  // Normalise dimension names to the kinds of the report.
  for (Mutant &m : sink.mutants)
    if (m.kind == "wavelength" || m.kind == "volume" || m.kind == "time" ||
        m.kind == "temperature" || m.kind == "speed" || m.kind == "count")
      continue;
    else if (m.kind != "drop" && m.kind != "drop-note" && m.kind != "swap" && m.kind != "to-manual")
      m.kind = "other";
  return sink.mutants;
}

} // namespace plate::agent

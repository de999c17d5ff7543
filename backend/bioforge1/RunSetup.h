//===- RunSetup.h - Everything a run needs besides the commands ------------===//
//
// The interpreter replays commands from the initial state of bioforge1.md
// §4: the reservoir as the loading plan loads it, the plate wells as the
// layout and MANUAL steps leave them. A RunSetup carries that state plus
// what analysis needs (the layout: roles, names, concentrations, dilutions,
// wells) and the `analyze` steps. It is built from a compiled ir::Module,
// or read back from the loading-plan JSON, which therefore carries extra
// keys next to the four of language spec §11:
//
//   "reservoir"    [{"row","col","liquid","volume_ml"}]          (§11)
//   "tips", "tip_racks", "robot_time_s"                           (§11)
//   "plate_type"   "plate96" | "plate384"
//   "layout"       [{"name","role","wells":["A1",..],"conc","unit","dilution",
//                    "polarity"}] ("polarity": "positive"|"negative", controls)
//   "manual_wells" [{"before_seq","well","liquid","volume_ul",
//                    "action","all","into","line","step"}] what MANUAL
//                  steps do to wells before command `before_seq` (1: before
//                  the run): "action" is "fill" (the default: `volume_ul`
//                  of `liquid` into `well`), "remove" (`volume_ul` out of
//                  `well`, or everything with "all": true) or "transfer"
//                  (`volume_ul` from `well` into `into`); "line" and "step"
//                  name the MANUAL statement
//   "analyses"     [{"after_seq","kind","model":"linear"|"4pl","wavelength_nm",
//                    "subtract_blank","step","line"}]; "kind" is "competitive"
//                  or "cutoff" (absent: standard_curve); a cutoff has no model
//
// A stream run without a plan gets an empty setup: plate96, no reservoir
// loads, empty wells, no analyses.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <optional>
#include <string>
#include <vector>

namespace plate::backend {

struct ReservoirLoad {
  unsigned row = 0, col = 0;
  std::string liquid;
  double volumeMl = 0;
};

struct LayoutLiquid {
  std::string name;
  ir::LiquidRole role = ir::LiquidRole::Sample;
  std::vector<Well> wells;
  std::optional<double> conc; ///< in `unit` as written in the layout
  std::string unit;           ///< e.g. "ug/mL"
  std::optional<double> dilution;
  /// A series member made on the plate: the member it is diluted from.
  /// No source liquid has this name; its wells hold the first member.
  std::string madeFrom;
  ir::Polarity polarity = ir::Polarity::None;
};

/// What a MANUAL statement does to one well (the operator's pipetting is
/// part of the run: a MANUAL wash or removal leaves the twin's wells as
/// the operator leaves the plate's).
struct ManualFill {
  enum class Action : uint8_t { Fill, Remove, Transfer };
  uint32_t beforeSeq = 1;
  Well well;
  std::string liquid; ///< Fill: what goes in
  double volumeUl = 0;
  Action action = Action::Fill;
  bool all = false; ///< Remove: everything the well holds
  Well into;        ///< Transfer: the destination well
  uint32_t line = 0; ///< the MANUAL statement (0: unknown)
  std::string step;

  /// `volumeUl` of `liquid` into `well` before command `beforeSeq`.
  static ManualFill fill(uint32_t beforeSeq, Well well, std::string liquid, double volumeUl) {
    ManualFill fill;
    fill.beforeSeq = beforeSeq;
    fill.well = well;
    fill.liquid = std::move(liquid);
    fill.volumeUl = volumeUl;
    return fill;
  }
};

struct AnalysisStep {
  uint32_t afterSeq = 0; ///< runs once commands up to this seq are done
  bool fourPL = false;
  std::optional<double> wavelengthNm;
  bool subtractBlank = false;
  std::string step;
  uint32_t line = 0;
  ir::AnalysisKind kind = ir::AnalysisKind::StandardCurve;
};

struct RunSetup {
  std::string plateType = "plate96";
  /// The script's KIT_TITLE (the simulator reads "competitive" in it); not
  /// written to a plan file.
  std::string title;
  std::vector<ReservoirLoad> reservoir;
  std::vector<LayoutLiquid> layout;
  std::vector<ManualFill> manualFills;
  std::vector<AnalysisStep> analyses;
  // Summary figures of §11, carried for the plan file.
  unsigned tips = 0, tipRacks = 0;
  double robotTimeSeconds = 0;

  const LayoutLiquid *findLayout(const std::string &name) const;
};

/// The layout liquids of a module (every liquid but the reagents).
std::vector<LayoutLiquid> layoutOfModule(const ir::Module &module);
/// Builds the setup of a lowered module; `commands` are its lowered
/// commands (for the seq numbers of MANUAL fills and analyses, and the
/// summary figures).
RunSetup setupFromModule(const ir::Module &module, const Platform &platform,
                         const std::vector<Command> &commands);

/// The loading plan of language spec §11 with the extra keys above.
Json setupToJson(const RunSetup &setup);

/// Reads a plan file written by setupToJson (or by hand: only "reservoir"
/// is needed). Reports E900/E942 and returns nullopt on errors.
std::optional<RunSetup> readSetupFile(const std::string &path, SourceManager &sources,
                                      DiagnosticEngine &diags);
/// Reports the first error in `json` at `at` (a plan is one JSON document;
/// its fields have no lines of their own once parsed).
std::optional<RunSetup> setupFromJson(const Json &json, DiagnosticEngine &diags, SourceLoc at);

/// Tips picked fresh and racks used by a stream (returned tips picked again
/// do not count; a swap starts a new rack).
struct TipCount {
  unsigned tips = 0;
  unsigned racks = 0;
};
TipCount countTips(const std::vector<Command> &commands, const Platform &platform);

} // namespace plate::backend

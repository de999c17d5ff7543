//===- IR.h - The protocol IR: high-level steps and device commands -------===//
//
// A Module is a flat, ordered list of Ops plus the liquids they refer to.
// High-level ops (Dispense, Wash, Incubate, Read, ...) are what the frontend
// produces; lowering passes replace them, a few at a time, by device ops
// (PickTips, Aspirate, MovePlate, ...) that map one to one onto a
// platform's command set. Every op keeps the source line and step label of
// the statement it came from, so any device command traces back to the
// script. Quantities are typed; after `normalize-units` they are canonical
// (µL, s, °C, rpm, nm), which the verifier checks from then on.
//
// The op kinds are declared once in Ops.def; printer and verifier switch
// over them exhaustively (-Werror=switch), so a new op fails the build until
// every phase handles it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/SourceManager.h"
#include "ir/Units.h"
#include "ir/Wells.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace plate::ir {

using LiquidId = uint32_t;

/// Nsb: non-specific binding wells; Bmax: maximum binding (B0, the zero
/// standard of a competitive assay); Cutoff: the cut-off calibrator of a
/// qualitative assay (docs/language.md §4).
enum class LiquidRole : uint8_t { Reagent, Blank, Calibrant, Sample, Control, Nsb, Bmax, Cutoff };
std::string_view roleName(LiquidRole role);
/// A control's expected outcome: `positive control PC …`.
enum class Polarity : uint8_t { None, Positive, Negative };
std::string_view polarityName(Polarity polarity);
/// What an `analyze` computes (docs/language.md §7).
enum class AnalysisKind : uint8_t { StandardCurve, Competitive, Cutoff };
std::string_view analysisKindName(AnalysisKind kind);

struct ReservoirPos {
  unsigned row = 0, col = 0; ///< 1-based, (1,1)..(3,5) on BioForge-1
  friend auto operator<=>(const ReservoirPos &, const ReservoirPos &) = default;
};

struct Liquid {
  LiquidId id = 0;
  std::string name;
  LiquidRole role = LiquidRole::Reagent;
  SourceLoc loc; ///< where it is declared
  // Layout liquids.
  WellSet wells;
  std::optional<Quantity> concentration;
  std::optional<double> dilution; ///< factor, 2 for 1:2
  /// A member of a layout `series` (made on the plate from the first
  /// member by a `serial_dilution`); member 0 is the starting material.
  struct SeriesMember {
    SourceLoc loc;  ///< the `series` clause
    LiquidId first; ///< member 0
    unsigned index = 0;
    double ratio = 2; ///< the factor between neighbours
  };
  std::optional<SeriesMember> series;
  /// Made on the plate by dilution: no source, no reservoir position.
  bool madeOnPlate() const { return series && series->index > 0; }
  Polarity polarity = Polarity::None; ///< controls only
  // Reagents.
  std::optional<Quantity> declaredVolume;
  std::optional<ReservoirPos> fixedPosition;
  std::vector<std::string> flags;
  /// Set by IRGen: whether any INSTRUMENT step aspirates this liquid from
  /// the reservoir (then it needs a position and a loading-plan entry).
  bool pipettedByInstrument = false;
};

enum class TipPolicy : uint8_t { New, PerSource, PerWell, Reuse };
std::string_view tipPolicyName(TipPolicy policy);

/// Per-well amounts, resolved by volume tracking (`aspirate all`, the
/// emptying at the start of `wash`).
struct WellAmount {
  Well well;
  Quantity volume;
};

/// Where a pipetting command acts: a slot, and row/col when the fixture has
/// coordinates (plate, reservoir, tip rack). Solution waste has none.
struct Place {
  std::string slot;
  unsigned row = 0, col = 0;
  friend bool operator==(const Place &, const Place &) = default;
};

/// Channels a head command uses, channel 1 first ("1101").
struct ChannelMask {
  uint8_t bits = 0;
  uint8_t channels = 4;
  /// Channels past the 8 bits are never set (a wider `channels` only pads
  /// the mask's text with `0`).
  bool test(unsigned channel) const { return channel < 8 && (bits >> channel & 1u); }
  unsigned count() const { return __builtin_popcount(bits); }
  std::string str() const;
  friend bool operator==(const ChannelMask &, const ChannelMask &) = default;
};

/// One position of the pipetting head over the plate: channel 1 over
/// `anchor`, channel k over column anchor.col + k*stride of the same row.
struct HeadPosition {
  Well anchor;
  ChannelMask mask;
  friend bool operator==(const HeadPosition &, const HeadPosition &) = default;
};

//===--- High-level ops (frontend output) ---------------------------------===//

struct Portion {
  LiquidId liquid;
  WellSet wells;
};
struct MixSpec {
  unsigned cycles = 0;
  Quantity volume;
};

struct DispenseOp {
  std::vector<Portion> portions; ///< one per source liquid
  Quantity volume;               ///< per well
  std::optional<MixSpec> mix;
  TipPolicy tips = TipPolicy::PerSource;
  /// A reagent dispense whose wells the script gave as `all` (or left to
  /// default to it): where it says so, for W004; invalid otherwise. Not
  /// part of the printed IR.
  SourceLoc allLoc{};
};
struct AspirateOp {
  WellSet wells;
  std::optional<Quantity> volume; ///< nullopt: `all`
  std::vector<WellAmount> resolved; ///< filled by volume tracking
  TipPolicy tips = TipPolicy::PerWell;
};
struct WashOp {
  LiquidId reagent;
  WellSet wells;
  Quantity volume;
  unsigned cycles = 1;
  std::optional<Quantity> soak;
  std::vector<WellAmount> emptied; ///< what the first removal takes
  TipPolicy tips = TipPolicy::PerWell;
};
struct IncubateOp {
  Quantity time;
  Quantity temperature; ///< Ambient until normalized
  std::optional<Quantity> shaking;
  bool lidOn = true;
  bool dark = false;
};
struct ShakeOp {
  Quantity time;
  Quantity speed;
};
struct MixOp {
  WellSet wells;
  unsigned cycles = 1;
  Quantity volume;
  TipPolicy tips = TipPolicy::PerWell;
};
struct TransferOp {
  std::vector<std::pair<Well, Well>> pairs; ///< column-major pairing
  Quantity volume;
  /// Mixing in each destination after its pair: a serial dilution's next
  /// pair must draw a mixed well.
  std::optional<MixSpec> mix;
  TipPolicy tips = TipPolicy::PerWell;
};
struct MagnetOp {
  Quantity time;
};
struct ReadAbsorbanceOp {
  Quantity wavelength;
  std::optional<Quantity> reference;
  WellSet wells;
};
struct ReadFluorescenceOp {
  Quantity excitation;
  Quantity emission;
  WellSet wells;
};
struct AnalyzeOp {
  bool fourPL = false; ///< unused for a cut-off analysis
  std::optional<Quantity> wavelength;
  bool subtractBlank = false;
  AnalysisKind kind = AnalysisKind::StandardCurve;
};
struct WaitOp {
  Quantity time;
};
struct PauseOp {
  std::string message;
};
struct NoteOp {
  std::string text;
};
struct PrepareOp {
  LiquidId reagent;
  std::string from;
  std::optional<Quantity> dilute; ///< ratio
  std::optional<Quantity> volume;
};
struct EquilibrateOp {
  WellSet wells; ///< empty when the op is about reagents
  Quantity temperature;
  std::optional<Quantity> time;
  std::vector<LiquidId> reagents; ///< `equilibrate [all] reagents` or named reagents
};

//===--- Device ops (lowered; one per platform command) --------------------===//

struct PickTipsOp {
  unsigned row = 0, col = 0; ///< rack position of channel 1
  ChannelMask mask;
};
struct DropTipsOp {
  ChannelMask mask;
};
struct ReturnTipsOp {
  unsigned row = 0, col = 0;
  ChannelMask mask;
};
struct DevAspirateOp {
  Place place;
  ChannelMask mask;
  Quantity volume; ///< per channel
  LiquidId liquid = 0; ///< what is taken (provenance, for the simulator)
};
struct DevDispenseOp {
  Place place; ///< solution waste has no row/col
  ChannelMask mask;
  Quantity volume;
};
struct DevMixOp {
  Place place;
  ChannelMask mask;
  Quantity volume;
  unsigned cycles = 1;
};
struct MovePlateOp {
  std::string module;
  std::string from, to;
};
struct LidOp {
  std::string module;
  std::string slot;
  bool place = false; ///< false: remove, true: place
};
struct SwapTipRackOp {
  std::string module;
};
struct SetTemperatureOp {
  std::string module;
  Quantity temperature;
};
struct HeaterOffOp {
  std::string module;
};
struct DevShakeOp {
  std::string module;
  Quantity speed;
  Quantity time;
};
struct DevReadOp {
  std::string module;
  Quantity wavelength;
  std::optional<Quantity> reference;
  std::vector<Well> wells;
};
struct DevWaitOp {
  Quantity time;
};
struct PromptOp {
  std::string text;
};

enum class OpKind : uint8_t {
#define OP(Kind, Struct, Mnemonic, Level) Kind,
#include "ir/Ops.def"
};

using OpPayload = std::variant<
#define OP(Kind, Struct, Mnemonic, Level) Struct,
#define OP_LAST(Kind, Struct, Mnemonic, Level) Struct
#include "ir/Ops.def"
    >;

std::string_view opMnemonic(OpKind kind);
/// True for ops that map one to one onto platform commands.
bool isDeviceOp(OpKind kind);

struct Op {
  OpPayload payload;
  SourceLoc loc;     ///< source statement (inside a procedure: the body line)
  /// The statement of the script this op expands from: a procedure call or
  /// `repeat` for the ops of its body, else `loc`. What a reader of the
  /// script points at (the step alignment's table, agent/StepAlignment.h).
  SourceLoc origin;
  std::string step;  ///< step label (inside a procedure: the call site's)
  bool manual = false;     ///< from a <MANUAL> section: kept, never lowered
  bool tipsReuse = false;  ///< statement said `tips reuse`
  /// Head positions over the plate for a pipetting op, set by `group-wells`
  /// (for `transfer`: the destination positions). Empty before grouping.
  std::vector<HeadPosition> blocks;

  OpKind kind() const { return static_cast<OpKind>(payload.index()); }
  template <typename T> T *as() { return std::get_if<T>(&payload); }
  template <typename T> const T *as() const { return std::get_if<T>(&payload); }
};

/// One reservoir position of the loading plan.
struct ReservoirLoad {
  ReservoirPos pos;
  LiquidId liquid;
  double volumeMl = 0; ///< need + dead volume, rounded up to 0.1 mL
};

struct Module {
  uint32_t fileId = 0;
  std::string title;
  std::string platform = "bioforge1";
  std::string plateType = "plate96";
  PlateShape shape;
  double wellCapacityUl = 350;
  std::vector<Liquid> liquids; ///< indexed by LiquidId
  std::vector<Op> ops;

  // Results of passes; printed with the module once set.
  bool unitsNormalized = false;
  std::vector<ReservoirLoad> loadingPlan;
  std::optional<unsigned> tipsUsed;
  std::optional<unsigned> tipRacksUsed;
  bool lowered = false; ///< only device ops (and MANUAL-kept ops) remain

  const Liquid &liquid(LiquidId id) const { return liquids.at(id); }
  /// Wells any layout liquid occupies (`all`).
  WellSet layoutWells() const;
  /// The wells a `read` reads: its own, or without any (language spec §7)
  /// every layout well, or the whole plate when there is no layout.
  WellSet readWells(const WellSet &written) const;
};

/// Deterministic text form (`--emit=ir`, `--print-after`): a header, the
/// liquids, then one op per line with `loc=LINE:COL step=LABEL` (docs/ir.md).
std::string print(const Module &module, const SourceManager &sources);
/// One op line. With `sources`, an op from another file than the module's
/// (a `use` module) names that file: `loc=elisa.plate:5:3`.
std::string printOp(const Op &op, const Module &module,
                    const SourceManager *sources = nullptr);

} // namespace plate::ir

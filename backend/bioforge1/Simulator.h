//===- Simulator.h - The simulated BioForge-1 and its plate reader ---------===//
//
// SimulatedDevice is the Device the interpreter drives when no robot is
// attached: its own DeckState is the physical world, and its reader turns
// what each well holds into optical densities. docs/simulator.md is the
// user's description of the model; in short:
//
//   m(w)  = sum over analyte liquids l in w of conc(l) * vol(l) / vol(w)
//   b(w)  = m(w) just before the last removal of liquid from w
//   s(w)  = max(m(w), b(w))
//   T(w)  = baseline + k * s(w)                     (empty wells: baseline)
//   k     = middleOd / sqrt(lowest * highest positive s(w) of calibrant wells)
//   A(w)  = R(T(w)) + N(0, sigma)
//   R(T)  = -log10((10^-T + q) / (1 + q)),  q = 10^-ceilingOd
//
// T is the true absorbance (Beer-Lambert: linear in the analyte); R is
// the reader's photometric response with stray light q, which is linear
// at low OD and levels off at ceilingOd (a reader's linear range ends
// around 2-3 OD). Anchoring k at the calibrants' geometric middle rather
// than at the top calibrant makes the range the script chose matter: a
// narrow range (Bradford, 5x) stays in the linear part, a wide one (an
// ELISA, 64x) reaches the bend, as on a real reader.
//
// b(w) is the capture term: in a sandwich ELISA the analyte binds to the
// well during the sample incubation and stays after the washes remove the
// liquid, so the colour read at the end follows what the well held when it
// was emptied, not what it holds at the read (substrate and stop). In a
// Bradford assay nothing is removed and s(w) is the mixture m(w).
//   with a reference wavelength: A(w) - (R(referenceBaseline) + N(0, sigma))
//
// conc(l) is a calibrant's `conc` (in the first calibrant's unit), a
// sample's or control's true concentration divided by its dilution. True
// concentrations come from the truth map (name -> value in that unit,
// undiluted) or are invented: sample i of n (layout order) lands at
// cmin + (cmax - cmin) * (0.25 + 0.5 * i / (n - 1)) after dilution, inside
// the calibrant range; truths() lists them so that every output can say
// so. Noise N(0, sigma) is GSL's ziggurat sampler
// (gsl_ran_gaussian_ziggurat) on gsl_rng_taus2 (L'Ecuyer's maximally
// equidistributed Tausworthe generator) seeded with
// ReaderModel::Params::seed (GSL maps seed 0 to its default), drawn per
// well in the order the read lists them, the sample wavelength's draw
// before the reference's, so a run is reproducible. Values are rounded to
// 4 decimals as a reader export would be.
//
// Faults (FaultPlan, docs/reliability.md) fail a command before it touches
// the world, so a failed command changes nothing; power_loss kills the
// process with SIGKILL before the command runs. Random faults draw from
// their own generator, never from the reader's, so a run with faults that
// were retried reads the same values as one without.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Analysis.h"
#include "backend/bioforge1/DeckState.h"
#include "backend/bioforge1/Device.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>

#include <gsl/gsl_rng.h>

namespace plate::backend {

class ReaderModel {
public:
  struct Params {
    double baseline = 0.05;          ///< true OD of a blank well (plate and reagent)
    /// True OD above the blank at the geometric middle of the calibrant
    /// wells' analyte (sets k).
    double middleOd = 0.4;
    /// Stray light 10^-ceilingOd: measured ODs level off here.
    double ceilingOd = 3.5;
    double referenceBaseline = 0.04; ///< true OD at the reference wavelength
    double sigma = 0.005;            ///< noise, OD units
    uint64_t seed = 42;
    /// Competitive assays (docs/simulator.md): true OD above the baseline
    /// of the NSB wells, and of a well without analyte (B0) above that.
    double nsbOd = 0.04;
    double b0Od = 1.5;
  };

  ReaderModel(const RunSetup &setup, std::map<std::string, double> truth, Params params);

  /// Optical densities of `wells` given what the plate holds.
  PlateRead read(const Command &command, const DeckState &state);
  /// The analyte concentration a liquid carries into a well, if any.
  std::optional<double> analyteConc(const std::string &liquid) const;
  /// Each sample's and control's true concentration, in layout order.
  const std::vector<SampleTruth> &truths() const { return truths_; }
  /// No calibrant concentration to scale a response to (and no
  /// competition): every well reads the baseline plus noise.
  bool flatResponse() const { return flat_; }
  /// Notes what `wells` hold before liquid leaves them; afterRemoval then
  /// records the capture term b(w) of those the removal emptied.
  void beforeRemoval(const DeckState &state, const std::vector<Well> &wells);
  void afterRemoval(const DeckState &state);

private:
  struct PendingRemoval {
    Well well;
    double mixture = 0, totalUl = 0;
    bool calibrant = false;
  };
  std::vector<PendingRemoval> pendingRemovals_;
  /// Per-liquid tables for the state's LiquidTable (rebuilt only when a
  /// state with another table comes along) and per-well tables for its
  /// plate: no name lookups per well.
  void bind(const DeckState &state);
  double signal(const LiquidMix &contents) const;
  bool holdsCalibrant(const LiquidMix &contents) const;
  size_t wellIndex(Well well) const { return (well.row - 1) * cols_ + (well.col - 1); }
  std::vector<double> captured_;       ///< b(w), by well index
  std::vector<uint8_t> hasCaptured_;   ///< whether b(w) was recorded
  std::vector<uint8_t> calibrantWell_; ///< wells a calibrant was captured in
  /// s(w) and whether w counts as a calibrant well, as of the well's
  /// stamp: recomputed only for wells that changed since the last read.
  std::vector<double> effective_;
  std::vector<uint8_t> calibrantNow_;
  std::vector<uint8_t> emptyNow_; ///< the well holds nothing (as of its stamp)
  std::vector<uint64_t> effectiveStamp_;
  /// A competitive assay: signal falls with the analyte (docs/simulator.md).
  bool competitive_ = false;
  /// By well index, from the layout: 1 a blank well, 2 an NSB well.
  std::vector<uint8_t> layoutKind_;
  /// An effectiveStamp_ no well has: s(w) must be computed (again).
  static constexpr uint64_t kStale = ~uint64_t(0);
  const DeckState *boundState_ = nullptr;
  /// The strongest and the weakest positive calibrant s(w) as of the
  /// state's lastWellStamp(): reads with no change to any well between
  /// them (a read at several wavelengths) skip the scan of the plate.
  double strongest_ = 0;
  double weakest_ = 0;
  uint64_t strongestStamp_ = 0;
  bool strongestValid_ = false;
  std::vector<double> readValue_;      ///< OD during one read
  std::vector<double> noise_;          ///< the draws of one read, in order
  std::vector<uint32_t> readIndex_;    ///< well indices of one read, in order
  std::vector<uint8_t> wasRead_;
  unsigned cols_ = 0;
  const LiquidTable *boundTable_ = nullptr;
  std::vector<double> analyteById_;      ///< conc, NaN: carries no analyte
  std::vector<uint8_t> calibrantById_;
  const RunSetup &setup_;
  std::map<std::string, double> analyte_; ///< liquid -> conc as pipetted
  std::vector<SampleTruth> truths_;
  bool flat_ = false;
  Params params_;
  /// The noise generator (gsl_rng_taus2). GSL's ziggurat is exact and
  /// far cheaper than std::normal_distribution's polar method (a log, a
  /// sqrt and a division per pair), which dominated a read; taus2 takes
  /// about half the time of gsl_rng_mt19937 per draw.
  struct RngDeleter {
    void operator()(gsl_rng *rng) const;
  };
  std::unique_ptr<gsl_rng, RngDeleter> random_;
};

/// R(T) of the reader model above: the OD a reader with stray light
/// 10^-ceilingOd reports for a true absorbance T. R(0) = 0, increasing,
/// below ceilingOd, within 1 % of T up to 2 OD when ceilingOd is 3.5.
class ReaderResponse {
public:
  explicit ReaderResponse(double ceilingOd)
      : stray_(std::pow(10.0, -ceilingOd)), offset_(std::log10(1 + stray_)) {}
  double operator()(double trueOd) const {
    return offset_ - std::log10(std::pow(10.0, -trueOd) + stray_);
  }

private:
  double stray_, offset_;
};
inline double readerResponse(double trueOd, double ceilingOd) {
  return ReaderResponse(ceilingOd)(trueOd);
}

/// std::round (half away from zero, sign of zero kept) without the call
/// into libm for the values a reader exports (|x| < 2^62): a read rounds
/// every well it reports.
inline double roundHalfAway(double x) {
  if (!(std::fabs(x) < 0x1p62))
    return std::round(x);
  // Branch-free (the fraction of a noisy value is a coin toss, and a
  // mispredicted branch per well was a large part of a read): adding the
  // largest double below 1/2 carries into the next integer exactly when
  // |fraction| >= 1/2 (the sum rounds to nearest; RoundHalfAwayIsStdRound
  // checks the edge cases against std::round).
  double shifted = x + std::copysign(0.49999999999999994, x);
  return std::copysign(static_cast<double>(static_cast<int64_t>(shifted)), x);
}

/// Reads a truth map: JSON `{"X1": 12.5, ...}` or CSV lines `name,value`
/// (a header line is allowed). Reports E900/E941 naming file:line.
std::optional<std::map<std::string, double>>
readTruthFile(const std::string &path, SourceManager &sources, DiagnosticEngine &diags);

/// Whether a fault of `kind` can happen on `command`: tip_pickup on tip
/// pick-ups, liquid_detect on aspirates, gripper_drop on plate and lid
/// moves, reader_timeout on reads, disconnect and power_loss on any.
bool faultApplies(FaultKind kind, const Command &command, const Platform &platform);

class SimulatedDevice : public Device {
public:
  SimulatedDevice(const Platform &platform, const Labware &labware, const RunSetup &setup,
                  std::map<std::string, double> truth, ReaderModel::Params params,
                  FaultPlan faults = {});
  std::string name() const override { return "simulator"; }
  DeviceResult execute(const Command &command) override;
  std::optional<std::string> verifyState(const DeckState &expected) override;
  void restoreConfirmed(const Command &command) override;
  const DeckState &world() const { return world_; }
  const std::vector<SampleTruth> &truths() const { return reader_.truths(); }
  bool flatResponse() const { return reader_.flatResponse(); }

private:
  FaultKind injectedFault(const Command &command);
  /// MANUAL steps before command `seq`, with the capture term of what
  /// they remove.
  void applyManualSteps(uint32_t seq);
  /// Plate wells an LH.Aspirate or LH.Mix on the sample plate reaches.
  std::vector<Well> wellsUnderHead(const Command &command) const;

  const Platform &platform_;
  DeckState world_;
  ReaderModel reader_;
  FaultPlan faults_;
  std::mt19937_64 faultRandom_;
};

} // namespace plate::backend

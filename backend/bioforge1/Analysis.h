//===- Analysis.h - `analyze`: fit, back-calculate, index, plot -----------===//
//
// Language spec §7: the calibrants' replicate means (minus the blank mean
// when asked) are fitted with a straight line (least squares) or a
// four-parameter logistic
//
//   y = d + (a - d) / (1 + (x / c)^b)
//
// (GSL nonlinear least squares, trust region), every sample and control is
// back-calculated and multiplied by its dilution, and values outside the
// calibrant range are flagged. Results go to a CSV table and an SVG plot.
//
// `analyze competitive` fits y = %B/B0 = (OD - NSB) / (B0 - NSB) x 100
// (means of the `nsb` and `bmax` wells) instead of the signal; `analyze
// cutoff` fits nothing: every sample and control gets the index OD / cut-off
// and a call (docs/language.md §7).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Device.h"
#include "backend/bioforge1/RunSetup.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::backend {

/// A sample's or control's true concentration as the simulated reader used
/// it (docs/simulator.md): undiluted, in the first calibrant's unit, from
/// `--truth`, from the layout's `conc` (a control's nominal level), or
/// invented by the simulator.
struct SampleTruth {
  std::string name;
  double value = 0;
  std::string unit; ///< empty: no calibrant has a concentration (arbitrary units)
  bool invented = false;
  bool declared = false; ///< the layout's `conc`, not --truth
};

/// The invented concentrations of `truths`, e.g. `FBS1 1000 µg/mL, FBS2
/// 1250 µg/mL` with `separator` ", "; empty when none was invented.
std::string inventedList(const std::vector<SampleTruth> &truths, std::string_view separator);
/// Why the simulator invented them: `no --truth` or `not in --truth FILE`.
std::string inventedReason(const std::string &truthFile);

struct CurveFit {
  bool fourPL = false;
  /// linear: {intercept, slope}; 4PL: {a, b, c, d}.
  std::vector<double> params;
  double rSquared = 0;

  double eval(double x) const;
  /// The concentration giving signal y; nullopt where the curve never
  /// reaches y (flat line, 4PL beyond its asymptotes).
  std::optional<double> inverse(double y) const;
  std::string describe() const;
};

/// Where an analysis reports why it cannot be done: the `analyze` line of
/// the script and its step label.
struct AnalysisSite {
  DiagnosticEngine &diags;
  SourceLoc loc;
  std::string step;

  template <typename... Args> void fail(DiagId id, Args &&...args) const {
    diags.report(id, loc, std::forward<Args>(args)...).step(step);
  }
};

/// Least-squares line through (x, y); nullopt after a diagnostic at `site`
/// when fewer than two distinct x values.
std::optional<CurveFit> fitLinear(const std::vector<double> &x, const std::vector<double> &y,
                                  const AnalysisSite &site);
/// 4PL fit; needs at least four distinct positive-or-zero x values.
std::optional<CurveFit> fit4PL(const std::vector<double> &x, const std::vector<double> &y,
                               const AnalysisSite &site);

struct CurvePoint {
  std::string name;
  ir::LiquidRole role;
  std::vector<Well> wells; ///< wells that were read
  double meanOd = 0;       ///< after blank subtraction when asked
  std::optional<double> nominal;    ///< calibrants: their conc, in AnalysisResult::unit
  std::optional<double> inWell;     ///< back-calculated from the curve
  double dilution = 1;
  std::optional<double> concentration; ///< inWell * dilution
  std::string flag;                    ///< "", "below range", "above range", "off curve"
  ir::Polarity polarity = ir::Polarity::None;
  std::optional<double> percentBound; ///< competitive: %B/B0, the fitted y
  std::optional<double> index;        ///< cutoff: meanOd / cut-off mean
  std::string call;                   ///< cutoff: "positive", "negative", "equivocal"

  /// What the curve is fitted on: %B/B0 for a competitive analysis, else
  /// the (blank-subtracted) mean OD.
  double y() const { return percentBound.value_or(meanOd); }
};

/// The grey zone of `analyze cutoff`: an index from `kEquivocalLow` up to
/// (not including) `kEquivocalHigh` is equivocal (docs/language.md §7).
constexpr double kEquivocalLow = 0.9, kEquivocalHigh = 1.1;

struct AnalysisResult {
  AnalysisStep step;
  double wavelengthNm = 0;
  uint32_t readSeq = 0;
  std::optional<double> blankMean;
  /// Means of the reference wells (after blank subtraction when asked):
  /// NSB and B0 for a competitive analysis, the cut-off calibrator for a
  /// cut-off one.
  std::optional<double> nsbMean, b0Mean, cutoffMean;
  /// The NSB, B0 and cut-off wells as rows of the report.
  std::vector<CurvePoint> references;
  /// Control checks that failed (a positive control called negative …);
  /// empty: the run is valid as far as its controls say.
  std::vector<std::string> invalid;
  bool controlsChecked = false; ///< some control had a polarity to check
  std::string unit; ///< the first calibrant's unit; every result is in it
  CurveFit fit;
  double rangeLow = 0, rangeHigh = 0; ///< calibrant concentrations
  std::vector<CurvePoint> calibrants;
  std::vector<CurvePoint> samples; ///< samples and controls
  /// The read's values are simulated (docs/simulator.md); with the
  /// simulator's reader model, also its true concentrations.
  bool simulated = false;
  std::vector<SampleTruth> truths;
  std::string truthFile;
};

/// Runs one analysis (any kind) on a read. Returns nullopt after a
/// diagnostic at `site` (no wells read for the calibrants, too few levels,
/// no blank to subtract, no B0 or cut-off wells read, B0 not above NSB,
/// fit failure).
std::optional<AnalysisResult> analyzeStandardCurve(const AnalysisStep &step,
                                                   const PlateRead &read,
                                                   const std::vector<LayoutLiquid> &layout,
                                                   const AnalysisSite &site);

/// `value` in unit `from` expressed in unit `to` (unit spellings such as
/// "ug/mL", "µg/mL", "nM"); nullopt when either is not a concentration
/// unit or they belong to different families (mass/volume, molar, %).
std::optional<double> convertConcentration(double value, const std::string &from,
                                           const std::string &to);
/// `digits` significant digits in fixed notation (995.5, 12346, 0.01235),
/// trailing zeros dropped; exponent notation only below 1e-4 or from 1e9.
std::string formatConcentration(double value, int digits = 4);

std::string analysisCsv(const AnalysisResult &result);
std::string curveSvg(const AnalysisResult &result);
/// A few lines for the terminal: model, parameters, R², samples.
std::string analysisSummary(const AnalysisResult &result);
/// The same for tools (`plate mcp`'s run): the fit, every calibrant,
/// sample, control and reference well group with its values and flags.
/// Values that are not finite (a flat curve's inverse) are null.
Json analysisJson(const AnalysisResult &result);

} // namespace plate::backend

//===- Analysis.cpp - Standard-curve fits, back-calculation, CSV and SVG ---===//
//
// The 4PL fit parameterizes c as exp(log c) so the midpoint stays positive
// and starts from the data: a and d at the lowest and highest calibrant
// means, c at the geometric middle of the calibrant range, b = 1. The SVG
// is written by hand: axes with 1-2-5 ticks, the curve as a polyline,
// calibrants as circles, samples as squares and controls as diamonds.
//
// Units: concentrations arrive in the unit the script wrote. The curve's
// axis, and so every back-calculated result, is in the first calibrant's
// unit; other calibrants of the same family (ng/mL next to µg/mL) are
// converted to it, a calibrant of another family (pM next to µg/mL) is an
// analysis error because converting needs a molar mass.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Analysis.h"
#include "backend/Svg.h"

#include <fmt/format.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>

namespace plate::backend {

std::optional<double> convertConcentration(double value, const std::string &from,
                                           const std::string &to) {
  if (from == to)
    return value;
  std::optional<Unit> fromUnit = lookupUnit(from), toUnit = lookupUnit(to);
  if (!fromUnit || !toUnit)
    return std::nullopt;
  const UnitInfo &fromInfo = unitInfo(*fromUnit), &toInfo = unitInfo(*toUnit);
  if (fromInfo.dimension != Dimension::Concentration || fromInfo.family != toInfo.family)
    return std::nullopt;
  return value * fromInfo.factor / toInfo.factor;
}

std::string formatConcentration(double value, int digits) {
  if (!std::isfinite(value))
    return formatNumber(value);
  if (value == 0)
    return "0";
  double magnitude = std::fabs(value);
  // Fixed notation for every amount a lab reports (1e-4 .. 1e9); exponents
  // only beyond that, where they are the readable form.
  if (magnitude < 1e-4 || magnitude >= 1e9)
    return fmt::format("{:.{}g}", value, digits);
  int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  int decimals = std::max(0, digits - 1 - exponent);
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.')
      text.pop_back();
  }
  return text;
}

double CurveFit::eval(double x) const {
  if (!fourPL)
    return params[0] + params[1] * x;
  double a = params[0], b = params[1], c = params[2], d = params[3];
  return d + (a - d) / (1 + std::pow(std::max(x, 0.0) / c, b));
}

std::optional<double> CurveFit::inverse(double y) const {
  if (!fourPL) {
    if (std::fabs(params[1]) < 1e-300)
      return std::nullopt;
    return (y - params[0]) / params[1];
  }
  double a = params[0], b = params[1], c = params[2], d = params[3];
  if (std::fabs(y - d) < 1e-300)
    return std::nullopt;
  double ratio = (a - d) / (y - d) - 1;
  if (ratio <= 0)
    return std::nullopt;
  return c * std::pow(ratio, 1 / b);
}

std::string CurveFit::describe() const {
  if (!fourPL)
    return fmt::format("linear: y = {:.6g} + {:.6g} x, R^2 = {:.5f}", params[0], params[1],
                       rSquared);
  return fmt::format("4pl: y = d + (a - d) / (1 + (x / c)^b), a = {:.6g}, b = {:.6g}, "
                     "c = {:.6g}, d = {:.6g}, R^2 = {:.5f}",
                     params[0], params[1], params[2], params[3], rSquared);
}

namespace {

double rSquared(const CurveFit &fit, const std::vector<double> &x, const std::vector<double> &y) {
  double mean = std::accumulate(y.begin(), y.end(), 0.0) / double(y.size());
  double total = 0, residual = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    total += (y[i] - mean) * (y[i] - mean);
    residual += (y[i] - fit.eval(x[i])) * (y[i] - fit.eval(x[i]));
  }
  return total > 0 ? 1 - residual / total : 1;
}

size_t distinct(const std::vector<double> &x) {
  return std::set<double>(x.begin(), x.end()).size();
}

struct FourPLData {
  const std::vector<double> *x, *y;
};

int fourPLResiduals(const gsl_vector *p, void *data, gsl_vector *f) {
  auto *points = static_cast<FourPLData *>(data);
  double a = gsl_vector_get(p, 0), b = gsl_vector_get(p, 1);
  double c = std::exp(gsl_vector_get(p, 2)), d = gsl_vector_get(p, 3);
  for (size_t i = 0; i < points->x->size(); ++i) {
    double x = std::max((*points->x)[i], 0.0);
    double model = d + (a - d) / (1 + std::pow(x / c, b));
    gsl_vector_set(f, i, model - (*points->y)[i]);
  }
  return GSL_SUCCESS;
}

} // namespace

std::optional<CurveFit> fitLinear(const std::vector<double> &x, const std::vector<double> &y,
                                  const AnalysisSite &site) {
  if (distinct(x) < 2) {
    site.fail(DiagId::LinearFitTooFewLevels);
    return std::nullopt;
  }
  double n = double(x.size());
  double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  CurveFit fit;
  double slope = sxy / sxx;
  fit.params = {my - slope * mx, slope};
  fit.rSquared = rSquared(fit, x, y);
  return fit;
}

std::optional<CurveFit> fit4PL(const std::vector<double> &x, const std::vector<double> &y,
                               const AnalysisSite &site) {
  if (distinct(x) < 4 || x.size() < 4) {
    site.fail(DiagId::FourPLTooFewLevels);
    return std::nullopt;
  }
  std::vector<size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return x[i] < x[j]; });
  double xlow = x[order.front()], xhigh = x[order.back()];
  double positiveLow = xlow > 0 ? xlow : xhigh / 100;
  if (xhigh <= 0) {
    site.fail(DiagId::FourPLNoPositiveLevel);
    return std::nullopt;
  }

  FourPLData data{&x, &y};
  gsl_multifit_nlinear_fdf fdf{};
  fdf.f = fourPLResiduals;
  fdf.df = nullptr; // finite differences
  fdf.fvv = nullptr;
  fdf.n = x.size();
  fdf.p = 4;
  fdf.params = &data;
  gsl_multifit_nlinear_parameters parameters = gsl_multifit_nlinear_default_parameters();
  gsl_multifit_nlinear_workspace *workspace =
      gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &parameters, x.size(), 4);
  gsl_vector *start = gsl_vector_alloc(4);
  gsl_vector_set(start, 0, y[order.front()]);
  gsl_vector_set(start, 1, 1.0);
  gsl_vector_set(start, 2, 0.5 * (std::log(positiveLow) + std::log(xhigh)));
  gsl_vector_set(start, 3, y[order.back()]);

  gsl_error_handler_t *previous = gsl_set_error_handler_off();
  int info = 0;
  int status = gsl_multifit_nlinear_init(start, &fdf, workspace);
  if (status == GSL_SUCCESS)
    status = gsl_multifit_nlinear_driver(500, 1e-10, 1e-10, 1e-10, nullptr, nullptr, &info,
                                         workspace);
  gsl_vector *solution = gsl_multifit_nlinear_position(workspace);
  CurveFit fit;
  fit.fourPL = true;
  fit.params = {gsl_vector_get(solution, 0), gsl_vector_get(solution, 1),
                std::exp(gsl_vector_get(solution, 2)), gsl_vector_get(solution, 3)};
  gsl_set_error_handler(previous);
  gsl_vector_free(start);
  gsl_multifit_nlinear_free(workspace);

  bool finite = std::all_of(fit.params.begin(), fit.params.end(),
                            [](double value) { return std::isfinite(value); });
  if ((status != GSL_SUCCESS && status != GSL_EMAXITER) || !finite) {
    site.fail(DiagId::FourPLDiverged, gsl_strerror(status));
    return std::nullopt;
  }
  fit.rSquared = rSquared(fit, x, y);
  return fit;
}

namespace {
/// The mean over the read wells of every layout liquid of `role`; nullopt
/// when none of them was read.
std::optional<double> roleMean(const PlateRead &read, const std::vector<LayoutLiquid> &layout,
                               ir::LiquidRole role) {
  double sum = 0;
  size_t count = 0;
  for (const LayoutLiquid &liquid : layout)
    if (liquid.role == role)
      for (const Well &well : liquid.wells)
        if (auto it = read.values.find(well); it != read.values.end()) {
          sum += it->second;
          ++count;
        }
  return count ? std::optional<double>(sum / double(count)) : std::nullopt;
}

std::string cutoffCall(double index) {
  if (index >= kEquivocalHigh)
    return "positive";
  if (index < kEquivocalLow)
    return "negative";
  return "equivocal";
}
} // namespace

std::optional<AnalysisResult> analyzeStandardCurve(const AnalysisStep &step,
                                                   const PlateRead &read,
                                                   const std::vector<LayoutLiquid> &layout,
                                                   const AnalysisSite &site) {
  AnalysisResult result;
  result.step = step;
  result.wavelengthNm = read.wavelengthNm;
  result.readSeq = read.seq;
  result.simulated = read.simulated;
  const bool competitive = step.kind == ir::AnalysisKind::Competitive;
  const bool cutoff = step.kind == ir::AnalysisKind::Cutoff;

  auto meanOf = [&](const LayoutLiquid &liquid, std::vector<Well> &readWells) {
    double sum = 0;
    for (const Well &well : liquid.wells)
      if (auto it = read.values.find(well); it != read.values.end()) {
        sum += it->second;
        readWells.push_back(well);
      }
    return readWells.empty() ? std::optional<double>() : sum / double(readWells.size());
  };

  if (step.subtractBlank) {
    result.blankMean = roleMean(read, layout, ir::LiquidRole::Blank);
    if (!result.blankMean) {
      site.fail(DiagId::AnalysisNoBlankRead);
      return std::nullopt;
    }
  }
  double offset = result.blankMean.value_or(0);

  // The reference wells: their rows in the report, their means below.
  for (const LayoutLiquid &liquid : layout) {
    bool reference = competitive ? liquid.role == ir::LiquidRole::Nsb ||
                                       liquid.role == ir::LiquidRole::Bmax
                                 : cutoff && liquid.role == ir::LiquidRole::Cutoff;
    if (!reference)
      continue;
    CurvePoint point;
    point.name = liquid.name;
    point.role = liquid.role;
    if (auto mean = meanOf(liquid, point.wells)) {
      point.meanOd = *mean - offset;
      result.references.push_back(std::move(point));
    }
  }
  auto referenceMean = [&](ir::LiquidRole role) -> std::optional<double> {
    auto mean = roleMean(read, layout, role);
    return mean ? std::optional<double>(*mean - offset) : std::nullopt;
  };
  // %B/B0 of a mean OD; the background is the NSB when the layout has it
  // (a blank subtracted from both terms cancels), else the blank or 0.
  std::function<std::optional<double>(double)> percentBound = [](double) {
    return std::optional<double>();
  };
  if (competitive) {
    result.b0Mean = referenceMean(ir::LiquidRole::Bmax);
    if (!result.b0Mean) {
      site.fail(DiagId::AnalysisNoB0Read, formatNumber(read.wavelengthNm));
      return std::nullopt;
    }
    result.nsbMean = referenceMean(ir::LiquidRole::Nsb);
    double background = result.nsbMean.value_or(0);
    if (*result.b0Mean - background <= 0) {
      site.fail(result.nsbMean ? DiagId::AnalysisB0NotAboveNsb : DiagId::AnalysisB0NotPositive,
                fmt::format("{:.4f}", *result.b0Mean + offset),
                fmt::format("{:.4f}", background + offset));
      return std::nullopt;
    }
    double b0 = *result.b0Mean;
    percentBound = [background, b0](double od) {
      return std::optional<double>((od - background) / (b0 - background) * 100);
    };
    for (CurvePoint &point : result.references)
      point.percentBound = percentBound(point.meanOd);
  }

  if (cutoff) {
    result.cutoffMean = referenceMean(ir::LiquidRole::Cutoff);
    if (!result.cutoffMean) {
      site.fail(DiagId::AnalysisNoCutoffRead, formatNumber(read.wavelengthNm));
      return std::nullopt;
    }
    if (*result.cutoffMean <= 0) {
      site.fail(result.blankMean ? DiagId::AnalysisCutoffNotPositiveBlanked
                                 : DiagId::AnalysisCutoffNotPositive,
                fmt::format("{:.4f}", *result.cutoffMean));
      return std::nullopt;
    }
    for (CurvePoint &point : result.references)
      point.index = point.meanOd / *result.cutoffMean;
  }

  std::vector<double> xs, ys;
  if (!cutoff) {
    for (const LayoutLiquid &liquid : layout) {
      if (liquid.role != ir::LiquidRole::Calibrant || !liquid.conc)
        continue;
      CurvePoint point;
      point.name = liquid.name;
      point.role = liquid.role;
      point.nominal = liquid.conc;
      auto mean = meanOf(liquid, point.wells);
      if (!mean)
        continue;
      point.meanOd = *mean - offset;
      point.percentBound = percentBound(point.meanOd);
      if (result.unit.empty())
        result.unit = liquid.unit;
      std::optional<double> nominal =
          convertConcentration(*liquid.conc, liquid.unit, result.unit);
      if (!nominal) {
        site.fail(DiagId::AnalysisUnitFamilies, liquid.name, liquid.unit, result.unit);
        return std::nullopt;
      }
      point.nominal = *nominal;
      xs.push_back(*nominal);
      ys.push_back(point.y());
      result.calibrants.push_back(std::move(point));
    }
    if (xs.empty()) {
      site.fail(DiagId::AnalysisNoCalibrantRead, formatNumber(read.wavelengthNm));
      return std::nullopt;
    }
    auto fit = step.fourPL ? fit4PL(xs, ys, site) : fitLinear(xs, ys, site);
    if (!fit)
      return std::nullopt;
    // ODs such as 1e300 fit to a curve whose R² is NaN: a number that would
    // pass silently into every concentration.
    if (!std::isfinite(fit->rSquared)) {
      auto [low, high] = std::minmax_element(ys.begin(), ys.end());
      site.fail(DiagId::AnalysisFitNotFinite, step.fourPL ? "4pl" : "linear",
                fmt::format("{:.4g}", *low), fmt::format("{:.4g}", *high));
      return std::nullopt;
    }
    // A curve that explains little of the standards' signal gives numbers
    // that look like results; a kit accepts a curve at R² 0.98 or better.
    constexpr double kLowestTrustedRSquared = 0.95;
    if (fit->rSquared < kLowestTrustedRSquared)
      site.diags
          .report(DiagId::PoorStandardCurve, site.loc, step.fourPL ? "4pl" : "linear",
                  fmt::format("{:.3f}", fit->rSquared), formatNumber(kLowestTrustedRSquared))
          .step(site.step);
    result.fit = *fit;
    result.rangeLow = *std::min_element(xs.begin(), xs.end());
    result.rangeHigh = *std::max_element(xs.begin(), xs.end());
  }

  auto backCalculate = [&](CurvePoint &point) {
    point.inWell = result.fit.inverse(point.y());
    if (!point.inWell) {
      point.flag = "off curve";
      return;
    }
    point.concentration = *point.inWell * point.dilution;
    // A standard defines the range; its own back-calculated value landing
    // a hair outside it is noise, not a finding.
    if (point.role == ir::LiquidRole::Calibrant)
      return;
    double tolerance = 1e-9 * std::max(1.0, result.rangeHigh);
    if (*point.inWell < result.rangeLow - tolerance)
      point.flag = "below range";
    else if (*point.inWell > result.rangeHigh + tolerance)
      point.flag = "above range";
  };
  for (CurvePoint &point : result.calibrants)
    backCalculate(point);
  for (const LayoutLiquid &liquid : layout) {
    if (liquid.role != ir::LiquidRole::Sample && liquid.role != ir::LiquidRole::Control)
      continue;
    CurvePoint point;
    point.name = liquid.name;
    point.role = liquid.role;
    point.dilution = liquid.dilution.value_or(1);
    point.polarity = liquid.polarity;
    auto mean = meanOf(liquid, point.wells);
    if (!mean)
      continue;
    point.meanOd = *mean - offset;
    if (cutoff) {
      // The index is of the well as read: a sample's dilution is the
      // kit's, the same for the cut-off calibrator.
      point.index = point.meanOd / *result.cutoffMean;
      point.call = cutoffCall(*point.index);
    } else {
      point.percentBound = percentBound(point.meanOd);
      backCalculate(point);
    }
    result.samples.push_back(std::move(point));
  }

  // Controls with a polarity: a cut-off call that contradicts it makes
  // the run invalid, as a kit insert says. A quantitative analysis has no
  // threshold to hold them to, but a positive control reading no more
  // than a negative one is still a failed run.
  std::optional<double> lowestPositive, highestNegative;
  bool curveFalls = false;
  {
    const CurvePoint *lowest = nullptr, *highest = nullptr;
    for (const CurvePoint &point : result.calibrants) {
      if (!point.nominal)
        continue;
      if (!lowest || *point.nominal < *lowest->nominal)
        lowest = &point;
      if (!highest || *point.nominal > *highest->nominal)
        highest = &point;
    }
    curveFalls = lowest && highest && *highest->nominal > *lowest->nominal &&
                 highest->meanOd < lowest->meanOd;
  }
  for (const CurvePoint &point : result.samples) {
    if (point.polarity == ir::Polarity::None)
      continue;
    result.controlsChecked = true;
    bool positive = point.polarity == ir::Polarity::Positive;
    if (cutoff && point.call != (positive ? "positive" : "negative"))
      result.invalid.push_back(fmt::format("{} control `{}` has index {:.3f} ({}), expected {}",
                                           ir::polarityName(point.polarity), point.name,
                                           *point.index, point.call,
                                           positive ? "positive" : "negative"));
    // In a competitive assay more analyte binds less: the positive
    // control has the lower signal. A standard curve that falls (a
    // competitive kit fitted on OD) says the same.
    double signal = competitive || curveFalls ? -point.meanOd : point.meanOd;
    if (positive)
      lowestPositive = std::min(lowestPositive.value_or(signal), signal);
    else
      highestNegative = std::max(highestNegative.value_or(signal), signal);
  }
  if (!cutoff && lowestPositive && highestNegative && *lowestPositive <= *highestNegative)
    result.invalid.push_back(fmt::format(
        "a positive control's signal is {} a negative control's; the controls do not "
        "separate",
        competitive || curveFalls ? "not below" : "not above"));
  return result;
}

namespace {
std::string optionalNumber(const std::optional<double> &value) {
  return value ? formatConcentration(*value, 6) : std::string();
}
std::string wellList(const std::vector<Well> &wells) {
  std::string text;
  for (const Well &well : wells) {
    if (!text.empty())
      text += ' ';
    text += well.name();
  }
  return text;
}
} // namespace

namespace {
/// `positive control`, `sample`, `nsb` …: the role as a report names it.
std::string roleLabel(const CurvePoint &point) {
  if (point.polarity == ir::Polarity::None)
    return std::string(ir::roleName(point.role));
  return fmt::format("{} {}", ir::polarityName(point.polarity), ir::roleName(point.role));
}
} // namespace

std::string analysisCsv(const AnalysisResult &result) {
  // Provenance in columns, not comment lines: every CSV reader keeps them
  // (docs/simulator.md). od_values is the read's source; true_concentration
  // the simulator's value for a sample, true_from whether it was invented.
  // A competitive analysis adds percent_b0, a cut-off one index and call,
  // after the columns every analysis has.
  const bool competitive = result.step.kind == ir::AnalysisKind::Competitive;
  const bool cutoff = result.step.kind == ir::AnalysisKind::Cutoff;
  std::string csv = "name,role,wells,replicates,mean_od,nominal,back_calculated,dilution,"
                    "concentration,unit,flag,od_values,true_concentration,true_from";
  csv += competitive ? ",percent_b0\n" : cutoff ? ",index,call\n" : "\n";
  std::string_view source = result.simulated ? "simulated" : "measured";
  auto row = [&](const CurvePoint &point) {
    const SampleTruth *truth = nullptr;
    for (const SampleTruth &candidate : result.truths)
      if (candidate.name == point.name)
        truth = &candidate;
    csv += fmt::format("{},{},{},{},{:.4f},{},{},{},{},{},{},{},{},{}", point.name,
                       roleLabel(point), wellList(point.wells), point.wells.size(),
                       point.meanOd, optionalNumber(point.nominal),
                       optionalNumber(point.inWell), formatNumber(point.dilution),
                       optionalNumber(point.concentration), result.unit, point.flag, source,
                       truth ? formatConcentration(truth->value, 6) : std::string(),
                       !truth ? "" : truth->invented ? "invented" : truth->declared ? "layout" : "--truth");
    if (competitive)
      csv += "," + (point.percentBound ? fmt::format("{:.2f}", *point.percentBound) : "");
    if (cutoff)
      csv += fmt::format(",{},{}", point.index ? fmt::format("{:.3f}", *point.index) : "",
                         point.call);
    csv += "\n";
  };
  for (const CurvePoint &point : result.references)
    row(point);
  for (const CurvePoint &point : result.calibrants)
    row(point);
  for (const CurvePoint &point : result.samples)
    row(point);
  return csv;
}

std::string analysisSummary(const AnalysisResult &result) {
  std::string read = fmt::format("at {} nm (read {}{}){}", formatNumber(result.wavelengthNm),
                                 result.readSeq, result.simulated ? ", simulated" : "",
                                 result.blankMean ? fmt::format(", blank {:.4f} subtracted",
                                                                *result.blankMean)
                                                  : std::string());
  std::string text;
  switch (result.step.kind) {
  case ir::AnalysisKind::StandardCurve:
    text = fmt::format("standard curve {}: {}\n", read, result.fit.describe());
    break;
  case ir::AnalysisKind::Competitive:
    text = fmt::format("competitive %B/B0 {}, {}B0 {:.4f}: {}\n", read,
                       result.nsbMean ? fmt::format("NSB {:.4f}, ", *result.nsbMean) : "",
                       *result.b0Mean, result.fit.describe());
    break;
  case ir::AnalysisKind::Cutoff:
    text = fmt::format("cut-off index {}, cut-off {:.4f}: positive from {}, negative below {}\n",
                       read, *result.cutoffMean, formatNumber(kEquivocalHigh),
                       formatNumber(kEquivocalLow));
    break;
  }
  for (const CurvePoint &point : result.samples) {
    std::string name = point.polarity == ir::Polarity::None
                           ? point.name
                           : fmt::format("{} ({})", point.name, roleLabel(point));
    if (result.step.kind == ir::AnalysisKind::Cutoff) {
      text += fmt::format("  {:<12} OD {:.4f}  index {:.3f}  {}\n", name, point.meanOd,
                          *point.index, point.call);
      continue;
    }
    text += fmt::format("  {:<12} OD {:.4f}  {}{} {}{}\n", name, point.meanOd,
                        point.percentBound
                            ? fmt::format("%B/B0 {:.1f}  ", *point.percentBound)
                            : std::string(),
                        point.concentration ? formatConcentration(*point.concentration)
                                            : std::string("-"),
                        result.unit, point.flag.empty() ? "" : "  (" + point.flag + ")");
  }
  if (result.controlsChecked) {
    if (result.invalid.empty())
      text += "  controls: valid\n";
    for (const std::string &reason : result.invalid)
      text += fmt::format("  controls: INVALID run: {}\n", reason);
  }
  return text;
}

namespace {
/// Tick step of 1, 2 or 5 times a power of ten giving about `count` ticks.
double niceStep(double span, int count) {
  double raw = span / count;
  double power = std::pow(10, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0, 10.0})
    if (raw <= factor * power)
      return factor * power;
  return 10 * power;
}
/// A tick value with the decimals its step has: 3 * 0.2 is `0.6`, not the
/// `0.6000000000000001` that the sum of steps gives.
std::string tickLabel(double value, double step) {
  int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  std::string text = fmt::format("{:.{}f}", std::round(value / step) * step, decimals);
  // A tick at zero that rounding left a hair below it ("-0", "-0.000").
  if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos)
    text.erase(0, 1);
  return text;
}
} // namespace

namespace {
/// `text` broken after its ", " separators into lines of at most `width`
/// characters where the pieces allow, so that no `name value unit` entry
/// is split.
std::vector<std::string> wrapped(const std::string &text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(", ", start);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string piece = text.substr(start, end - start);
    start = std::min(text.size(), end + 1);
    if (!line.empty() && line.size() + 1 + piece.size() > width) {
      lines.push_back(std::move(line));
      line.clear();
    }
    line += (line.empty() ? "" : " ") + piece;
  }
  if (!line.empty())
    lines.push_back(std::move(line));
  return lines;
}
} // namespace

namespace {
/// The footer below a plot of simulated values: the concentrations (or
/// values) the simulator invented, wrapped to the plot's width.
void drawFooter(svg::Canvas &canvas, const std::vector<std::string> &footer, double left,
                double top, double lineHeight) {
  for (size_t i = 0; i < footer.size(); ++i)
    canvas.text(left, top + lineHeight * double(i), footer[i], {svg::Anchor::Start, 12, "#d62728"});
}

/// A y axis tick with its label, left of the axis at `left`.
void yTick(svg::Canvas &canvas, double left, double y, const std::string &label) {
  canvas.line(left - 5, y, left, y);
  canvas.text(left - 8, y + 4, label, {svg::Anchor::End});
}

/// `analyze cutoff`: each sample's and control's index as a dot in layout
/// order, on a band plot of the calls (negative, equivocal, positive).
std::string cutoffSvg(const AnalysisResult &result) {
  const double plotHeight = 440, lineHeight = 15;
  std::vector<std::string> footer;
  if (std::string invented = inventedList(result.truths, ", "); !invented.empty())
    footer = wrapped(fmt::format("Sample values invented by the simulator ({}): {}",
                                 inventedReason(result.truthFile), invented),
                     90);
  const double width = 640, height = plotHeight, left = 70, right = 20, bottom = 90;
  const double svgHeight =
      plotHeight + (footer.empty() ? 0 : lineHeight * double(footer.size()) + 5);
  const double top = result.simulated ? 56 : 40;
  double ymax = kEquivocalHigh * 1.5;
  for (const CurvePoint &point : result.samples)
    ymax = std::max(ymax, *point.index * 1.1);
  double ymin = 0;
  for (const CurvePoint &point : result.samples)
    ymin = std::min(ymin, *point.index * 1.1);
  const size_t count = std::max<size_t>(result.samples.size(), 1);
  auto px = [&](size_t i) {
    return left + (double(i) + 0.5) / double(count) * (width - left - right);
  };
  auto py = [&](double y) {
    return height - bottom - (y - ymin) / (ymax - ymin) * (height - top - bottom);
  };
  svg::Canvas canvas(width, svgHeight,
                     fmt::format("Cut-off index at {} nm, cut-off OD {:.4f}",
                                 formatNumber(result.wavelengthNm), *result.cutoffMean));
  if (result.simulated)
    canvas.simulatedLabel();
  // The equivocal band, then the axes and the cut-off line at 1.
  canvas.rect(left, py(kEquivocalHigh), width - left - right,
              py(kEquivocalLow) - py(kEquivocalHigh), {"#fff2cc"});
  canvas.line(left, py(ymin), width - right, py(ymin));
  canvas.line(left, py(ymin), left, top);
  canvas.line(left, py(1), width - right, py(1), {"none", "#7f7f7f", 1, "4 3"});
  double ystep = niceStep(ymax - ymin, 6);
  for (double y = std::ceil(ymin / ystep) * ystep; y <= ymax + 1e-12; y += ystep)
    yTick(canvas, left, py(y), tickLabel(y, ystep));
  canvas.text(18, (top + height - bottom) / 2,
              result.blankMean ? "index = (OD − blank) / (cut-off − blank)"
                               : "index = OD / cut-off",
              {svg::Anchor::Middle, 12, "black", false, -90});
  canvas.text(width - right - 4, py(kEquivocalHigh) - 4,
              fmt::format("equivocal {}–{}", formatNumber(kEquivocalLow),
                          formatNumber(kEquivocalHigh)),
              {svg::Anchor::End, 12, "#7f7f7f"});
  for (size_t i = 0; i < result.samples.size(); ++i) {
    const CurvePoint &point = result.samples[i];
    const char *colour = point.call == "positive"   ? "#d62728"
                         : point.call == "negative" ? "#2ca02c"
                                                    : "#ff7f0e";
    if (point.role == ir::LiquidRole::Control)
      canvas.rect(px(i) - 4.5, py(*point.index) - 4.5, 9, 9, {colour, "none", 1, {}, 1, point.name});
    else
      canvas.circle(px(i), py(*point.index), 4.5, {colour, "none", 1, {}, 1, point.name});
    canvas.text(px(i) + 3, py(ymin) + 14, point.name, {svg::Anchor::End, 12, "black", false, -60});
  }
  canvas.text(left + 10, top + 12, "● positive", {svg::Anchor::Start, 12, "#d62728"});
  canvas.text(left + 90, top + 12, "● equivocal", {svg::Anchor::Start, 12, "#ff7f0e"});
  canvas.text(left + 180, top + 12, "● negative", {svg::Anchor::Start, 12, "#2ca02c"});
  canvas.text(left + 270, top + 12, "■ controls");
  if (result.controlsChecked)
    canvas.text(left, height - 8,
                result.invalid.empty() ? std::string("controls: valid")
                                       : "controls: INVALID run: " + result.invalid.front(),
                {svg::Anchor::Start, 12, result.invalid.empty() ? "#2ca02c" : "#d62728"});
  drawFooter(canvas, footer, left - 50, plotHeight + 5, lineHeight);
  return canvas.finish();
}
} // namespace

std::string curveSvg(const AnalysisResult &result) {
  if (result.step.kind == ir::AnalysisKind::Cutoff)
    return cutoffSvg(result);
  const bool competitive = result.step.kind == ir::AnalysisKind::Competitive;
  // A simulated read gets a red label under the title and, below the
  // plot, the concentrations the simulator invented (docs/simulator.md).
  const double plotHeight = 440, lineHeight = 15;
  std::vector<std::string> footer;
  if (std::string invented = inventedList(result.truths, ", "); !invented.empty())
    footer = wrapped(fmt::format("Sample concentrations invented by the simulator ({}): {}",
                                 inventedReason(result.truthFile), invented),
                     90);
  const double width = 640, left = 70, right = 20, bottom = 60;
  const double top = result.simulated ? 56 : 40;
  const double height = plotHeight + (footer.empty() ? 0 : lineHeight * double(footer.size()) + 5);
  double xmax = result.rangeHigh;
  double ymin = 0, ymax = 0;
  auto consider = [&](const CurvePoint &point) {
    if (point.inWell && std::isfinite(*point.inWell))
      xmax = std::max(xmax, *point.inWell);
    ymin = std::min(ymin, point.y());
    ymax = std::max(ymax, point.y());
  };
  for (const CurvePoint &point : result.calibrants)
    consider(point);
  for (const CurvePoint &point : result.samples)
    consider(point);
  xmax = xmax > 0 ? xmax * 1.05 : 1;
  ymax = ymax > ymin ? ymax * 1.1 : ymin + 1;
  // A competitive curve is read on a log axis, as kit inserts draw it:
  // decades from the lowest calibrant's to the highest value's.
  const bool logX = competitive && result.rangeLow > 0;
  const double decadeLow = logX ? std::floor(std::log10(result.rangeLow)) : 0;
  const double decadeHigh = logX ? std::max(decadeLow + 1, std::ceil(std::log10(xmax))) : 0;
  auto px = [&](double x) {
    if (!logX)
      return left + x / xmax * (width - left - right);
    double decade = std::clamp(std::log10(std::max(x, 1e-300)), decadeLow, decadeHigh);
    return left + (decade - decadeLow) / (decadeHigh - decadeLow) * (width - left - right);
  };
  auto py = [&](double y) {
    return plotHeight - bottom - (y - ymin) / (ymax - ymin) * (plotHeight - top - bottom);
  };

  svg::Canvas canvas(width, height,
                     fmt::format("{} ({}) at {} nm, R² = {:.4f}",
                                 competitive ? "Competitive curve, %B/B0" : "Standard curve",
                                 result.fit.fourPL ? "4PL" : "linear",
                                 formatNumber(result.wavelengthNm), result.fit.rSquared));
  if (result.simulated)
    canvas.simulatedLabel();
  canvas.line(left, py(ymin), width - right, py(ymin));
  canvas.line(left, py(ymin), left, top);
  auto xTick = [&](double x, const std::string &label, double length) {
    canvas.line(px(x), py(ymin), px(x), py(ymin) + length);
    if (!label.empty())
      canvas.text(px(x), py(ymin) + 18, label, {svg::Anchor::Middle});
  };
  if (logX) {
    for (double decade = decadeLow; decade <= decadeHigh; ++decade) {
      xTick(std::pow(10, decade), formatConcentration(std::pow(10, decade)), 5);
      for (int minor = 2; minor <= 9 && decade < decadeHigh; ++minor)
        xTick(minor * std::pow(10, decade), "", 3);
    }
  } else {
    double xstep = niceStep(xmax, 6);
    for (double x = 0; x <= xmax + 1e-12; x += xstep)
      xTick(x, tickLabel(x, xstep), 5);
  }
  double ystep = niceStep(ymax - ymin, 6);
  for (double y = std::ceil(ymin / ystep) * ystep; y <= ymax + 1e-12; y += ystep)
    yTick(canvas, left, py(y), tickLabel(y, ystep));
  canvas.text((left + width - right) / 2, plotHeight - 15,
              fmt::format("concentration in well ({}{})", result.unit, logX ? ", log scale" : ""),
              {svg::Anchor::Middle});
  canvas.text(18, (top + plotHeight - bottom) / 2,
              competitive        ? "%B/B0 = (OD − NSB) / (B0 − NSB) × 100"
              : result.blankMean ? "absorbance − blank (OD)"
                                 : "absorbance (OD)",
              {svg::Anchor::Middle, 12, "black", false, -90});
  std::vector<std::pair<double, double>> points;
  for (int i = 0; i <= 200; ++i) {
    double x = logX ? std::pow(10, decadeLow + (decadeHigh - decadeLow) * i / 200)
                    : xmax * i / 200;
    points.emplace_back(px(x), py(std::clamp(result.fit.eval(x), ymin, ymax)));
  }
  canvas.polyline(points, {"none", "#1f77b4", 1.5});
  for (const CurvePoint &point : result.calibrants)
    canvas.circle(px(*point.nominal), py(point.y()), 4, {"#1f77b4", "none", 1, {}, 1, point.name});
  // A control (a QC level, a reference serum) is judged against its own
  // expected value, not reported as a result: it gets a mark of its own.
  bool anyControl = false;
  for (const CurvePoint &point : result.samples) {
    if (!point.inWell || !std::isfinite(*point.inWell))
      continue;
    double cx = px(std::max(0.0, *point.inWell)), cy = py(point.y());
    if (point.role == ir::LiquidRole::Control) {
      anyControl = true;
      canvas.polyline({{cx, cy - 5}, {cx + 5, cy}, {cx, cy + 5}, {cx - 5, cy}, {cx, cy - 5}},
                      {point.flag.empty() ? "#2ca02c" : "#d62728", "none", 1, {}, 1, point.name});
      continue;
    }
    canvas.rect(cx - 4, cy - 4, 8, 8,
                {point.flag.empty() ? "#ff7f0e" : "#d62728", "none", 1, {}, 1, point.name});
  }
  canvas.text(left + 10, top + 12, "● calibrants", {svg::Anchor::Start, 12, "#1f77b4"});
  canvas.text(left + 110, top + 12, "■ samples", {svg::Anchor::Start, 12, "#ff7f0e"});
  if (anyControl)
    canvas.text(left + 200, top + 12, "◆ controls", {svg::Anchor::Start, 12, "#2ca02c"});
  drawFooter(canvas, footer, left - 50, plotHeight + 5, lineHeight);
  return canvas.finish();
}

namespace {
Json numberOrNull(const std::optional<double> &value) {
  return value && std::isfinite(*value) ? jsonNumber(*value) : Json();
}

Json curvePointJson(const CurvePoint &point) {
  Json wells = Json::array();
  for (const Well &well : point.wells)
    wells.push_back(well.name());
  Json json{{"name", point.name},
            {"role", roleName(point.role)},
            {"wells", std::move(wells)},
            {"mean_od", numberOrNull(point.meanOd)},
            {"dilution", numberOrNull(point.dilution)}};
  json["nominal"] = numberOrNull(point.nominal);
  json["in_well"] = numberOrNull(point.inWell);
  json["concentration"] = numberOrNull(point.concentration);
  json["percent_bound"] = numberOrNull(point.percentBound);
  json["index"] = numberOrNull(point.index);
  json["flag"] = point.flag;
  json["call"] = point.call;
  if (point.polarity != ir::Polarity::None)
    json["polarity"] = polarityName(point.polarity);
  return json;
}
} // namespace

Json analysisJson(const AnalysisResult &result) {
  Json calibrants = Json::array(), samples = Json::array(), references = Json::array();
  for (const CurvePoint &point : result.calibrants)
    calibrants.push_back(curvePointJson(point));
  for (const CurvePoint &point : result.samples)
    samples.push_back(curvePointJson(point));
  for (const CurvePoint &point : result.references)
    references.push_back(curvePointJson(point));
  Json json{{"kind", analysisKindName(result.step.kind)},
            {"step", result.step.step},
            {"line", result.step.line},
            {"read_seq", result.readSeq},
            {"wavelength_nm", jsonNumber(result.wavelengthNm)},
            {"unit", result.unit},
            {"simulated", result.simulated}};
  if (result.step.kind != ir::AnalysisKind::Cutoff) {
    Json params = Json::array();
    for (double param : result.fit.params)
      params.push_back(numberOrNull(param));
    json["fit"] = {{"model", result.fit.fourPL ? "4pl" : "linear"},
                   {"params", std::move(params)},
                   {"r_squared", numberOrNull(result.fit.rSquared)},
                   {"equation", result.fit.describe()}};
    json["range"] = {numberOrNull(result.rangeLow), numberOrNull(result.rangeHigh)};
  }
  json["blank_mean"] = numberOrNull(result.blankMean);
  json["calibrants"] = std::move(calibrants);
  json["samples"] = std::move(samples);
  json["references"] = std::move(references);
  json["invalid"] = result.invalid;
  return json;
}

} // namespace plate::backend

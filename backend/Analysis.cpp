//===- Analysis.cpp - Standard-curve fits, back-calculation, CSV and SVG ---===//
//
// The 4PL fit parameterizes c as exp(log c) so the midpoint stays positive
// and starts from the data: a and d at the lowest and highest calibrant
// means, c at the geometric middle of the calibrant range, b = 1. The SVG
// is written by hand: axes with 1-2-5 ticks, the curve as a polyline,
// calibrants as circles and samples as squares.
//
// Units: concentrations arrive in the unit the script wrote. The curve's
// axis, and so every back-calculated result, is in the first calibrant's
// unit; other calibrants of the same family (ng/mL next to µg/mL) are
// converted to it, a calibrant of another family (pM next to µg/mL) is an
// analysis error because converting needs a molar mass.
//
//===----------------------------------------------------------------------===//
#include "backend/Analysis.h"

#include <fmt/format.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#include <algorithm>
#include <cmath>
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
                                  std::string &error) {
  if (distinct(x) < 2) {
    error = "a linear fit needs at least two calibrant levels";
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
                               std::string &error) {
  if (distinct(x) < 4 || x.size() < 4) {
    error = "a 4pl fit needs at least four calibrant levels";
    return std::nullopt;
  }
  std::vector<size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return x[i] < x[j]; });
  double xlow = x[order.front()], xhigh = x[order.back()];
  double positiveLow = xlow > 0 ? xlow : xhigh / 100;
  if (xhigh <= 0) {
    error = "a 4pl fit needs positive calibrant concentrations";
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
    error = fmt::format("the 4pl fit did not converge ({}); try `linear`", gsl_strerror(status));
    return std::nullopt;
  }
  fit.rSquared = rSquared(fit, x, y);
  return fit;
}

std::optional<AnalysisResult> analyzeStandardCurve(const AnalysisStep &step,
                                                   const PlateRead &read,
                                                   const std::vector<LayoutLiquid> &layout,
                                                   std::string &error) {
  AnalysisResult result;
  result.step = step;
  result.wavelengthNm = read.wavelengthNm;
  result.readSeq = read.seq;
  result.simulated = read.simulated;

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
    double sum = 0;
    size_t count = 0;
    for (const LayoutLiquid &liquid : layout)
      if (liquid.role == ir::LiquidRole::Blank)
        for (const Well &well : liquid.wells)
          if (auto it = read.values.find(well); it != read.values.end()) {
            sum += it->second;
            ++count;
          }
    if (count == 0) {
      error = "`subtract blank` but no blank well was read";
      return std::nullopt;
    }
    result.blankMean = sum / double(count);
  }
  double offset = result.blankMean.value_or(0);

  std::vector<double> xs, ys;
  for (const LayoutLiquid &liquid : layout) {
    if (liquid.role != ir::LiquidRole::Calibrant || !liquid.conc)
      continue;
    CurvePoint point{liquid.name, liquid.role, {}, 0, liquid.conc, {}, 1, {}, {}};
    auto mean = meanOf(liquid, point.wells);
    if (!mean)
      continue;
    point.meanOd = *mean - offset;
    if (result.unit.empty())
      result.unit = liquid.unit;
    std::optional<double> nominal = convertConcentration(*liquid.conc, liquid.unit, result.unit);
    if (!nominal) {
      error = fmt::format("calibrant `{}` is in {}, which does not convert to {} (the unit of "
                          "the first calibrant); write every calibrant in one unit family",
                          liquid.name, liquid.unit, result.unit);
      return std::nullopt;
    }
    point.nominal = *nominal;
    xs.push_back(*nominal);
    ys.push_back(point.meanOd);
    result.calibrants.push_back(std::move(point));
  }
  if (xs.empty()) {
    error = fmt::format("no calibrant well with a concentration was read at {} nm",
                        formatNumber(read.wavelengthNm));
    return std::nullopt;
  }
  auto fit = step.fourPL ? fit4PL(xs, ys, error) : fitLinear(xs, ys, error);
  if (!fit)
    return std::nullopt;
  result.fit = *fit;
  result.rangeLow = *std::min_element(xs.begin(), xs.end());
  result.rangeHigh = *std::max_element(xs.begin(), xs.end());

  auto backCalculate = [&](CurvePoint &point) {
    point.inWell = result.fit.inverse(point.meanOd);
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
    CurvePoint point{liquid.name, liquid.role, {}, 0, {}, {}, liquid.dilution.value_or(1), {}, {}};
    auto mean = meanOf(liquid, point.wells);
    if (!mean)
      continue;
    point.meanOd = *mean - offset;
    backCalculate(point);
    result.samples.push_back(std::move(point));
  }
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

std::string analysisCsv(const AnalysisResult &result) {
  // Provenance in columns, not comment lines: every CSV reader keeps them
  // (docs/simulator.md). od_values is the read's source; true_concentration
  // the simulator's value for a sample, true_from whether it was invented.
  std::string csv = "name,role,wells,replicates,mean_od,nominal,back_calculated,dilution,"
                    "concentration,unit,flag,od_values,true_concentration,true_from\n";
  std::string_view source = result.simulated ? "simulated" : "measured";
  auto row = [&](const CurvePoint &point) {
    const SampleTruth *truth = nullptr;
    for (const SampleTruth &candidate : result.truths)
      if (candidate.name == point.name)
        truth = &candidate;
    csv += fmt::format("{},{},{},{},{:.4f},{},{},{},{},{},{},{},{},{}\n", point.name,
                       ir::roleName(point.role), wellList(point.wells), point.wells.size(),
                       point.meanOd, optionalNumber(point.nominal),
                       optionalNumber(point.inWell), formatNumber(point.dilution),
                       optionalNumber(point.concentration), result.unit, point.flag, source,
                       truth ? formatConcentration(truth->value, 6) : std::string(),
                       !truth ? "" : truth->invented ? "invented" : "--truth");
  };
  for (const CurvePoint &point : result.calibrants)
    row(point);
  for (const CurvePoint &point : result.samples)
    row(point);
  return csv;
}

std::string analysisSummary(const AnalysisResult &result) {
  std::string text = fmt::format("standard curve at {} nm (read {}{}){}: {}\n",
                                 formatNumber(result.wavelengthNm), result.readSeq,
                                 result.simulated ? ", simulated" : "",
                                 result.blankMean ? fmt::format(", blank {:.4f} subtracted",
                                                                *result.blankMean)
                                                  : std::string(),
                                 result.fit.describe());
  for (const CurvePoint &point : result.samples)
    text += fmt::format("  {:<12} OD {:.4f}  {} {}{}\n", point.name, point.meanOd,
                        point.concentration ? formatConcentration(*point.concentration)
                                            : std::string("-"),
                        result.unit, point.flag.empty() ? "" : "  (" + point.flag + ")");
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
  return text == "-0" ? "0" : text;
}
std::string escape(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
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

std::string curveSvg(const AnalysisResult &result) {
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
    ymin = std::min(ymin, point.meanOd);
    ymax = std::max(ymax, point.meanOd);
  };
  for (const CurvePoint &point : result.calibrants)
    consider(point);
  for (const CurvePoint &point : result.samples)
    consider(point);
  xmax = xmax > 0 ? xmax * 1.05 : 1;
  ymax = ymax > ymin ? ymax * 1.1 : ymin + 1;
  auto px = [&](double x) { return left + x / xmax * (width - left - right); };
  auto py = [&](double y) {
    return plotHeight - bottom - (y - ymin) / (ymax - ymin) * (plotHeight - top - bottom);
  };

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      width, height);
  svg += fmt::format("<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
                     width / 2,
                     escape(fmt::format("Standard curve ({}) at {} nm, R² = {:.4f}",
                                        result.fit.fourPL ? "4PL" : "linear",
                                        formatNumber(result.wavelengthNm), result.fit.rSquared)));
  if (result.simulated)
    svg += fmt::format("<text x=\"{}\" y=\"40\" text-anchor=\"middle\" fill=\"#d62728\" "
                       "font-weight=\"bold\">SIMULATED values (plate run simulator, "
                       "docs/simulator.md), not measured</text>\n",
                       width / 2);
  // Axes.
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"black\"/>\n",
                     left, py(ymin), width - right);
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n",
                     left, py(ymin), top);
  double xstep = niceStep(xmax, 6);
  for (double x = 0; x <= xmax + 1e-12; x += xstep)
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" "
                       "stroke=\"black\"/><text x=\"{0:.1f}\" y=\"{3:.1f}\" "
                       "text-anchor=\"middle\">{4}</text>\n",
                       px(x), py(ymin), py(ymin) + 5, py(ymin) + 18, tickLabel(x, xstep));
  double ystep = niceStep(ymax - ymin, 6);
  for (double y = std::ceil(ymin / ystep) * ystep; y <= ymax + 1e-12; y += ystep)
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" "
                       "stroke=\"black\"/><text x=\"{3:.1f}\" y=\"{4:.1f}\" "
                       "text-anchor=\"end\">{5}</text>\n",
                       left - 5, py(y), left, left - 8, py(y) + 4,
                       tickLabel(y, ystep));
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     (left + width - right) / 2, plotHeight - 15,
                     escape(fmt::format("concentration in well ({})", result.unit)));
  svg += fmt::format("<text x=\"18\" y=\"{0}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 18 {0})\">{1}</text>\n",
                     (top + plotHeight - bottom) / 2,
                     result.blankMean ? "absorbance − blank (OD)" : "absorbance (OD)");
  // Curve.
  std::string points;
  for (int i = 0; i <= 200; ++i) {
    double x = xmax * i / 200;
    double y = std::clamp(result.fit.eval(x), ymin, ymax);
    points += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
  }
  svg += fmt::format("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" "
                     "points=\"{}\"/>\n",
                     points);
  for (const CurvePoint &point : result.calibrants)
    svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"#1f77b4\">"
                       "<title>{}</title></circle>\n",
                       px(*point.nominal), py(point.meanOd), escape(point.name));
  for (const CurvePoint &point : result.samples) {
    if (!point.inWell || !std::isfinite(*point.inWell))
      continue;
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"8\" height=\"8\" "
                       "fill=\"{}\"><title>{}</title></rect>\n",
                       px(std::max(0.0, *point.inWell)) - 4, py(point.meanOd) - 4,
                       point.flag.empty() ? "#ff7f0e" : "#d62728", escape(point.name));
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#1f77b4\">● calibrants</text>"
                     "<text x=\"{}\" y=\"{}\" fill=\"#ff7f0e\">■ samples</text>\n",
                     left + 10, top + 12, left + 110, top + 12);
  for (size_t i = 0; i < footer.size(); ++i)
    svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#d62728\">{}</text>\n", left - 50,
                       plotHeight + 5 + lineHeight * double(i), escape(footer[i]));
  svg += "</svg>\n";
  return svg;
}

} // namespace plate::backend

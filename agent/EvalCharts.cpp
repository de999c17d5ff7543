//===- EvalCharts.cpp - The charts of a sweep's report --------------------===//
//
// The palette is Paul Tol's bright scheme, kept apart from
// svg::categoryColour so that recorded reports keep their colours.
//
//===----------------------------------------------------------------------===//
#include "agent/EvalCharts.h"

#include "backend/Svg.h"

#include <fmt/format.h>

#include <algorithm>

namespace plate::agent {

namespace svg = backend::svg;

namespace {

const char *kPalette[] = {"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377",
                          "#bbbbbb"};

const char *paletteColour(size_t index) { return kPalette[index % std::size(kPalette)]; }

} // namespace

std::string barChart(const std::string &title, const std::vector<std::string> &categories,
                     const std::vector<std::string> &series,
                     const std::vector<std::vector<double>> &values) {
  const double left = 60, top = 40, plotH = 220,
               groupW = std::max<double>(90, 26.0 * series.size() + 30);
  // Category labels run at 30 degrees below the axis; make room for the
  // longest (about 6 px per character at this font size).
  size_t longest = 0;
  for (const std::string &c : categories)
    longest = std::max(longest, c.size());
  double labelLength = 6.0 * double(longest);
  double width = left + groupW * categories.size() +
                 std::max(170.0, labelLength * 0.87 - groupW + 30);
  double height = top + plotH + 30 + labelLength * 0.5;
  svg::Canvas canvas(width, height, title);
  for (int tick = 0; tick <= 4; ++tick) {
    double y = top + plotH - plotH * tick / 4.0;
    canvas.line(left, y, left + groupW * categories.size(), y, {"none", "#dddddd"});
    canvas.text(left - 6, y + 4, fmt::format("{}%", tick * 25), {svg::Anchor::End, 11});
  }
  double barW = (groupW - 30) / std::max<size_t>(1, series.size());
  for (size_t c = 0; c < categories.size(); ++c) {
    double x0 = left + groupW * c + 15;
    for (size_t s = 0; s < series.size(); ++s) {
      double v = std::clamp(values[s][c], 0.0, 1.0);
      double h = plotH * v;
      canvas.rect(x0 + barW * s, top + plotH - h, barW - 2, h,
                  {paletteColour(s), "none", 1, {}, 1,
                   fmt::format("{}: {:.1f}%", series[s], v * 100)});
    }
    canvas.text(x0, top + plotH + 14, categories[c],
                {svg::Anchor::Start, 11, "black", false, 30});
  }
  canvas.line(left, top, left, top + plotH);
  canvas.line(left, top + plotH, left + groupW * categories.size(), top + plotH);
  double legendX = left + groupW * categories.size() + 15;
  for (size_t s = 0; s < series.size(); ++s) {
    canvas.rect(legendX, top + 18 * s, 12, 12, {paletteColour(s)});
    canvas.text(legendX + 18, top + 18 * s + 10, series[s], {svg::Anchor::Start, 11});
  }
  return canvas.finish();
}

std::string scatterChart(const std::string &title, const std::string &xLabel,
                         const std::vector<ChartPoint> &points) {
  using svg::Anchor;
  const double left = 60, top = 40, plotW = 420, plotH = 260;
  double xMax = 0;
  for (const ChartPoint &p : points)
    xMax = std::max(xMax, p.x);
  xMax = xMax <= 0 ? 1 : xMax * 1.15;
  // The legend right of the plot is as wide as its longest label (about
  // 6.2 px per character at 11 px).
  size_t longest = 0;
  for (const ChartPoint &p : points)
    longest = std::max(longest, p.label.size());
  svg::Canvas canvas(left + plotW + 50 + 6.2 * double(longest),
                     std::max(top + plotH + 60, top + 18.0 * double(points.size()) + 20), title);
  for (int tick = 0; tick <= 4; ++tick) {
    double y = top + plotH - plotH * tick / 4.0;
    double x = left + plotW * tick / 4.0;
    canvas.line(left, y, left + plotW, y, {"none", "#dddddd"});
    canvas.text(left - 6, y + 4, fmt::format("{}%", tick * 25), {Anchor::End, 11});
    canvas.text(x, top + plotH + 16, fmt::format("{:.2g}", xMax * tick / 4.0),
                {Anchor::Middle, 11});
  }
  canvas.line(left, top, left, top + plotH);
  canvas.line(left, top + plotH, left + plotW, top + plotH);
  canvas.text(left + plotW / 2, top + plotH + 36, xLabel, {Anchor::Middle, 11});
  canvas.text(16, top + plotH / 2, "Parameter Accuracy",
              {Anchor::Middle, 11, "black", false, -90});
  for (size_t i = 0; i < points.size(); ++i) {
    const ChartPoint &p = points[i];
    double x = left + plotW * p.x / xMax, y = top + plotH - plotH * std::clamp(p.y, 0.0, 1.0);
    const char *colour = paletteColour(i);
    canvas.circle(x, y, 6,
                  {colour, "none", 1, {}, 1,
                   fmt::format("{}: {:.1f}%, {:.3g} s", p.label, p.y * 100, p.x)});
    canvas.circle(left + plotW + 20, top + 18 * i + 6, 5, {colour});
    canvas.text(left + plotW + 32, top + 18 * i + 10, p.label, {Anchor::Start, 11});
  }
  return canvas.finish();
}

} // namespace plate::agent

//===- EvalCharts.h - The charts of a sweep's report ------------*- C++ -*-===//
//
// Grouped bars and an accuracy-latency scatter, drawn with the one SVG
// writer of every picture (backend/Svg.h), so they share its look and its
// escaping. Values are shares in [0, 1], shown as percentages; output is
// deterministic, so a recorded sweep's charts compare byte for byte.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace plate::agent {

/// Grouped bars: one group per category, one bar per series in it;
/// `values[series][category]` in [0, 1] (clamped).
std::string barChart(const std::string &title, const std::vector<std::string> &categories,
                     const std::vector<std::string> &series,
                     const std::vector<std::vector<double>> &values);

struct ChartPoint {
  std::string label;
  double x; ///< seconds
  double y; ///< Parameter Accuracy in [0, 1]
};

/// Parameter Accuracy (y) against latency (x, labelled `xLabel`), one
/// coloured point per label with a legend beside the plot.
std::string scatterChart(const std::string &title, const std::string &xLabel,
                         const std::vector<ChartPoint> &points);

} // namespace plate::agent

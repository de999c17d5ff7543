//===- Svg.h - The one small SVG writer of every picture --------*- C++ -*-===//
//
// Every picture plate draws (the standard curve, plate maps, the read heat
// map, the run timeline) goes through this writer, so that they share one
// look (white ground, sans-serif, a title line, the red SIMULATED label)
// and one escaping rule. Coordinates are SVG user units (pixels at 100 %).
// Output is deterministic: numbers are printed with one decimal, so a
// picture can be compared byte for byte in tests.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace plate::backend::svg {

/// Text safe inside an SVG element or attribute.
std::string escape(std::string_view text);

enum class Anchor { Start, Middle, End };

struct TextStyle {
  Anchor anchor = Anchor::Start;
  double size = 12;
  std::string_view fill = "black";
  bool bold = false;
  /// Degrees about the text's own anchor point (negative: counterclockwise).
  double rotate = 0;
};

/// Drawing attributes besides geometry. `tooltip` becomes a <title> child,
/// which browsers show on hover and screen readers read.
struct Paint {
  std::string_view fill = "none";
  std::string_view stroke = "none";
  double strokeWidth = 1;
  std::string_view dash = {}; ///< stroke-dasharray, e.g. "4 3"
  double opacity = 1;
  std::string_view tooltip = {};
};

class Canvas {
public:
  /// A white canvas with `title` centred on its first line.
  Canvas(double width, double height, std::string_view title);

  double width() const { return width_; }
  double height() const { return height_; }
  /// For pictures whose last lines wrap: the height is written at finish().
  void setHeight(double height) { height_ = height; }

  void line(double x1, double y1, double x2, double y2, const Paint &paint = {"none", "black"});
  void rect(double x, double y, double w, double h, const Paint &paint);
  void roundedRect(double x, double y, double w, double h, double radius, const Paint &paint);
  void circle(double cx, double cy, double r, const Paint &paint);
  void polyline(const std::vector<std::pair<double, double>> &points, const Paint &paint);
  /// A closed path from SVG path data (arcs, wedges).
  void path(std::string_view data, const Paint &paint);
  void text(double x, double y, std::string_view text, const TextStyle &style = {});
  /// The red line under the title that every picture of simulated values
  /// carries (docs/simulator.md).
  void simulatedLabel(double y = 40);
  /// Opens a group that clips its children to a rectangle (a well's fill
  /// level inside its circle); every open group is closed by endGroup().
  void beginClip(double x, double y, double w, double h);
  void beginClipCircle(double cx, double cy, double r);
  void endGroup();

  /// The document; the canvas is not to be drawn on afterwards.
  std::string finish();

private:
  void open(std::string_view element, const Paint &paint);
  void close(std::string_view element, const Paint &paint);

  double width_, height_;
  std::string out_;
  unsigned clips_ = 0;
};

/// A colour for the i-th of many categories, readable on white and told
/// apart by people with the common colour-vision deficiencies (Okabe-Ito,
/// then Tableau shades once those run out).
std::string_view categoryColour(size_t index);

/// A sequential colour scale (viridis, dark blue to yellow) at t in [0, 1],
/// as "#rrggbb"; and whether text on it should be white to stay readable.
std::string scaleColour(double t);
bool darkOnScale(double t);

} // namespace plate::backend::svg

//===- Svg.cpp - The one small SVG writer of every picture ----------------===//
#include "backend/Svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace plate::backend::svg {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

namespace {
std::string_view anchorName(Anchor anchor) {
  switch (anchor) {
  case Anchor::Start: return "start";
  case Anchor::Middle: return "middle";
  case Anchor::End: return "end";
  }
  return "start";
}
} // namespace

Canvas::Canvas(double width, double height, std::string_view title)
    : width_(width), height_(height) {
  if (!title.empty())
    text(width / 2, 22, title, {Anchor::Middle, 14});
}

void Canvas::open(std::string_view element, const Paint &paint) {
  out_ += fmt::format("<{}", element);
  if (paint.fill != "black")
    out_ += fmt::format(" fill=\"{}\"", paint.fill);
  if (paint.stroke != "none") {
    out_ += fmt::format(" stroke=\"{}\"", paint.stroke);
    if (paint.strokeWidth != 1)
      out_ += fmt::format(" stroke-width=\"{}\"", paint.strokeWidth);
    if (!paint.dash.empty())
      out_ += fmt::format(" stroke-dasharray=\"{}\"", paint.dash);
  }
  if (paint.opacity != 1)
    out_ += fmt::format(" opacity=\"{}\"", paint.opacity);
}

void Canvas::close(std::string_view element, const Paint &paint) {
  if (paint.tooltip.empty())
    out_ += "/>\n";
  else
    out_ += fmt::format("><title>{}</title></{}>\n", escape(paint.tooltip), element);
}

void Canvas::line(double x1, double y1, double x2, double y2, const Paint &paint) {
  open("line", paint);
  out_ += fmt::format(" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"", x1, y1, x2, y2);
  close("line", paint);
}

void Canvas::rect(double x, double y, double w, double h, const Paint &paint) {
  open("rect", paint);
  out_ += fmt::format(" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"", x, y,
                      std::max(0.0, w), std::max(0.0, h));
  close("rect", paint);
}

void Canvas::roundedRect(double x, double y, double w, double h, double radius,
                         const Paint &paint) {
  open("rect", paint);
  out_ += fmt::format(" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"{:.1f}\"",
                      x, y, std::max(0.0, w), std::max(0.0, h), radius);
  close("rect", paint);
}

void Canvas::circle(double cx, double cy, double r, const Paint &paint) {
  open("circle", paint);
  out_ += fmt::format(" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\"", cx, cy, r);
  close("circle", paint);
}

void Canvas::polyline(const std::vector<std::pair<double, double>> &points, const Paint &paint) {
  open("polyline", paint);
  out_ += " points=\"";
  for (size_t i = 0; i < points.size(); ++i)
    out_ += fmt::format("{}{:.1f},{:.1f}", i ? " " : "", points[i].first, points[i].second);
  out_ += "\"";
  close("polyline", paint);
}

void Canvas::path(std::string_view data, const Paint &paint) {
  open("path", paint);
  out_ += fmt::format(" d=\"{}\"", data);
  close("path", paint);
}

void Canvas::text(double x, double y, std::string_view content, const TextStyle &style) {
  out_ += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\"", x, y);
  if (style.anchor != Anchor::Start)
    out_ += fmt::format(" text-anchor=\"{}\"", anchorName(style.anchor));
  if (style.size != 12)
    out_ += fmt::format(" font-size=\"{}\"", style.size);
  if (style.fill != "black")
    out_ += fmt::format(" fill=\"{}\"", style.fill);
  if (style.bold)
    out_ += " font-weight=\"bold\"";
  if (style.rotate != 0)
    out_ += fmt::format(" transform=\"rotate({} {:.1f} {:.1f})\"", style.rotate, x, y);
  out_ += fmt::format(">{}</text>\n", escape(content));
}

void Canvas::simulatedLabel(double y) {
  text(width_ / 2, y,
       "SIMULATED values (plate run simulator, docs/simulator.md), not measured",
       {Anchor::Middle, 12, "#d62728", true});
}

void Canvas::beginClip(double x, double y, double w, double h) {
  unsigned id = clips_++;
  out_ += fmt::format("<clipPath id=\"c{}\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
                      "height=\"{:.1f}\"/></clipPath><g clip-path=\"url(#c{})\">\n",
                      id, x, y, std::max(0.0, w), std::max(0.0, h), id);
}

void Canvas::beginClipCircle(double cx, double cy, double r) {
  unsigned id = clips_++;
  out_ += fmt::format("<clipPath id=\"c{}\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\"/>"
                      "</clipPath><g clip-path=\"url(#c{})\">\n",
                      id, cx, cy, r, id);
}

void Canvas::endGroup() { out_ += "</g>\n"; }

std::string Canvas::finish() {
  return fmt::format(
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
             "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
             "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
             width_, height_) +
         out_ + "</svg>\n";
}

std::string_view categoryColour(size_t index) {
  // Okabe-Ito without its yellow (too faint on white), then Tableau 10.
  static constexpr std::array<std::string_view, 16> colours = {
      "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#999999",
      "#8c564b", "#bcbd22", "#17becf", "#9467bd", "#e377c2", "#7f7f7f", "#2ca02c",
      "#ff7f0e", "#1f77b4"};
  return colours[index % colours.size()];
}

namespace {
/// Viridis at nine evenly spaced stops (matplotlib's table).
constexpr std::array<std::array<int, 3>, 9> kViridis = {{{68, 1, 84},
                                                        {71, 44, 122},
                                                        {59, 81, 139},
                                                        {44, 113, 142},
                                                        {33, 144, 141},
                                                        {39, 173, 129},
                                                        {92, 200, 99},
                                                        {170, 220, 50},
                                                        {253, 231, 37}}};
} // namespace

std::string scaleColour(double t) {
  if (!std::isfinite(t))
    t = 0;
  t = std::clamp(t, 0.0, 1.0) * double(kViridis.size() - 1);
  size_t low = std::min(kViridis.size() - 2, static_cast<size_t>(t));
  double f = t - double(low);
  std::array<int, 3> rgb{};
  for (size_t c = 0; c < 3; ++c)
    rgb[c] = static_cast<int>(std::lround(kViridis[low][c] * (1 - f) + kViridis[low + 1][c] * f));
  return fmt::format("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
}

bool darkOnScale(double t) { return std::isfinite(t) && t < 0.55; }

} // namespace plate::backend::svg

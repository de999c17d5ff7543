//===- Svg.cpp - The one small SVG writer of every picture ----------------===//
#include "backend/Svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>

namespace plate::backend::svg {

namespace {
/// Appends `text` with the four characters XML gives a meaning escaped;
/// the runs between them go in whole (a well's tooltip is plain text).
void appendEscaped(std::string &out, std::string_view text) {
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    std::string_view entity;
    switch (text[i]) {
    case '<': entity = "&lt;"; break;
    case '>': entity = "&gt;"; break;
    case '&': entity = "&amp;"; break;
    case '"': entity = "&quot;"; break;
    default: continue;
    }
    out.append(text.data() + start, i - start);
    out += entity;
    start = i + 1;
  }
  out.append(text.data() + start, text.size() - start);
}
} // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  appendEscaped(out, text);
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

namespace {

// A picture is thousands of elements (the wells-over-the-run map of 96
// wells draws about 4,000), and formatting each through a fmt format string
// was most of the pictures' cost. The appenders below write the same bytes:
// std::to_chars in fixed notation gives the correctly rounded digits that
// fmt's `{:.1f}` gives (test/unit/backend/SvgTest.cpp holds them equal on
// ties and signs); values below 1e6 take integer digits, and shortest
// forms (`{}`) that are not tenths stay with fmt.

/// Writes `tenths` / 10 in decimal at `at` (room for 24 characters) and
/// returns the end: a minus sign when `negative`; a whole number keeps its
/// ".0" when `zeroTenth`.
char *writeTenths(char *at, uint64_t tenths, bool negative, bool zeroTenth) {
  if (negative)
    *at++ = '-';
  at = std::to_chars(at, at + 21, tenths / 10).ptr;
  if (zeroTenth || tenths % 10) {
    *at++ = '.';
    *at++ = static_cast<char>('0' + tenths % 10);
  }
  return at;
}

/// writeTenths, appended to `out`.
void appendTenths(std::string &out, uint64_t tenths, bool negative, bool zeroTenth) {
  char buffer[32];
  out.append(buffer, writeTenths(buffer, tenths, negative, zeroTenth));
}

/// `{:.1f}` of a coordinate-sized value (|value| < 1e6) whose tenths do not
/// lie within 1e-6 of a tie, written at `at` as integer digits (the end is
/// returned); null for any other value. Below 1e6, value * 10 is within
/// 1e-9 of the exact product, so away from a tie it rounds the way the
/// exact binary value does. A negative value keeps its sign even when it
/// rounds to zero, as fmt and to_chars do.
char *writeFixed1Fast(char *at, double value) {
  double magnitude = std::fabs(value);
  if (!(magnitude < 1e6))
    return nullptr;
  double scaled = magnitude * 10;
  double whole = std::floor(scaled);
  double fraction = scaled - whole;
  if (std::fabs(fraction - 0.5) < 1e-6)
    return nullptr;
  return writeTenths(at, static_cast<uint64_t>(whole) + (fraction > 0.5 ? 1 : 0),
                     std::signbit(value), /*zeroTenth=*/true);
}

/// writeFixed1Fast, appended to `out`; false where it gives no digits.
bool appendFixed1Fast(std::string &out, double value) {
  char buffer[32];
  char *end = writeFixed1Fast(buffer, value);
  if (!end)
    return false;
  out.append(buffer, end);
  return true;
}

/// `{:.1f}`.
void appendFixed1(std::string &out, double value) {
  if (appendFixed1Fast(out, value))
    return;
  char buffer[64];
  if (std::isfinite(value)) {
    auto [end, error] =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 1);
    if (error == std::errc()) {
      out.append(buffer, end);
      return;
    }
  }
  fmt::format_to(std::back_inserter(out), "{:.1f}", value);
}

/// `{}` (fmt's shortest form) of a double. Stroke widths and opacities are
/// tenths (0.8, 1.6): a positive value below 1e6 that is the double nearest
/// to k / 10 is written as k / 10 (an integer when k is a multiple of 10),
/// which is its shortest form; any other value goes through fmt.
void appendShortest(std::string &out, double value) {
  if (value > 0 && value < 1e6) {
    auto tenths = static_cast<uint64_t>(std::llround(value * 10));
    if (static_cast<double>(tenths) / 10 == value) {
      appendTenths(out, tenths, /*negative=*/false, /*zeroTenth=*/false);
      return;
    }
  }
  fmt::format_to(std::back_inserter(out), "{}", value);
}

/// ` NAME="VALUE"`, VALUE as `writeValue` appends it.
template <typename WriteValue>
void appendAttributeWith(std::string &out, std::string_view name, WriteValue writeValue) {
  out += ' ';
  out += name;
  out += "=\"";
  writeValue(out);
  out += '"';
}

/// ` NAME="VALUE"` with VALUE as `{:.1f}`. A picture has thousands of
/// these: the common case is put together on the stack and appended once.
void appendAttribute(std::string &out, std::string_view name, double value) {
  char buffer[64];
  if (name.size() <= 24) {
    char *at = buffer;
    *at++ = ' ';
    at = std::copy(name.begin(), name.end(), at);
    *at++ = '=';
    *at++ = '"';
    if ((at = writeFixed1Fast(at, value))) {
      *at++ = '"';
      out.append(buffer, at);
      return;
    }
  }
  appendAttributeWith(out, name, [value](std::string &to) { appendFixed1(to, value); });
}

/// ` NAME="VALUE"` with VALUE as `{}`.
void appendShortestAttribute(std::string &out, std::string_view name, double value) {
  appendAttributeWith(out, name, [value](std::string &to) { appendShortest(to, value); });
}

/// ` NAME="TEXT"`, TEXT as given.
void appendAttribute(std::string &out, std::string_view name, std::string_view text) {
  appendAttributeWith(out, name, [text](std::string &to) { to += text; });
}

/// The x, y, width and height of a rectangle; a negative size is empty.
void appendBox(std::string &out, double x, double y, double w, double h) {
  appendAttribute(out, "x", x);
  appendAttribute(out, "y", y);
  appendAttribute(out, "width", std::max(0.0, w));
  appendAttribute(out, "height", std::max(0.0, h));
}

} // namespace

void Canvas::open(std::string_view element, const Paint &paint) {
  out_ += '<';
  out_ += element;
  if (paint.fill != "black")
    appendAttribute(out_, "fill", paint.fill);
  if (paint.stroke != "none") {
    appendAttribute(out_, "stroke", paint.stroke);
    if (paint.strokeWidth != 1)
      appendShortestAttribute(out_, "stroke-width", paint.strokeWidth);
    if (!paint.dash.empty())
      appendAttribute(out_, "stroke-dasharray", paint.dash);
  }
  if (paint.opacity != 1)
    appendShortestAttribute(out_, "opacity", paint.opacity);
}

void Canvas::close(std::string_view element, const Paint &paint) {
  if (paint.tooltip.empty()) {
    out_ += "/>\n";
    return;
  }
  out_ += "><title>";
  appendEscaped(out_, paint.tooltip);
  out_ += "</title></";
  out_ += element;
  out_ += ">\n";
}

void Canvas::line(double x1, double y1, double x2, double y2, const Paint &paint) {
  open("line", paint);
  appendAttribute(out_, "x1", x1);
  appendAttribute(out_, "y1", y1);
  appendAttribute(out_, "x2", x2);
  appendAttribute(out_, "y2", y2);
  close("line", paint);
}

void Canvas::rect(double x, double y, double w, double h, const Paint &paint) {
  open("rect", paint);
  appendBox(out_, x, y, w, h);
  close("rect", paint);
}

void Canvas::roundedRect(double x, double y, double w, double h, double radius,
                         const Paint &paint) {
  open("rect", paint);
  appendBox(out_, x, y, w, h);
  appendAttribute(out_, "rx", radius);
  close("rect", paint);
}

void Canvas::circle(double cx, double cy, double r, const Paint &paint) {
  open("circle", paint);
  appendAttribute(out_, "cx", cx);
  appendAttribute(out_, "cy", cy);
  appendAttribute(out_, "r", r);
  close("circle", paint);
}

void Canvas::polyline(const std::vector<std::pair<double, double>> &points, const Paint &paint) {
  open("polyline", paint);
  out_ += " points=\"";
  for (size_t i = 0; i < points.size(); ++i) {
    if (i)
      out_ += ' ';
    appendFixed1(out_, points[i].first);
    out_ += ',';
    appendFixed1(out_, points[i].second);
  }
  out_ += "\"";
  close("polyline", paint);
}

void Canvas::path(std::string_view data, const Paint &paint) {
  open("path", paint);
  appendAttribute(out_, "d", data);
  close("path", paint);
}

void Canvas::text(double x, double y, std::string_view content, const TextStyle &style) {
  out_ += "<text";
  appendAttribute(out_, "x", x);
  appendAttribute(out_, "y", y);
  if (style.anchor != Anchor::Start)
    appendAttribute(out_, "text-anchor", anchorName(style.anchor));
  if (style.size != 12)
    fmt::format_to(std::back_inserter(out_), " font-size=\"{}\"", style.size);
  if (style.fill != "black")
    appendAttribute(out_, "fill", style.fill);
  if (style.bold)
    out_ += " font-weight=\"bold\"";
  if (style.rotate != 0)
    fmt::format_to(std::back_inserter(out_), " transform=\"rotate({} {:.1f} {:.1f})\"",
                   style.rotate, x, y);
  out_ += '>';
  appendEscaped(out_, content);
  out_ += "</text>\n";
}

void Canvas::simulatedLabel(double y) {
  text(width_ / 2, y,
       "SIMULATED values (plate run simulator, docs/simulator.md), not measured",
       {Anchor::Middle, 12, "#d62728", true});
}

void Canvas::beginClip(double x, double y, double w, double h) {
  std::string id = std::to_string(clips_++);
  out_ += "<clipPath id=\"c";
  out_ += id;
  out_ += "\"><rect";
  appendBox(out_, x, y, w, h);
  out_ += "/></clipPath><g clip-path=\"url(#c";
  out_ += id;
  out_ += ")\">\n";
}

void Canvas::beginClipCircle(double cx, double cy, double r) {
  std::string id = std::to_string(clips_++);
  out_ += "<clipPath id=\"c";
  out_ += id;
  out_ += "\"><circle";
  appendAttribute(out_, "cx", cx);
  appendAttribute(out_, "cy", cy);
  appendAttribute(out_, "r", r);
  out_ += "/></clipPath><g clip-path=\"url(#c";
  out_ += id;
  out_ += ")\">\n";
}

void Canvas::endGroup() { out_ += "</g>\n"; }

std::string Canvas::finish() {
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      width_, height_);
  constexpr std::string_view kEnd = "</svg>\n";
  // One buffer of the final size: the body of a plate's contents maps is
  // about 150 kB, copied twice more by growing.
  svg.reserve(svg.size() + out_.size() + kEnd.size());
  svg += out_;
  svg += kEnd;
  return svg;
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

//===- SvgTest.cpp - The SVG writer every picture shares ------------------===//
#include "backend/Svg.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <random>
#include <vector>

using namespace plate::backend;

TEST(Svg, EscapesTextAndTooltips) {
  EXPECT_EQ(svg::escape("S1 <5 & \"x\">"), "S1 &lt;5 &amp; &quot;x&quot;&gt;");
  svg::Canvas canvas(100, 50, "a < b");
  canvas.circle(10, 10, 5, {"red", "none", 1, {}, 1, "A1: 10 µL B0 & dye"});
  std::string out = canvas.finish();
  EXPECT_NE(out.find(">a &lt; b</text>"), std::string::npos) << out;
  EXPECT_NE(out.find("<title>A1: 10 µL B0 &amp; dye</title></circle>"), std::string::npos) << out;
}

TEST(Svg, HeightSetLateIsTheDocumentsHeight) {
  svg::Canvas canvas(200, 10, "");
  canvas.text(5, 80, "a line that wrapped");
  canvas.setHeight(90);
  std::string out = canvas.finish();
  EXPECT_EQ(out.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"90\"", 0),
            0u)
      << out;
  EXPECT_EQ(out.substr(out.size() - 7), "</svg>\n");
}

TEST(Svg, ClipGroupsClose) {
  svg::Canvas canvas(50, 50, "");
  canvas.beginClipCircle(25, 25, 10);
  canvas.rect(15, 25, 20, 10, {"blue"});
  canvas.endGroup();
  canvas.beginClipCircle(25, 25, 5);
  canvas.endGroup();
  std::string out = canvas.finish();
  EXPECT_NE(out.find("<clipPath id=\"c0\">"), std::string::npos);
  EXPECT_NE(out.find("<clipPath id=\"c1\">"), std::string::npos);
  size_t opened = 0, closed = 0;
  for (size_t at = out.find("<g "); at != std::string::npos; at = out.find("<g ", at + 1))
    ++opened;
  for (size_t at = out.find("</g>"); at != std::string::npos; at = out.find("</g>", at + 1))
    ++closed;
  EXPECT_EQ(opened, 2u);
  EXPECT_EQ(closed, 2u);
}

TEST(Svg, ScaleRunsFromViridisDarkToYellow) {
  EXPECT_EQ(svg::scaleColour(0), "#440154");
  EXPECT_EQ(svg::scaleColour(1), "#fde725");
  EXPECT_EQ(svg::scaleColour(-3), "#440154");
  EXPECT_EQ(svg::scaleColour(7), "#fde725");
  EXPECT_EQ(svg::scaleColour(std::nan("")), "#440154");
  EXPECT_TRUE(svg::darkOnScale(0.1));
  EXPECT_FALSE(svg::darkOnScale(0.9));
}

// Coordinates are written without fmt's format strings (Svg.cpp); they must
// be the bytes `{:.1f}` gives: ties rounded on the exact binary value,
// negative values that round to zero keep their sign, huge values in full.
TEST(Svg, CoordinatesAreFmtsOneDecimal) {
  const double values[] = {0.25,  0.35,  0.05,   -0.04,  -0.0,   1e-300, 2.5e-1,
                           12.45, 99.95, -12.35, 1e20,   1e300,  -1e300, 123456789.05};
  for (double value : values) {
    svg::Canvas canvas(10, 10, "");
    canvas.circle(value, value, value, {"red"});
    std::string out = canvas.finish();
    std::string want = fmt::format("<circle fill=\"red\" cx=\"{0:.1f}\" cy=\"{0:.1f}\" "
                                   "r=\"{0:.1f}\"/>\n",
                                   value);
    EXPECT_NE(out.find(want), std::string::npos) << value << "\n" << out;
  }
}

// Coordinates below 1e6 take a fast path of integer digits (Svg.cpp); it
// must give fmt's bytes on every value, near ties and negative zeros too.
TEST(Svg, FastCoordinatesAreFmtsOneDecimal) {
  std::mt19937_64 random(20261203);
  std::uniform_real_distribution<double> anywhere(-2e6, 2e6), coordinate(-50, 1200);
  std::vector<double> values;
  for (int i = 0; i < 20000; ++i) {
    values.push_back(anywhere(random));
    values.push_back(coordinate(random));
    // Near and on the ties of the second decimal place: k * 0.05, one ulp
    // either side, and the values a layout computes (pitch 9, offsets).
    double tie = std::round(coordinate(random) * 20) / 20;
    values.push_back(tie);
    values.push_back(std::nextafter(tie, 1e9));
    values.push_back(std::nextafter(tie, -1e9));
    values.push_back(-tie);
    values.push_back((i % 97) * 9.0 / 7.0 + (i % 13) * 0.05);
  }
  for (double value : {0.0, -0.0, 0.04999999999999999, -0.04999999999999999, 0.05, -0.05, 0.95,
                       999999.95, -999999.95, 999999.94999, 1e6, -1e6, 0.25, 0.75, 2.25})
    values.push_back(value);
  size_t wrong = 0;
  for (double value : values) {
    svg::Canvas canvas(10, 10, "");
    canvas.polyline({{value, value}}, {"none", "red"});
    std::string want = fmt::format("points=\"{0:.1f},{0:.1f}\"", value);
    if (canvas.finish().find(want) == std::string::npos && ++wrong <= 5)
      ADD_FAILURE() << fmt::format("{:.17g} is not written as {}", value, want);
  }
  EXPECT_EQ(wrong, 0u) << "of " << values.size() << " values";
}

// Stroke widths and opacities are written as fmt's shortest form `{}`;
// tenths take a fast path (Svg.cpp) that must give the same bytes.
TEST(Svg, StrokeWidthsAndOpacitiesAreFmtsShortestForm) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> width(0, 20);
  std::vector<double> values = {0.1, 0.2, 0.3, 0.8, 1.2, 1.5, 1.6, 2, 10, 0.05, 0.15,
                                0.30000000000000004, 1e-7, 999999.9, 1e6, 1e17, -0.5, 0};
  for (int i = 0; i < 5000; ++i) {
    double w = width(random);
    values.push_back(w);
    values.push_back(std::round(w * 10) / 10);
    values.push_back(std::nextafter(std::round(w * 10) / 10, 100.0));
  }
  size_t wrong = 0;
  for (double value : values) {
    svg::Canvas canvas(10, 10, "");
    svg::Paint paint{"none", "red", value};
    paint.opacity = value;
    canvas.line(0, 0, 1, 1, paint);
    std::string want = fmt::format("stroke-width=\"{0}\" opacity=\"{0}\"", value);
    if (value == 1)
      continue; // the default is left out
    if (canvas.finish().find(want) == std::string::npos && ++wrong <= 5)
      ADD_FAILURE() << fmt::format("{:.17g} is not written as {}", value, want);
  }
  EXPECT_EQ(wrong, 0u) << "of " << values.size() << " values";
}

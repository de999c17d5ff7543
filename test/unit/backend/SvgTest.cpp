//===- SvgTest.cpp - The SVG writer every picture shares ------------------===//
#include "backend/Svg.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>

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

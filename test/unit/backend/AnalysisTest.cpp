//===- AnalysisTest.cpp - Curve fits, reader model, CSVs, emission ---------===//
#include "backend/bioforge1/Analysis.h"
#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/Simulator.h"
#include "test/unit/backend/BackendTestUtil.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

using namespace plate;
using namespace plate::backend;
using plate::test::bioforge;

namespace {
std::string tempFile(const std::string &name, const std::string &text) {
  auto path = std::filesystem::temp_directory_path() / ("plate-backend-" + name);
  std::ofstream(path) << text;
  return path.string();
}
} // namespace

namespace {
/// Where an analysis under test reports, and what it reported.
struct Reported {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  AnalysisSite site{diags, SourceLoc{}, "6"};

  std::string last() const {
    return diags.diagnostics().empty() ? std::string() : diags.diagnostics().back().message;
  }
  bool lastIs(DiagId id) const {
    return !diags.diagnostics().empty() && diags.diagnostics().back().id == id;
  }
};
} // namespace

TEST(CurveFit, LinearRecoversAnExactLine) {
  std::vector<double> x = {0, 5, 10, 15, 20, 25}, y;
  for (double value : x)
    y.push_back(0.05 + 0.07 * value);
  Reported error;
  auto fit = fitLinear(x, y, error.site);
  ASSERT_TRUE(fit) << error.last();
  EXPECT_NEAR(fit->params[0], 0.05, 1e-12);
  EXPECT_NEAR(fit->params[1], 0.07, 1e-12);
  EXPECT_NEAR(fit->rSquared, 1, 1e-12);
  EXPECT_NEAR(*fit->inverse(0.05 + 0.07 * 12.5), 12.5, 1e-9);
}

TEST(CurveFit, LinearNeedsTwoLevels) {
  Reported error;
  EXPECT_FALSE(fitLinear({5, 5}, {1, 1.1}, error.site));
  EXPECT_TRUE(error.lastIs(DiagId::LinearFitTooFewLevels)) << error.last();
}

TEST(CurveFit, FourPLRecoversParametersFromNoisySyntheticData) {
  const double a = 0.08, b = 1.4, c = 60, d = 2.4;
  std::mt19937_64 random(7);
  std::normal_distribution<double> noise(0, 0.003);
  std::vector<double> x, y;
  for (double conc : {1.0, 3.0, 9.0, 27.0, 81.0, 243.0, 729.0})
    for (int replicate = 0; replicate < 2; ++replicate) {
      x.push_back(conc);
      y.push_back(d + (a - d) / (1 + std::pow(conc / c, b)) + noise(random));
    }
  Reported error;
  auto fit = fit4PL(x, y, error.site);
  ASSERT_TRUE(fit) << error.last();
  EXPECT_NEAR(fit->params[0], a, 0.02);
  EXPECT_NEAR(fit->params[1], b, 0.05);
  EXPECT_NEAR(fit->params[2], c, 2.0);
  EXPECT_NEAR(fit->params[3], d, 0.03);
  EXPECT_GT(fit->rSquared, 0.999);
  EXPECT_NEAR(*fit->inverse(fit->eval(40)), 40, 1e-6);
  EXPECT_FALSE(fit->inverse(d + 1)); // beyond the upper asymptote
}

TEST(CurveFit, FourPLNeedsFourLevels) {
  Reported error;
  EXPECT_FALSE(fit4PL({1, 2, 3}, {0.1, 0.2, 0.3}, error.site));
  EXPECT_TRUE(error.lastIs(DiagId::FourPLTooFewLevels)) << error.last();
}

namespace {
/// A Bradford-like layout: blank A1..A3, S1..S5 in rows B..F, samples
/// FBS1..FBS2 in A4..B6 at 1:100.
std::vector<LayoutLiquid> bradfordLayout() {
  std::vector<LayoutLiquid> layout;
  auto row = [](uint8_t r, uint8_t c0) {
    return std::vector<Well>{{r, c0}, {r, uint8_t(c0 + 1)}, {r, uint8_t(c0 + 2)}};
  };
  layout.push_back({"B0", ir::LiquidRole::Blank, row(1, 1), {}, "", {}, ""});
  double concs[] = {5, 10, 15, 20, 25};
  for (int i = 0; i < 5; ++i)
    layout.push_back({fmt::format("S{}", i + 1), ir::LiquidRole::Calibrant,
                      row(uint8_t(2 + i), 1), concs[i], "ug/mL", {}, ""});
  layout.push_back({"FBS1", ir::LiquidRole::Sample, row(1, 4), {}, "", 100, ""});
  layout.push_back({"FBS2", ir::LiquidRole::Sample, row(2, 4), {}, "", 100, ""});
  return layout;
}

/// The Bradford-like layout with 10 µL of its liquid in every layout well
/// before command 1, and the dye in reservoir (1,1).
RunSetup filledBradfordSetup() {
  RunSetup setup;
  setup.layout = bradfordLayout();
  for (const LayoutLiquid &liquid : setup.layout)
    for (const Well &well : liquid.wells)
      setup.manualFills.push_back(ManualFill::fill(1, well, liquid.name, 10));
  setup.reservoir.push_back({1, 1, "bradford", 20});
  return setup;
}
} // namespace

TEST(Analysis, BackCalculatesSamplesTimesDilutionAndFlagsOutOfRange) {
  std::vector<LayoutLiquid> layout = bradfordLayout();
  PlateRead read;
  read.seq = 9;
  read.wavelengthNm = 595;
  auto od = [](double conc) { return 0.05 + 0.06 * conc; };
  for (const LayoutLiquid &liquid : layout)
    for (const Well &well : liquid.wells)
      read.values[well] = liquid.role == ir::LiquidRole::Blank ? 0.05
                          : liquid.conc                      ? od(*liquid.conc)
                          : liquid.name == "FBS1"            ? od(12)
                                                             : od(40);
  AnalysisStep step;
  step.subtractBlank = true;
  Reported error;
  auto result = analyzeStandardCurve(step, read, layout, error.site);
  ASSERT_TRUE(result) << error.last();
  EXPECT_NEAR(*result->blankMean, 0.05, 1e-12);
  EXPECT_NEAR(result->fit.params[0], 0, 1e-9); // blank subtracted
  EXPECT_NEAR(result->fit.params[1], 0.06, 1e-9);
  ASSERT_EQ(result->samples.size(), 2u);
  EXPECT_NEAR(*result->samples[0].concentration, 1200, 1e-6);
  EXPECT_EQ(result->samples[0].flag, "");
  EXPECT_EQ(result->samples[1].flag, "above range");
  std::string csv = analysisCsv(*result);
  EXPECT_NE(csv.find("FBS1,sample,A4 A5 A6,3,0.7200,,12,100,1200,ug/mL,,measured,,\n"), std::string::npos) << csv;
  std::string svg = curveSvg(*result);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '\n') > 10, true);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(Analysis, SubtractBlankWithoutBlankWellsIsAnError) {
  std::vector<LayoutLiquid> layout = bradfordLayout();
  PlateRead read;
  read.values[Well{2, 1}] = 0.3;
  read.values[Well{3, 1}] = 0.6;
  AnalysisStep step;
  step.subtractBlank = true;
  Reported error;
  EXPECT_FALSE(analyzeStandardCurve(step, read, layout, error.site));
  EXPECT_TRUE(error.lastIs(DiagId::AnalysisNoBlankRead)) << error.last();
}

namespace {
/// A competitive layout: NSB in row A, B0 in row B, S1..S5 in rows C..G
/// (one well each, column 1), a positive and a negative control and one
/// sample at 1:4 in column 2.
std::vector<LayoutLiquid> competitiveLayout() {
  std::vector<LayoutLiquid> layout;
  layout.push_back({"NSB", ir::LiquidRole::Nsb, {{1, 1}}, {}, "", {}, ""});
  layout.push_back({"B0", ir::LiquidRole::Bmax, {{2, 1}}, {}, "", {}, ""});
  double concs[] = {3200, 1067, 356, 119, 40};
  for (int i = 0; i < 5; ++i)
    layout.push_back({fmt::format("S{}", i + 1), ir::LiquidRole::Calibrant,
                      {{uint8_t(3 + i), 1}}, concs[i], "pg/mL", {}, ""});
  layout.push_back({"PC", ir::LiquidRole::Control, {{1, 2}}, {}, "", {}, "", ir::Polarity::Positive});
  layout.push_back({"NC", ir::LiquidRole::Control, {{2, 2}}, {}, "", {}, "", ir::Polarity::Negative});
  layout.push_back({"X1", ir::LiquidRole::Sample, {{3, 2}}, {}, "", 4, ""});
  return layout;
}
} // namespace

TEST(Analysis, CompetitiveFitsPercentBoundWithNsbSubtracted) {
  // OD = NSB + (B0 - NSB) / (1 + x / 350): %B/B0 is exactly 100 / (1 + x / 350).
  const double nsb = 0.1, b0 = 1.6;
  auto od = [&](double x) { return nsb + (b0 - nsb) / (1 + x / 350); };
  std::vector<LayoutLiquid> layout = competitiveLayout();
  PlateRead read;
  read.wavelengthNm = 450;
  for (const LayoutLiquid &liquid : layout) {
    double x = liquid.conc ? *liquid.conc
               : liquid.name == "PC" ? 2000
               : liquid.name == "NC" ? 0
               : liquid.name == "X1" ? 500
                                     : 0;
    read.values[liquid.wells[0]] = liquid.role == ir::LiquidRole::Nsb ? nsb : od(x);
  }
  AnalysisStep step;
  step.kind = ir::AnalysisKind::Competitive;
  step.fourPL = true;
  Reported error;
  auto result = analyzeStandardCurve(step, read, layout, error.site);
  ASSERT_TRUE(result) << error.last();
  EXPECT_NEAR(*result->nsbMean, nsb, 1e-12);
  EXPECT_NEAR(*result->b0Mean, b0, 1e-12);
  ASSERT_EQ(result->calibrants.size(), 5u);
  EXPECT_NEAR(*result->calibrants[2].percentBound, 100 / (1 + 356.0 / 350), 1e-9);
  EXPECT_NEAR(result->fit.params[0], 100, 1e-3); // a: %B/B0 at zero dose
  EXPECT_NEAR(result->fit.params[1], 1, 1e-3);   // b
  EXPECT_NEAR(result->fit.params[2], 350, 0.5);  // c: the IC50
  EXPECT_NEAR(result->fit.params[3], 0, 0.05);   // d
  ASSERT_EQ(result->samples.size(), 3u);
  EXPECT_NEAR(*result->samples[0].concentration, 2000, 2);   // PC, no dilution
  EXPECT_NEAR(*result->samples[2].concentration, 2000, 2);   // X1: 500 in the well x 4
  EXPECT_EQ(result->samples[1].flag, "below range");        // NC: no analyte
  EXPECT_TRUE(result->controlsChecked);
  EXPECT_TRUE(result->invalid.empty());
  std::string csv = analysisCsv(*result);
  EXPECT_NE(csv.find(",true_from,percent_b0\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("NSB,nsb,A1,1,0.1000,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("PC,positive control,A2,1,"), std::string::npos) << csv;
  EXPECT_NE(curveSvg(*result).find("%B/B0"), std::string::npos);

  // The same plate with the controls swapped: the positive control reads
  // more signal than the negative one, which a competitive assay forbids.
  std::swap(read.values[Well{1, 2}], read.values[Well{2, 2}]);
  result = analyzeStandardCurve(step, read, layout, error.site);
  ASSERT_TRUE(result) << error.last();
  ASSERT_EQ(result->invalid.size(), 1u);
  EXPECT_NE(result->invalid[0].find("not below"), std::string::npos);
}

TEST(Analysis, CompetitiveNeedsB0AboveNsb) {
  std::vector<LayoutLiquid> layout = competitiveLayout();
  PlateRead read;
  read.values[Well{1, 1}] = 0.5; // NSB
  read.values[Well{2, 1}] = 0.4; // B0
  read.values[Well{3, 1}] = 0.3;
  AnalysisStep step;
  step.kind = ir::AnalysisKind::Competitive;
  Reported error;
  EXPECT_FALSE(analyzeStandardCurve(step, read, layout, error.site));
  EXPECT_TRUE(error.lastIs(DiagId::AnalysisB0NotAboveNsb)) << error.last();
  EXPECT_NE(error.last().find("the B0 mean 0.4000 is not above the NSB mean 0.5000"),
            std::string::npos)
      << error.last();
  read.values = {};
  read.values[Well{1, 1}] = 0.5;
  read.values[Well{3, 1}] = 0.3; // no B0 well read
  EXPECT_FALSE(analyzeStandardCurve(step, read, layout, error.site));
  EXPECT_TRUE(error.lastIs(DiagId::AnalysisNoB0Read)) << error.last();
}

TEST(Analysis, CutoffIndexAndCallsAtTheGreyZoneEdges) {
  std::vector<LayoutLiquid> layout;
  layout.push_back({"Blk", ir::LiquidRole::Blank, {{1, 1}}, {}, "", {}, ""});
  layout.push_back({"CO", ir::LiquidRole::Cutoff, {{2, 1}, {3, 1}}, {}, "", {}, ""});
  layout.push_back({"PC", ir::LiquidRole::Control, {{4, 1}}, {}, "", {}, "", ir::Polarity::Positive});
  layout.push_back({"NC", ir::LiquidRole::Control, {{5, 1}}, {}, "", {}, "", ir::Polarity::Negative});
  // Indices 0.9 (equivocal: the grey zone starts there), 1.1 (positive:
  // it ends there), 0.89 (negative); the dilution does not enter.
  double index[] = {0.9, 1.1, 0.89};
  for (int i = 0; i < 3; ++i)
    layout.push_back({fmt::format("X{}", i + 1), ir::LiquidRole::Sample, {{uint8_t(1 + i), 2}},
                      {}, "", 101, ""});
  PlateRead read;
  read.values[Well{1, 1}] = 0.05;
  read.values[Well{2, 1}] = 0.45;
  read.values[Well{3, 1}] = 0.55; // cut-off mean 0.5, minus the blank: 0.45
  read.values[Well{4, 1}] = 0.05 + 0.45 * 3;
  read.values[Well{5, 1}] = 0.05 + 0.45 * 1.0; // a negative control in the grey zone
  for (int i = 0; i < 3; ++i)
    read.values[Well{uint8_t(1 + i), 2}] = 0.05 + 0.45 * index[i];
  AnalysisStep step;
  step.kind = ir::AnalysisKind::Cutoff;
  step.subtractBlank = true;
  Reported error;
  auto result = analyzeStandardCurve(step, read, layout, error.site);
  ASSERT_TRUE(result) << error.last();
  EXPECT_NEAR(*result->cutoffMean, 0.45, 1e-12);
  ASSERT_EQ(result->samples.size(), 5u);
  EXPECT_EQ(result->samples[0].call, "positive");
  EXPECT_EQ(result->samples[1].call, "equivocal");
  EXPECT_NEAR(*result->samples[2].index, 0.9, 1e-9);
  EXPECT_EQ(result->samples[2].call, "equivocal");
  EXPECT_EQ(result->samples[3].call, "positive");
  EXPECT_EQ(result->samples[4].call, "negative");
  EXPECT_FALSE(result->samples[2].concentration);
  ASSERT_EQ(result->invalid.size(), 1u);
  EXPECT_NE(result->invalid[0].find("negative control `NC` has index 1.000 (equivocal)"),
            std::string::npos)
      << result->invalid[0];
  EXPECT_NE(analysisSummary(*result).find("controls: INVALID run"), std::string::npos);
  EXPECT_NE(analysisCsv(*result).find("X1,sample,A2,1,0.4050,,,101,,,,measured,,,0.900,equivocal\n"),
            std::string::npos)
      << analysisCsv(*result);
}

namespace {
Command readCommand(std::vector<std::string> wells) {
  Command read = decodeCommand("RDR", "ReadAbsorbance", Json{{"wavelength_nm", 595}, {"wells", wells}});
  read.seq = 1;
  return read;
}
} // namespace

TEST(ReaderModel, GeometricMiddleOfTheCalibrantsAnchorsTheScaleAndSamplesFollowTheTruthMap) {
  const Platform &platform = bioforge();
  RunSetup setup = filledBradfordSetup();
  DeckState state(platform, *platform.findLabware("plate96"), setup);
  state.applyManualFills(1);
  ReaderModel model(setup, {{"FBS1", 1500}}, ReaderModel::Params{});
  EXPECT_NEAR(*model.analyteConc("FBS1"), 15, 1e-12); // 1500 / dilution 100
  // Default truth: the second (last) unknown lands at 75% of the range.
  EXPECT_NEAR(*model.analyteConc("FBS2"), 5 + 20 * 0.75, 1e-12);
  EXPECT_FALSE(model.analyteConc("B0"));
  Command read = readCommand({"A1", "F1", "F2", "A4", "H12"});
  PlateRead values = model.read(read, state);
  // k = 0.4 / sqrt(5 * 25): true OD 0.05 + 0.4 * c / sqrt(125), which the
  // reader reports within 0.2 % below 1 OD.
  auto expected = [](double conc) { return 0.05 + 0.4 * conc / std::sqrt(125.0); };
  EXPECT_NEAR(values.values.at(Well{6, 1}), expected(25), 0.03);  // S5, the top calibrant
  EXPECT_NEAR(values.values.at(Well{1, 1}), 0.05, 0.03);          // blank
  EXPECT_NEAR(values.values.at(Well{1, 4}), expected(15), 0.03);  // FBS1 at 1500 / 100
  EXPECT_NEAR(values.values.at(Well{8, 12}), 0.05, 0.03);         // empty well
  // Same seed, same numbers.
  ReaderModel again(setup, {{"FBS1", 1500}}, ReaderModel::Params{});
  EXPECT_EQ(again.read(read, state).values, values.values);
}

TEST(ReaderModel, TruthsListWhatWasGivenAndWhatWasInvented) {
  RunSetup setup = filledBradfordSetup();
  ReaderModel model(setup, {{"FBS1", 1500}}, ReaderModel::Params{});
  ASSERT_EQ(model.truths().size(), 2u);
  const SampleTruth &given = model.truths()[0], &invented = model.truths()[1];
  EXPECT_EQ(given.name, "FBS1");
  EXPECT_FALSE(given.invented);
  EXPECT_DOUBLE_EQ(given.value, 1500);
  EXPECT_EQ(invented.name, "FBS2");
  EXPECT_TRUE(invented.invented);
  // Undiluted, as --truth gives it and the analysis reports it: 20 x 100.
  EXPECT_NEAR(invented.value, 2000, 1e-9);
  EXPECT_EQ(invented.unit, "ug/mL");
}

TEST(ReaderModel, CalibrantsInAnotherUnitOfTheFamilyAreConverted) {
  RunSetup setup = filledBradfordSetup();
  // S5 written as 25000 ng/mL is the same 25 µg/mL.
  for (LayoutLiquid &liquid : setup.layout)
    if (liquid.name == "S5") {
      liquid.conc = 25000;
      liquid.unit = "ng/mL";
    }
  ReaderModel model(setup, {}, ReaderModel::Params{});
  EXPECT_NEAR(*model.analyteConc("S5"), 25, 1e-9);
  EXPECT_NEAR(*model.analyteConc("FBS2"), 5 + 20 * 0.75, 1e-9);
}

TEST(ReaderResponse, LinearAtLowOdMonotoneAndBoundedByTheCeiling) {
  const double ceiling = ReaderModel::Params{}.ceilingOd;
  EXPECT_DOUBLE_EQ(readerResponse(0, ceiling), 0);
  double previous = readerResponse(0, ceiling);
  for (double od = 0.01; od <= 12; od += 0.01) {
    double measured = readerResponse(od, ceiling);
    EXPECT_GT(measured, previous) << od;          // monotone
    EXPECT_LE(measured, od) << od;                // stray light only lowers it
    EXPECT_LT(measured, ceiling + 1e-3) << od;    // bounded
    if (od <= 1.0) {
      EXPECT_LE(od - measured, 0.002 * od) << od; // within 0.2 % up to 1 OD
    }
    if (od <= 2.0) {
      EXPECT_LE(od - measured, 0.01 * od) << od; // within 1 % up to 2 OD
    }
    previous = measured;
  }
  // Past the linear range it bends: 3 OD reads about 2.88, 6 OD near 3.5.
  EXPECT_GT(3.0 - readerResponse(3.0, ceiling), 0.1);
  EXPECT_NEAR(readerResponse(6.0, ceiling), ceiling, 0.01);
}

TEST(ReaderModel, NarrowCalibrantRangeStaysLinearAndAWideOneBends) {
  // Calibrants c0 * ratio^(i / 6), i = 0..6, 10 µL each, noise off: net
  // ODs against concentration are a line for a 5x range and bend towards
  // the ceiling for a 1000x one.
  const Platform &platform = bioforge();
  auto netOds = [&](double ratio) {
    RunSetup setup;
    setup.layout.push_back({"B0", ir::LiquidRole::Blank, {Well{1, 1}}, {}, "", {}, ""});
    std::vector<std::string> wells{"A1"};
    for (int i = 0; i < 7; ++i) {
      Well well{uint8_t(2 + i / 4), uint8_t(1 + i % 4)};
      setup.layout.push_back({fmt::format("S{}", i + 1), ir::LiquidRole::Calibrant, {well},
                              2 * std::pow(ratio, i / 6.0), "pg/mL", {}, ""});
      wells.push_back(well.name());
    }
    for (const LayoutLiquid &liquid : setup.layout)
      setup.manualFills.push_back(ManualFill::fill(1, liquid.wells[0], liquid.name, 10));
    DeckState state(platform, *platform.findLabware("plate96"), setup);
    state.applyManualFills(1);
    ReaderModel::Params exact;
    exact.sigma = 0;
    ReaderModel model(setup, {}, exact);
    PlateRead read = model.read(readCommand(wells), state);
    std::vector<std::pair<double, double>> points; // concentration, net OD
    for (const LayoutLiquid &liquid : setup.layout)
      if (liquid.conc)
        points.emplace_back(*liquid.conc, read.values.at(liquid.wells[0]) -
                                              read.values.at(Well{1, 1}));
    return points;
  };
  auto narrow = netOds(5);
  double slope = narrow.front().second / narrow.front().first;
  for (auto [conc, od] : narrow)
    EXPECT_NEAR(od, slope * conc, 0.01 * od) << conc;
  auto wide = netOds(1000);
  slope = wide.front().second / wide.front().first;
  for (size_t i = 1; i < wide.size(); ++i)
    EXPECT_GT(wide[i].second, wide[i - 1].second); // still monotone
  EXPECT_NEAR(wide[1].second, slope * wide[1].first, 0.02 * wide[1].second);
  // The top calibrant's true net OD is 0.4 * sqrt(1000) = 12.6; it reads
  // at the ceiling, under a third of the straight line.
  EXPECT_LT(wide.back().second, 3.5);
  EXPECT_GT(wide.back().second, 3.3);
  EXPECT_LT(wide.back().second, slope * wide.back().first / 3);
}

TEST(ReaderModel, NoiseFollowsTheOrderTheReadListsTheWells) {
  // Draws are taken per well in the order the read lists them, whether the
  // list is in well order (the direct path) or not (a repeated well keeps
  // its last value); values always come out in well order, once per well.
  const Platform &platform = bioforge();
  RunSetup setup = filledBradfordSetup();
  DeckState state(platform, *platform.findLabware("plate96"), setup);
  state.applyManualFills(1);
  auto readOf = [&](ReaderModel &model, std::vector<std::string> wells) {
    Command read =
        decodeCommand("RDR", "ReadAbsorbance", Json{{"wavelength_nm", 595}, {"wells", wells}});
    read.seq = 1;
    return model.read(read, state).values;
  };
  ReaderModel::Params exact;
  exact.sigma = 0;
  ReaderModel noiseless(setup, {}, exact);
  WellValues truth = readOf(noiseless, {"A1", "F1"});
  ReaderModel::Params noisy;
  noisy.sigma = 0.05;
  ReaderModel inOrder(setup, {}, noisy), reversed(setup, {}, noisy);
  WellValues first = readOf(inOrder, {"A1", "F1"});     // draws: A1, F1
  WellValues second = readOf(reversed, {"F1", "A1", "F1"}); // draws: F1, A1, F1
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second.begin()->first, (Well{1, 1}));
  // A1 took the second draw in both reads; each value is rounded to 1e-4.
  double secondDraw = first.at(Well{6, 1}) - truth.at(Well{6, 1});
  EXPECT_NEAR(second.at(Well{1, 1}) - truth.at(Well{1, 1}), secondDraw, 2.5e-4);
  EXPECT_GT(std::fabs(first.at(Well{1, 1}) - second.at(Well{1, 1})), 1e-3);
}

TEST(ReaderCsv, WritesAPlateMapAndReadsItBack) {
  PlateRead read;
  read.wavelengthNm = 450;
  read.referenceNm = 650;
  read.values[Well{1, 1}] = 0.1234;
  read.values[Well{8, 12}] = 1.5;
  PlateShape shape;
  std::string csv = plateReadCsv(read, shape);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "450/650nm,1,2,3,4,5,6,7,8,9,10,11,12");
  EXPECT_NE(csv.find("\nA,0.1234,,,,,,,,,,,\n"), std::string::npos);
  EXPECT_NE(csv.find("\nH,,,,,,,,,,,,1.5000\n"), std::string::npos);
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto values = readPlateCsv(tempFile("roundtrip.csv", csv), shape, sources, diags);
  ASSERT_TRUE(values);
  EXPECT_EQ(*values, read.values);
}

TEST(ReaderCsv, ASimulatedReadSaysSoAndReadsBackAsSimulated) {
  PlateRead read;
  read.wavelengthNm = 595;
  read.simulated = true;
  read.values[Well{2, 3}] = 0.25;
  PlateShape shape;
  std::vector<SampleTruth> truths{{"FBS1", 1200, "ug/mL", false}, {"FBS2", 2000, "ug/mL", true}};
  std::string csv = plateReadCsv(read, shape, truths, "truth.json");
  EXPECT_EQ(csv.rfind("# SIMULATED values: computed by the reader model", 0), 0u) << csv;
  // Only the invented one, and no comma that would split a CSV cell.
  std::string second = csv.substr(csv.find('\n') + 1);
  second = second.substr(0, second.find('\n'));
  EXPECT_EQ(second, "# SIMULATED: sample concentrations invented (not in --truth truth.json): "
                    "FBS2 2000 ug/mL");
  SourceManager sources;
  DiagnosticEngine diags(sources);
  bool simulated = false;
  auto values = readPlateCsv(tempFile("simulated.csv", csv), shape, sources, diags, &simulated);
  ASSERT_TRUE(values);
  EXPECT_EQ(*values, read.values);
  EXPECT_TRUE(simulated);
  // A reader's own metadata comment is skipped and declares nothing; a
  // row error still names its line in the file.
  std::string measured = "# exported by the reader\n" + plateReadCsv(PlateRead{}, shape);
  simulated = true;
  EXPECT_TRUE(readPlateCsv(tempFile("measured.csv", measured), shape, sources, diags, &simulated));
  EXPECT_FALSE(simulated);
  std::string broken = measured;
  broken.replace(broken.find("\nC,"), 3, "\nX,");
  EXPECT_FALSE(readPlateCsv(tempFile("broken.csv", broken), shape, sources, diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].loc.line, 5u); // comment, header, A, B, then C
}

TEST(ReaderCsv, WrongShapeNamesFileAndLine) {
  PlateShape shape;
  struct Case {
    std::string text;
    uint32_t line;
    std::string message;
    DiagId id;
  } cases[] = {
      {"x,1,2,3\nA,1,2,3\n", 1, "the header has 3 column(s)", DiagId::ReaderHeaderWidth},
      {"x,1,2,3,4,5,6,7,8,9,10,11,12\nA,,,,,,,,,,,,\n", 2, "1 data row(s); expected",
       DiagId::ReaderRowCount},
      {"x,1,2,3,4,5,6,7,8,9,10,11,12\nA,,,,,,,,,,,,\nC,,,,,,,,,,,,\nC\nD\nE\nF\nG\nH\n", 3,
       "row label `C`; expected `B`", DiagId::ReaderRowLabel},
      {"x,1,2,3,4,5,6,7,8,9,10,11,12\nA,,,,,,,,,,,,\nB,,,,,,,,,,,\nC\nD\nE\nF\nG\nH\n", 3,
       "row B has 11 value cell(s); expected 12", DiagId::ReaderRowWidth},
      {"x,1,2,3,4,5,6,7,8,9,10,11,12\nA,,,,,,,,,,,,\nB,,,,,0.5x,,,,,,,\nC\nD\nE\nF\nG\nH\n", 3,
       "well B5 holds `0.5x`, not a number", DiagId::ReaderCellNotNumber},
  };
  for (const Case &test : cases) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    EXPECT_FALSE(readPlateCsv(tempFile("shape.csv", test.text), shape, sources, diags));
    ASSERT_EQ(diags.diagnostics().size(), 1u);
    EXPECT_EQ(diags.diagnostics()[0].id, test.id) << diags.diagnostics()[0].message;
    EXPECT_EQ(diags.diagnostics()[0].loc.line, test.line) << diags.diagnostics()[0].message;
    EXPECT_NE(diags.diagnostics()[0].message.find(test.message), std::string::npos)
        << diags.diagnostics()[0].message;
  }
}

TEST(Emission, LowersDeviceOpsToTheCommandsOfSection3) {
  const Platform &platform = bioforge();
  ir::Module module;
  module.lowered = true;
  auto add = [&](ir::OpPayload payload, uint32_t line, bool reuse = false) {
    ir::Op op;
    op.payload = std::move(payload);
    op.loc = SourceLoc{1, line, 1, 1};
    op.step = "2";
    op.tipsReuse = reuse;
    module.ops.push_back(std::move(op));
  };
  ir::ChannelMask all{0b1111, 4};
  add(ir::PickTipsOp{1, 1, all}, 17);
  add(ir::DevAspirateOp{{"5", 1, 2}, all, Quantity::microliters(100), 0}, 17);
  add(ir::DevDispenseOp{{"8", 0, 0}, all, Quantity{0.0375, Unit::MilliLiter}}, 17, true);
  add(ir::NoteOp{"host only"}, 18);
  add(ir::MovePlateOp{"PT", "1", "A1"}, 19);
  add(ir::DevWaitOp{Quantity{10, Unit::Minute}}, 20);
  std::ostringstream out;
  emitJsonl(module, platform, out);
  EXPECT_EQ(out.str(),
            R"({"seq":1,"module":"LH","op":"PickTips","args":{"row":1,"col":1,"mask":"1111"},"step":"2","line":17})"
            "\n"
            R"({"seq":2,"module":"LH","op":"Aspirate","args":{"slot":5,"row":1,"col":2,"mask":"1111","volume_ul":100},"step":"2","line":17})"
            "\n"
            R"({"seq":3,"module":"LH","op":"Dispense","args":{"slot":8,"mask":"1111","volume_ul":37.5},"step":"2","line":17,"tips":"reuse"})"
            "\n"
            R"({"seq":4,"module":"PT","op":"MovePlate","args":{"from":1,"to":"A1"},"step":"2","line":19})"
            "\n"
            R"({"seq":5,"module":"SYS","op":"Wait","args":{"seconds":600},"step":"2","line":20})"
            "\n");
  SourceManager sources;
  module.fileId = sources.addBuffer("x.plate", std::string(16, '\n') + "2. dispense 100 uL of buffer to all\n");
  std::ostringstream listing;
  emitListing(module, platform, sources, listing);
  EXPECT_NE(listing.str().find("step 2 (line 17): dispense 100 uL of buffer to all\n"),
            std::string::npos) << listing.str();
  EXPECT_NE(listing.str().find("LH.Aspirate slot=5 row=1 col=2 mask=1111 volume_ul=100"),
            std::string::npos);
  EXPECT_NE(listing.str().find("summary: 5 commands, 4 tips, 1 tip rack(s), robot time 10 min 29 s"),
            std::string::npos) << listing.str();
  std::vector<Command> commands = lowerToCommands(module, platform);
  // §5: 4 + (2 + 1) + (2 + 0.375) + 20 + 600.
  EXPECT_DOUBLE_EQ(robotSeconds(commands, platform), 629.375);
  Json plan = loadingPlanJson(module, platform);
  EXPECT_EQ(plan["tips"], 4);
  EXPECT_EQ(plan["tip_racks"], 1);
  EXPECT_EQ(plan["robot_time_s"], 629.375);
}

TEST(RunSetup, PlanJsonRoundTrips) {
  RunSetup setup;
  setup.reservoir.push_back({1, 2, "bradford", 7.1});
  setup.layout = bradfordLayout();
  setup.manualFills.push_back(ManualFill::fill(3, Well{1, 1}, "B0", 10));
  setup.analyses.push_back({12, true, 595, true, "6", 21});
  setup.tips = 12;
  setup.tipRacks = 1;
  setup.robotTimeSeconds = 1234.5;
  Json json = setupToJson(setup);
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto back = setupFromJson(Json::parse(json.dump()), diags, SourceLoc{});
  ASSERT_TRUE(back);
  EXPECT_EQ(diags.errorCount(), 0u);
  EXPECT_EQ(setupToJson(*back).dump(), json.dump());
  EXPECT_EQ(json["reservoir"][0].dump(), R"({"row":1,"col":2,"liquid":"bradford","volume_ml":7.1})");
}

TEST(ReaderModel, RoundHalfAwayIsStdRound) {
  // The reader rounds with roundHalfAway; it must agree with std::round to
  // the bit, or reads would change.
  std::vector<double> values = {0.0,  -0.0,  0.5,   -0.5,  1.5,     -1.5,   2.5,   0.49999999999999994,
                                -0.49999999999999994, 4503599627370495.5, 1e17, -1e17,
                                0x1p62, -0x1p62, 1e300, std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(), 0.3, -0.3, 17999.5};
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> od(-1, 3);
  for (int i = 0; i < 200000; ++i)
    values.push_back(od(random) * 1e4);
  for (int i = 0; i < 2000; ++i)
    values.push_back(std::nextafter(double(i) + 0.5, (i % 2) ? 1e9 : -1e9) * ((i % 3) ? 1 : -1));
  for (double x : values) {
    double expected = std::round(x), actual = roundHalfAway(x);
    EXPECT_EQ(std::signbit(expected), std::signbit(actual)) << x;
    EXPECT_EQ(expected, actual) << x;
  }
  EXPECT_TRUE(std::isnan(roundHalfAway(std::numeric_limits<double>::quiet_NaN())));
}

//===- ScriptGen.cpp - Synthetic, valid .plate scripts of growing size -----===//
//
// See ScriptGen.h for the resource budget the step pattern respects. The
// generator keeps its own small model of the plate (fill per quarter, the
// volume of the contact group) so that every step it writes is legal in
// the compiler's model too; the lit tests in test/lit/bench compile a few
// sizes to check that the two models agree.
//
//===----------------------------------------------------------------------===//
#include "bench/ScriptGen.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

namespace plate::bench {

namespace {

struct PlateGeometry {
  unsigned rows, cols;
  double capacityUl;
  double manualFillUl;   ///< what the MANUAL step puts in every well
  double nominalDoseUl;  ///< a reagent dispense when the budget allows
  double washUl;
};

PlateGeometry geometryOf(const std::string &plateType) {
  if (plateType == "plate384")
    return {16, 24, 110, 20, 5, 40};
  return {8, 12, 350, 50, 10, 100};
}

char rowLetter(unsigned row) { return static_cast<char>('A' + row - 1); }

std::string fmtVolume(double ul) { return fmt::format("{:g} uL", ul); }

/// Positions in the 20-step cycle that take tips.
constexpr unsigned kCycle = 20;
constexpr unsigned kDispenseAt[] = {0, 10};
constexpr unsigned kContactAt = 13;
constexpr unsigned kReagents = 12;

} // namespace

unsigned plateWells(const std::string &plateType) {
  if (plateType == "plate96")
    return 96;
  if (plateType == "plate384")
    return 384;
  return 0;
}

std::string generateScript(const SyntheticSpec &spec) {
  const PlateGeometry geo = geometryOf(spec.plateType);
  const unsigned quarterRows = geo.rows / 4;

  // Per-quarter budget: every quarter receives every fourth dispense, so
  // the dose is what the headroom allows over that many dispenses.
  unsigned dispenses = 0;
  for (unsigned step = 0; step < spec.steps; ++step)
    for (unsigned at : kDispenseAt)
      dispenses += step % kCycle == at;
  const unsigned perQuarter = (dispenses + 3) / 4;
  const double headroom = geo.capacityUl - geo.manualFillUl - geo.washUl / 4;
  double dose = geo.nominalDoseUl;
  if (perQuarter)
    dose = std::min(dose, std::max(1.0, std::floor(headroom / perQuarter)));

  // The contact group: four wells of the first quarter's first row.
  const std::string contactWells = "A1..A4";
  double contactVolume = geo.manualFillUl;

  std::vector<std::string> lines;
  std::set<unsigned> reagentsUsed;
  bool washUsed = false;
  unsigned dispenseIndex = 0, contactIndex = 0;
  for (unsigned step = 0; step < spec.steps; ++step) {
    const unsigned cycle = step / kCycle;
    std::string text;
    switch (step % kCycle) {
    case 0:
    case 10: {
      unsigned quarter = dispenseIndex % 4;
      unsigned reagent = dispenseIndex % kReagents + 1;
      ++dispenseIndex;
      reagentsUsed.insert(reagent);
      unsigned first = quarter * quarterRows + 1, last = first + quarterRows - 1;
      text = fmt::format("dispense {} of r{} to rows {}..{}", fmtVolume(dose), reagent,
                         rowLetter(first), rowLetter(last));
      if (quarter == 0)
        contactVolume += dose;
      break;
    }
    case 1: text = "shake 20 s at 600 rpm"; break;
    case 2: text = "incubate 2 min at RT"; break;
    case 3: text = "read absorbance at 450 nm"; break;
    case 4: text = "wait 10 s"; break;
    case 5: text = fmt::format("note \"cycle {}\"", cycle + 1); break;
    case 6: text = "incubate 5 min at 37 °C"; break;
    case 7: text = "read absorbance at 450 nm reference 620 nm"; break;
    case 8: text = "wait 5 s"; break;
    case 9: text = "shake 10 s at 300 rpm"; break;
    case 11: text = "incubate 1 min at RT shaking 500 rpm"; break;
    case 12: text = "read absorbance at 595 nm"; break;
    case kContactAt: {
      // Mix and aspirate need liquid in the wells; a wash works either way
      // and leaves them empty.
      unsigned kind = contactIndex++ % 3;
      if (contactVolume < 4)
        kind = 2;
      if (kind == 0) {
        double mixUl = std::min(5.0, std::floor(contactVolume / 2));
        text = fmt::format("mix 2 times {} in {}", fmtVolume(mixUl), contactWells);
      } else if (kind == 1) {
        text = fmt::format("aspirate all from {}", contactWells);
        contactVolume = 0;
      } else {
        text = fmt::format("wash 2 times with {} of wash_buffer {}", fmtVolume(geo.washUl),
                           contactWells);
        washUsed = true;
        contactVolume = 0;
      }
      break;
    }
    case 14: text = "wait 5 s"; break;
    case 15: text = "incubate 3 min at 37 °C dark"; break;
    case 16: text = "read absorbance at 405 nm"; break;
    case 17: text = "shake 5 s at 800 rpm"; break;
    case 18: text = "wait 1 min"; break;
    case 19: text = "read absorbance at 490 nm"; break;
    }
    lines.push_back(fmt::format("{}. {}", step + 1, text));
  }

  // Layout: every well holds a layout liquid; names fill replicate pairs.
  std::string out;
  out += fmt::format("# Synthetic benchmark script: {}, {} steps (bench/ScriptGen.cpp).\n",
                     spec.plateType, spec.steps);
  out += fmt::format("<KIT_TITLE>Synthetic {} {}-step protocol</KIT_TITLE>\n", spec.plateType,
                     spec.steps);
  out += "<LAYOUT>\n";
  out += fmt::format("plate {}\n", spec.plateType);
  const char lastRow = rowLetter(geo.rows);
  const unsigned calibrants = geo.rows - 1;
  out += "blank     B0 at A1..A2\n";
  out += fmt::format("calibrant S1..S{} at B1..{}2 conc", calibrants, lastRow);
  for (unsigned i = 0; i < calibrants; ++i)
    out += fmt::format("{} {:g}", i ? "," : "", 1000.0 / (1u << i));
  out += " ng/mL replicates 2 across\n";
  const unsigned sampleCols = geo.cols - 4;
  out += fmt::format("sample    X1..X{} at A3..{}{} replicates 2 across dilution 1:2\n",
                     geo.rows * sampleCols / 2, lastRow, sampleCols + 2);
  out += fmt::format("control   QC1..QC{} at A{}..{}{} replicates 2 across\n", geo.rows,
                     sampleCols + 3, lastRow, geo.cols);
  out += "</LAYOUT>\n<REAGENTS>\n";
  for (unsigned reagent : reagentsUsed)
    out += fmt::format("r{}\n", reagent);
  if (washUsed)
    out += "wash_buffer\n";
  out += "</REAGENTS>\n<MANUAL>\n";
  out += "equilibrate all to RT for 30 min\n";
  out += fmt::format("dispense {} of layout\n", fmtVolume(geo.manualFillUl));
  out += "</MANUAL>\n<INSTRUMENT>\n";
  for (const std::string &line : lines)
    out += line + "\n";
  out += "</INSTRUMENT>\n";
  return out;
}

} // namespace plate::bench

//===- ReaderCsvFuzzer.cpp - libFuzzer target: reader plate-map CSV --------===//
//
// `plate run --reader-data` files. The reader takes a path, so the input
// goes through one scratch file per process. What it accepts round-trips:
// written back as plateReadCsv writes a simulated read, it reads back the
// same wells with the same values to the 4 decimals written, and a second
// trip changes nothing.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "backend/bioforge1/Backend.h"

#include <cmath>
#include <fstream>
#include <unistd.h>

using namespace plate;

namespace {

std::string scratchPath(const char *what) {
  return (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
         "/plate-fuzz-reader-" + what + "-" + std::to_string(getpid()) + ".csv";
}

void writeFile(const std::string &path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::optional<backend::WellValues> readBack(const backend::WellValues &values,
                                            PlateShape shape, const std::string &path) {
  backend::PlateRead read;
  read.wavelengthNm = 595;
  read.values = values;
  writeFile(path, backend::plateReadCsv(read, shape));
  SourceManager sources;
  DiagnosticEngine diags(sources);
  return backend::readPlateCsv(path, shape, sources, diags);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string input = scratchPath("input"), trip = scratchPath("trip");
  writeFile(input, std::string_view(reinterpret_cast<const char *>(data), size));
  for (PlateShape shape : {PlateShape{8, 12}, PlateShape{16, 24}}) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    auto values = backend::readPlateCsv(input, shape, sources, diags);
    if (!values)
      continue;
    auto once = readBack(*values, shape, trip);
    if (!once)
      plate::fuzz::fuzzFailure("an accepted plate map, written back, is rejected");
    if (once->size() != values->size())
      plate::fuzz::fuzzFailure("the written plate map has other wells");
    for (auto a = values->begin(), b = once->begin(); a != values->end(); ++a, ++b)
      if (a->first != b->first || !(std::fabs(a->second - b->second) <=
                                    0.5e-4 + 1e-15 * std::fabs(a->second)))
        plate::fuzz::fuzzFailure("the written plate map reads back another value");
    auto twice = readBack(*once, shape, trip);
    if (!twice || !(*twice == *once))
      plate::fuzz::fuzzFailure("a second round trip changed the plate map");
  }
  return 0;
}

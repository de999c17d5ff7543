//===- ReaderCsvFuzzer.cpp - libFuzzer target: reader plate-map CSV --------===//
//
// `plate run --reader-data` files. The reader takes a path, so the input
// goes through one scratch file per process; the round trip through
// plateReadCsv of what was accepted must read back the same values.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "backend/Backend.h"

#include <fstream>
#include <unistd.h>

using namespace plate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string path =
      (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
      "/plate-fuzz-reader-" + std::to_string(getpid()) + ".csv";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
  }
  for (PlateShape shape : {PlateShape{8, 12}, PlateShape{16, 24}}) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    (void)backend::readPlateCsv(path, shape, sources, diags);
  }
  return 0;
}

//===- VerdictFuzzer.cpp - libFuzzer target: the LLM verdict parser --------===//
//
// LLM output is untrusted: whatever the validator answers, parseVerdict
// returns a verdict or a reason, and a verdict it returns is well formed.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "agent/ValidationAgent.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  auto verdict = plate::agent::parseVerdict(
      std::string_view(reinterpret_cast<const char *>(data), size), error);
  if (!verdict && error.empty())
    plate::fuzz::fuzzFailure("a rejected verdict must say why");
  return 0;
}

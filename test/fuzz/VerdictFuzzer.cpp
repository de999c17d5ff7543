//===- VerdictFuzzer.cpp - libFuzzer target: the LLM verdict parser --------===//
//
// LLM output is untrusted: whatever the validator answers, parseVerdict
// returns a verdict or a reason. A verdict it returns round-trips: printed
// in the wire shape (compact, indented as models answer, and inside a
// ```json fence) it reads back equal.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "agent/ValidationAgent.h"

#include <tuple>

using plate::agent::Finding;
using plate::agent::Verdict;

namespace {

bool sameVerdict(const Verdict &a, const Verdict &b) {
  auto fields = [](const Finding &f) {
    return std::tie(f.type, f.location, f.message, f.guidance, f.source);
  };
  if (a.pass != b.pass || a.findings.size() != b.findings.size())
    return false;
  for (size_t i = 0; i < a.findings.size(); ++i)
    if (fields(a.findings[i]) != fields(b.findings[i]))
      return false;
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  auto verdict = plate::agent::parseVerdict(
      std::string_view(reinterpret_cast<const char *>(data), size), error);
  if (!verdict) {
    if (error.empty())
      plate::fuzz::fuzzFailure("a rejected verdict must say why");
    return 0;
  }
  nlohmann::json wire = plate::agent::verdictToJson(*verdict);
  for (const std::string &printed :
       {wire.dump(), wire.dump(2), "```json\n" + wire.dump(2) + "\n```"}) {
    std::string again;
    auto reread = plate::agent::parseVerdict(printed, again);
    if (!reread)
      plate::fuzz::fuzzFailure("a printed verdict is rejected (" + again + "): " + printed);
    if (!sameVerdict(*verdict, *reread))
      plate::fuzz::fuzzFailure("a printed verdict reads back different: " + printed);
  }
  return 0;
}

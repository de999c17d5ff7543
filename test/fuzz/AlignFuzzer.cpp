//===- AlignFuzzer.cpp - libFuzzer target: the step alignment -------------===//
//
// A protocol text is untrusted input: whatever its bytes, the reader
// returns procedure units or reports why not (E960-E962), and the
// alignment with a fixed, valid script (docs/examples/il6_elisa.plate)
// accounts for every step of both sides exactly once and only names steps
// that exist. A crash, a hang (the reader is linear in the text) or a
// broken invariant keeps the input.
//
//===----------------------------------------------------------------------===//
#include "CompileAndValidate.h"
#include "FuzzCommon.h"
#include "agent/ScriptActions.h"
#include "agent/StepAlignment.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace {

struct Fixture {
  plate::SourceManager sources;
  std::optional<plate::ir::Module> checked;
  std::optional<plate::Platform> platform;
};

const Fixture &fixture() {
  static const Fixture fixed = [] {
    Fixture f;
    std::string path = plate::fuzz::stdlibDir() + "/../docs/examples/il6_elisa.plate";
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    plate::fuzz::Compiled compiled =
        plate::fuzz::compileAndValidate("il6_elisa.plate", text.str(), plate::fuzz::stdlibDir());
    if (!compiled.checked || !compiled.program)
      plate::fuzz::fuzzFailure("the fixed script " + path + " does not compile");
    f.sources.addBuffer("il6_elisa.plate", text.str());
    f.checked = compiled.checked;
    f.platform = *compiled.program->platform;
    return f;
  }();
  return fixed;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Fixture &f = fixture();
  plate::SourceManager sources;
  plate::DiagnosticEngine diags(sources);
  uint32_t id = sources.addBuffer("protocol.txt",
                                  std::string(reinterpret_cast<const char *>(data), size));
  std::optional<plate::agent::StepAlignment> alignment = plate::agent::alignProtocol(
      sources, id, diags, *f.checked, f.sources, *f.platform);
  if (!alignment) {
    if (!diags.hasErrors())
      plate::fuzz::fuzzFailure("the alignment was skipped without a diagnostic");
    return 0;
  }
  std::vector<int> textSeen(alignment->text.size(), 0), scriptSeen(alignment->script.size(), 0);
  for (const plate::agent::AlignmentRow &row : alignment->rows) {
    if (row.text >= static_cast<int>(textSeen.size()) ||
        row.script >= static_cast<int>(scriptSeen.size()) || (row.text < 0 && row.script < 0))
      plate::fuzz::fuzzFailure("a row of the alignment names no step or one that does not exist");
    if (row.text >= 0)
      ++textSeen[static_cast<size_t>(row.text)];
    if (row.script >= 0)
      ++scriptSeen[static_cast<size_t>(row.script)];
  }
  for (int seen : textSeen)
    if (seen != 1)
      plate::fuzz::fuzzFailure("a text step is not in exactly one row of the alignment");
  for (int seen : scriptSeen)
    if (seen != 1)
      plate::fuzz::fuzzFailure("a script step is not in exactly one row of the alignment");
  for (const plate::agent::AlignmentFinding &finding : alignment->findings)
    if (finding.text >= static_cast<int>(alignment->text.size()) ||
        finding.script >= static_cast<int>(alignment->script.size()) ||
        (finding.text < 0 && finding.script < 0) || finding.message.empty())
      plate::fuzz::fuzzFailure("a finding names no step, a step that does not exist, or says nothing");
  // The printers must handle whatever was read.
  (void)plate::agent::renderAlignment(*alignment);
  (void)plate::agent::alignmentToJson(*alignment).dump();
  return 0;
}

//===- Keywords.cpp - Keywords retyped from IDENT ---------------------------===//
//
// See Keywords.h. test/unit/parse/KeywordsTest.cpp holds the table and
// the grammar together: every keyword of the grammar's `tokens` block has a
// spelling and its name, and every spelling lexes as one IDENT.
//
//===----------------------------------------------------------------------===//
#include "frontend/Keywords.h"
#include "frontend/KeywordTypes.h"

#include "PlateLexer.h"

#include <algorithm>
#include <array>

namespace plate {
namespace {

using grammar::PlateLexer;

struct KeywordType {
  std::string_view spelling;
  size_t type;
  std::string_view name; ///< the token's name in the grammar
};

const std::vector<KeywordType> &keywordTypes() {
  static const std::vector<KeywordType> table = {
    {"dispense", PlateLexer::DISPENSE, "DISPENSE"},
    {"aspirate", PlateLexer::ASPIRATE, "ASPIRATE"},
    {"remove", PlateLexer::REMOVE, "REMOVE"},
    {"wash", PlateLexer::WASH, "WASH"},
    {"incubate", PlateLexer::INCUBATE, "INCUBATE"},
    {"shake", PlateLexer::SHAKE, "SHAKE"},
    {"mix", PlateLexer::MIX, "MIX"},
    {"transfer", PlateLexer::TRANSFER, "TRANSFER"},
    {"magnet", PlateLexer::MAGNET, "MAGNET"},
    {"read", PlateLexer::READ, "READ"},
    {"analyze", PlateLexer::ANALYZE, "ANALYZE"},
    {"wait", PlateLexer::WAIT, "WAIT"},
    {"pause", PlateLexer::PAUSE, "PAUSE"},
    {"note", PlateLexer::NOTE, "NOTE"},
    {"repeat", PlateLexer::REPEAT, "REPEAT"},
    {"proc", PlateLexer::PROC, "PROC"},
    {"use", PlateLexer::USE, "USE"},
    {"prepare", PlateLexer::PREPARE, "PREPARE"},
    {"equilibrate", PlateLexer::EQUILIBRATE, "EQUILIBRATE"},
    {"serial_dilution", PlateLexer::SERIAL_DILUTION, "SERIAL_DILUTION"},
    {"reagents", PlateLexer::REAGENTS_WORD, "REAGENTS_WORD"},
    {"step", PlateLexer::STEP, "STEP"},
    {"plate", PlateLexer::PLATE, "PLATE"},
    {"blank", PlateLexer::BLANK, "BLANK"},
    {"calibrant", PlateLexer::CALIBRANT, "CALIBRANT"},
    {"standard", PlateLexer::STANDARD, "STANDARD"},
    {"sample", PlateLexer::SAMPLE, "SAMPLE"},
    {"control", PlateLexer::CONTROL, "CONTROL"},
    {"nsb", PlateLexer::NSB, "NSB"},
    {"bmax", PlateLexer::BMAX, "BMAX"},
    {"cutoff", PlateLexer::CUTOFF, "CUTOFF"},
    {"cut_off", PlateLexer::CUTOFF, "CUTOFF"},
    {"positive", PlateLexer::POSITIVE, "POSITIVE"},
    {"negative", PlateLexer::NEGATIVE, "NEGATIVE"},
    {"conc", PlateLexer::CONC, "CONC"},
    {"replicates", PlateLexer::REPLICATES, "REPLICATES"},
    {"across", PlateLexer::ACROSS, "ACROSS"},
    {"down", PlateLexer::DOWN, "DOWN"},
    {"dilution", PlateLexer::DILUTION, "DILUTION"},
    {"series", PlateLexer::SERIES, "SERIES"},
    {"reservoir", PlateLexer::RESERVOIR, "RESERVOIR"},
    {"of", PlateLexer::OF, "OF"},
    {"to", PlateLexer::TO, "TO"},
    {"into", PlateLexer::INTO, "INTO"},
    {"at", PlateLexer::AT, "AT"},
    {"from", PlateLexer::FROM, "FROM"},
    {"with", PlateLexer::WITH, "WITH"},
    {"in", PlateLexer::IN, "IN"},
    {"for", PlateLexer::FOR, "FOR"},
    {"times", PlateLexer::TIMES, "TIMES"},
    {"all", PlateLexer::ALL, "ALL"},
    {"layout", PlateLexer::LAYOUT, "LAYOUT"},
    {"waste", PlateLexer::WASTE, "WASTE"},
    {"soak", PlateLexer::SOAK, "SOAK"},
    {"shaking", PlateLexer::SHAKING, "SHAKING"},
    {"lid", PlateLexer::LID, "LID"},
    {"on", PlateLexer::ON, "ON"},
    {"off", PlateLexer::OFF, "OFF"},
    {"dark", PlateLexer::DARK, "DARK"},
    {"cover", PlateLexer::COVER, "COVER"},
    {"seal", PlateLexer::SEAL, "SEAL"},
    {"adhesive", PlateLexer::ADHESIVE, "ADHESIVE"},
    {"strip", PlateLexer::STRIP, "STRIP"},
    {"covered", PlateLexer::COVERED, "COVERED"},
    {"sealed", PlateLexer::SEALED, "SEALED"},
    {"uncovered", PlateLexer::UNCOVERED, "UNCOVERED"},
    {"unsealed", PlateLexer::UNSEALED, "UNSEALED"},
    {"absorbance", PlateLexer::ABSORBANCE, "ABSORBANCE"},
    {"fluorescence", PlateLexer::FLUORESCENCE, "FLUORESCENCE"},
    {"reference", PlateLexer::REFERENCE, "REFERENCE"},
    {"excitation", PlateLexer::EXCITATION, "EXCITATION"},
    {"emission", PlateLexer::EMISSION, "EMISSION"},
    {"standard_curve", PlateLexer::STANDARD_CURVE, "STANDARD_CURVE"},
    {"competitive", PlateLexer::COMPETITIVE, "COMPETITIVE"},
    {"linear", PlateLexer::LINEAR, "LINEAR"},
    {"subtract", PlateLexer::SUBTRACT, "SUBTRACT"},
    {"dilute", PlateLexer::DILUTE, "DILUTE"},
    {"discard", PlateLexer::DISCARD, "DISCARD"},
    {"tips", PlateLexer::TIPS, "TIPS"},
    {"new", PlateLexer::NEW, "NEW"},
    {"per_source", PlateLexer::PER_SOURCE, "PER_SOURCE"},
    {"per_well", PlateLexer::PER_WELL, "PER_WELL"},
    {"reuse", PlateLexer::REUSE, "REUSE"},
    {"row", PlateLexer::ROW, "ROW"},
    {"rows", PlateLexer::ROWS, "ROWS"},
    {"col", PlateLexer::COL, "COL"},
    {"column", PlateLexer::COL, "COL"},
    {"cols", PlateLexer::COLS, "COLS"},
    {"columns", PlateLexer::COLS, "COLS"},
    {"except", PlateLexer::EXCEPT, "EXCEPT"},
    {"well", PlateLexer::WELL_WORD, "WELL_WORD"},
    {"rt", PlateLexer::RT, "RT"},
    {"room", PlateLexer::ROOM, "ROOM"},
    {"temperature", PlateLexer::TEMPERATURE, "TEMPERATURE"},
    {"ambient", PlateLexer::AMBIENT, "AMBIENT"},
    {"overnight", PlateLexer::OVERNIGHT, "OVERNIGHT"},
  };
  return table;
}

/// The table sorted by spelling, for lookups.
const std::vector<KeywordType> &bySpelling() {
  static const std::vector<KeywordType> sorted = [] {
    std::vector<KeywordType> copy = keywordTypes();
    std::sort(copy.begin(), copy.end(),
              [](const KeywordType &a, const KeywordType &b) { return a.spelling < b.spelling; });
    return copy;
  }();
  return sorted;
}

} // namespace

const std::vector<KeywordSpelling> &keywordSpellings() {
  static const std::vector<KeywordSpelling> spellings = [] {
    std::vector<KeywordSpelling> out;
    for (const KeywordType &keyword : keywordTypes())
      out.push_back({keyword.spelling, keyword.name});
    return out;
  }();
  return spellings;
}

size_t keywordTypeOf(std::string_view word) {
  // Keywords are short ASCII words; a longer word is a name.
  std::array<char, 32> lower{};
  if (word.size() > lower.size())
    return 0;
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  std::string_view key(lower.data(), word.size());
  const std::vector<KeywordType> &sorted = bySpelling();
  auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
                             [](const KeywordType &k, std::string_view w) { return k.spelling < w; });
  return it != sorted.end() && it->spelling == key ? it->type : 0;
}

} // namespace plate

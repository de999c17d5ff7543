//===- IRReader.cpp - Recursive descent over the printer's lines ----------===//
//
// The grammar is the printer's (Printer.cpp), one line at a time: each
// function below reads what one printer function writes, in the same
// order, so a change to the printer has its counterpart a few lines away
// in the same shape. The first error on a line is reported and the rest of
// the line skipped; later lines are still read, so one run shows every
// broken line.
//
//===----------------------------------------------------------------------===//
#include "ir/IRReader.h"

#include "ir/Verifier.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>

namespace plate::ir {
namespace {

/// A unit as the printer writes it after a number (`µL`, `°C`, `ng/mL`);
/// RT, overnight, ratios, counts and percentages have forms of their own.
std::optional<Unit> unitBySymbol(std::string_view symbol) {
  static const std::map<std::string, Unit, std::less<>> symbols = [] {
    std::map<std::string, Unit, std::less<>> table;
    for (unsigned i = 0; i <= static_cast<unsigned>(Unit::Overnight); ++i) {
      auto unit = static_cast<Unit>(i);
      if (unit == Unit::Count || unit == Unit::Ratio || unit == Unit::Percent ||
          unit == Unit::Ambient || unit == Unit::Overnight)
        continue;
      table.emplace(unitInfo(unit).symbol, unit);
    }
    return table;
  }();
  auto it = symbols.find(symbol);
  return it == symbols.end() ? std::nullopt : std::optional<Unit>(it->second);
}

const std::map<std::string, OpKind, std::less<>> &opKinds() {
  static const std::map<std::string, OpKind, std::less<>> kinds = {
#define OP(Kind, Struct, Mnemonic, Level) {Mnemonic, OpKind::Kind},
#include "ir/Ops.def"
  };
  return kinds;
}

/// Where a line stands in the fixed order of a module's lines.
enum class Part : uint8_t { Header, Liquids, Loads, Tips, Ops };

std::string_view partName(Part part) {
  switch (part) {
  case Part::Header: return "the `module` line";
  case Part::Liquids: return "the liquids";
  case Part::Loads: return "the loading plan";
  case Part::Tips: return "the tip count";
  case Part::Ops: return "the ops";
  }
  return "";
}

bool isIdentChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

class IrParser {
public:
  IrParser(uint32_t fileId, SourceManager &sources, DiagnosticEngine &diags,
           const ParseOptions &options)
      : fileId_(fileId), sources_(sources), diags_(diags), options_(options) {}

  std::optional<Module> run() {
    unsigned errorsBefore = diags_.errorCount();
    module_.fileId = options_.scriptFileId ? options_.scriptFileId
                                           : sources_.addBuffer("<script>", std::string());
    // A copy: registering a module's file below may move the buffers.
    text_ = std::string(sources_.contents(fileId_));
    std::string_view text = text_;
    size_t start = 0;
    for (uint32_t number = 1;; ++number) {
      size_t end = text.find('\n', start);
      std::string_view line = text.substr(start, end == std::string_view::npos
                                                     ? std::string_view::npos
                                                     : end - start);
      if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
      parseLine(line, number);
      if (end == std::string_view::npos)
        break;
      start = end + 1;
    }
    if (!moduleLine_)
      diags_.report(DiagId::IrNoModule, SourceLoc{fileId_, 1, 1, 1});
    resolveSeries();
    if (diags_.errorCount() != errorsBefore)
      return std::nullopt;
    deriveFlags();
    for (const VerifierProblem &problem : verifyProblems(module_))
      diags_.report(DiagId::IrInvalid,
                    problem.subject == VerifierProblem::Subject::Op ? opLocs_.at(problem.index)
                                                                    : liquidLocs_.at(problem.index),
                    problem.message);
    if (diags_.errorCount() != errorsBefore)
      return std::nullopt;
    return std::move(module_);
  }

private:
  //--- the line and its cursor ----------------------------------------------//

  SourceLoc at(size_t pos, size_t length = 1) const {
    return {fileId_, lineNo_, static_cast<uint32_t>(pos + 1), static_cast<uint32_t>(length)};
  }
  std::string_view rest() const { return line_.substr(pos_); }
  bool atEnd() const { return pos_ >= line_.size(); }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < line_.size() ? line_[pos_ + ahead] : '\0';
  }
  bool eat(std::string_view literal) {
    if (rest().substr(0, literal.size()) != literal)
      return false;
    pos_ += literal.size();
    return true;
  }

  /// Reports E970 at the cursor (once per line) and returns false.
  bool expected(std::string_view what) {
    if (lineFailed_)
      return false;
    lineFailed_ = true;
    // Show the word found, past any blanks (`  loc=12:3 extra` shows `extra`).
    size_t from = std::min(line_.find_first_not_of(' ', pos_), line_.size());
    std::string_view token = line_.substr(from, line_.find(' ', from) - from);
    if (token.size() > 40)
      token = token.substr(0, 40);
    std::string found = token.empty() ? std::string("the end of the line")
                                      : fmt::format("`{}`", token);
    diags_.report(DiagId::IrExpected, at(token.empty() ? pos_ : from, std::max<size_t>(token.size(), 1)),
                  what, found);
    return false;
  }
  template <typename... Args> bool fail(DiagId id, SourceLoc loc, Args &&...args) {
    if (lineFailed_)
      return false;
    lineFailed_ = true;
    diags_.report(id, loc, std::forward<Args>(args)...);
    return false;
  }
  bool expect(std::string_view literal) {
    return eat(literal) || expected(fmt::format("`{}`", literal));
  }

  /// Everything up to the next blank (possibly nothing): module, slot and
  /// platform names.
  std::string_view word() {
    size_t end = std::min(line_.find(' ', pos_), line_.size());
    std::string_view text = line_.substr(pos_, end - pos_);
    pos_ = end;
    return text;
  }

  std::optional<double> number() {
    double value = 0;
    const char *first = line_.data() + pos_, *last = line_.data() + line_.size();
    auto [end, error] = std::from_chars(first, last, value);
    if (error != std::errc() || end == first) {
      // from_chars refuses a value beyond double's range; the printer never
      // writes one, so that is a malformed number like any other.
      expected("a number");
      return std::nullopt;
    }
    pos_ += end - first;
    return value;
  }

  std::optional<unsigned> whole(std::string_view what = "a whole number") {
    unsigned value = 0;
    const char *first = line_.data() + pos_, *last = line_.data() + line_.size();
    auto [end, error] = std::from_chars(first, last, value);
    if (end == first) {
      expected(what);
      return std::nullopt;
    }
    if (error != std::errc()) {
      fail(DiagId::IrNumberTooLarge, at(pos_, end - first), line_.substr(pos_, end - first));
      return std::nullopt;
    }
    pos_ += end - first;
    return value;
  }

  /// `(ROW,COL)` of a reservoir or rack position or a plate place.
  std::optional<std::pair<unsigned, unsigned>> pair() {
    if (!expect("("))
      return std::nullopt;
    std::optional<unsigned> row = whole();
    if (!row || !expect(","))
      return std::nullopt;
    std::optional<unsigned> col = whole();
    if (!col || !expect(")"))
      return std::nullopt;
    return std::pair{*row, *col};
  }

  /// A quantity as fmt::formatter<Quantity> writes it: `RT`, `overnight`,
  /// `1:20`, `5%`, `12 µL`, or a bare count. `field` names the field for a
  /// dimension mismatch; `canonicalOnceNormalized` is false for the one
  /// kind that keeps its unit through normalize-units (concentrations).
  std::optional<Quantity> quantity(Dimension dimension, std::string_view field,
                                   bool canonicalOnceNormalized = true) {
    size_t start = pos_;
    auto delimited = [&] {
      char c = peek();
      return c == '\0' || c == ' ' || c == ',' || c == ']' || c == ')';
    };
    Quantity result;
    if (eat("RT") && delimited()) {
      result = {1, Unit::Ambient};
    } else if ((pos_ = start, eat("overnight")) && delimited()) {
      result = {1, Unit::Overnight};
    } else {
      pos_ = start;
      bool ratio = eat("1:");
      std::optional<double> value = number();
      if (!value)
        return std::nullopt;
      if (ratio) {
        result = {*value, Unit::Ratio};
      } else if (eat("%")) {
        result = {*value, Unit::Percent};
      } else {
        result = {*value, Unit::Count};
        if (peek() == ' ') {
          size_t unitStart = pos_ + 1;
          size_t unitEnd = unitStart;
          while (unitEnd < line_.size() && line_[unitEnd] != ' ' && line_[unitEnd] != ',' &&
                 line_[unitEnd] != ']' && line_[unitEnd] != ')')
            ++unitEnd;
          if (std::optional<Unit> unit =
                  unitBySymbol(line_.substr(unitStart, unitEnd - unitStart))) {
            result.unit = *unit;
            pos_ = unitEnd;
          }
        }
      }
    }
    if (!delimited()) {
      expected(fmt::format("a {} (a number and a unit)", dimensionName(dimension)));
      return std::nullopt;
    }
    if (result.dimension() != dimension) {
      fail(DiagId::IrWrongDimension, at(start, pos_ - start), line_.substr(start, pos_ - start),
           dimensionName(result.dimension()), field, dimensionName(dimension));
      return std::nullopt;
    }
    if (canonicalOnceNormalized && (result.isSymbolic() || !result.isCanonical()))
      allCanonical_ = false;
    return result;
  }

  std::optional<Well> well() {
    size_t end = pos_;
    if (end < line_.size() && line_[end] >= 'A' && line_[end] <= 'Z')
      ++end;
    while (end < line_.size() && line_[end] >= '0' && line_[end] <= '9')
      ++end;
    std::optional<Well> parsed = Well::parse(line_.substr(pos_, end - pos_));
    if (!parsed) {
      expected("a well (A1..P24)");
      return std::nullopt;
    }
    pos_ = end;
    return parsed;
  }

  bool startsWell() const { return peek() >= 'A' && peek() <= 'Z' && peek(1) >= '0' && peek(1) <= '9'; }

  /// WellSet::str(): rectangles `A1..H2` and wells joined by commas; the
  /// empty set is no text at all.
  std::optional<WellSet> wellSet() {
    WellSet wells;
    if (!startsWell())
      return wells;
    do {
      size_t start = pos_;
      std::optional<Well> first = well();
      if (!first)
        return std::nullopt;
      Well last = *first;
      if (eat("..")) {
        std::optional<Well> second = well();
        if (!second)
          return std::nullopt;
        if (second->row < first->row || second->col < first->col) {
          fail(DiagId::IrWellRangeReversed, at(start, pos_ - start),
               line_.substr(start, pos_ - start));
          return std::nullopt;
        }
        last = *second;
      }
      wells |= WellSet::rectangle(*first, last);
    } while (peek() == ',' && (++pos_, true));
    return wells;
  }

  /// `%name`: a liquid declared by a `liquid` line above.
  std::optional<LiquidId> liquidRef() {
    size_t start = pos_;
    if (!eat("%")) {
      expected("a liquid (`%name`)");
      return std::nullopt;
    }
    std::string_view name = identifier();
    if (name.empty()) {
      pos_ = start;
      expected("a liquid (`%name`)");
      return std::nullopt;
    }
    auto it = liquidIds_.find(name);
    if (it == liquidIds_.end()) {
      fail(DiagId::IrUnknownLiquid, at(start, pos_ - start), name);
      return std::nullopt;
    }
    return it->second;
  }

  std::string_view identifier() {
    size_t end = pos_;
    while (end < line_.size() && isIdentChar(line_[end]))
      ++end;
    std::string_view name = line_.substr(pos_, end - pos_);
    pos_ = end;
    return name;
  }

  /// A string the printer quoted: `\"`, `\\` and `\n` are its only escapes.
  std::optional<std::string> quoted() {
    if (!expect("\""))
      return std::nullopt;
    std::string text;
    while (!atEnd()) {
      char c = line_[pos_++];
      if (c == '"')
        return text;
      if (c != '\\') {
        text.push_back(c);
        continue;
      }
      char escaped = peek();
      if (escaped != '"' && escaped != '\\' && escaped != 'n') {
        expected("an escape `\\\"`, `\\\\` or `\\n`");
        return std::nullopt;
      }
      text.push_back(escaped == 'n' ? '\n' : escaped);
      ++pos_;
    }
    expected("a closing `\"`");
    return std::nullopt;
  }

  /// `mask=` and ChannelMask::str(): one digit per channel, channel 1 first.
  std::optional<ChannelMask> mask() {
    if (!expect("mask="))
      return std::nullopt;
    return maskDigits();
  }

  std::optional<ChannelMask> maskDigits() {
    size_t start = pos_;
    ChannelMask mask;
    mask.bits = 0;
    while (peek() == '0' || peek() == '1') {
      size_t channel = pos_ - start;
      if (peek() == '1') {
        if (channel >= 8) {
          fail(DiagId::IrTooManyChannels, at(pos_), channel + 1, 8);
          return std::nullopt;
        }
        mask.bits |= static_cast<uint8_t>(1u << channel);
      }
      ++pos_;
    }
    size_t length = pos_ - start;
    if (length == 0) {
      expected("a channel mask of `0` and `1`");
      return std::nullopt;
    }
    if (length > 64) {
      fail(DiagId::IrMaskTooLong, at(start, length), line_.substr(start, length), 64);
      return std::nullopt;
    }
    mask.channels = static_cast<uint8_t>(length);
    return mask;
  }

  /// `slot ID` or `slot ID (ROW,COL)`.
  std::optional<Place> place() {
    if (!expect("slot "))
      return std::nullopt;
    Place result;
    result.slot = std::string(word());
    if (result.slot.empty()) {
      expected("a slot");
      return std::nullopt;
    }
    if (peek() == ' ' && peek(1) == '(') {
      ++pos_;
      std::optional<std::pair<unsigned, unsigned>> position = pair();
      if (!position)
        return std::nullopt;
      std::tie(result.row, result.col) = *position;
    }
    return result;
  }

  /// `[A1:50 µL,B1:50 µL]`.
  std::optional<std::vector<WellAmount>> amounts() {
    if (!expect("["))
      return std::nullopt;
    std::vector<WellAmount> list;
    while (!eat("]")) {
      if (!list.empty() && !expect(","))
        return std::nullopt;
      std::optional<Well> where = well();
      if (!where || !expect(":"))
        return std::nullopt;
      std::optional<Quantity> volume = quantity(Dimension::Volume, "a well's amount");
      if (!volume)
        return std::nullopt;
      list.push_back({*where, *volume});
    }
    return list;
  }

  std::optional<TipPolicy> tips() {
    if (!expect(" tips="))
      return std::nullopt;
    size_t start = pos_;
    std::string_view name = word();
    for (TipPolicy policy : {TipPolicy::New, TipPolicy::PerSource, TipPolicy::PerWell,
                             TipPolicy::Reuse})
      if (name == tipPolicyName(policy))
        return policy;
    pos_ = start;
    expected("a tip policy (new, per_source, per_well, reuse)");
    return std::nullopt;
  }

  /// `CYCLESxVOLUME` of a mix (`3x50 µL`).
  std::optional<MixSpec> mixSpec() {
    std::optional<unsigned> cycles = whole("a number of cycles");
    if (!cycles || !expect("x"))
      return std::nullopt;
    std::optional<Quantity> volume = quantity(Dimension::Volume, "a mix");
    if (!volume)
      return std::nullopt;
    return MixSpec{*cycles, *volume};
  }

  //--- lines ------------------------------------------------------------------//

  void parseLine(std::string_view line, uint32_t number) {
    line_ = line;
    lineNo_ = number;
    pos_ = 0;
    lineFailed_ = false;
    while (peek() == ' ' || peek() == '\t')
      ++pos_;
    if (atEnd() || rest().substr(0, 2) == "//")
      return; // blank lines and comments (lit's RUN lines, dump headings)
    size_t start = pos_;
    std::string_view keyword = rest().substr(0, rest().find(' '));
    if (keyword == "module") {
      if (moduleLine_) {
        fail(DiagId::IrSecondModule, at(start, keyword.size()), moduleLine_);
        return;
      }
      moduleLine_ = number;
      pos_ += keyword.size();
      parseHeader();
    } else if (!moduleLine_) {
      if (!reportedNoModule_)
        fail(DiagId::IrBeforeModule, at(start, keyword.size()), keyword);
      reportedNoModule_ = true;
      return;
    } else if (keyword == "liquid") {
      if (enter(Part::Liquids, keyword, start)) {
        pos_ += keyword.size();
        parseLiquid();
      }
    } else if (keyword == "load") {
      if (enter(Part::Loads, keyword, start)) {
        pos_ += keyword.size();
        parseLoad();
      }
    } else if (keyword == "tips") {
      if (module_.tipsUsed)
        fail(DiagId::IrLineOrder, at(start, keyword.size()), keyword, partName(Part::Tips));
      else if (enter(Part::Tips, keyword, start)) {
        pos_ += keyword.size();
        parseTips();
      }
    } else if (enter(Part::Ops, "op", start)) {
      parseOp();
    }
    if (!lineFailed_ && !atEnd())
      expected("the end of the line");
  }

  bool enter(Part part, std::string_view keyword, size_t start) {
    if (part < part_)
      return fail(DiagId::IrLineOrder, at(start, keyword.size()), keyword, partName(part_));
    part_ = part;
    return true;
  }

  /// `module "TITLE" platform=P plate=T wells=RxC capacity=N`.
  void parseHeader() {
    if (!expect(" "))
      return;
    std::optional<std::string> title = quoted();
    if (!title || !expect(" platform="))
      return;
    module_.title = std::move(*title);
    module_.platform = std::string(word());
    if (!expect(" plate="))
      return;
    module_.plateType = std::string(word());
    if (!expect(" wells="))
      return;
    size_t start = pos_;
    std::optional<unsigned> rows = whole("a number of rows");
    if (!rows || !expect("x"))
      return;
    std::optional<unsigned> cols = whole("a number of columns");
    if (!cols)
      return;
    if (*rows < 1 || *rows > kMaxRows || *cols < 1 || *cols > kMaxCols) {
      fail(DiagId::IrPlateShape, at(start, pos_ - start), line_.substr(start, pos_ - start),
           kMaxRows, kMaxCols);
      return;
    }
    module_.shape = {*rows, *cols};
    if (!expect(" capacity="))
      return;
    if (std::optional<double> capacity = number())
      module_.wellCapacityUl = *capacity;
  }

  /// `liquid %NAME [POLARITY ]ROLE [wells=] [conc=] [dilution=]
  /// [made_on_plate=%FIRST/FACTOR] [declared=] [at=(R,C)] FLAG... [pipetted]`.
  void parseLiquid() {
    if (!expect(" "))
      return;
    size_t nameStart = pos_;
    if (!expect("%"))
      return;
    std::string_view name = identifier();
    if (name.empty()) {
      expected("a liquid name");
      return;
    }
    Liquid liquid;
    liquid.id = static_cast<LiquidId>(module_.liquids.size());
    liquid.name = std::string(name);
    // The printed form has no declaration line of the script; the liquid's
    // line in the IR text is the best place for a pass's diagnostic.
    liquid.loc = at(nameStart, pos_ - nameStart);
    if (!expect(" "))
      return;
    size_t roleStart = pos_;
    std::string_view role = word();
    if (role == "positive" || role == "negative") {
      liquid.polarity = role == "positive" ? Polarity::Positive : Polarity::Negative;
      if (!expect(" "))
        return;
      roleStart = pos_;
      role = word();
    }
    bool known = false;
    for (unsigned i = 0; i <= static_cast<unsigned>(LiquidRole::Cutoff); ++i)
      if (role == roleName(static_cast<LiquidRole>(i))) {
        liquid.role = static_cast<LiquidRole>(i);
        known = true;
      }
    if (!known) {
      pos_ = roleStart;
      expected("a liquid role (reagent, blank, calibrant, sample, control, nsb, bmax, cutoff)");
      return;
    }
    if (eat(" wells=")) {
      std::optional<WellSet> wells = wellSet();
      if (!wells)
        return;
      liquid.wells = *wells;
    }
    if (eat(" conc=")) {
      liquid.concentration = quantity(Dimension::Concentration, "`conc=`", false);
      if (!liquid.concentration)
        return;
    }
    if (eat(" dilution=")) {
      liquid.dilution = number();
      if (!liquid.dilution)
        return;
    }
    if (eat(" made_on_plate=")) {
      size_t start = pos_;
      if (!expect("%"))
        return;
      std::string_view first = identifier();
      if (first.empty()) {
        pos_ = start;
        expected("the series' first member (`%name`)");
        return;
      }
      SourceLoc firstLoc = at(start, pos_ - start);
      if (!expect("/"))
        return;
      std::optional<double> factor = number();
      if (!factor)
        return;
      pendingSeries_.push_back({module_.liquids.size(), std::string(first), firstLoc, *factor});
    }
    if (eat(" declared=")) {
      liquid.declaredVolume = quantity(Dimension::Volume, "`declared=`");
      if (!liquid.declaredVolume)
        return;
    }
    if (eat(" at=")) {
      std::optional<std::pair<unsigned, unsigned>> position = pair();
      if (!position)
        return;
      liquid.fixedPosition = ReservoirPos{position->first, position->second};
    }
    // Flags are the script's words; `pipetted`, last, is the printer's.
    std::vector<std::string> words;
    while (eat(" ")) {
      size_t start = pos_;
      std::string_view flag = identifier();
      if (flag.empty() || !(atEnd() || peek() == ' ')) {
        pos_ = start;
        expected("a flag (a word)");
        return;
      }
      words.emplace_back(flag);
    }
    if (!words.empty() && words.back() == "pipetted") {
      liquid.pipettedByInstrument = true;
      words.pop_back();
    }
    liquid.flags = std::move(words);
    if (!atEnd())
      return;
    if (!liquidIds_.emplace(liquid.name, liquid.id).second) {
      fail(DiagId::IrDuplicateLiquid, liquid.loc, liquid.name);
      return;
    }
    liquidLocs_.push_back(liquid.loc);
    module_.liquids.push_back(std::move(liquid));
  }

  /// `load (R,C) %LIQUID V mL`.
  void parseLoad() {
    if (!expect(" "))
      return;
    std::optional<std::pair<unsigned, unsigned>> position = pair();
    if (!position || !expect(" "))
      return;
    std::optional<LiquidId> liquid = liquidRef();
    if (!liquid || !expect(" "))
      return;
    std::optional<double> ml = number();
    if (!ml || !expect(" mL"))
      return;
    module_.loadingPlan.push_back({{position->first, position->second}, *liquid, *ml});
  }

  /// `tips N racks M`.
  void parseTips() {
    if (!expect(" "))
      return;
    std::optional<unsigned> tips = whole("a number of tips");
    if (!tips || !expect(" racks "))
      return;
    std::optional<unsigned> racks = whole("a number of racks");
    if (!racks)
      return;
    module_.tipsUsed = *tips;
    module_.tipRacksUsed = *racks;
  }

  /// `[manual.]MNEMONIC PAYLOAD [reuse] [blocks=[...]]  loc=[FILE:]L:C [step=LABEL]`.
  void parseOp() {
    size_t start = pos_;
    std::string_view mnemonic = word();
    Op op;
    if (mnemonic.substr(0, 7) == "manual.") {
      op.manual = true;
      mnemonic.remove_prefix(7);
    }
    auto kind = opKinds().find(mnemonic);
    if (kind == opKinds().end()) {
      std::vector<std::string> known;
      for (const auto &[name, _] : opKinds())
        known.push_back(name);
      std::string guess = closestMatch(mnemonic, known);
      fail(DiagId::IrUnknownOp, at(start, pos_ - start), line_.substr(start, pos_ - start),
           guess.empty() ? std::string() : fmt::format(" (did you mean `{}`?)", guess));
      return;
    }
    if (!expect(" "))
      return;
    std::optional<OpPayload> payload = parsePayload(kind->second);
    if (!payload)
      return;
    op.payload = std::move(*payload);
    if (eat(" reuse"))
      op.tipsReuse = true;
    if (eat(" blocks=[")) {
      while (!eat("]")) {
        if (!op.blocks.empty() && !expect(","))
          return;
        std::optional<Well> anchor = well();
        if (!anchor || !expect("/"))
          return;
        std::optional<ChannelMask> channels = maskDigits();
        if (!channels)
          return;
        op.blocks.push_back({*anchor, *channels});
      }
    }
    if (!expect("  loc="))
      return;
    std::optional<SourceLoc> loc = opLoc();
    if (!loc)
      return;
    op.loc = *loc;
    op.origin = *loc; // not printed: the expansion site is the op's own line
    if (eat(" step=")) {
      op.step = std::string(rest()); // a label is the rest of the line
      pos_ = line_.size();
    }
    opLocs_.push_back(at(start, mnemonic.size() + (op.manual ? 7 : 0)));
    module_.ops.push_back(std::move(op));
  }

  /// `LINE:COL` in the script, or `FILE:LINE:COL` in a `use` module.
  std::optional<SourceLoc> opLoc() {
    size_t start = pos_;
    std::string_view token = word();
    size_t lastColon = token.rfind(':');
    size_t firstColon = lastColon == std::string_view::npos || lastColon == 0
                            ? std::string_view::npos
                            : token.rfind(':', lastColon - 1);
    if (lastColon == std::string_view::npos) {
      pos_ = start;
      expected("a location `LINE:COL`");
      return std::nullopt;
    }
    std::string_view file =
        firstColon == std::string_view::npos ? std::string_view() : token.substr(0, firstColon);
    size_t numbersAt = start + (firstColon == std::string_view::npos ? 0 : firstColon + 1);
    pos_ = numbersAt;
    std::optional<unsigned> line = whole("a line number");
    if (!line || !expect(":"))
      return std::nullopt;
    std::optional<unsigned> col = whole("a column number");
    if (!col)
      return std::nullopt;
    if (pos_ != start + token.size()) {
      expected("a location `LINE:COL`");
      return std::nullopt;
    }
    SourceLoc loc{module_.fileId, *line, *col, 0};
    if (!file.empty()) {
      if (file.find('/') != std::string_view::npos) {
        pos_ = start;
        expected("a file name without `/` (the printer writes a module's own name)");
        return std::nullopt;
      }
      loc.fileId = moduleFile(file);
    }
    return loc;
  }

  /// The file id of a `use` module named in a location, registered once.
  uint32_t moduleFile(std::string_view name) {
    auto it = moduleFiles_.find(name);
    if (it != moduleFiles_.end())
      return it->second;
    std::optional<uint32_t> id;
    if (!options_.modulesDir.empty()) {
      std::filesystem::path path = std::filesystem::path(options_.modulesDir) / std::string(name);
      std::error_code error;
      if (std::filesystem::is_regular_file(path, error))
        id = sources_.addFile(path.string());
    }
    if (!id)
      id = sources_.addBuffer(std::string(name), std::string());
    moduleFiles_.emplace(std::string(name), *id);
    return *id;
  }

  //--- payloads: one function per printer overload, in Ops.def order ---------//

  std::optional<OpPayload> parsePayload(OpKind kind) {
    switch (kind) {
#define OP(Kind, Struct, Mnemonic, Level)                                      \
  case OpKind::Kind: {                                                         \
    Struct payload;                                                            \
    if (!parse(payload))                                                       \
      return std::nullopt;                                                     \
    return OpPayload(std::move(payload));                                      \
  }
#include "ir/Ops.def"
    }
    return std::nullopt;
  }

  template <typename T> static bool set(std::optional<T> &field, std::optional<T> value) {
    field = std::move(value);
    return field.has_value();
  }
  template <typename T> static bool set(T &field, std::optional<T> value) {
    if (!value)
      return false;
    field = std::move(*value);
    return true;
  }

  bool parse(DispenseOp &op) {
    if (!set(op.volume, quantity(Dimension::Volume, "a dispense")) || !expect(" of"))
      return false;
    while (peek() == ' ' && peek(1) == '%') {
      ++pos_;
      Portion portion;
      if (!set(portion.liquid, liquidRef()) || !expect("->") || !set(portion.wells, wellSet()))
        return false;
      op.portions.push_back(portion);
    }
    if (eat(" mix=") && !set(op.mix, mixSpec()))
      return false;
    return set(op.tips, tips());
  }
  bool parse(AspirateOp &op) {
    if (!eat("all") && !set(op.volume, quantity(Dimension::Volume, "an aspirate")))
      return false;
    if (!expect(" from ") || !set(op.wells, wellSet()))
      return false;
    if (eat(" resolved=") && !set(op.resolved, amounts()))
      return false;
    return set(op.tips, tips());
  }
  bool parse(WashOp &op) {
    if (!set(op.cycles, whole("a number of cycles")) || !expect("x ") ||
        !set(op.volume, quantity(Dimension::Volume, "a wash")) || !expect(" of ") ||
        !set(op.reagent, liquidRef()) || !expect(" wells=") || !set(op.wells, wellSet()))
      return false;
    if (eat(" soak=") && !set(op.soak, quantity(Dimension::Time, "a soak")))
      return false;
    if (eat(" emptied=") && !set(op.emptied, amounts()))
      return false;
    return set(op.tips, tips());
  }
  bool parse(IncubateOp &op) {
    if (!set(op.time, quantity(Dimension::Time, "an incubation")) || !expect(" at ") ||
        !set(op.temperature, quantity(Dimension::Temperature, "an incubation")))
      return false;
    if (eat(" shaking=") && !set(op.shaking, quantity(Dimension::Speed, "shaking")))
      return false;
    if (eat(" lid=on"))
      op.lidOn = true;
    else if (eat(" lid=off"))
      op.lidOn = false;
    else
      return expected("`lid=on` or `lid=off`");
    op.dark = eat(" dark");
    return true;
  }
  bool parse(ShakeOp &op) {
    return set(op.time, quantity(Dimension::Time, "a shake")) && expect(" at ") &&
           set(op.speed, quantity(Dimension::Speed, "a shake"));
  }
  bool parse(MixOp &op) {
    return set(op.cycles, whole("a number of cycles")) && expect("x ") &&
           set(op.volume, quantity(Dimension::Volume, "a mix")) && expect(" in ") &&
           set(op.wells, wellSet()) && set(op.tips, tips());
  }
  bool parse(TransferOp &op) {
    if (!set(op.volume, quantity(Dimension::Volume, "a transfer")) || !expect(" ["))
      return false;
    while (!eat("]")) {
      if (!op.pairs.empty() && !expect(","))
        return false;
      std::optional<Well> from = well();
      if (!from || !expect("->"))
        return false;
      std::optional<Well> to = well();
      if (!to)
        return false;
      op.pairs.emplace_back(*from, *to);
    }
    if (eat(" mix=") && !set(op.mix, mixSpec()))
      return false;
    return set(op.tips, tips());
  }
  bool parse(MagnetOp &op) { return set(op.time, quantity(Dimension::Time, "a magnet step")); }
  bool parse(ReadAbsorbanceOp &op) {
    if (!expect("at ") || !set(op.wavelength, quantity(Dimension::Wavelength, "a read")))
      return false;
    if (eat(" reference=") && !set(op.reference, quantity(Dimension::Wavelength, "a reference")))
      return false;
    return expect(" wells=") && set(op.wells, wellSet());
  }
  bool parse(ReadFluorescenceOp &op) {
    return expect("ex=") && set(op.excitation, quantity(Dimension::Wavelength, "an excitation")) &&
           expect(" em=") && set(op.emission, quantity(Dimension::Wavelength, "an emission")) &&
           expect(" wells=") && set(op.wells, wellSet());
  }
  bool parse(AnalyzeOp &op) {
    // `4pl at 450 nm` for the original standard curve; a cut-off analysis
    // does not print its (unused) fit.
    if (eat("competitive "))
      op.kind = AnalysisKind::Competitive;
    if (op.kind != AnalysisKind::Competitive && eat("cutoff"))
      op.kind = AnalysisKind::Cutoff;
    else if (eat("4pl"))
      op.fourPL = true;
    else if (!eat("linear"))
      return expected("`linear`, `4pl` or `cutoff`");
    if (eat(" at ") && !set(op.wavelength, quantity(Dimension::Wavelength, "an analysis")))
      return false;
    op.subtractBlank = eat(" subtract_blank");
    return true;
  }
  bool parse(WaitOp &op) { return set(op.time, quantity(Dimension::Time, "a wait")); }
  bool parse(PauseOp &op) { return set(op.message, quoted()); }
  bool parse(NoteOp &op) { return set(op.text, quoted()); }
  bool parse(PrepareOp &op) {
    if (!set(op.reagent, liquidRef()))
      return false;
    if (eat(" from ") && !set(op.from, quoted()))
      return false;
    if (eat(" dilute=") && !set(op.dilute, quantity(Dimension::Ratio, "a dilution")))
      return false;
    if (eat(" volume=") && !set(op.volume, quantity(Dimension::Volume, "a preparation")))
      return false;
    return true;
  }
  bool parse(EquilibrateOp &op) {
    if (eat("reagents")) {
      do {
        if (!expect(" "))
          return false;
        LiquidId reagent = 0;
        if (!set(reagent, liquidRef()))
          return false;
        op.reagents.push_back(reagent);
      } while (eat(","));
    } else if (!set(op.wells, wellSet())) {
      return false;
    }
    if (!expect(" to ") ||
        !set(op.temperature, quantity(Dimension::Temperature, "an equilibration")))
      return false;
    if (eat(" for ") && !set(op.time, quantity(Dimension::Time, "an equilibration")))
      return false;
    return true;
  }
  bool rack(unsigned &row, unsigned &col) {
    if (!expect("rack "))
      return false;
    std::optional<std::pair<unsigned, unsigned>> position = pair();
    if (!position)
      return false;
    std::tie(row, col) = *position;
    return expect(" ");
  }
  bool parse(PickTipsOp &op) { return rack(op.row, op.col) && set(op.mask, mask()); }
  bool parse(DropTipsOp &op) { return set(op.mask, mask()); }
  bool parse(ReturnTipsOp &op) { return rack(op.row, op.col) && set(op.mask, mask()); }
  bool parse(DevAspirateOp &op) {
    return set(op.place, place()) && expect(" ") && set(op.mask, mask()) && expect(" ") &&
           set(op.volume, quantity(Dimension::Volume, "an aspirate")) && expect(" of ") &&
           set(op.liquid, liquidRef());
  }
  bool parse(DevDispenseOp &op) {
    return set(op.place, place()) && expect(" ") && set(op.mask, mask()) && expect(" ") &&
           set(op.volume, quantity(Dimension::Volume, "a dispense"));
  }
  bool parse(DevMixOp &op) {
    if (!set(op.place, place()) || !expect(" ") || !set(op.mask, mask()) || !expect(" "))
      return false;
    std::optional<MixSpec> spec = mixSpec();
    if (!spec)
      return false;
    op.cycles = spec->cycles;
    op.volume = spec->volume;
    return true;
  }
  bool parse(MovePlateOp &op) {
    op.module = std::string(word());
    if (!expect(" "))
      return false;
    op.from = std::string(word());
    if (!expect(" -> "))
      return false;
    op.to = std::string(word());
    return true;
  }
  bool parse(LidOp &op) {
    op.module = std::string(word());
    if (eat(" place slot "))
      op.place = true;
    else if (eat(" remove slot "))
      op.place = false;
    else
      return expected("`place slot` or `remove slot`");
    op.slot = std::string(word());
    return true;
  }
  bool parse(SwapTipRackOp &op) {
    op.module = std::string(word());
    return true;
  }
  bool parse(SetTemperatureOp &op) {
    op.module = std::string(word());
    return expect(" ") && set(op.temperature, quantity(Dimension::Temperature, "a heater"));
  }
  bool parse(HeaterOffOp &op) {
    op.module = std::string(word());
    return true;
  }
  bool parse(DevShakeOp &op) {
    op.module = std::string(word());
    return expect(" ") && set(op.speed, quantity(Dimension::Speed, "a shake")) &&
           expect(" for ") && set(op.time, quantity(Dimension::Time, "a shake"));
  }
  bool parse(DevReadOp &op) {
    op.module = std::string(word());
    if (!expect(" at ") || !set(op.wavelength, quantity(Dimension::Wavelength, "a read")))
      return false;
    if (eat(" reference=") && !set(op.reference, quantity(Dimension::Wavelength, "a reference")))
      return false;
    WellSet wells;
    if (!expect(" wells=") || !set(wells, wellSet()))
      return false;
    // The printer shows the wells as a set; the reader reads them in
    // column-major order, which is the order route-transport gives them.
    op.wells = wells.columnMajor();
    return true;
  }
  bool parse(DevWaitOp &op) { return set(op.time, quantity(Dimension::Time, "a wait")); }
  bool parse(PromptOp &op) { return set(op.text, quoted()); }

  //--- after the last line ----------------------------------------------------//

  /// `made_on_plate=%FIRST/FACTOR` names a member printed earlier or later;
  /// the printer shows the factor ratio^index, so the member is read as
  /// index 1 of a series of that ratio, which prints the same.
  void resolveSeries() {
    for (const PendingSeries &pending : pendingSeries_) {
      auto it = liquidIds_.find(pending.first);
      if (it == liquidIds_.end()) {
        diags_.report(DiagId::IrUnknownLiquid, pending.loc, pending.first);
        continue;
      }
      if (pending.liquid < module_.liquids.size())
        module_.liquids[pending.liquid].series =
            Liquid::SeriesMember{SourceLoc{}, it->second, 1, pending.factor};
    }
  }

  void deriveFlags() {
    module_.unitsNormalized = allCanonical_;
    bool onlyLowered = std::all_of(module_.ops.begin(), module_.ops.end(), [](const Op &op) {
      return op.manual || isDeviceOp(op.kind()) || op.kind() == OpKind::Analyze ||
             op.kind() == OpKind::Note;
    });
    module_.lowered = module_.tipsUsed.has_value() && onlyLowered;
  }

  struct PendingSeries {
    size_t liquid;
    std::string first;
    SourceLoc loc;
    double factor;
  };

  uint32_t fileId_;
  SourceManager &sources_;
  DiagnosticEngine &diags_;
  const ParseOptions &options_;
  std::string text_;
  Module module_;
  std::map<std::string, LiquidId, std::less<>> liquidIds_;
  std::map<std::string, uint32_t, std::less<>> moduleFiles_;
  std::vector<PendingSeries> pendingSeries_;
  std::vector<SourceLoc> liquidLocs_, opLocs_; ///< for the verifier's findings
  Part part_ = Part::Header;
  uint32_t moduleLine_ = 0;
  bool reportedNoModule_ = false;
  bool allCanonical_ = true;

  std::string_view line_;
  uint32_t lineNo_ = 0;
  size_t pos_ = 0;
  bool lineFailed_ = false;
};

} // namespace

std::optional<Module> parseModule(uint32_t fileId, SourceManager &sources,
                                  DiagnosticEngine &diags, const ParseOptions &options) {
  return IrParser(fileId, sources, diags, options).run();
}

} // namespace plate::ir

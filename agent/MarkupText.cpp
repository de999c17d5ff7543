//===- MarkupText.cpp - HTML and LaTeX sources read as their text -----------===//
//
// See MarkupText.h.
//
//===----------------------------------------------------------------------===//
#include "agent/MarkupText.h"
#include "agent/ProseScan.h"
#include "ir/Units.h"

#include <llvm/Support/ConvertUTF.h>
#include <nlohmann/json.hpp>
#include <yaml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace plate::agent {
namespace {

/// Builds the rewritten text: every piece stands for a span of the source
/// of at least its own length, and the rest of the span becomes blanks.
class OffsetKeepingWriter {
public:
  /// `moveLeadingMarkup`: markup before a line's text goes to the line's
  /// end (see deferLeading); without it, it indents the line and every
  /// column stays where it was.
  explicit OffsetKeepingWriter(std::string_view source, bool moveLeadingMarkup = true)
      : source_(source), moveLeading_(moveLeadingMarkup) {
    out_.reserve(source.size());
  }

  /// `replacement` stands for source bytes [from, to); `breaks` asks for
  /// plain spaces (a cell or a line ends there) instead of no-break ones.
  void replace(size_t from, size_t to, std::string_view replacement, bool breaks = false) {
    // A span over a line break (markup cut off, a tag split over lines)
    // keeps its breaks and shows nothing.
    if (source_.substr(from, to - from).find_first_of("\r\n") != std::string_view::npos) {
      blank(from, to, breaks);
      return;
    }
    if (replacement.size() > to - from)
      replacement = replacement.substr(0, to - from);
    if (!replacement.empty()) {
      deferLeading();
      flush(from);
      out_ += replacement;
      lineHasText_ = true;
    }
    owed_ += to - from - replacement.size();
    owedPlain_ |= breaks;
  }

  /// Source bytes [from, to) as blanks; line breaks stay.
  void blank(size_t from, size_t to, bool breaks = false) {
    for (size_t i = from; i < to; ++i) {
      if (source_[i] == '\n' || source_[i] == '\r') {
        endLine(i);
        continue;
      }
      ++owed_;
    }
    owedPlain_ |= breaks;
  }

  /// A rendering joins what markup splits ("5&nbsp;&micro;M" is "5 µM",
  /// "KH<sub>2</sub>PO<sub>4</sub>" is "KH2PO4"): blanks owed inside a
  /// word wait for the word's end, shifting its rest by a few bytes.
  void copy(size_t at) {
    char c = source_[at];
    if (c == '\n' || c == '\r') {
      endLine(at);
      return;
    }
    if (c != ' ' && c != '\t')
      deferLeading();
    // Likewise before the punctuation that ends a word ("PO<sub>4</sub>,").
    bool closesWord = c == ',' || c == '.' || c == ';' || c == ':' || c == ')';
    if (!(owed_ && !owedPlain_ && (wordByte(c) || closesWord) && !out_.empty() &&
          (wordByte(out_.back()) || out_.back() == '-')))
      flush(at);
    if (swallowSpace_) {
      swallowSpace_ = false;
      if (c == ' ')
        return;
    }
    out_ += c;
    if (c != ' ' && c != '\t')
      lineHasText_ = true;
  }

  /// Bytes shown in place of markup blanked before the line's text ("**
  /// TODO " as "- "), or after it ("." ending a headline): they take the
  /// place of as many of the blanks owed to the line's end (see
  /// deferLeading), never more. How many were written.
  size_t writeInPlaceOfLeadingBlanks(std::string_view bytes) {
    deferLeading();
    size_t n = std::min(bytes.size(), leadOwed_);
    leadOwed_ -= n;
    flush(source_.size());
    out_ += bytes.substr(0, n);
    lineHasText_ = true;
    return n;
  }

  std::string take() {
    endLine(source_.size());
    return std::move(out_);
  }

private:
  static bool wordByte(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || (static_cast<unsigned char>(c) & 0x80);
  }

  /// Markup before a line's first text ("<h2>Principle</h2>", "<p>Add",
  /// "\section{Methods}") owes its blanks to the line's end: a heading
  /// stays a heading and a paragraph is not indented, and the line's text
  /// moves left by the markup's length.
  void deferLeading() {
    if (moveLeading_ && !lineHasText_ && owed_) {
      leadOwed_ += owed_;
      owed_ = 0;
      owedPlain_ = false;
    }
  }

  /// Every blank owed goes before the line break at `at` (or the end).
  void endLine(size_t at) {
    out_.append(owed_ + leadOwed_, ' ');
    owed_ = leadOwed_ = 0;
    owedPlain_ = false;
    lineHasText_ = false;
    if (at < source_.size())
      out_ += source_[at];
  }

  /// The blanks owed before source byte `at`: adjacent blanks merge, so
  /// that "OD$_{450}$" does not become a run of spaces (a table's column
  /// break) where the page shows none.
  void flush(size_t at) {
    bool plain = owedPlain_ || at >= source_.size() || source_[at] == '\n' ||
                 source_[at] == '\r';
    if (plain) {
      out_.append(owed_, ' ');
    } else {
      // An odd byte next to a space would make two spaces in a row (a
      // table's column break): the space becomes a no-break one instead.
      if (owed_ % 2 && !out_.empty() && out_.back() == ' ') {
        out_.back() = '\xC2';
        out_ += '\xA0';
        --owed_;
      } else if (owed_ % 2 && at < source_.size() && source_[at] == ' ') {
        ++owed_;
        swallowSpace_ = true;
      }
      // After a full stop or a comma two spaces end the sentence or the
      // clause, as the text has them; the rest stay no-break.
      if (owed_ >= 2 && !out_.empty() &&
          (out_.back() == '.' || out_.back() == ',' || out_.back() == ';' || out_.back() == ':')) {
        out_ += "  ";
        owed_ -= 2;
      }
      for (; owed_ >= 2; owed_ -= 2)
        out_ += "\xC2\xA0";
      if (owed_)
        out_ += ' ';
    }
    owed_ = 0;
    owedPlain_ = false;
  }

  std::string_view source_;
  std::string out_;
  size_t owed_ = 0, leadOwed_ = 0;
  bool moveLeading_ = true;
  bool owedPlain_ = false, lineHasText_ = false, swallowSpace_ = false;
};

bool startsWith(std::string_view text, size_t at, std::string_view prefix) {
  return text.substr(at, prefix.size()) == prefix;
}

//===--- HTML ---------------------------------------------------------------===//

struct Entity {
  std::string_view name, text;
};

constexpr std::array kEntities = {
    Entity{"nbsp", " "},     Entity{"micro", "µ"},   Entity{"mu", "µ"},
    Entity{"deg", "°"},      Entity{"times", "×"},   Entity{"ndash", "–"},
    Entity{"mdash", "—"},    Entity{"minus", "−"},   Entity{"middot", "·"},
    Entity{"amp", "&"},      Entity{"lt", "<"},      Entity{"gt", ">"},
    Entity{"quot", "\""},    Entity{"apos", "'"},    Entity{"plusmn", "±"},
    Entity{"le", "≤"},       Entity{"ge", "≥"},      Entity{"rarr", "→"},
    Entity{"hellip", "…"},   Entity{"lsquo", "‘"},   Entity{"rsquo", "’"},
    Entity{"ldquo", "“"},    Entity{"rdquo", "”"},   Entity{"ensp", " "},
    Entity{"emsp", " "},     Entity{"thinsp", " "},  Entity{"sup2", "²"},
    Entity{"sup3", "³"},     Entity{"alpha", "α"},   Entity{"beta", "β"},
    Entity{"gamma", "γ"},    Entity{"percnt", "%"},  Entity{"copy", "©"},
    Entity{"reg", "®"},      Entity{"asymp", "≈"},   Entity{"frac12", "½"},
};

bool blockTag(std::string_view name) {
  static constexpr std::array names = {
      "p",     "div",   "br",    "hr",     "li",      "ul",      "ol",     "dl",
      "dt",    "dd",    "h1",    "h2",     "h3",      "h4",      "h5",     "h6",
      "table", "thead", "tbody", "tfoot",  "tr",      "td",      "th",     "caption",
      "pre",   "main",  "body",  "html",   "section", "article", "header", "footer",
      "aside", "form",  "figure", "figcaption", "blockquote", "title", "meta", "link",
      "!doctype"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Elements whose content a reader never sees as the page's text.
bool hiddenElement(std::string_view name) {
  return name == "script" || name == "style" || name == "nav" || name == "head";
}

} // namespace

bool looksLikeHtml(std::string_view text) {
  std::string lower = prose::lowerAscii(text);
  int closing = 0;
  for (std::string_view tag : {"</p>", "</li>", "</h1>", "</h2>", "</h3>", "</td>", "</tr>",
                               "</div>", "</table>", "</ol>", "</ul>"})
    for (size_t at = lower.find(tag); at != std::string::npos && closing < 2;
         at = lower.find(tag, at + 1))
      ++closing;
  return closing >= 2;
}

std::string withHtmlAsText(std::string_view text) {
  OffsetKeepingWriter w(text);
  // Ordered lists number their items as a browser does ("3. Add ..."), so
  // "as in step 3" finds its step; the counter of each open list.
  std::vector<int> lists;
  for (size_t i = 0; i < text.size();) {
    if (startsWith(text, i, "<!--")) {
      size_t end = text.find("-->", i + 4);
      end = end == std::string_view::npos ? text.size() : end + 3;
      w.blank(i, end, true);
      i = end;
      continue;
    }
    if (text[i] == '<' && i + 1 < text.size() &&
        (std::isalpha(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '/' ||
         text[i + 1] == '!')) {
      size_t close = text.find('>', i + 1);
      if (close == std::string_view::npos || close - i > 2000) {
        w.copy(i++);
        continue;
      }
      bool closing = text[i + 1] == '/';
      size_t nameStart = i + (closing ? 2 : 1);
      size_t nameEnd = nameStart;
      while (nameEnd < close && (std::isalnum(static_cast<unsigned char>(text[nameEnd])) ||
                                 text[nameEnd] == '!'))
        ++nameEnd;
      std::string name = prose::lowerAscii(text.substr(nameStart, nameEnd - nameStart));
      size_t end = close + 1;
      if (!closing && hiddenElement(name)) {
        std::string lower = prose::lowerAscii(text.substr(end));
        size_t stop = lower.find("</" + name);
        size_t stopEnd = stop == std::string::npos ? std::string::npos : lower.find('>', stop);
        end = stopEnd == std::string::npos ? text.size() : end + stopEnd + 1;
        w.blank(i, end, true);
        i = end;
        continue;
      }
      if (name == "ol" || name == "ul") {
        if (closing) {
          if (!lists.empty())
            lists.pop_back();
        } else {
          lists.push_back(name == "ol" ? 0 : -1);
        }
      }
      if (name == "li" && !closing && !lists.empty()) {
        std::string bullet = lists.back() < 0 ? "- " : std::to_string(++lists.back()) + ". ";
        w.replace(i, end, bullet, true);
        i = end;
        continue;
      }
      w.blank(i, end, blockTag(name));
      i = end;
      continue;
    }
    if (text[i] == '&') {
      size_t semi = text.find(';', i + 1);
      if (semi != std::string_view::npos && semi - i <= 10) {
        std::string_view body = text.substr(i + 1, semi - i - 1);
        std::string decoded;
        if (body.find_first_of(" \t\r\n") != std::string_view::npos)
          body = {};
        if (!body.empty() && body[0] == '#') {
          bool hex = body.size() > 1 && (body[1] == 'x' || body[1] == 'X');
          std::string digits(body.substr(hex ? 2 : 1));
          if (!digits.empty() &&
              std::all_of(digits.begin(), digits.end(), [&](char c) {
                return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                           : std::isdigit(static_cast<unsigned char>(c)) != 0;
              }) &&
              digits.size() <= 7) {
            char bytes[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
            char *next = bytes;
            unsigned long code = std::strtoul(digits.c_str(), nullptr, hex ? 16 : 10);
            if (llvm::ConvertCodePointToUTF8(static_cast<llvm::UTF32>(code), next))
              decoded.assign(bytes, next);
          }
          if (decoded == "\xC2\xA0")
            decoded = " ";
        } else {
          for (const Entity &e : kEntities)
            if (e.name == body)
              decoded = std::string(e.text);
        }
        if (!decoded.empty() && decoded.size() <= semi + 1 - i) {
          w.replace(i, semi + 1, decoded);
          i = semi + 1;
          continue;
        }
      }
    }
    w.copy(i++);
  }
  return w.take();
}

//===--- LaTeX --------------------------------------------------------------===//

namespace {

/// The argument in braces that starts at `at` (after blanks): its inside,
/// and the offset after its closing brace.
struct Group {
  std::string_view inside;
  size_t end = 0;
  bool found = false;
};

Group braceGroup(std::string_view text, size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t'))
    ++at;
  Group g;
  if (at >= text.size() || text[at] != '{')
    return g;
  int depth = 0;
  for (size_t i = at; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] == '{')
      ++depth;
    else if (text[i] == '}' && --depth == 0) {
      g.inside = text.substr(at + 1, i - at - 1);
      g.end = i + 1;
      g.found = true;
      return g;
    }
  }
  return g;
}

/// An optional `[...]` at `at`: the offset after it.
size_t skipOptions(std::string_view text, size_t at) {
  if (at < text.size() && text[at] == '[') {
    size_t close = text.find(']', at);
    if (close != std::string_view::npos && close - at < 200)
      return close + 1;
  }
  return at;
}

/// siunitx's unit macros as printed: `\micro\litre` is "µL",
/// `\milli\gram\per\milli\litre` "mg/mL".
std::string unitText(std::string_view units) {
  static constexpr auto macros = std::to_array<std::pair<std::string_view, std::string_view>>({
      {"micro", "µ"},   {"milli", "m"},       {"nano", "n"},     {"pico", "p"},
      {"kilo", "k"},    {"centi", "c"},       {"deci", "d"},     {"litre", "L"},
      {"liter", "L"},   {"L", "L"},           {"gram", "g"},     {"metre", "m"},
      {"meter", "m"},   {"second", "s"},      {"minute", "min"}, {"hour", "h"},
      {"day", "d"},     {"degreeCelsius", "°C"}, {"celsius", "°C"}, {"degree", "°"},
      {"molar", "M"},   {"Molar", "M"},       {"mole", "mol"},   {"percent", "%"},
      {"per", "/"},     {"rpm", "rpm"},       {"times", "×"},    {"g", "g"},
      {"square", ""},   {"cubic", ""},        {"unit", "U"},     {"hertz", "Hz"},
      {"angstrom", "Å"},
  });
  std::string out;
  for (size_t i = 0; i < units.size();) {
    if (units[i] == '\\') {
      size_t j = i + 1;
      while (j < units.size() && std::isalpha(static_cast<unsigned char>(units[j])))
        ++j;
      std::string_view name = units.substr(i + 1, j - i - 1);
      for (const auto &[macro, shown] : macros)
        if (macro == name)
          out += shown;
      i = j;
      continue;
    }
    if (units[i] != ' ' && units[i] != '{' && units[i] != '}' && units[i] != '~')
      out += units[i];
    else if (units[i] == ' ' && !out.empty() && out.back() != ' ')
      out += ' ';
    ++i;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

std::string plainNumber(std::string_view number) {
  std::string out;
  for (char c : number)
    if (c != ' ' && c != '{' && c != '}' && c != '~')
      out += c;
  return out;
}

/// Macros whose argument is no text a reader sees.
bool argumentHidden(std::string_view name) {
  static constexpr std::array names = {"cite",    "citep", "citet",   "ref",     "eqref",
                                       "autoref", "cref",  "Cref",    "pageref", "label",
                                       "begin",   "end",   "includegraphics", "url",
                                       "documentclass", "usepackage", "bibliography",
                                       "bibliographystyle"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string_view symbolMacro(std::string_view name) {
  static constexpr auto symbols = std::to_array<std::pair<std::string_view, std::string_view>>({
      {"textmu", "µ"},     {"mu", "µ"},          {"textdegree", "°"}, {"degree", "°"},
      {"celsius", "°C"},   {"degreeCelsius", "°C"}, {"times", "×"},   {"pm", "±"},
      {"approx", "~"},     {"le", "≤"},          {"leq", "≤"},        {"ge", "≥"},
      {"geq", "≥"},        {"cdot", "·"},          {"circ", "°"},
  });
  for (const auto &[macro, shown] : symbols)
    if (macro == name)
      return shown;
  return {};
}

} // namespace

bool looksLikeLatex(std::string_view text) {
  int marks = 0;
  for (std::string_view mark : {"\\begin{", "\\section", "\\SI{", "\\si{", "\\SIrange{",
                                "\\qty{", "\\textmu", "\\cite{", "\\ref{", "\\item"})
    if (text.find(mark) != std::string_view::npos)
      ++marks;
  return marks >= 2;
}

std::string withLatexAsText(std::string_view text) {
  OffsetKeepingWriter w(text);
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '%') {
      size_t end = text.find('\n', i);
      end = end == std::string_view::npos ? text.size() : end;
      w.blank(i, end, true);
      i = end;
      continue;
    }
    if (c == '\\' && i + 1 < text.size()) {
      char next = text[i + 1];
      if (!std::isalpha(static_cast<unsigned char>(next))) {
        // "\\" ends a tabular's row; "\%", "\&", "\_" print their sign;
        // "\," and "\ " are spaces.
        if (next == '\\')
          w.blank(i, i + 2, true);
        else if (next == '%' || next == '&' || next == '_' || next == '#' || next == '$' ||
                 next == '{' || next == '}')
          w.replace(i, i + 2, std::string_view(&text[i + 1], 1));
        else
          w.replace(i, i + 2, " ");
        i += 2;
        continue;
      }
      size_t nameEnd = i + 1;
      while (nameEnd < text.size() && std::isalpha(static_cast<unsigned char>(text[nameEnd])))
        ++nameEnd;
      std::string_view name = text.substr(i + 1, nameEnd - i - 1);
      if (name == "SI" || name == "qty" || name == "SIrange" || name == "qtyrange" ||
          name == "si" || name == "unit" || name == "num") {
        size_t at = skipOptions(text, nameEnd);
        bool range = name == "SIrange" || name == "qtyrange";
        int numbers = (name == "si" || name == "unit") ? 0 : range ? 2 : 1;
        bool withUnit = name != "num";
        std::vector<Group> groups;
        for (int k = 0; k < numbers + (withUnit ? 1 : 0); ++k) {
          Group g = braceGroup(text, at);
          if (!g.found)
            break;
          groups.push_back(g);
          at = g.end;
        }
        if (static_cast<int>(groups.size()) == numbers + (withUnit ? 1 : 0)) {
          std::string shown;
          if (numbers >= 1)
            shown += plainNumber(groups[0].inside);
          if (numbers == 2)
            shown += "-" + plainNumber(groups[1].inside);
          if (withUnit) {
            std::string unit = unitText(groups.back().inside);
            // "37 °C", "100 µL", "5 %": a space before the unit, as printed.
            if (!shown.empty() && !unit.empty())
              shown += ' ';
            shown += unit;
          }
          w.replace(i, at, shown);
          i = at;
          continue;
        }
      }
      if (std::string_view symbol = symbolMacro(name); !symbol.empty()) {
        size_t end = nameEnd;
        // "\textmu{}l", "\textdegree{}C": an empty group ends the macro.
        if (startsWith(text, end, "{}"))
          end += 2;
        w.replace(i, end, symbol);
        i = end;
        continue;
      }
      if (argumentHidden(name)) {
        size_t at = skipOptions(text, nameEnd);
        Group g = braceGroup(text, at);
        size_t end = g.found ? g.end : nameEnd;
        w.blank(i, end, name == "begin" || name == "end");
        i = end;
        continue;
      }
      if (name == "item") {
        w.replace(i, nameEnd, "-", true);
        i = nameEnd;
        continue;
      }
      // Formatting and sectioning (`\textbf`, `\section`): the name goes,
      // the argument's text stays.
      w.blank(i, nameEnd);
      i = nameEnd;
      continue;
    }
    if (c == '{' || c == '}' || c == '$' || c == '^' || c == '_') {
      w.blank(i, i + 1);
      ++i;
      continue;
    }
    if (c == '~') {
      w.replace(i, i + 1, " ");
      ++i;
      continue;
    }
    if (c == '&') {
      w.blank(i, i + 1, true);
      ++i;
      continue;
    }
    // "1--2~h" is a range, printed "1–2 h": the numbers join with one dash.
    if (std::isdigit(static_cast<unsigned char>(c)) &&
        (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
      size_t j = i;
      while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.'))
        ++j;
      size_t dashes = startsWith(text, j, "---") ? 3 : startsWith(text, j, "--") ? 2 : 0;
      size_t k = j + dashes;
      if (dashes && k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) {
        while (k < text.size() && (std::isdigit(static_cast<unsigned char>(text[k])) || text[k] == '.'))
          ++k;
        std::string joined(text.substr(i, j - i));
        joined += '-';
        joined += text.substr(j + dashes, k - j - dashes);
        w.replace(i, k, joined);
        i = k;
        continue;
      }
    }
    if (startsWith(text, i, "---") || startsWith(text, i, "--")) {
      size_t n = startsWith(text, i, "---") ? 3 : 2;
      w.replace(i, i + n, n == 3 ? "—" : "-");
      i += n;
      continue;
    }
    w.copy(i++);
  }
  return w.take();
}

//===--- Transcripts --------------------------------------------------------===//

namespace {

/// The length of a timestamp at `at` ("[00:04:20]", "[4:20]", "00:04:20"),
/// with the blanks after it, or 0.
size_t timestampLength(std::string_view line) {
  size_t i = 0;
  bool bracket = i < line.size() && line[i] == '[';
  if (bracket)
    ++i;
  size_t groups = 0;
  while (true) {
    size_t digits = 0;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) && digits < 3) {
      ++i;
      ++digits;
    }
    if (digits == 0)
      return 0;
    ++groups;
    if (i < line.size() && line[i] == ':' && groups < 3) {
      ++i;
      continue;
    }
    break;
  }
  if (groups < 2)
    return 0;
  if (bracket) {
    if (i >= line.size() || line[i] != ']')
      return 0;
    ++i;
  } else if (i < line.size() && line[i] != ' ' && line[i] != '\t') {
    return 0;
  }
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
    ++i;
  return i;
}

/// A speaker's label at the start of `line`: words in capitals (dots,
/// hyphens and apostrophes allowed, at most four) and a colon, with the
/// blanks after it; or 0.
size_t speakerLength(std::string_view line) {
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 40)
    return 0;
  std::string_view label = line.substr(0, colon);
  size_t words = 1, letters = 0;
  for (char c : label) {
    if (c == ' ')
      ++words;
    else if (std::isupper(static_cast<unsigned char>(c)))
      ++letters;
    else if (c != '.' && c != '-' && c != '\'')
      return 0;
  }
  if (letters < 2 || words > 4)
    return 0;
  size_t i = colon + 1;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
    ++i;
  return i;
}

bool captionLabel(std::string_view label) {
  std::string lower = prose::lowerAscii(label);
  while (!lower.empty() && (lower.back() == ':' || lower.back() == ' '))
    lower.pop_back();
  return lower == "on screen" || lower == "onscreen" || lower == "caption" ||
         lower == "text on screen" || lower == "on-screen text" || lower == "lower third" ||
         lower == "super" || lower == "title card" || lower == "graphic";
}

} // namespace

bool looksLikeTranscript(std::string_view text) {
  // A chat's "[10:02] priya.s:" has minutes only; a recording's timestamps
  // count seconds ("[00:04:20]"), or its captions say what is on screen.
  int stamped = 0, withSeconds = 0, captions = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end;
    std::string_view line = text.substr(start, end - start);
    if (size_t stamp = timestampLength(line)) {
      ++stamped;
      std::string_view digits = line.substr(0, stamp);
      withSeconds += std::count(digits.begin(), digits.end(), ':') == 2;
    }
    size_t speaker = speakerLength(line);
    captions += speaker > 0 && captionLabel(line.substr(0, speaker));
    start = end + 1;
  }
  return stamped >= 3 && (withSeconds >= 3 || captions > 0);
}

bool readBackCorrected(std::string_view turn, std::string_view answer) {
  std::string_view t = turn;
  while (!t.empty() && (t.back() == ' ' || t.back() == '\r' || t.back() == '\t'))
    t.remove_suffix(1);
  bool cutOff = t.ends_with("\u2014") || t.ends_with("\u2013") || t.ends_with("--") ||
                t.ends_with(" -") || t.ends_with("...") || t.ends_with("\u2026") ||
                t.ends_with("?");
  if (!cutOff)
    return false;
  std::vector<prose::Token> toks = prose::tokenize(answer);
  size_t k = !toks.empty() && toks[0].is("no") ? 1 : 0;
  while (k < toks.size() && toks[k].kind == prose::Token::Kind::Punct)
    ++k;
  // A lone number word stays a word to the tokenizer ("Ten.").
  static const std::set<std::string, std::less<>> numberWords = {
      "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
      "eleven", "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty",
      "ninety", "hundred"};
  return k < toks.size() && (toks[k].isNumber() || numberWords.count(toks[k].lower)) &&
         (k + 1 == toks.size() || toks[k + 1].kind == prose::Token::Kind::Punct);
}

std::string withTranscriptAsSpeech(std::string_view text) {
  // A timestamp indents what was said, so columns stay exact.
  OffsetKeepingWriter w(text, /*moveLeadingMarkup=*/false);
  // Each line's speaker and what was said, for read-backs corrected by
  // the next speaker (blanked: the value is the one the answer gives).
  struct Turn {
    size_t start, end;
    std::string speaker;
    std::string_view speech;
  };
  std::vector<Turn> turns;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    size_t stamp = timestampLength(line);
    size_t speaker = speakerLength(line.substr(stamp));
    if (line.find_first_not_of(" \t\r") != std::string_view::npos)
      turns.push_back({start, end,
                       speaker ? std::string(prose::trimView(line.substr(stamp, speaker))) : std::string(),
                       line.substr(stamp + speaker)});
    start = end + 1;
  }
  std::set<size_t> readBacks; // line starts
  for (size_t i = 0; i + 1 < turns.size(); ++i)
    if (!turns[i].speaker.empty() && !turns[i + 1].speaker.empty() &&
        turns[i].speaker != turns[i + 1].speaker &&
        readBackCorrected(turns[i].speech, turns[i + 1].speech))
      readBacks.insert(turns[i].start);
  bool inCaption = false;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end;
    std::string_view line = text.substr(start, end - start);
    size_t stamp = timestampLength(line);
    size_t speaker = speakerLength(line.substr(stamp));
    bool blankLine = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (stamp > 0 || blankLine)
      inCaption = false;
    if (speaker > 0 && captionLabel(line.substr(stamp, speaker)))
      inCaption = true;
    if (inCaption || readBacks.count(start)) {
      w.blank(start, end, true);
    } else {
      w.blank(start, start + stamp + speaker, true);
      for (size_t i = start + stamp + speaker; i < end; ++i)
        w.copy(i);
    }
    if (end < text.size())
      w.copy(end);
    start = end + 1;
  }
  return w.take();
}

//===--- Typeset ligatures ---------------------------------------------------===//

std::string withLettersForLigatures(std::string_view text) {
  // U+FB00..U+FB06: ff, fi, fl, ffi, ffl, long s + t, st.
  static constexpr std::array<std::string_view, 7> letters = {"ff", "fi", "fl", "ffi",
                                                              "ffl", "st", "st"};
  OffsetKeepingWriter w(text, false);
  for (size_t i = 0; i < text.size();) {
    if (i + 3 <= text.size() && static_cast<unsigned char>(text[i]) == 0xEF &&
        static_cast<unsigned char>(text[i + 1]) == 0xAC &&
        static_cast<unsigned char>(text[i + 2]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 2]) <= 0x86) {
      w.replace(i, i + 3, letters[static_cast<unsigned char>(text[i + 2]) - 0x80]);
      i += 3;
      continue;
    }
    w.copy(i++);
  }
  return w.take();
}

//===--- A unified diff -------------------------------------------------------===//

bool looksLikeUnifiedDiff(std::string_view text) {
  int hunks = 0, files = 0, changed = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    hunks += line.substr(0, 4) == "@@ -";
    files += line.substr(0, 4) == "+++ " || line.substr(0, 4) == "--- ";
    changed += !line.empty() && (line[0] == '+' || line[0] == '-') &&
               line.substr(0, 3) != "+++" && line.substr(0, 3) != "---";
    start = end + 1;
  }
  return hunks >= 1 && files >= 1 && changed >= 2;
}

namespace {

/// A later diff of the same file changes lines that an earlier one left
/// ("Commit 2/2: Apply suggestion", a pull request's second commit): the
/// file to run has the later version. Each run of removed lines followed by
/// as many added lines pairs them in order; a removed line whose text is
/// the new side of exactly one line of an earlier diff of that file
/// replaces that line's text (where the new text fits in its bytes) or, with
/// no added line after it, blanks it. Maps a line's start to its text after
/// the last change (empty: blanked).
std::map<size_t, std::string> laterDiffChanges(std::string_view text) {
  struct DiffLine {
    size_t start, end;
    char mark; ///< '+', '-', ' '; 0 for a header or a line outside a diff
    int block;
    std::string file;
  };
  std::vector<DiffLine> lines;
  int block = -1;
  bool inDiff = false;
  std::string file;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    char mark = 0;
    if (line.substr(0, 5) == "diff " || (line.substr(0, 4) == "--- " && !inDiff)) {
      ++block;
      inDiff = true;
    } else if (line.substr(0, 4) == "+++ ") {
      file = std::string(line.substr(4));
      if (file.rfind("b/", 0) == 0)
        file.erase(0, 2);
    } else if (line.substr(0, 2) == "@@") {
      inDiff = true;
    } else if (inDiff && !line.empty() && (line[0] == '+' || line[0] == '-' || line[0] == ' ')) {
      mark = line[0];
    } else if (line.substr(0, 6) != "index " && line.substr(0, 4) != "--- ") {
      inDiff = false;
    }
    lines.push_back({start, start + line.size(), mark, block, file});
    start = end + 1;
  }
  auto body = [&](const DiffLine &l) {
    return std::string(prose::trimView(text.substr(l.start + 1, l.end - l.start - 1)));
  };
  std::map<size_t, std::string> changes;
  for (size_t i = 0; i < lines.size();) {
    if (lines[i].mark != '-' || lines[i].block <= 0) {
      ++i;
      continue;
    }
    size_t removedEnd = i;
    while (removedEnd < lines.size() && lines[removedEnd].mark == '-')
      ++removedEnd;
    size_t addedEnd = removedEnd;
    while (addedEnd < lines.size() && lines[addedEnd].mark == '+')
      ++addedEnd;
    size_t removed = removedEnd - i, added = addedEnd - removedEnd;
    if (added == removed || added == 0) {
      for (size_t k = 0; k < removed; ++k) {
        const DiffLine &gone = lines[i + k];
        std::string old = body(gone);
        const DiffLine *earlier = nullptr;
        int matches = 0;
        for (const DiffLine &l : lines)
          if (l.block >= 0 && l.block < gone.block && l.file == gone.file &&
              (l.mark == '+' || l.mark == ' ') && !old.empty() && body(l) == old) {
            earlier = &l;
            ++matches;
          }
        if (matches != 1)
          continue;
        std::string now = added ? body(lines[removedEnd + k]) : std::string();
        if (now.size() <= earlier->end - earlier->start)
          changes[earlier->start] = now;
      }
    }
    i = addedEnd;
  }
  return changes;
}

} // namespace

std::string withDiffAfterChange(std::string_view text) {
  OffsetKeepingWriter w(text, /*moveLeadingMarkup=*/false);
  std::map<size_t, std::string> changed = laterDiffChanges(text);
  // A commit's header and message ("commit 7c2e91b", "Author:", the
  // message up to the diff) tell what changed; the file after the change
  // tells the procedure.
  bool inCommit = false, inDiff = false;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    bool commitLine = line.substr(0, 7) == "commit " && line.size() >= 14 &&
                      std::all_of(line.begin() + 7, line.begin() + 14, [](char c) {
                        return std::isxdigit(static_cast<unsigned char>(c));
                      });
    if (commitLine)
      inCommit = true;
    if (line.substr(0, 5) == "diff " || line.substr(0, 4) == "--- " || line.substr(0, 4) == "@@ -")
      inCommit = false, inDiff = true;
    bool header = line.substr(0, 5) == "diff " || line.substr(0, 6) == "index " ||
                  line.substr(0, 4) == "--- " || line.substr(0, 4) == "+++ " ||
                  line.substr(0, 2) == "@@" || line.substr(0, 9) == "new file " ||
                  line.substr(0, 13) == "deleted file ";
    auto later = changed.find(start);
    if (later != changed.end()) {
      // The line as the later change has it, from the marker's column on.
      if (!later->second.empty())
        w.replace(start, start + later->second.size(), later->second, true);
      w.blank(start + later->second.size(), end, true);
    } else if (inCommit || header || (inDiff && !line.empty() && line[0] == '-')) {
      w.blank(start, end, true);
    } else if (inDiff && !line.empty() && (line[0] == '+' || line[0] == ' ')) {
      // The added line as the file has it: the marker's column a blank,
      // like a context line's.
      w.replace(start, start + 1, " ", true);
      for (size_t i = start + 1; i < end; ++i)
        w.copy(i);
    } else {
      for (size_t i = start; i < end; ++i)
        w.copy(i);
    }
    if (end < text.size())
      w.copy(end);
    start = end + 1;
  }
  return w.take();
}

namespace {

struct HistoryLine {
  std::string_view text; ///< without its line break
  uint32_t number = 0;   ///< 1-based, in the source
};

struct Hunk {
  size_t oldStart = 0, oldCount = 0, newCount = 0;
  std::vector<size_t> lines; ///< indices into the source's lines
};

struct FileDiff {
  std::string file;
  std::string oldBlob, newBlob; ///< from `index 3d7dc80..b1cc167`
  bool creates = false;         ///< `--- /dev/null`
  std::vector<Hunk> hunks;
};

std::string_view withoutCr(std::string_view line) {
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  return line;
}

/// "@@ -30,3 +30,3 @@ title": the old side's start and both counts (a
/// missing count is 1).
std::optional<Hunk> hunkHeader(std::string_view line) {
  if (line.substr(0, 4) != "@@ -")
    return std::nullopt;
  auto number = [&](size_t &at, size_t &out) {
    size_t begin = at;
    out = 0;
    while (at < line.size() && std::isdigit(static_cast<unsigned char>(line[at])))
      out = out * 10 + static_cast<size_t>(line[at++] - '0');
    return at > begin && out < (1u << 24);
  };
  Hunk h;
  size_t at = 4, newStart = 0;
  h.oldCount = h.newCount = 1;
  if (!number(at, h.oldStart))
    return std::nullopt;
  if (at < line.size() && line[at] == ',' && !number(++at, h.oldCount))
    return std::nullopt;
  if (line.substr(at, 2) != " +" || !number(at += 2, newStart))
    return std::nullopt;
  if (at < line.size() && line[at] == ',' && !number(++at, h.newCount))
    return std::nullopt;
  if (line.substr(at, 3) != " @@")
    return std::nullopt;
  return h;
}

std::string_view rightTrimmed(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

} // namespace

std::optional<RebuiltText> filesAfterHistory(std::string_view text) {
  std::vector<HistoryLine> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back({withoutCr(text.substr(start, end - start)),
                     static_cast<uint32_t>(lines.size() + 1)});
    start = end + 1;
  }
  std::vector<FileDiff> diffs;
  size_t preamble = lines.size(); ///< lines before the first commit or diff
  for (size_t i = 0; i < lines.size();) {
    std::string_view line = lines[i].text;
    bool commit = line.substr(0, 7) == "commit " || line.substr(0, 5) == "From ";
    bool diffStart = line.substr(0, 5) == "diff " || line.substr(0, 4) == "--- ";
    if ((commit || diffStart) && preamble == lines.size())
      preamble = i;
    if (!diffStart) {
      ++i;
      continue;
    }
    // The header: `diff`, `new file mode`, `index`, `---`, `+++`.
    FileDiff d;
    bool sawOld = false, sawNew = false;
    for (; i < lines.size() && !hunkHeader(lines[i].text); ++i) {
      std::string_view h = lines[i].text;
      if (h.substr(0, 6) == "index ") {
        size_t dots = h.find("..");
        size_t space = h.find(' ', 6);
        if (dots != std::string_view::npos) {
          d.oldBlob = std::string(h.substr(6, dots - 6));
          d.newBlob = std::string(h.substr(dots + 2, space == std::string_view::npos
                                                         ? std::string_view::npos
                                                         : space - dots - 2));
        }
      } else if (h.substr(0, 4) == "--- ") {
        sawOld = true;
        d.creates = h.substr(4, 9) == "/dev/null";
      } else if (h.substr(0, 4) == "+++ ") {
        sawNew = true;
        d.file = std::string(rightTrimmed(h.substr(4)));
        if (d.file.rfind("b/", 0) == 0)
          d.file.erase(0, 2);
      } else if (!(h.substr(0, 5) == "diff " || h.substr(0, 4) == "new " ||
                   h.substr(0, 8) == "deleted " || h.substr(0, 4) == "old " ||
                   h.substr(0, 11) == "similarity ")) {
        break;
      }
    }
    if (!sawOld || !sawNew)
      return std::nullopt;
    // The hunks, each as long as its counts say.
    while (i < lines.size()) {
      std::optional<Hunk> h = hunkHeader(lines[i].text);
      if (!h)
        break;
      ++i;
      size_t oldLeft = h->oldCount, newLeft = h->newCount;
      while (i < lines.size() && (oldLeft > 0 || newLeft > 0)) {
        std::string_view l = lines[i].text;
        char mark = l.empty() ? ' ' : l[0];
        if (l.substr(0, 2) == "\\ ") {
          ++i; // "\ No newline at end of file"
          continue;
        }
        if (mark == ' ' && oldLeft > 0 && newLeft > 0)
          --oldLeft, --newLeft;
        else if (mark == '-' && oldLeft > 0)
          --oldLeft;
        else if (mark == '+' && newLeft > 0)
          --newLeft;
        else
          return std::nullopt; // the counts and the lines disagree
        h->lines.push_back(i++);
      }
      if (oldLeft > 0 || newLeft > 0)
        return std::nullopt;
      while (i < lines.size() && lines[i].text.substr(0, 2) == "\\ ")
        ++i;
      d.hunks.push_back(std::move(*h));
    }
    diffs.push_back(std::move(d));
  }
  if (diffs.size() < 2)
    return std::nullopt;

  // The order of the changes: the `index` lines chain each file's blobs;
  // without them, the text's order, backwards when a file is created after
  // its changes (git log's newest first).
  std::vector<size_t> order;
  bool chained = std::all_of(diffs.begin(), diffs.end(),
                             [](const FileDiff &d) { return !d.oldBlob.empty(); });
  if (chained) {
    std::vector<bool> used(diffs.size(), false);
    for (size_t c = 0; c < diffs.size(); ++c) {
      if (!diffs[c].creates)
        continue;
      used[c] = true;
      order.push_back(c);
      for (size_t at = c;;) {
        size_t next = diffs.size();
        for (size_t k = 0; k < diffs.size(); ++k)
          if (!used[k] && diffs[k].file == diffs[at].file &&
              diffs[k].oldBlob == diffs[at].newBlob) {
            if (next != diffs.size())
              return std::nullopt; // two changes of one version
            next = k;
          }
        if (next == diffs.size())
          break;
        used[next] = true;
        order.push_back(next);
        at = next;
      }
    }
    if (order.size() != diffs.size())
      return std::nullopt;
  } else {
    for (size_t k = 0; k < diffs.size(); ++k)
      order.push_back(k);
    std::map<std::string, std::pair<size_t, size_t>> firstAndCreation;
    bool backwards = false, forwards = false;
    for (size_t k = 0; k < diffs.size(); ++k) {
      auto [it, fresh] = firstAndCreation.try_emplace(diffs[k].file, k, diffs.size());
      if (diffs[k].creates) {
        bool last = std::none_of(diffs.begin() + static_cast<long>(k) + 1, diffs.end(),
                                 [&](const FileDiff &d) { return d.file == diffs[k].file; });
        backwards |= last && !fresh;
        forwards |= fresh;
      }
    }
    if (backwards == forwards)
      return std::nullopt;
    if (backwards)
      std::reverse(order.begin(), order.end());
  }

  // Replay: each file as lines with where each is written.
  struct FileLine {
    std::string_view text;
    RebuiltText::Origin origin;
  };
  std::map<std::string, std::vector<FileLine>> files;
  std::vector<std::string> created; ///< in the order of creation
  std::map<std::string, int> changes;
  for (size_t k : order) {
    const FileDiff &d = diffs[k];
    if (d.creates) {
      if (files.count(d.file))
        return std::nullopt;
      files[d.file];
      created.push_back(d.file);
    } else if (!files.count(d.file)) {
      return std::nullopt; // a change of a file the text does not create
    }
    ++changes[d.file];
    std::vector<FileLine> &file = files[d.file];
    long shift = 0; // lines the diff's earlier hunks added
    for (const Hunk &h : d.hunks) {
      long at = static_cast<long>(h.oldCount == 0 ? h.oldStart : h.oldStart - 1) + shift;
      if (at < 0 || at > static_cast<long>(file.size()))
        return std::nullopt;
      auto pos = static_cast<size_t>(at);
      for (size_t index : h.lines) {
        std::string_view l = lines[index].text;
        char mark = l.empty() ? ' ' : l[0];
        std::string_view body = l.empty() ? l : l.substr(1);
        if (mark == '+') {
          file.insert(file.begin() + static_cast<long>(pos),
                      {body, {lines[index].number, 2}});
          ++pos, ++shift;
          continue;
        }
        if (pos >= file.size() || rightTrimmed(file[pos].text) != rightTrimmed(body))
          return std::nullopt; // the hunk does not fit the file as it is
        if (mark == '-') {
          file.erase(file.begin() + static_cast<long>(pos));
          --shift;
        } else {
          ++pos;
        }
      }
    }
  }
  if (std::none_of(changes.begin(), changes.end(), [](const auto &c) { return c.second >= 2; }))
    return std::nullopt;

  RebuiltText out;
  auto emit = [&](std::string_view line, RebuiltText::Origin origin) {
    out.text += line;
    out.text += '\n';
    out.origins.push_back(origin);
  };
  for (size_t i = 0; i < preamble && i < lines.size(); ++i)
    emit(lines[i].text, {lines[i].number, 1});
  for (const std::string &name : created) {
    if (!out.text.empty() && !files[name].empty())
      emit("", files[name].front().origin);
    for (const FileLine &l : files[name])
      emit(l.text, l.origin);
  }
  return out;
}

//===--- A text tree (a mind map) ---------------------------------------------===//

namespace {

struct TreeLine {
  size_t start = 0, end = 0, text = 0; ///< the line and where its node's text starts
  int depth = -1;                      ///< -1: no tree line (the root, prose)
};

/// The branch drawing before a node's text ("│   ├── ", "|-- "): its
/// length in bytes and its width in columns, or 0 when the line has none.
std::pair<size_t, size_t> branchPrefix(std::string_view line) {
  size_t bytes = 0, columns = 0;
  bool branch = false;
  while (bytes < line.size()) {
    std::string_view rest = line.substr(bytes);
    if (rest.substr(0, 3) == "\xE2\x94\x82" || rest.substr(0, 3) == "\xE2\x94\x9C" ||
        rest.substr(0, 3) == "\xE2\x94\x94" || rest.substr(0, 3) == "\xE2\x94\x80") {
      branch = branch || rest.substr(0, 3) != "\xE2\x94\x82";
      bytes += 3;
      ++columns;
    } else if (rest.substr(0, 4) == "|-- " || rest.substr(0, 4) == "`-- " ||
               rest.substr(0, 4) == "+-- ") {
      branch = true;
      bytes += 3;
      columns += 3;
    } else if (rest[0] == ' ' || rest[0] == '|') {
      ++bytes;
      ++columns;
    } else {
      break;
    }
  }
  return branch ? std::pair{bytes, columns} : std::pair<size_t, size_t>{0, 0};
}

} // namespace

namespace {

std::string_view withoutIndent(std::string_view line) {
  size_t at = line.find_first_not_of(" \t");
  return at == std::string_view::npos ? std::string_view{} : line.substr(at);
}

/// The stars of a headline ("** TODO Wash"), 0 when the line is none.
size_t orgHeadlineStars(std::string_view line) {
  size_t stars = 0;
  while (stars < line.size() && line[stars] == '*')
    ++stars;
  return stars > 0 && stars < line.size() && line[stars] == ' ' ? stars : 0;
}

bool orgPlanningLine(std::string_view line) {
  std::string_view rest = withoutIndent(line);
  for (std::string_view word : {"CLOCK:", "CLOSED:", "SCHEDULED:", "DEADLINE:"})
    if (rest.starts_with(word))
      return true;
  return false;
}

} // namespace

bool looksLikeOrgMode(std::string_view text) {
  int headlines = 0, marks = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (size_t stars = orgHeadlineStars(line)) {
      ++headlines;
      std::string_view title = line.substr(stars + 1);
      marks += title.starts_with("TODO ") || title.starts_with("DONE ");
    }
    std::string_view rest = withoutIndent(line);
    marks += rest.starts_with("#+") || rest == ":PROPERTIES:" || orgPlanningLine(line);
    start = end + 1;
  }
  return headlines >= 2 && marks >= 2;
}

std::string withOrgModeAsText(std::string_view text) {
  OffsetKeepingWriter w(text);
  bool inSource = false, inDrawer = false;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    std::string_view rest = withoutIndent(line);
    std::string upper;
    for (char c : rest.substr(0, 12))
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    bool hide = false;
    if (inSource) {
      hide = true;
      inSource = !upper.starts_with("#+END_SRC");
    } else if (inDrawer) {
      hide = true;
      inDrawer = rest.substr(0, 5) != ":END:";
    } else if (upper.starts_with("#+BEGIN_SRC")) {
      hide = inSource = true;
    } else if (rest == ":PROPERTIES:" || rest == ":LOGBOOK:") {
      hide = inDrawer = true;
    } else if (orgPlanningLine(line)) {
      hide = true;
    } else if (upper.starts_with("#+TITLE:")) {
      size_t keyword = line.find(':') + 1;
      w.blank(start, start + keyword, true);
      for (size_t i = start + keyword; i < end; ++i)
        w.copy(i);
    } else if (rest.starts_with("#+") || rest.starts_with("# ")) {
      hide = true; // keywords, and comments
    } else if (size_t stars = orgHeadlineStars(line)) {
      // "** TODO [#A] Wash 3 times   :robot:": the keyword and the
      // priority are blanks, the tags too.
      size_t title = stars + 1;
      for (std::string_view keyword : {"TODO ", "DONE "})
        if (line.substr(title).starts_with(keyword))
          title += keyword.size();
      if (line.substr(title, 3) == "[#" && line.size() > title + 4 && line[title + 4] == ']')
        title += 5;
      size_t textEnd = line.size();
      size_t tags = line.find_last_not_of(" \t\r");
      if (tags != std::string_view::npos && line[tags] == ':') {
        size_t open = line.rfind(' ', tags);
        std::string_view tagText =
            open == std::string_view::npos ? std::string_view{} : line.substr(open + 1, tags - open);
        if (tagText.size() > 2 && tagText.front() == ':' &&
            tagText.find(' ') == std::string_view::npos)
          textEnd = open;
      }
      // A deeper headline is an item of its parent's list ("- " at the
      // line's start, so that its body, indented under the stars,
      // continues it) and a sentence of its own: its body starts the next.
      w.blank(start, start + title, true);
      size_t last = line.find_last_not_of(" \t\r", textEnd == 0 ? 0 : textEnd - 1);
      bool ends = last != std::string_view::npos && last >= title &&
                  std::string_view(".:;!?").find(line[last]) == std::string_view::npos;
      if (ends)
        textEnd = last + 1;
      bool item = stars > 1 && w.writeInPlaceOfLeadingBlanks("- ") == 2;
      for (size_t i = start + title; i < start + textEnd; ++i)
        w.copy(i);
      w.blank(start + textEnd, end, true);
      if (item && ends)
        w.writeInPlaceOfLeadingBlanks(".");
    } else {
      for (size_t i = start; i < end; ++i)
        w.copy(i);
    }
    if (hide)
      w.blank(start, end, true);
    if (end < text.size())
      w.copy(end);
    start = end + 1;
  }
  return w.take();
}

namespace {

/// `.. |name| unicode:: U+00B5 L` or `.. |name| replace:: text` on a line
/// of its own: the name and what it stands for.
std::optional<std::pair<std::string, std::string>> rstSubstitution(std::string_view line) {
  size_t at = line.find_first_not_of(" \t");
  if (at == std::string_view::npos || line.substr(at, 4) != ".. |")
    return std::nullopt;
  size_t nameEnd = line.find('|', at + 4);
  if (nameEnd == std::string_view::npos || nameEnd == at + 4)
    return std::nullopt;
  std::string name(line.substr(at + 4, nameEnd - at - 4));
  std::string_view rest = line.substr(nameEnd + 1);
  size_t kind = rest.find_first_not_of(' ');
  if (kind == std::string_view::npos)
    return std::nullopt;
  rest = rest.substr(kind);
  std::string shown;
  if (rest.substr(0, 9) == "replace::") {
    std::string_view body = rest.substr(9);
    size_t first = body.find_first_not_of(' ');
    size_t last = body.find_last_not_of(" \r");
    if (first == std::string_view::npos)
      return std::nullopt;
    shown = std::string(body.substr(first, last - first + 1));
  } else if (rest.substr(0, 9) == "unicode::") {
    // Items separated by spaces join without them; a code is U+XXXX,
    // 0xXX, \uXXXX or &#xXX; anything else is itself.
    std::string_view body = rest.substr(9);
    for (size_t i = 0; i < body.size();) {
      size_t start = body.find_first_not_of(" \r", i);
      if (start == std::string_view::npos)
        break;
      size_t end = std::min(body.find(' ', start), body.size());
      std::string_view item = body.substr(start, end - start);
      if (item.substr(0, 3) == ".. ")
        break; // a comment after the codes
      std::string_view digits;
      for (std::string_view prefix : {"U+", "u+", "0x", "0X", "\\u", "\\x", "&#x"})
        if (item.substr(0, prefix.size()) == prefix)
          digits = item.substr(prefix.size());
      if (!digits.empty() && digits.back() == ';')
        digits.remove_suffix(1);
      bool hex = !digits.empty() && digits.size() <= 6 &&
                 std::all_of(digits.begin(), digits.end(),
                             [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
      if (hex) {
        char bytes[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
        char *next = bytes;
        unsigned long code = std::strtoul(std::string(digits).c_str(), nullptr, 16);
        if (llvm::ConvertCodePointToUTF8(static_cast<llvm::UTF32>(code), next))
          shown.append(bytes, next);
      } else {
        shown += item;
      }
      i = end;
    }
  } else {
    return std::nullopt;
  }
  if (shown.empty())
    return std::nullopt;
  return std::pair{std::move(name), std::move(shown)};
}

} // namespace

bool looksLikeRstSubstitutions(std::string_view text) {
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    if (rstSubstitution(text.substr(start, end - start)))
      return true;
    start = end + 1;
  }
  return false;
}

std::string withRstSubstitutions(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> table;
  std::vector<std::pair<size_t, size_t>> definitions;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    if (auto found = rstSubstitution(text.substr(start, end - start))) {
      table.push_back(std::move(*found));
      definitions.emplace_back(start, end);
    }
    start = end + 1;
  }
  OffsetKeepingWriter w(text, /*moveLeadingMarkup=*/false);
  size_t nextDefinition = 0;
  for (size_t i = 0; i < text.size();) {
    if (nextDefinition < definitions.size() && i == definitions[nextDefinition].first) {
      w.blank(i, definitions[nextDefinition].second, true);
      i = definitions[nextDefinition++].second;
      continue;
    }
    if (text[i] == '|') {
      size_t close = text.find('|', i + 1);
      if (close != std::string_view::npos && close > i + 1 &&
          text.substr(i + 1, close - i - 1).find_first_of(" \n") == std::string_view::npos) {
        std::string_view name = text.substr(i + 1, close - i - 1);
        auto entry = std::find_if(table.begin(), table.end(),
                                  [&](const auto &e) { return e.first == name; });
        if (entry != table.end()) {
          size_t end = close + 1;
          // `|name|_` is also a link; the page shows the text.
          if (end < text.size() && text[end] == '_')
            ++end;
          w.replace(i, end, entry->second);
          i = end;
          continue;
        }
      }
    }
    w.copy(i);
    ++i;
  }
  return w.take();
}

bool looksLikeTextTree(std::string_view text) {
  int branches = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    branches += branchPrefix(text.substr(start, end - start)).first > 0;
    start = end + 1;
  }
  return branches >= 5;
}

std::string withTextTreeAsOutline(std::string_view text) {
  std::vector<TreeLine> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    TreeLine line{start, end, start, -1};
    auto [bytes, columns] = branchPrefix(text.substr(start, end - start));
    if (bytes > 0) {
      line.text = start + bytes;
      while (line.text < end && text[line.text] == ' ')
        ++line.text;
      line.depth = static_cast<int>((columns + 3) / 4);
    }
    lines.push_back(line);
    start = end + 1;
  }
  auto childrenOf = [&](size_t k) {
    std::vector<size_t> children;
    for (size_t c = k + 1; c < lines.size() && lines[c].depth > lines[k].depth; ++c)
      if (lines[c].depth == lines[k].depth + 1)
        children.push_back(c);
    return children;
  };
  auto isLeaf = [&](size_t k) { return childrenOf(k).empty(); };
  // A node whose children are all leaves tells one step over its lines
  // ("incubate" over "37 °C, lid on, dark" and "3 h"): its children go on
  // its item, after a comma.
  std::vector<bool> continues(lines.size(), false);
  for (size_t k = 0; k < lines.size(); ++k) {
    if (lines[k].depth < 2)
      continue;
    std::vector<size_t> children = childrenOf(k);
    if (!children.empty() && std::all_of(children.begin(), children.end(), isLeaf))
      for (size_t c : children)
        continues[c] = true;
  }
  OffsetKeepingWriter w(text, /*moveLeadingMarkup=*/false);
  for (size_t k = 0; k < lines.size(); ++k) {
    const TreeLine &line = lines[k];
    std::string_view nodeText = text.substr(line.text, line.end - line.text);
    std::string written;
    if (line.depth < 0) {
      for (size_t i = line.start; i < line.end; ++i)
        w.copy(i);
    } else {
      if (line.depth == 1 && !isLeaf(k)) {
        // A main branch is a section: its name a heading ("Day 2 (Tue) —
        // treat:", "Notes:").
        written = std::string(nodeText);
        if (!written.empty() && written.back() != ':')
          written += ':';
      } else if (continues[k]) {
        written = std::string(2 * static_cast<size_t>(line.depth - 2) + 2, ' ') + ", " +
                  std::string(nodeText);
      } else {
        written = std::string(2 * static_cast<size_t>(std::max(line.depth - 2, 0)), ' ') + "- " +
                  std::string(nodeText);
      }
      if (written.size() > line.end - line.start)
        written = std::string(nodeText); // no room for the marks: the text alone
      w.replace(line.start, line.end, written, true);
    }
    if (line.end < text.size())
      w.copy(line.end);
  }
  return w.take();
}

//===--- A liquid handler's XML method ---------------------------------------===//

namespace {

struct XmlElement {
  size_t begin = 0, end = 0; ///< `<` .. one past `>`
  std::string name;
  bool closing = false;
  std::vector<std::pair<std::string, std::string>> attributes;

  const std::string *get(std::initializer_list<std::string_view> keys) const {
    for (std::string_view key : keys)
      for (const auto &[k, v] : attributes)
        if (prose::lowerAscii(k) == key)
          return &v;
    return nullptr;
  }
};

/// The element that starts at `at` (a `<` followed by a letter or `/`),
/// its attributes with quoted values; nullopt when it does not close.
std::optional<XmlElement> elementAt(std::string_view text, size_t at) {
  XmlElement e;
  e.begin = at;
  size_t i = at + 1;
  if (i < text.size() && text[i] == '/') {
    e.closing = true;
    ++i;
  }
  size_t nameStart = i;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) ||
                             text[i] == '_' || text[i] == '-' || text[i] == ':'))
    ++i;
  if (i == nameStart)
    return std::nullopt;
  e.name = std::string(text.substr(nameStart, i - nameStart));
  while (i < text.size() && i - at < 4000) {
    char c = text[i];
    if (c == '>') {
      e.end = i + 1;
      return e;
    }
    if (std::isalpha(static_cast<unsigned char>(c))) {
      size_t keyStart = i;
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) ||
                                 text[i] == '_' || text[i] == '-' || text[i] == ':'))
        ++i;
      std::string key(text.substr(keyStart, i - keyStart));
      if (i + 1 < text.size() && text[i] == '=' && (text[i + 1] == '"' || text[i + 1] == '\'')) {
        char quote = text[i + 1];
        size_t close = text.find(quote, i + 2);
        if (close == std::string_view::npos)
          return std::nullopt;
        // A value over a line break (a long message, a quote left open)
        // is one line of the sentence it becomes.
        std::string value(text.substr(i + 2, close - i - 2));
        for (char &v : value)
          if (v == '\n' || v == '\r' || v == '\t')
            v = ' ';
        e.attributes.emplace_back(std::move(key), std::move(value));
        i = close + 1;
      }
      continue;
    }
    ++i;
  }
  return std::nullopt;
}

bool stepElement(const XmlElement &e) {
  std::string name = prose::lowerAscii(e.name);
  return !e.closing && e.attributes.size() >= 2 &&
         (name == "step" || name == "action" || name == "command" || name == "operation" ||
          name == "task");
}

/// "PT1H30M20S" as "1 h 30 min 20 s"; empty when it is no ISO 8601
/// duration or lasts nothing.
std::string isoDuration(std::string_view v) {
  if (v.size() < 3 || v[0] != 'P')
    return {};
  std::string out;
  bool time = false, any = false;
  std::string number;
  for (size_t i = 1; i < v.size(); ++i) {
    char c = v[i];
    if (c == 'T') {
      time = true;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      number += c;
      continue;
    }
    if (number.empty())
      return {};
    const char *unit = c == 'H' ? "h" : c == 'S' ? "s" : c == 'D' ? "d" : c == 'M' ? (time ? "min" : "") : "";
    if (!*unit)
      return {};
    if (std::strtod(number.c_str(), nullptr) > 0) {
      out += (out.empty() ? "" : " ") + number + " " + unit;
      any = true;
    }
    number.clear();
  }
  return any && number.empty() ? out : std::string();
}

/// "37 C", "405 nm", "300 uL": a number with its unit already written.
bool numberWithUnit(const std::string &v) {
  char *end = nullptr;
  std::strtod(v.c_str(), &end);
  return !v.empty() && end && end != v.c_str() && *end == ' ' && end[1] != '\0';
}

bool isNumber(const std::string &v) {
  char *end = nullptr;
  std::strtod(v.c_str(), &end);
  return !v.empty() && end && *end == '\0';
}

/// The words of a CamelCase type ("UserPrompt" -> "User prompt").
std::string typeWords(const std::string &type) {
  std::string out;
  for (size_t i = 0; i < type.size(); ++i) {
    char c = type[i];
    if (i > 0 && std::isupper(static_cast<unsigned char>(c)) &&
        std::islower(static_cast<unsigned char>(type[i - 1])))
      out += ' ', c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += c;
  }
  return out;
}

/// `sentence` written over source bytes [from, end): each line of the span
/// takes what fits of it (a break between words), the rest of each line is
/// blank, and the lines after the first keep their indentation, so the
/// sentence reads as wrapped.
void writeOver(OffsetKeepingWriter &w, std::string_view text, size_t from, size_t end,
               const std::string &sentence) {
  size_t said = 0;
  while (from < end) {
    size_t lineEnd = text.find_first_of("\r\n", from);
    if (lineEnd == std::string_view::npos || lineEnd > end)
      lineEnd = end;
    size_t room = lineEnd - from;
    size_t take = 0;
    if (said < sentence.size()) {
      take = std::min(room, sentence.size() - said);
      if (said + take < sentence.size() && sentence[said + take] != ' ') {
        // A word that does not fit goes to the next line whole ("{" is a
        // line of a JSON object too short for any word).
        size_t space = sentence.rfind(' ', said + take);
        take = space != std::string::npos && space >= said ? space - said + 1 : 0;
      }
      // Never cut a UTF-8 character.
      while (take > 0 && said + take < sentence.size() &&
             (static_cast<unsigned char>(sentence[said + take]) & 0xC0) == 0x80)
        --take;
    }
    w.replace(from, lineEnd, std::string_view(sentence).substr(said, take), true);
    said += take;
    if (lineEnd >= end)
      break;
    w.copy(lineEnd);
    from = lineEnd + 1;
    while (from < end && (text[from] == ' ' || text[from] == '\t'))
      w.copy(from++);
  }
}

/// The objects of a JSON document's array of steps ("steps": [{...},
/// ...], or "procedure", "method", "actions"): each object's span in the
/// text and its value. Strings are skipped as JSON writes them.
/// A step object that says what it does: a key naming the operation, with
/// words as its value.
bool namesOperation(const nlohmann::json &step) {
  for (const char *key : {"op", "type", "action", "operation", "step_type", "command", "kind"})
    if (step.contains(key) && step[key].is_string())
      return true;
  return false;
}

/// The objects of the JSON array that opens at `open` (a '['), each with
/// its span in the text; strings are skipped as JSON writes them.
std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> arrayObjects(std::string_view text,
                                                                             size_t open) {
  std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> objects;
  int depth = 0;
  size_t objectStart = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '[' || c == '{') {
      if (depth == 1 && c == '{')
        objectStart = i;
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
      if (depth == 1 && c == '}') {
        nlohmann::json object =
            nlohmann::json::parse(text.substr(objectStart, i + 1 - objectStart), nullptr, false);
        if (object.is_object())
          objects.push_back({{objectStart, i + 1}, std::move(object)});
      }
      if (depth <= 0)
        break;
    }
  }
  return objects;
}

std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> jsonSteps(std::string_view text) {
  std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> steps;
  for (std::string_view key : {"\"steps\"", "\"procedure\"", "\"method_steps\"", "\"actions\"",
                               "\"protocol_steps\""}) {
    for (size_t at = text.find(key); at != std::string_view::npos && steps.empty();
         at = text.find(key, at + 1)) {
      size_t k = at + key.size();
      while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n'))
        ++k;
      if (k >= text.size() || text[k] != ':')
        continue;
      ++k;
      while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k])))
        ++k;
      if (k >= text.size() || text[k] != '[')
        continue;
      steps = arrayObjects(text, k);
    }
    if (!steps.empty())
      break;
  }
  return steps;
}

/// A JSON step as the attributes of an exported step element: a quantity
/// object ({"value": 100, "unit": "uL"}) as the value and KEYunit, a text
/// value ({"text": "overnight"}) as its text, an object of other fields
/// ("incubation": {"duration": ..., "temperature": ...}) as its fields.
void flattenJsonStep(const nlohmann::json &object, XmlElement &e) {
  // "reference_wavelength", "volumeUl": keys compared lower case, without
  // separators.
  auto normal = [](const std::string &key) {
    std::string out;
    for (char c : prose::lowerAscii(key))
      if (c != '_' && c != '-' && c != ' ')
        out += c;
    return out;
  };
  auto has = [&](const std::string &key) { return e.get({normal(key)}) != nullptr; };
  auto scalar = [](const nlohmann::json &v) -> std::optional<std::string> {
    if (v.is_string())
      return v.get<std::string>();
    if (v.is_number())
      return formatNumber(v.get<double>());
    if (v.is_boolean())
      return std::string(v.get<bool>() ? "true" : "false");
    return std::nullopt;
  };
  // "duration_s": 60, "temp_c": 30, "volume_ul": 20: a number whose key
  // names its unit is the quantity under the key without it, as
  // {"value", "unit"} is ("volumeul" stays a key the sentence knows).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> unitSuffixes = {{
      {"_s", "s"}, {"_sec", "s"}, {"_min", "min"}, {"_h", "h"}, {"_hr", "h"}, {"_c", "°C"},
      {"_degc", "°C"}, {"_rpm", "rpm"}, {"_ml", "mL"}, {"_nm", "nm"}, {"_ul", "uL"}}};
  for (const auto &[key, value] : object.items()) {
    if (has(key))
      continue;
    if (std::optional<std::string> v = scalar(value)) {
      std::string lower = prose::lowerAscii(key);
      for (const auto &[suffix, unit] : unitSuffixes)
        if (isNumber(*v) && lower.size() > suffix.size() + 1 &&
            lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0 &&
            lower != "volume_ul" && lower != "wavelength_nm") {
          std::string base = normal(lower.substr(0, lower.size() - suffix.size()));
          if (!has(base)) {
            e.attributes.emplace_back(base, *v);
            e.attributes.emplace_back(base + "unit", std::string(unit));
          }
          break;
        }
      e.attributes.emplace_back(normal(key), *v);
      continue;
    }
    if (!value.is_object())
      continue;
    if (value.contains("value")) {
      if (std::optional<std::string> v = scalar(value["value"]))
        e.attributes.emplace_back(normal(key), *v);
      if (value.contains("unit"))
        if (std::optional<std::string> u = scalar(value["unit"]))
          e.attributes.emplace_back(normal(key) + "unit", *u);
    } else if (value.contains("text")) {
      if (std::optional<std::string> v = scalar(value["text"]))
        e.attributes.emplace_back(normal(key), *v);
    } else {
      flattenJsonStep(value, e);
    }
  }
}


/// The sentence a person would read out of a JSON step object, flattened:
/// "3. wash 3 times with 300 uL of wash buffer.", "4. By hand: load
/// samples 100 uL.", "7. incubate 2 h at RT."
std::string jsonStepSentence(const XmlElement &e, bool byHand) {
  std::string out;
  if (const std::string *no = e.get({"seq", "no", "step", "stepno", "number", "index", "order"}))
    if (isNumber(*no))
      out += *no + ". ";
  if (byHand)
    out += "By hand: ";
  std::string verb = "step";
  if (const std::string *op = e.get({"op", "type", "action", "operation", "steptype", "command", "kind"})) {
    // "load_samples", "LoadSamples" are an identifier's words; an
    // instruction ("dilute sera 1:100 ... (5 uL + 495 uL)") is kept as
    // written.
    if (op->find(' ') == std::string::npos) {
      verb = typeWords(*op);
      std::replace(verb.begin(), verb.end(), '_', ' ');
    } else {
      verb = *op;
    }
  }
  out += verb;
  std::string lowerVerb = prose::lowerAscii(verb);
  bool wash = lowerVerb.find("wash") != std::string::npos;
  bool read = lowerVerb.find("read") != std::string::npos;
  auto quantity = [&](std::initializer_list<std::string_view> keys, const char *fallback)
      -> std::optional<std::string> {
    for (std::string_view key : keys)
      if (const std::string *v = e.get({key})) {
        if (isNumber(*v)) {
          const std::string *unit = e.get({std::string(key) + "unit"});
          return *v + " " + (unit ? *unit : std::string(fallback));
        }
        return *v;
      }
    return std::nullopt;
  };
  if (const std::string *cycles = e.get({"cycles", "repeats", "washcycles"});
      cycles && isNumber(*cycles) && !read)
    out += " " + *cycles + " times";
  if (auto volume = quantity({"volume", "vol", "volumeul", "amount"}, "uL"))
    out += (wash ? " with " : " ") + *volume;
  if (const std::string *liquid = e.get({"reagent", "liquid", "source", "material", "solution"})) {
    std::string name = *liquid;
    std::replace(name.begin(), name.end(), '_', ' ');
    out += " of " + name;
  }
  if (auto duration = quantity({"duration", "time", "incubationtime"}, "s")) {
    std::string iso = isoDuration(*duration);
    out += " " + (iso.empty() ? *duration : iso);
  }
  if (auto temperature = quantity({"temperature", "temp", "setpoint"}, "°C")) {
    std::string t = *temperature;
    // "4 C", "37 degC": the unit as the reader spells it.
    for (const char *unit : {" C", " degC", " deg C", " celsius"})
      if (t.size() > std::strlen(unit) && t.compare(t.size() - std::strlen(unit), std::strlen(unit), unit) == 0)
        t = t.substr(0, t.size() - std::strlen(unit)) + " °C";
    out += " at " + t;
  }
  if (auto speed = quantity({"speed", "rpm", "shakespeed", "frequency"}, "rpm"))
    out += " at " + *speed;
  if (auto wavelength = quantity({"wavelength", "wavelengthnm", "measwavelength"}, "nm"))
    out += " at " + *wavelength;
  if (auto reference = quantity({"referencewavelength", "reference", "refwavelength", "wavelengthref"}, "nm"))
    out += ", reference " + *reference;
  for (const char *key : {"dark", "lightprotected", "protectfromlight", "lightprotect"})
    if (const std::string *v = e.get({key}); v && prose::lowerAscii(*v) == "true")
      out += " in the dark";
  // An analysis's model ("fit: linear", "model: 4PL").
  if (lowerVerb.find("analy") != std::string::npos || lowerVerb.find("fit") != std::string::npos ||
      lowerVerb.find("curve") != std::string::npos)
    if (const std::string *model = e.get({"fit", "model", "curvefit", "curve", "regression"}))
      out += " with a " + *model + " standard curve fit";
  // A kinetic read's interval and count ("interval_min: 5, intervals: 6").
  if (read)
    if (auto interval = quantity({"interval", "readinterval", "every"}, "s")) {
      std::string iso = isoDuration(*interval);
      out += ", every " + (iso.empty() ? *interval : iso);
      if (const std::string *n = e.get({"intervals", "reads", "cycles", "repeats", "count"});
          n && isNumber(*n))
        out += ", " + *n + " intervals";
    }
  if (wash)
    if (auto soak = quantity({"soak", "soaktime", "soakduration"}, "s")) {
      std::string iso = isoDuration(*soak);
      out += ", with a " + (iso.empty() ? *soak : iso) + " soak";
    }
  out += '.';
  return out;
}


/// The sentence a person would read out of a step element.
std::string stepSentence(const XmlElement &e,
                         const std::vector<std::pair<std::string, std::string>> &contents) {
  std::string out;
  if (const std::string *no = e.get({"no", "number", "index", "order", "seq", "step"}))
    if (isNumber(*no))
      out += *no + ". ";
  bool operatorStep = false;
  if (const std::string *op = e.get({"operatorstep", "manual", "userstep"}))
    operatorStep = prose::lowerAscii(*op) == "true" || *op == "1" || prose::lowerAscii(*op) == "yes";
  const std::string *type = e.get({"type", "action", "kind", "command"});
  std::string verb = type ? typeWords(*type) : typeWords(e.name);
  std::string lowerVerb = prose::lowerAscii(verb);
  if (operatorStep || lowerVerb.find("prompt") != std::string::npos ||
      lowerVerb.find("message") != std::string::npos || lowerVerb.find("pause") != std::string::npos) {
    out += "By hand: ";
    if (const std::string *message = e.get({"message", "text", "prompt", "instruction"}))
      out += *message;
    else
      out += verb;
    if (!out.empty() && out.back() != '.')
      out += '.';
    return out;
  }
  out += verb;
  auto unitOf = [&](std::initializer_list<std::string_view> keys, const char *fallback) {
    const std::string *u = e.get(keys);
    return u ? *u : std::string(fallback);
  };
  if (const std::string *v = e.get({"volume", "vol", "volumeul", "amount"})) {
    if (isNumber(*v))
      out += " " + *v + " " + unitOf({"unit", "volumeunit", "volunit"}, "uL");
    else if (numberWithUnit(*v))
      out += " " + *v;
  }
  if (const std::string *source = e.get({"source", "from", "src"})) {
    std::string from = *source;
    for (const auto &[id, content] : contents)
      if (id == *source)
        from = content;
    out += " from " + from;
  }
  if (const std::string *v = e.get({"duration", "time", "incubationtime"})) {
    std::string d = isoDuration(*v);
    if (d.empty() && isNumber(*v))
      d = *v + " " + unitOf({"durationunit", "timeunit"}, "s");
    else if (d.empty())
      d = *v;
    if (!d.empty())
      out += " " + d;
  }
  if (const std::string *v = e.get({"setpoint", "temperature", "temp"}); v && numberWithUnit(*v))
    out += " at " + *v;
  if (const std::string *v = e.get({"setpoint", "temperature", "temp"}); v && isNumber(*v)) {
    std::string unit = prose::lowerAscii(unitOf({"setpointunit", "temperatureunit", "tempunit"}, "degC"));
    double t = std::strtod(v->c_str(), nullptr);
    if (unit.find('f') != std::string::npos)
      t = (t - 32) * 5 / 9;
    out += " at " + formatNumber(std::round(t * 100) / 100) + " °C";
  }
  if (const std::string *v = e.get({"orbitalfreq", "frequency", "freq", "speed", "rpm"});
      v && numberWithUnit(*v))
    out += " at " + *v;
  if (const std::string *v = e.get({"orbitalfreq", "frequency", "freq", "speed", "rpm"});
      v && isNumber(*v)) {
    std::string unit = prose::lowerAscii(unitOf({"frequnit", "speedunit", "unit"}, "rpm"));
    double f = std::strtod(v->c_str(), nullptr);
    out += " at " + formatNumber(std::round((unit == "hz" ? f * 60 : f) * 100) / 100) + " rpm";
  }
  if (const std::string *v = e.get({"cycles", "repeats", "count", "washcycles"}); v && isNumber(*v) &&
      lowerVerb.find("read") == std::string::npos)
    out += " " + *v + " times";
  if (const std::string *v = e.get({"measwavelength", "wavelength", "excitation"}))
    if (isNumber(*v) || numberWithUnit(*v))
      out += " at " + *v + (isNumber(*v) ? " nm" : "");
  if (const std::string *v = e.get({"refwavelength", "referencewavelength", "reference"}))
    if (isNumber(*v) || numberWithUnit(*v))
      out += ", reference " + *v + (isNumber(*v) ? " nm" : "");
  if (const std::string *v = e.get({"lightprotect", "protectfromlight", "dark"});
      v && prose::lowerAscii(*v) == "true")
    out += " in the dark";
  if (lowerVerb.find("reduction") != std::string::npos || lowerVerb.find("calc") != std::string::npos ||
      lowerVerb.find("analys") != std::string::npos) {
    for (const char *key : {"curvefit", "calc", "comment"})
      if (const std::string *v = e.get({key}))
        out += "; " + *v;
  }
  out += '.';
  return out;
}

} // namespace

bool looksLikeJsonMethod(std::string_view text) {
  size_t brace = text.find('{');
  if (brace == std::string_view::npos)
    return false;
  std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> steps = jsonSteps(text);
  int withType = 0;
  for (const auto &step : steps)
    withType += namesOperation(step.second);
  return withType >= 3;
}

namespace {

/// Who does a step object's work: a person where its executor says so or
/// a flag marks it manual.
bool stepByHand(const XmlElement &e) {
  if (const std::string *who = e.get({"executor", "performedby", "by", "who", "actor"})) {
    std::string lower = prose::lowerAscii(*who);
    for (const char *person : {"operator", "manual", "person", "user", "technician", "hand",
                               "bench", "human", "scientist", "analyst"})
      if (lower.find(person) != std::string::npos)
        return true;
  }
  if (const std::string *flag = e.get({"manual", "byhand", "operatorstep", "userstep"}))
    return prose::lowerAscii(*flag) == "true" || prose::lowerAscii(*flag) == "yes";
  return false;
}

/// Each step's sentence over the lines from the first step to the last,
/// in order, as numbered items: a sentence opens a line at one indent,
/// wraps onto the lines after it indented under its text (as a list item
/// does), and never crosses a blank line. A YAML item is a few short lines,
/// and an alias (`- *wash`) one of five characters, too little for its
/// sentence alone. Each sentence starts no earlier than its own item where
/// it fits there, so a step stays near where the text has it. Empty when
/// the lines have no room.
std::string packedSteps(std::string_view text, size_t from, size_t to,
                        const std::vector<std::string> &sentences,
                        const std::vector<size_t> &itemStarts) {
  struct Slot {
    size_t start, end;
    size_t hang = 0; ///< indent under the item's text
    std::string told;
  };
  std::vector<Slot> slots;
  for (size_t at = from; at < to;) {
    size_t lineEnd = std::min(text.find('\n', at), text.size());
    slots.push_back({at, lineEnd, 0, {}});
    at = lineEnd + 1;
  }
  if (slots.empty())
    return {};
  // At the margin: the keys' indentation is room the sentences need.
  size_t indent = 0;
  auto roomOf = [&](size_t k, size_t hang) -> size_t {
    std::string_view line = text.substr(slots[k].start, slots[k].end - slots[k].start);
    bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    size_t width = line.size() - (!line.empty() && line.back() == '\r');
    return blank || width <= indent + hang ? 0 : width - indent - hang;
  };
  // Lines [line, ...) for `sentence`, or nullopt where a word finds no room
  // (with `stuck`, the line it did not fit).
  auto place = [&](const std::string &sentence, size_t line, size_t &stuck)
      -> std::optional<std::vector<std::pair<size_t, std::string>>> {
    std::vector<std::pair<size_t, std::string>> placed;
    size_t hang = sentence.find(". ") != std::string::npos ? sentence.find(". ") + 2 : 0;
    size_t at = line, col = 0;
    stuck = line;
    if (roomOf(at, 0) == 0)
      return std::nullopt;
    // The number opens a line with the first word after it: alone ("10.")
    // a line reads as a heading.
    auto leadOnly = [](const std::string &chunk) {
      for (size_t f = 0; f < chunk.size();) {
        size_t t = std::min(chunk.find(' ', f), chunk.size());
        std::string_view part = std::string_view(chunk).substr(f, t - f);
        bool label = part.size() >= 2 && part.back() == '.' &&
                     std::all_of(part.begin(), part.end() - 1,
                                 [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
        if (!label && part != "By" && part != "hand:")
          return false;
        f = t + 1;
      }
      return true;
    };
    std::vector<std::string> words;
    for (size_t f = 0; f < sentence.size();) {
      size_t space = sentence.find(' ', f);
      size_t t = space == std::string::npos ? sentence.size() : space;
      std::string word = sentence.substr(f, t - f);
      f = t + 1;
      if (words.size() == 1 && leadOnly(words[0]))
        words[0] += " " + word;
      else
        words.push_back(std::move(word));
    }
    for (const std::string &word : words) {
      size_t need = word.size() + (col ? 1 : 0);
      if (col + need > roomOf(at, at == line ? 0 : hang)) {
        ++at;
        col = 0;
        need = word.size();
        if (at >= slots.size() || need > roomOf(at, hang)) {
          stuck = at;
          return std::nullopt;
        }
      }
      placed.push_back({at, word});
      col += need;
    }
    return placed;
  };
  size_t line = 0;
  for (size_t n = 0; n < sentences.size(); ++n) {
    size_t earliest = line;
    for (size_t k = 0; k < slots.size(); ++k)
      if (n < itemStarts.size() && itemStarts[n] >= slots[k].start &&
          itemStarts[n] <= slots[k].end)
        line = std::max(line, k);
    std::optional<std::vector<std::pair<size_t, std::string>>> placed;
    for (int pass = 0; pass < 2 && !placed; ++pass) {
      if (pass == 1)
        line = earliest;
      while (!placed && line < slots.size()) {
        size_t stuck = line;
        placed = place(sentences[n], line, stuck);
        // Again from the line too short for the word ("- *wash"), which
        // stays blank if the sentence cannot open there either: a blank
        // line between two steps parts nothing that belongs together.
        if (!placed)
          line = std::max(stuck, line + 1);
      }
    }
    if (!placed)
      return {};
    size_t hang = sentences[n].find(". ") != std::string::npos ? sentences[n].find(". ") + 2 : 0;
    for (const auto &[k, word] : *placed) {
      if (slots[k].told.empty() && k != placed->front().first)
        slots[k].hang = hang;
      slots[k].told += (slots[k].told.empty() ? "" : " ") + word;
    }
    line = placed->back().first + 1;
  }
  OffsetKeepingWriter w(text, false);
  w.blank(0, from, true);
  for (const Slot &slot : slots) {
    if (slot.told.empty())
      w.blank(slot.start, slot.end, true);
    else
      w.replace(slot.start, slot.end, std::string(indent + slot.hang, ' ') + slot.told, true);
    if (slot.end < text.size())
      w.copy(slot.end);
  }
  size_t after = slots.back().end + 1;
  if (after < text.size())
    w.blank(after, text.size(), true);
  return w.take();
}

/// A step object as one sentence, "by hand" at its end: at the start,
/// "By hand:" could end a line and read as a heading over the steps after
/// it.
std::string stepObjectSentence(const nlohmann::json &step) {
  XmlElement e;
  e.name = "step";
  flattenJsonStep(step, e);
  std::string sentence = jsonStepSentence(e, false);
  if (stepByHand(e) && !sentence.empty() && sentence.back() == '.')
    sentence.insert(sentence.size() - 1, " by hand");
  return sentence;
}

/// Each step object (its span and value) as its sentence written over its
/// span, everything else as blanks. `packed`: the sentences numbered in
/// turn and packed over the steps' lines (packedSteps) where they fit.
std::string withStepObjectsAsText(
    std::string_view text,
    const std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> &steps,
    bool packed = false) {
  if (packed && !steps.empty()) {
    std::vector<std::string> sentences;
    for (const auto &[span, step] : steps) {
      std::string sentence = stepObjectSentence(step);
      if (!std::isdigit(static_cast<unsigned char>(sentence[0])))
        sentence = std::to_string(sentences.size() + 1) + ". " + sentence;
      sentences.push_back(std::move(sentence));
    }
    // From the first item's line.
    size_t from = steps.front().first.first;
    while (from > 0 && text[from - 1] != '\n')
      --from;
    // To the end: what follows the list (an analysis block, comments) is
    // blanks, room for the last sentences.
    size_t to = text.size();
    std::vector<size_t> itemStarts;
    for (const auto &[span, step] : steps)
      itemStarts.push_back(span.first);
    std::string told = packedSteps(text, from, to, sentences, itemStarts);
    if (!told.empty())
      return told;
  }
  OffsetKeepingWriter w(text, false);
  size_t i = 0;
  for (const auto &[span, step] : steps) {
    if (span.first < i || span.second > text.size() || span.first >= span.second)
      continue;
    w.blank(i, span.first, true);
    XmlElement e;
    e.name = "step";
    flattenJsonStep(step, e);
    std::string sentence = jsonStepSentence(e, stepByHand(e));
    // On the object's longest line when it fits there whole: JSON and YAML
    // put a field per line, too short for a sentence spread over them.
    size_t best = span.first, bestRoom = 0;
    for (size_t from = span.first; from < span.second;) {
      size_t lineEnd = text.find_first_of("\r\n", from);
      if (lineEnd == std::string_view::npos || lineEnd > span.second)
        lineEnd = span.second;
      if (lineEnd - from > bestRoom) {
        best = from;
        bestRoom = lineEnd - from;
      }
      from = lineEnd + 1;
    }
    if (bestRoom >= sentence.size()) {
      w.blank(span.first, best, true);
      writeOver(w, text, best, best + bestRoom, sentence);
      w.blank(best + bestRoom, span.second, true);
    } else {
      writeOver(w, text, span.first, span.second, sentence);
    }
    i = span.second;
  }
  w.blank(i, text.size(), true);
  return w.take();
}

} // namespace

//===--- A YAML run configuration ---------------------------------------------===//

namespace {

/// A YAML document as a tree (libyaml's events), aliases resolved to the
/// nodes they name, and where each node starts and ends in the text.
struct YamlNode {
  enum class Kind { Scalar, Sequence, Mapping } kind = Kind::Scalar;
  std::string scalar;
  std::vector<size_t> items;                      ///< Sequence: node indices
  std::vector<std::pair<size_t, size_t>> pairs;   ///< Mapping: key, value nodes
  size_t begin = 0, end = 0;                      ///< byte offsets in the text
};

struct YamlDocument {
  std::vector<YamlNode> nodes;
  std::optional<size_t> root;
  /// Where each alias (`- *wash`) stands in the text, by the node it names.
  std::map<size_t, std::vector<std::pair<size_t, size_t>>> aliasSpans;
  std::vector<std::tuple<size_t, size_t, size_t>> aliasUses; ///< (begin, end, node)
};

/// Byte offset of libyaml's (line, column) mark: columns count characters.
size_t byteOffset(std::string_view text, const std::vector<size_t> &lineStarts,
                  const yaml_mark_t &mark) {
  if (mark.line >= lineStarts.size())
    return text.size();
  size_t at = lineStarts[mark.line];
  for (size_t c = 0; c < mark.column && at < text.size() && text[at] != '\n'; ++c) {
    ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
      ++at;
  }
  return at;
}

/// The document, or nullopt when libyaml rejects the text or it is too
/// large a tree to be a run configuration.
std::optional<YamlDocument> parseYaml(std::string_view text) {
  std::vector<size_t> lineStarts{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      lineStarts.push_back(i + 1);
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser))
    return std::nullopt;
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char *>(text.data()),
                               text.size());
  YamlDocument doc;
  std::map<std::string, size_t> anchors;
  // Open collections: node index, and for a mapping the key waiting for
  // its value.
  std::vector<std::pair<size_t, std::optional<size_t>>> open;
  bool ok = true, done = false;
  auto attach = [&](size_t node) {
    if (open.empty()) {
      if (!doc.root)
        doc.root = node;
      return;
    }
    auto &[parent, key] = open.back();
    YamlNode &p = doc.nodes[parent];
    if (p.kind == YamlNode::Kind::Sequence) {
      p.items.push_back(node);
    } else if (!key) {
      key = node;
    } else {
      p.pairs.push_back({*key, node});
      key.reset();
    }
  };
  auto remember = [&](const yaml_char_t *anchor, size_t node) {
    if (anchor)
      anchors[reinterpret_cast<const char *>(anchor)] = node;
  };
  while (ok && !done) {
    yaml_event_t event;
    if (!yaml_parser_parse(&parser, &event)) {
      ok = false;
      break;
    }
    size_t begin = byteOffset(text, lineStarts, event.start_mark);
    size_t end = byteOffset(text, lineStarts, event.end_mark);
    switch (event.type) {
    case YAML_SCALAR_EVENT: {
      YamlNode node;
      node.scalar.assign(reinterpret_cast<const char *>(event.data.scalar.value),
                         event.data.scalar.length);
      node.begin = begin;
      node.end = end;
      doc.nodes.push_back(std::move(node));
      remember(event.data.scalar.anchor, doc.nodes.size() - 1);
      attach(doc.nodes.size() - 1);
      break;
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
      YamlNode node;
      node.kind = event.type == YAML_SEQUENCE_START_EVENT ? YamlNode::Kind::Sequence
                                                           : YamlNode::Kind::Mapping;
      node.begin = begin;
      doc.nodes.push_back(std::move(node));
      size_t index = doc.nodes.size() - 1;
      remember(event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor
                                                       : event.data.mapping_start.anchor,
               index);
      attach(index);
      open.push_back({index, std::nullopt});
      ok = open.size() <= 64;
      break;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      if (open.empty()) {
        ok = false;
        break;
      }
      doc.nodes[open.back().first].end = end;
      open.pop_back();
      break;
    case YAML_ALIAS_EVENT: {
      auto named = anchors.find(reinterpret_cast<const char *>(event.data.alias.anchor));
      if (named == anchors.end()) {
        ok = false;
        break;
      }
      doc.aliasUses.emplace_back(begin, end, named->second);
      attach(named->second);
      break;
    }
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_END_EVENT:
      // One document: a second one is no run configuration.
      done = doc.root.has_value();
      break;
    default:
      break;
    }
    yaml_event_delete(&event);
    ok = ok && doc.nodes.size() <= 200000;
  }
  yaml_parser_delete(&parser);
  if (!ok || !doc.root)
    return std::nullopt;
  return doc;
}

/// A mapping's value under one of `keys`, merge keys (`<<: *wash`) seen
/// through.
std::optional<size_t> yamlValue(const YamlDocument &doc, size_t mapping,
                                std::initializer_list<std::string_view> keys, int depth = 0) {
  const YamlNode &m = doc.nodes[mapping];
  if (m.kind != YamlNode::Kind::Mapping || depth > 16)
    return std::nullopt;
  for (const auto &[key, value] : m.pairs)
    for (std::string_view k : keys)
      if (doc.nodes[key].scalar == k)
        return value;
  for (const auto &[key, value] : m.pairs)
    if (doc.nodes[key].scalar == "<<")
      if (auto merged = yamlValue(doc, value, keys, depth + 1))
        return merged;
  return std::nullopt;
}

/// A node as JSON: a scalar as a string, a mapping with its merge keys
/// applied (its own keys first), `{min, max}` as the range "MIN to MAX".
/// `budget` bounds the nodes an alias-heavy document can expand to.
nlohmann::json yamlJson(const YamlDocument &doc, size_t index, size_t &budget, int depth = 0) {
  if (budget == 0 || depth > 32)
    return nullptr;
  --budget;
  const YamlNode &n = doc.nodes[index];
  if (n.kind == YamlNode::Kind::Scalar)
    return n.scalar == "null" || n.scalar == "~" ? nlohmann::json() : nlohmann::json(n.scalar);
  if (n.kind == YamlNode::Kind::Sequence) {
    nlohmann::json array = nlohmann::json::array();
    for (size_t item : n.items)
      array.push_back(yamlJson(doc, item, budget, depth + 1));
    return array;
  }
  nlohmann::json object = nlohmann::json::object();
  std::vector<size_t> merges;
  for (const auto &[key, value] : n.pairs) {
    const std::string &name = doc.nodes[key].scalar;
    if (name == "<<") {
      merges.push_back(value);
      continue;
    }
    nlohmann::json v = yamlJson(doc, value, budget, depth + 1);
    if (!v.is_null())
      object[name] = std::move(v);
    else
      object[name] = "null"; // `soak: null` overrides the merged soak
  }
  for (size_t merge : merges) {
    nlohmann::json base = yamlJson(doc, merge, budget, depth + 1);
    if (base.is_object())
      for (const auto &[k, v] : base.items())
        if (!object.contains(k))
          object[k] = v;
  }
  for (auto it = object.begin(); it != object.end();) {
    if (it->is_string() && it->get<std::string>() == "null")
      it = object.erase(it);
    else
      ++it;
  }
  if (object.size() == 2 && object.contains("min") && object.contains("max") &&
      object["min"].is_string() && object["max"].is_string()) {
    std::string low = object["min"].get<std::string>(), high = object["max"].get<std::string>();
    std::string lowIso = isoDuration(low), highIso = isoDuration(high);
    return (lowIso.empty() ? low : lowIso) + " to " + (highIso.empty() ? high : highIso);
  }
  return object;
}

/// The step items of a YAML run configuration: a sequence under "steps"
/// (or "procedure", "actions", ...) whose items name what they do. Each
/// item's span in the text (an alias's where the alias stands) and value.
std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> yamlSteps(std::string_view text) {
  std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> steps;
  // Cheap tests before a parse: a "steps:" key and list items.
  bool stepsKey = false;
  for (std::string_view key : {"steps:", "procedure:", "actions:", "protocol_steps:", "method_steps:"})
    stepsKey = stepsKey || text.find(key) != std::string_view::npos;
  if (!stepsKey || text.find("- ") == std::string_view::npos)
    return steps;
  std::optional<YamlDocument> doc = parseYaml(text);
  if (!doc || doc->nodes[*doc->root].kind != YamlNode::Kind::Mapping)
    return steps;
  std::optional<size_t> list = yamlValue(*doc, *doc->root, {"steps", "procedure", "actions",
                                                            "protocol_steps", "method_steps"});
  if (!list || doc->nodes[*list].kind != YamlNode::Kind::Sequence)
    return steps;
  const YamlNode &sequence = doc->nodes[*list];
  // An item that is an alias stands where the alias is written, not where
  // its anchor is.
  std::vector<std::pair<size_t, size_t>> spans;
  size_t aliasCursor = 0;
  for (size_t k = 0; k < sequence.items.size(); ++k) {
    size_t item = sequence.items[k];
    const YamlNode &node = doc->nodes[item];
    size_t begin = node.begin, end = node.end;
    bool insideList = begin >= sequence.begin && begin < sequence.end;
    if (!insideList || (!spans.empty() && begin < spans.back().second)) {
      begin = end = 0;
      for (; aliasCursor < doc->aliasUses.size(); ++aliasCursor) {
        auto [from, to, named] = doc->aliasUses[aliasCursor];
        if (named == item && from >= sequence.begin && from < sequence.end &&
            (spans.empty() || from >= spans.back().second)) {
          begin = from;
          end = to;
          ++aliasCursor;
          break;
        }
      }
    }
    spans.push_back({begin, end});
  }
  int named = 0;
  size_t budget = 20000;
  for (size_t k = 0; k < sequence.items.size(); ++k) {
    if (spans[k].first >= spans[k].second)
      continue;
    nlohmann::json step = yamlJson(*doc, sequence.items[k], budget);
    if (!step.is_object())
      continue;
    named += namesOperation(step);
    // A step with no operation but words for the operator ("note: dilute
    // the sera 1:100 ...") is that instruction.
    if (!step.contains("op") && !step.contains("type") && !step.contains("action"))
      for (const char *key : {"note", "instruction", "prompt", "description", "text"})
        if (step.contains(key) && step[key].is_string()) {
          step["op"] = step[key];
          step.erase(key);
          break;
        }
    steps.push_back({spans[k], std::move(step)});
  }
  if (named < 3)
    steps.clear();
  return steps;
}

} // namespace

bool looksLikeYamlMethod(std::string_view text) { return !yamlSteps(text).empty(); }

std::string withYamlMethodAsText(std::string_view text) {
  return withStepObjectsAsText(text, yamlSteps(text), /*packed=*/true);
}

std::string withJsonMethodAsText(std::string_view text) {
  return withStepObjectsAsText(text, jsonSteps(text));
}

//===--- A SQL dump of a method ------------------------------------------------===//

namespace {

/// A SQL literal or word at `at`: a number, a 'string' ('' for a quote),
/// NULL, or an identifier; `end` is past it.
struct SqlToken {
  enum class Kind { Number, String, Null, Word, Punct, End } kind = Kind::End;
  std::string text;
  size_t begin = 0, end = 0;
};

SqlToken sqlToken(std::string_view text, size_t at) {
  SqlToken t;
  while (at < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[at]))) {
      ++at;
    } else if (text.substr(at, 2) == "--") {
      size_t eol = text.find('\n', at);
      at = eol == std::string_view::npos ? text.size() : eol;
    } else {
      break;
    }
  }
  t.begin = at;
  if (at >= text.size()) {
    t.end = at;
    return t;
  }
  char c = text[at];
  if (c == '\'') {
    t.kind = SqlToken::Kind::String;
    size_t k = at + 1;
    for (; k < text.size(); ++k) {
      if (text[k] == '\'') {
        if (k + 1 < text.size() && text[k + 1] == '\'') {
          t.text += '\'';
          ++k;
          continue;
        }
        break;
      }
      t.text += text[k];
    }
    t.end = std::min(text.size(), k + 1);
    return t;
  }
  bool sign = (c == '-' || c == '+') && at + 1 < text.size() &&
              std::isdigit(static_cast<unsigned char>(text[at + 1]));
  if (std::isdigit(static_cast<unsigned char>(c)) || sign) {
    size_t k = at + 1;
    while (k < text.size() && (std::isdigit(static_cast<unsigned char>(text[k])) || text[k] == '.'))
      ++k;
    t.kind = SqlToken::Kind::Number;
    t.text = std::string(text.substr(at, k - at));
    t.end = k;
    return t;
  }
  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '"' || c == '`') {
    size_t k = at;
    if (c == '"' || c == '`') {
      size_t close = text.find(c, at + 1);
      k = close == std::string_view::npos ? text.size() : close + 1;
      t.text = std::string(text.substr(at + 1, k - at - 2));
    } else {
      while (k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) ||
                                 text[k] == '_' || text[k] == '.'))
        ++k;
      t.text = std::string(text.substr(at, k - at));
    }
    t.kind = prose::lowerAscii(t.text) == "null" ? SqlToken::Kind::Null : SqlToken::Kind::Word;
    t.end = k;
    return t;
  }
  t.kind = SqlToken::Kind::Punct;
  t.text = std::string(1, c);
  t.end = at + 1;
  return t;
}

nlohmann::json sqlValue(const SqlToken &t) {
  if (t.kind == SqlToken::Kind::Number)
    return nlohmann::json::parse(t.text, nullptr, false).is_number()
               ? nlohmann::json::parse(t.text, nullptr, false)
               : nlohmann::json(t.text);
  if (t.kind == SqlToken::Kind::String || t.kind == SqlToken::Kind::Word)
    return t.text;
  return nullptr;
}

/// Where `lowerWord` stands as a word in `lower` (the text in lower case),
/// from `from` on.
size_t findSqlWord(std::string_view lower, std::string_view lowerWord, size_t from) {
  for (size_t at = lower.find(lowerWord, from); at != std::string_view::npos;
       at = lower.find(lowerWord, at + 1)) {
    bool startOk = at == 0 || !std::isalnum(static_cast<unsigned char>(lower[at - 1]));
    size_t after = at + lowerWord.size();
    bool endOk = after >= lower.size() || !std::isalnum(static_cast<unsigned char>(lower[after]));
    if (startOk && endOk)
      return at;
  }
  return std::string_view::npos;
}

bool stepTableName(const std::string &name) {
  std::string lower = prose::lowerAscii(name);
  return lower.find("step") != std::string::npos || lower.find("procedure") != std::string::npos ||
         lower.find("action") != std::string::npos || lower.find("operation") != std::string::npos;
}

std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> sqlSteps(std::string_view text) {
  std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> steps;
  const std::string lower = prose::lowerAscii(text);
  if (findSqlWord(lower, "insert", 0) == std::string_view::npos ||
      findSqlWord(lower, "values", 0) == std::string_view::npos)
    return steps;
  // The columns of each table.
  std::map<std::string, std::vector<std::string>> columns;
  for (size_t at = findSqlWord(lower, "create", 0); at != std::string_view::npos;
       at = findSqlWord(lower, "create", at + 1)) {
    SqlToken table = sqlToken(text, at + 6);
    if (prose::lowerAscii(table.text) != "table")
      continue;
    SqlToken name = sqlToken(text, table.end);
    SqlToken open = sqlToken(text, name.end);
    if (name.kind != SqlToken::Kind::Word || open.text != "(")
      continue;
    std::vector<std::string> cols;
    int depth = 1;
    bool partStart = true;
    for (SqlToken t = sqlToken(text, open.end); t.kind != SqlToken::Kind::End && depth > 0;
         t = sqlToken(text, t.end)) {
      if (t.text == "(")
        ++depth;
      else if (t.text == ")")
        --depth;
      else if (t.text == "," && depth == 1)
        partStart = true;
      else if (partStart && depth == 1) {
        partStart = false;
        std::string lower = prose::lowerAscii(t.text);
        if (t.kind == SqlToken::Kind::Word && lower != "primary" && lower != "foreign" &&
            lower != "unique" && lower != "check" && lower != "constraint" && lower != "key" &&
            lower != "index")
          cols.push_back(t.text);
      }
    }
    columns[prose::lowerAscii(name.text)] = std::move(cols);
  }
  struct Row {
    std::string table;
    std::pair<size_t, size_t> span;
    nlohmann::json fields = nlohmann::json::object();
    bool deleted = false;
  };
  std::vector<Row> rows;
  for (size_t at = findSqlWord(lower, "insert", 0); at != std::string_view::npos;
       at = findSqlWord(lower, "insert", at + 1)) {
    SqlToken into = sqlToken(text, at + 6);
    if (prose::lowerAscii(into.text) != "into")
      continue;
    SqlToken name = sqlToken(text, into.end);
    std::string table = prose::lowerAscii(name.text);
    std::vector<std::string> cols = columns[table];
    SqlToken t = sqlToken(text, name.end);
    if (t.text == "(") { // INSERT INTO t (a, b, c) VALUES ...
      cols.clear();
      for (t = sqlToken(text, t.end); t.kind != SqlToken::Kind::End && t.text != ")";
           t = sqlToken(text, t.end))
        if (t.kind == SqlToken::Kind::Word)
          cols.push_back(t.text);
      t = sqlToken(text, t.end);
    }
    if (prose::lowerAscii(t.text) != "values")
      continue;
    for (t = sqlToken(text, t.end); t.text == "(";) {
      Row row;
      row.table = table;
      row.span.first = t.begin;
      size_t column = 0;
      for (t = sqlToken(text, t.end); t.kind != SqlToken::Kind::End && t.text != ")";
           t = sqlToken(text, t.end)) {
        if (t.text == ",") {
          ++column;
          continue;
        }
        if (column < cols.size() && t.kind != SqlToken::Kind::Null &&
            t.kind != SqlToken::Kind::Punct)
          row.fields[cols[column]] = sqlValue(t);
      }
      row.span.second = t.end;
      rows.push_back(std::move(row));
      t = sqlToken(text, t.end);
      if (t.text != ",")
        break;
      t = sqlToken(text, t.end);
    }
  }
  // A method has tens of steps; a dump of thousands of rows is data, and
  // applying each change to each row would be quadratic in it.
  if (rows.size() > 5000)
    return steps;
  // `WHERE key = N`: the rows it picks.
  auto picked = [&](const std::string &table, size_t at, size_t &end) {
    std::vector<Row *> out;
    SqlToken key = sqlToken(text, at);
    SqlToken eq = sqlToken(text, key.end);
    SqlToken value = sqlToken(text, eq.end);
    end = value.end;
    if (key.kind != SqlToken::Kind::Word || eq.text != "=")
      return out;
    nlohmann::json wanted = sqlValue(value);
    for (Row &row : rows)
      if (row.table == table && row.fields.contains(key.text) && row.fields[key.text] == wanted)
        out.push_back(&row);
    return out;
  };
  unsigned updates = 0;
  for (size_t at = findSqlWord(lower, "update", 0); at != std::string_view::npos && updates < 5000;
       at = findSqlWord(lower, "update", at + 1), ++updates) {
    SqlToken name = sqlToken(text, at + 6);
    SqlToken set = sqlToken(text, name.end);
    if (prose::lowerAscii(set.text) != "set")
      continue;
    nlohmann::json changes = nlohmann::json::object();
    SqlToken t = sqlToken(text, set.end);
    while (t.kind == SqlToken::Kind::Word && prose::lowerAscii(t.text) != "where") {
      SqlToken eq = sqlToken(text, t.end);
      SqlToken value = sqlToken(text, eq.end);
      if (eq.text != "=")
        break;
      changes[t.text] = sqlValue(value);
      t = sqlToken(text, value.end);
      if (t.text == ",")
        t = sqlToken(text, t.end);
    }
    if (prose::lowerAscii(t.text) != "where")
      continue;
    size_t end = 0;
    for (Row *row : picked(prose::lowerAscii(name.text), t.end, end))
      for (const auto &[key, value] : changes.items()) {
        if (value.is_null())
          row->fields.erase(key);
        else
          row->fields[key] = value;
      }
  }
  unsigned deletes = 0;
  for (size_t at = findSqlWord(lower, "delete", 0); at != std::string_view::npos && deletes < 5000;
       at = findSqlWord(lower, "delete", at + 1), ++deletes) {
    SqlToken from = sqlToken(text, at + 6);
    SqlToken name = sqlToken(text, from.end);
    SqlToken where = sqlToken(text, name.end);
    if (prose::lowerAscii(from.text) != "from" || prose::lowerAscii(where.text) != "where")
      continue;
    size_t end = 0;
    for (Row *row : picked(prose::lowerAscii(name.text), where.end, end))
      row->deleted = true;
  }
  int named = 0;
  for (Row &row : rows) {
    if (!stepTableName(row.table) || row.deleted)
      continue;
    named += namesOperation(row.fields);
    steps.push_back({row.span, std::move(row.fields)});
  }
  if (named < 3)
    steps.clear();
  return steps;
}

} // namespace

bool looksLikeSqlMethod(std::string_view text) { return !sqlSteps(text).empty(); }

//===--- A flow-based automation export -------------------------------------===//

namespace {

/// The objects of the document's top-level array, each with its span.
std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> topLevelObjects(std::string_view text) {
  size_t k = text.find_first_not_of(" \t\r\n");
  if (k == std::string_view::npos || text[k] != '[')
    return {};
  return arrayObjects(text, k);
}

bool flowNode(const nlohmann::json &node) {
  return node.contains("id") && node["id"].is_string() && node.contains("type") &&
         node["type"].is_string() && node.contains("wires") && node["wires"].is_array();
}

/// Nodes that do nothing to the plate: the flow's frame, notes, triggers,
/// outputs and settings.
bool flowFrameNode(const std::string &type) {
  std::string lower = prose::lowerAscii(type);
  for (const char *word : {"tab", "comment", "inject", "debug", "config", "file", "link",
                           "group", "catch", "status", "complete", "http", "mqtt", "function-out"})
    if (lower.find(word) != std::string::npos)
      return true;
  return false;
}

bool flowDisabled(const nlohmann::json &node) {
  for (const char *key : {"d", "disabled"})
    if (node.contains(key) && node[key].is_boolean() && node[key].get<bool>())
      return true;
  return false;
}

std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> flowSteps(std::string_view text) {
  std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> objects = topLevelObjects(text);
  std::map<std::string, size_t> byId;
  unsigned wired = 0;
  for (size_t k = 0; k < objects.size(); ++k)
    if (flowNode(objects[k].second)) {
      byId[objects[k].second["id"].get<std::string>()] = k;
      wired += !objects[k].second["wires"].empty();
    }
  if (byId.size() < 3 || wired < 3)
    return {};
  auto targets = [&](size_t k) {
    std::vector<size_t> out;
    for (const nlohmann::json &port : objects[k].second["wires"])
      if (port.is_array())
        for (const nlohmann::json &id : port)
          if (id.is_string())
            if (auto it = byId.find(id.get<std::string>()); it != byId.end())
              out.push_back(it->second);
    return out;
  };
  std::vector<bool> reached(objects.size(), false);
  for (const auto &[id, k] : byId)
    for (size_t t : targets(k))
      reached[t] = true;
  // From each node no wire reaches, in the file's order, depth first along
  // the wires: a disabled node passes nothing on.
  std::vector<size_t> order;
  std::vector<bool> seen(objects.size(), false);
  std::vector<size_t> stack;
  for (size_t k = 0; k < objects.size(); ++k) {
    if (!flowNode(objects[k].second) || reached[k] || seen[k])
      continue;
    stack.push_back(k);
    while (!stack.empty()) {
      size_t n = stack.back();
      stack.pop_back();
      if (seen[n])
        continue;
      seen[n] = true;
      if (flowDisabled(objects[n].second))
        continue;
      order.push_back(n);
      std::vector<size_t> next = targets(n);
      for (auto it = next.rbegin(); it != next.rend(); ++it)
        if (!seen[*it])
          stack.push_back(*it);
    }
  }
  std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> steps;
  for (size_t n : order) {
    nlohmann::json node = objects[n].second;
    std::string type = node["type"].get<std::string>();
    if (flowFrameNode(type))
      continue;
    nlohmann::json step = nlohmann::json::object();
    for (const auto &[key, value] : node.items())
      if (key != "id" && key != "z" && key != "x" && key != "y" && key != "wires" &&
          key != "name" && key != "info" && key != "type")
        step[key] = value;
    std::string lower = prose::lowerAscii(type);
    bool byHand = lower.find("manual") != std::string::npos ||
                  lower.find("operator") != std::string::npos ||
                  lower.find("prompt") != std::string::npos;
    // A manual node says what the person does in its name.
    if (byHand && node.contains("name") && node["name"].is_string())
      step["op"] = node["name"].get<std::string>();
    else
      step["op"] = type;
    if (byHand)
      step["manual"] = "true";
    steps.push_back({objects[n].first, std::move(step)});
  }
  return steps;
}

} // namespace

bool looksLikeFlowExport(std::string_view text) {
  size_t k = text.find_first_not_of(" \t\r\n");
  return k != std::string_view::npos && text[k] == '[' && !flowSteps(text).empty();
}

std::string withFlowExportAsText(std::string_view text) {
  std::vector<std::pair<std::pair<size_t, size_t>, nlohmann::json>> steps = flowSteps(text);
  std::vector<std::string> sentences;
  std::vector<size_t> starts;
  size_t from = text.size();
  for (const auto &[span, step] : steps) {
    std::string sentence = stepObjectSentence(step);
    sentences.push_back(std::to_string(sentences.size() + 1) + ". " + sentence);
    starts.push_back(span.first);
    from = std::min(from, span.first);
  }
  while (from > 0 && text[from - 1] != '\n')
    --from;
  std::string told = sentences.empty() ? std::string() : packedSteps(text, from, text.size(), sentences, starts);
  if (!told.empty())
    return told;
  return withStepObjectsAsText(text, steps);
}

//===--- A shell script that drives the robot -----------------------------===//

namespace {

using prose::trimView;

using prose::textLines;

bool shellName(std::string_view word) {
  return !word.empty() && (std::isalpha(static_cast<unsigned char>(word[0])) || word[0] == '_') &&
         std::all_of(word.begin(), word.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

/// "VOL_SUB=50      # comment", "local wells=$1": the name and the value.
std::optional<std::pair<std::string, std::string>> shellAssignment(std::string_view line) {
  std::string_view t = trimView(line);
  if (t.rfind("local ", 0) == 0 || t.rfind("export ", 0) == 0 || t.rfind("readonly ", 0) == 0)
    t = trimView(t.substr(t.find(' ') + 1));
  size_t eq = t.find('=');
  if (eq == std::string_view::npos || eq == 0 || !shellName(t.substr(0, eq)))
    return std::nullopt;
  std::string_view value = t.substr(eq + 1);
  if (size_t hash = value.find(" #"); hash != std::string_view::npos)
    value = value.substr(0, hash);
  value = trimView(value);
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
      value.back() == value.front())
    value = value.substr(1, value.size() - 2);
  return std::pair{std::string(t.substr(0, eq)), std::string(value)};
}

/// Words of a command line as the shell splits them, quotes removed and
/// variables substituted; a trailing comment dropped.
std::vector<std::string> shellWords(std::string_view line,
                                    const std::map<std::string, std::string> &vars) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    if (!quote && c == '#' && (k == 0 || line[k - 1] == ' ' || line[k - 1] == '\t'))
      break;
    if (!quote && (c == '"' || c == '\'')) {
      quote = c;
      inWord = true;
      continue;
    }
    if (quote && c == quote) {
      quote = 0;
      continue;
    }
    if (!quote && (c == ' ' || c == '\t')) {
      if (inWord)
        words.push_back(std::move(word));
      word.clear();
      inWord = false;
      continue;
    }
    if (c == '$' && quote != '\'') {
      size_t from = k + 1;
      bool braces = from < line.size() && line[from] == '{';
      size_t start = braces ? from + 1 : from;
      size_t end = start;
      while (end < line.size() &&
             (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_'))
        ++end;
      std::string name(line.substr(start, end - start));
      if (!name.empty()) {
        auto it = vars.find(name);
        word += it != vars.end() ? it->second : std::string();
        if (braces) {
          size_t close = line.find('}', end);
          end = close == std::string_view::npos ? line.size() : close + 1;
        }
        k = end - 1;
        inWord = true;
        continue;
      }
    }
    word += c;
    inWord = true;
  }
  if (inWord)
    words.push_back(std::move(word));
  return words;
}

/// "bf1 dispense --reagent pnag --vol 50": the step object a person reads
/// out of the command (its options as a LIMS would name them).
nlohmann::json shellCommandStep(const std::vector<std::string> &words) {
  nlohmann::json step = nlohmann::json::object();
  for (size_t k = 1; k < words.size(); ++k) {
    const std::string &w = words[k];
    if (w.rfind("--", 0) != 0) {
      if (!step.contains("op") && !w.empty() && w[0] != '-')
        step["op"] = w;
      continue;
    }
    std::string key = prose::lowerAscii(w.substr(2));
    std::string value;
    if (size_t eq = key.find('='); eq != std::string::npos) {
      value = w.substr(2 + eq + 1);
      key = key.substr(0, eq);
    } else if (k + 1 < words.size() && words[k + 1].rfind("--", 0) != 0) {
      value = words[++k];
    }
    bool number = isNumber(value);
    if ((key == "vol" || key == "volume" || key == "ul") && number)
      step["volume"] = value;
    else if ((key == "min" || key == "minutes") && number)
      step["duration"] = value + " min";
    else if ((key == "sec" || key == "s" || key == "seconds") && number)
      step["duration"] = value + " s";
    else if ((key == "h" || key == "hours") && number)
      step["duration"] = value + " h";
    else if ((key == "temp" || key == "temperature") && number)
      step["temperature"] = value;
    else if ((key == "rpm" || key == "speed") && number)
      step["speed"] = value;
    else if ((key == "abs" || key == "nm" || key == "wavelength" || key == "wl") && number)
      step["wavelength"] = value;
    else if ((key == "ref" || key == "reference") && number)
      step["reference"] = value;
    else if ((key == "cycles" || key == "times" || key == "repeats") && number)
      step["cycles"] = value;
    else if (key == "reagent" || key == "liquid")
      step["reagent"] = value;
    else if (key == "dark" || key == "light-protected")
      step["dark"] = "true";
  }
  return step;
}

bool shellControl(std::string_view t) {
  for (std::string_view word : {"for ", "while ", "do", "done", "if ", "then", "fi", "else", "elif ",
                                "case ", "esac", "set ", "shift", "exit", "return", "}", "{",
                                "trap ", "source ", ". ", "cd ", "mkdir "})
    if (t.rfind(word, 0) == 0)
      return true;
  return false;
}

struct ShellScript {
  std::map<std::string, std::string> vars;
  std::set<std::string> speakingFunctions; ///< bodies that only echo or read
  std::set<std::string> functions;
  std::vector<bool> inFunction; ///< per line
};

ShellScript scanShellScript(const std::vector<std::string_view> &lines) {
  ShellScript script;
  script.inFunction.assign(lines.size(), false);
  std::string current;
  int depth = 0;
  bool speaks = true;
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string_view t = trimView(lines[n]);
    if (t.empty() || t[0] == '#')
      continue;
    // "say()   { echo; echo ">>> $*"; }", "robot_wash() {".
    size_t paren = t.find("()");
    if (depth == 0 && paren != std::string_view::npos && paren > 0 &&
        shellName(t.substr(0, paren)) && t.find('{', paren) != std::string_view::npos) {
      current = std::string(t.substr(0, paren));
      script.functions.insert(current);
      std::string_view body = t.substr(t.find('{', paren) + 1);
      speaks = true;
      int opens = 1 + static_cast<int>(std::count(body.begin(), body.end(), '{')) -
                  static_cast<int>(std::count(body.begin(), body.end(), '}'));
      speaks = body.find("echo") != std::string_view::npos || body.find("read") != std::string_view::npos ||
               body.find("printf") != std::string_view::npos;
      script.inFunction[n] = true;
      if (opens <= 0) {
        if (speaks)
          script.speakingFunctions.insert(current);
        continue;
      }
      depth = opens;
      speaks = true;
      continue;
    }
    if (depth > 0) {
      script.inFunction[n] = true;
      depth += static_cast<int>(std::count(t.begin(), t.end(), '{')) -
               static_cast<int>(std::count(t.begin(), t.end(), '}'));
      std::string first(t.substr(0, t.find(' ')));
      if (first != "echo" && first != "read" && first != "printf" && first != "local" && first != "}")
        speaks = false;
      if (depth <= 0) {
        if (speaks)
          script.speakingFunctions.insert(current);
        depth = 0;
      }
      continue;
    }
    if (auto assignment = shellAssignment(t))
      script.vars.insert_or_assign(assignment->first, assignment->second);
  }
  return script;
}

} // namespace

bool looksLikeShellScript(std::string_view text) {
  std::vector<std::string_view> lines = textLines(text);
  std::string_view first;
  for (std::string_view line : lines)
    if (!trimView(line).empty()) {
      first = trimView(line);
      break;
    }
  if (first.rfind("#!", 0) == 0 && (first.find("sh") != std::string_view::npos))
    return true;
  unsigned assignments = 0, commands = 0;
  for (std::string_view line : lines) {
    std::string_view t = trimView(line);
    if (t.empty() || t[0] == '#')
      continue;
    if (auto a = shellAssignment(t);
        a && std::none_of(a->first.begin(), a->first.end(),
                          [](char c) { return std::islower(static_cast<unsigned char>(c)); }) &&
        a->second.find(' ') == std::string::npos)
      ++assignments;
    else if (t.find(" --") != std::string_view::npos && shellName(t.substr(0, t.find(' '))))
      ++commands;
  }
  return assignments >= 3 && commands >= 3;
}

std::string withShellScriptAsText(std::string_view text) {
  std::vector<std::string_view> lines = textLines(text);
  ShellScript script = scanShellScript(lines);
  std::vector<std::string> told(lines.size());
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string_view t = trimView(lines[n]);
    std::string &sentence = told[n];
    if (!t.empty() && t[0] != '#' && !script.inFunction[n] && !shellControl(t) &&
        !shellAssignment(t)) {
      std::vector<std::string> words = shellWords(t, script.vars);
      if (!words.empty()) {
        const std::string &program = words[0];
        // "sleep 600", "sleep 10m": the script waits.
        if (program == "sleep" && words.size() == 2 && !words[1].empty()) {
          std::string amount = words[1];
          char suffix = amount.back();
          std::string unit = "s";
          if (suffix == 's' || suffix == 'm' || suffix == 'h') {
            unit = suffix == 'm' ? "min" : std::string(1, suffix);
            amount.pop_back();
          }
          if (isNumber(amount))
            sentence = "wait " + amount + " " + unit + ".";
        } else if (program == "echo" || program == "read" || program == "printf" ||
            script.speakingFunctions.count(program)) {
          std::string said;
          for (size_t k = 1; k < words.size(); ++k)
            if (words[k].empty() || words[k][0] != '-' || words[k].size() > 3)
              said += (said.empty() ? "" : " ") + words[k];
          while (!said.empty() && (said.front() == '>' || said.front() == ' '))
            said.erase(said.begin());
          // "by hand" at the end: "Operator:" first would read as a
          // heading over the robot's commands after it.
          while (!said.empty() && (said.back() == '.' || said.back() == ' '))
            said.pop_back();
          if (!said.empty())
            sentence = said + ", by hand.";
        } else if (script.functions.count(program)) {
          std::string call = program;
          std::replace(call.begin(), call.end(), '_', ' ');
          for (size_t k = 1; k < words.size(); ++k)
            call += " " + words[k];
          sentence = call + ".";
        } else if (words.size() >= 2) {
          nlohmann::json step = shellCommandStep(words);
          if (step.contains("op")) {
            XmlElement e;
            e.name = "step";
            flattenJsonStep(step, e);
            sentence = jsonStepSentence(e, false);
          }
        }
      }
    }
  }
  // In order over the script's lines: a command's sentence is shorter than
  // the command, an instruction's may be longer than its line.
  std::vector<std::string> sentences;
  std::vector<size_t> starts;
  for (size_t n = 0; n < lines.size(); ++n)
    if (!told[n].empty()) {
      sentences.push_back(told[n]);
      starts.push_back(static_cast<size_t>(lines[n].data() - text.data()));
    }
  if (!sentences.empty()) {
    std::string packed = packedSteps(text, starts.front(), text.size(), sentences, starts);
    if (!packed.empty())
      return packed;
  }
  OffsetKeepingWriter w(text, false);
  size_t at = 0;
  for (size_t n = 0; n < lines.size(); ++n) {
    size_t from = static_cast<size_t>(lines[n].data() - text.data());
    size_t end = from + lines[n].size();
    w.blank(at, from, true);
    if (told[n].empty())
      w.blank(from, end, true);
    else
      writeOver(w, text, from, end, told[n]);
    at = end;
  }
  w.blank(at, text.size(), true);
  return w.take();
}

std::string withSqlMethodAsText(std::string_view text) {
  return withStepObjectsAsText(text, sqlSteps(text));
}

bool looksLikeXmlMethod(std::string_view text) {
  if (looksLikeHtml(text))
    return false;
  int steps = 0;
  for (size_t at = text.find('<'); at != std::string_view::npos && steps < 3;
       at = text.find('<', at + 1))
    if (auto e = elementAt(text, at); e && stepElement(*e))
      ++steps;
  return steps >= 3;
}

std::string withXmlMethodAsText(std::string_view text) {
  // Labware whose content a step names by its id ("source=\"TRG1\"").
  std::vector<std::pair<std::string, std::string>> contents;
  for (size_t at = text.find('<'); at != std::string_view::npos; at = text.find('<', at + 1))
    if (auto e = elementAt(text, at); e && !stepElement(*e))
      if (const std::string *id = e->get({"id", "name"}))
        if (const std::string *content = e->get({"content", "contents", "liquid", "reagent"}))
          contents.emplace_back(*id, *content);
  OffsetKeepingWriter w(text, false);
  for (size_t i = 0; i < text.size();) {
    if (startsWith(text, i, "<!--")) {
      // The export's cover note: its text stays, the markers go.
      w.blank(i, i + 4, true);
      size_t end = text.find("-->", i + 4);
      size_t stop = end == std::string_view::npos ? text.size() : end;
      for (size_t k = i + 4; k < stop; ++k)
        w.copy(k);
      if (end != std::string_view::npos)
        w.blank(end, end + 3, true);
      i = end == std::string_view::npos ? text.size() : end + 3;
      continue;
    }
    if (text[i] == '<' && i + 1 < text.size() &&
        (std::isalpha(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '/' ||
         text[i + 1] == '?' || text[i + 1] == '!')) {
      std::optional<XmlElement> e = text[i + 1] == '?' || text[i + 1] == '!'
                                        ? std::nullopt
                                        : elementAt(text, i);
      size_t end = e ? e->end : text.find('>', i);
      end = end == std::string_view::npos ? text.size() : (e ? end : end + 1);
      bool disabled = false;
      if (e)
        if (const std::string *enabled = e->get({"enabled", "active"}))
          disabled = prose::lowerAscii(*enabled) == "false" || *enabled == "0";
      if (!e || !stepElement(*e) || disabled) {
        w.blank(i, end, true);
        i = end;
        continue;
      }
      writeOver(w, text, i, end, stepSentence(*e, contents));
      i = end;
      continue;
    }
    w.copy(i++);
  }
  return w.take();
}

//===--- A Gherkin feature ----------------------------------------------------===//

namespace {

struct GherkinLine {
  size_t start = 0, end = 0;    ///< the line, without its break
  size_t content = 0;           ///< first non-blank byte
  std::string_view trimmed;     ///< without indentation or trailing blanks
};

std::vector<GherkinLine> gherkinLines(std::string_view text) {
  std::vector<GherkinLine> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end;
    GherkinLine line;
    line.start = start;
    line.end = end;
    line.content = start;
    while (line.content < end && (text[line.content] == ' ' || text[line.content] == '\t'))
      ++line.content;
    size_t last = end;
    while (last > line.content && (text[last - 1] == ' ' || text[last - 1] == '\t' ||
                                   text[last - 1] == '\r'))
      --last;
    line.trimmed = text.substr(line.content, last - line.content);
    lines.push_back(line);
    if (end == text.size())
      break;
    start = end + 1;
  }
  return lines;
}

/// "Scenario:", "Scenario Outline:": the length of a section keyword with
/// its colon, else 0.
size_t sectionKeyword(std::string_view line) {
  for (std::string_view keyword : {"Scenario Outline:", "Scenario Template:", "Scenario:",
                                   "Background:", "Example:", "Rule:"})
    if (line.substr(0, keyword.size()) == keyword)
      return keyword.size();
  return 0;
}

bool outlineKeyword(std::string_view line) {
  return line.substr(0, 17) == "Scenario Outline:" || line.substr(0, 18) == "Scenario Template:";
}

/// "When ", "And ": the step keyword's length with its space, else 0.
size_t stepKeyword(std::string_view line, std::string_view &keyword) {
  for (std::string_view k : {"Given ", "When ", "Then ", "And ", "But ", "* "})
    if (line.substr(0, k.size()) == k) {
      keyword = k.substr(0, k.size() - 1);
      return k.size();
    }
  return 0;
}

/// A table row's cells, trimmed: "| 1 | 10 min |" -> {"1", "10 min"}.
std::vector<std::string> rowCells(std::string_view row) {
  std::vector<std::string> cells;
  if (row.empty() || row.front() != '|')
    return cells;
  size_t at = 1;
  while (at < row.size()) {
    size_t bar = row.find('|', at);
    if (bar == std::string_view::npos)
      break;
    std::string_view cell = row.substr(at, bar - at);
    while (!cell.empty() && cell.front() == ' ')
      cell.remove_prefix(1);
    while (!cell.empty() && cell.back() == ' ')
      cell.remove_suffix(1);
    cells.emplace_back(cell);
    at = bar + 1;
  }
  return cells;
}

/// A step's words as a sentence: a full stop at the end unless a table or
/// a text block follows (":") or one is there.
std::string asSentence(std::string_view step) {
  std::string out(step);
  if (!out.empty() && out.back() != '.' && out.back() != ':')
    out += '.';
  return out;
}

} // namespace

bool looksLikeGherkin(std::string_view text) {
  int features = 0, sections = 0, steps = 0;
  for (const GherkinLine &line : gherkinLines(text)) {
    std::string_view keyword;
    features += line.trimmed.substr(0, 8) == "Feature:";
    sections += sectionKeyword(line.trimmed) > 0;
    steps += stepKeyword(line.trimmed, keyword) > 0;
  }
  return features >= 1 && sections >= 1 && steps >= 3;
}

std::string withGherkinAsSteps(std::string_view text) {
  std::vector<GherkinLine> lines = gherkinLines(text);
  OffsetKeepingWriter w(text, /*moveLeadingMarkup=*/false);
  auto copyLine = [&](const GherkinLine &line) {
    for (size_t i = line.start; i < line.end; ++i)
      w.copy(i);
  };
  auto lineBreak = [&](const GherkinLine &line) {
    if (line.end < text.size())
      w.copy(line.end);
  };
  bool pendingByHand = false, pendingByRobot = false, inThen = false;
  for (size_t n = 0; n < lines.size(); ++n) {
    const GherkinLine &line = lines[n];
    std::string_view t = line.trimmed;
    std::string_view keyword;
    if (!t.empty() && t.front() == '@') {
      // Tags say who does the scenario below: a heading says it for them.
      for (std::string_view tag : {"@manual", "@operator", "@bench", "@by-hand", "@byhand",
                                   "@human"})
        pendingByHand = pendingByHand || t.find(tag) != std::string_view::npos;
      for (std::string_view tag : {"@robot", "@instrument", "@automated", "@bioforge"})
        pendingByRobot = pendingByRobot || t.find(tag) != std::string_view::npos;
      w.blank(line.start, line.end, true);
      lineBreak(line);
      continue;
    }
    if (sectionKeyword(t)) {
      inThen = false;
      bool byHand = pendingByHand, byRobot = pendingByRobot;
      pendingByHand = pendingByRobot = false;
      // The title names what the steps below do ("Operator prepares
      // reagents and loads the lysates") and would read as a section of
      // its own kind (a preparation); a tag that gives the scenario to a
      // person heads its steps instead.
      // Every scenario gets a heading, so that one given to a person ends
      // where the next scenario starts.
      std::string heading = byHand ? "By hand:" : byRobot ? "Robot:" : "Steps:";
      w.blank(line.start, line.content, true);
      w.replace(line.content, line.content + t.size(), heading, true);
      w.blank(line.content + t.size(), line.end, true);
      lineBreak(line);
      if (!outlineKeyword(t))
        continue;
      // A Scenario Outline runs once per row of its Examples: the outline's
      // steps with each row's values, told in turn over the outline's lines.
      size_t body = n + 1, examples = body;
      std::vector<std::string_view> templates;
      bool templateThen = false;
      while (examples < lines.size() && lines[examples].trimmed.substr(0, 9) != "Examples:" &&
             lines[examples].trimmed.substr(0, 10) != "Scenarios:" &&
             !sectionKeyword(lines[examples].trimmed) &&
             (lines[examples].trimmed.empty() || lines[examples].trimmed.front() != '@')) {
        std::string_view kw;
        if (size_t sk = stepKeyword(lines[examples].trimmed, kw)) {
          if (kw == "Then")
            templateThen = true;
          else if (kw == "Given" || kw == "When")
            templateThen = false;
          if (!templateThen)
            templates.push_back(lines[examples].trimmed.substr(sk));
        }
        ++examples;
      }
      if (examples >= lines.size() || sectionKeyword(lines[examples].trimmed) ||
          templates.empty())
        continue; // no Examples: the outline's lines read as they are
      std::vector<std::string> header;
      std::vector<std::vector<std::string>> rows;
      size_t last = examples;
      for (size_t r = examples + 1; r < lines.size(); ++r) {
        std::string_view rt = lines[r].trimmed;
        if (rt.empty() || rt.front() == '#' || rt.substr(0, 9) == "Examples:")
          continue;
        if (rt.front() != '|')
          break;
        std::vector<std::string> cells = rowCells(rt);
        if (header.empty())
          header = std::move(cells);
        else
          rows.push_back(std::move(cells));
        last = r;
      }
      // Each step of each run a sentence of its own, as many to a line as
      // fit, over the outline's lines in turn.
      std::vector<std::string> sentences;
      for (const std::vector<std::string> &row : rows)
        for (std::string_view step : templates) {
          std::string filled(step);
          for (size_t c = 0; c < header.size() && c < row.size(); ++c) {
            std::string placeholder = "<" + header[c] + ">";
            for (size_t at = filled.find(placeholder); at != std::string::npos;
                 at = filled.find(placeholder, at + row[c].size()))
              filled.replace(at, placeholder.size(), row[c]);
          }
          sentences.push_back(asSentence(filled));
        }
      // The runs' sentences over the outline's lines, all at the indent of
      // its first step so that a sentence wraps as prose does; a blank line
      // ends a paragraph, so no sentence goes across one.
      size_t indent = lines[body].content - lines[body].start;
      for (size_t r = body; r <= last; ++r)
        if (!lines[r].trimmed.empty()) {
          indent = lines[r].content - lines[r].start;
          break;
        }
      auto roomOf = [&](size_t r) -> size_t {
        size_t width = lines[r].end - lines[r].start;
        return lines[r].trimmed.empty() || width <= indent ? 0 : width - indent;
      };
      std::vector<std::string> told(last + 1 - body);
      size_t next = 0;
      for (size_t r = body; r <= last && next < sentences.size();) {
        size_t groupEnd = r;
        while (groupEnd <= last && roomOf(groupEnd) > 0)
          ++groupEnd;
        // Whole sentences into lines [r, groupEnd), word by word.
        size_t line = r, used = 0;
        while (next < sentences.size() && line < groupEnd) {
          std::vector<std::pair<size_t, std::string>> placed;
          size_t at = line, col = used;
          bool fits = true;
          for (size_t from = 0; from < sentences[next].size();) {
            size_t space = sentences[next].find(' ', from);
            size_t to = space == std::string::npos ? sentences[next].size() : space;
            std::string word = sentences[next].substr(from, to - from);
            from = to + 1;
            size_t need = word.size() + (col ? 1 : 0);
            if (col + need > roomOf(at)) {
              ++at;
              col = 0;
              need = word.size();
              if (at >= groupEnd || need > roomOf(at)) {
                fits = false;
                break;
              }
            }
            placed.push_back({at, word});
            col += need;
          }
          if (!fits)
            break;
          for (const auto &[lineIndex, word] : placed) {
            std::string &slot = told[lineIndex - body];
            slot += (slot.empty() ? "" : " ") + word;
          }
          line = at;
          used = col;
          ++next;
        }
        r = groupEnd + 1;
      }
      if (rows.empty() || next < sentences.size())
        continue; // no room to tell it: the outline's lines read as they are
      for (size_t r = body; r <= last; ++r) {
        if (told[r - body].empty())
          w.blank(lines[r].start, lines[r].end, true);
        else
          w.replace(lines[r].start, lines[r].end, std::string(indent, ' ') + told[r - body], true);
        lineBreak(lines[r]);
      }
      n = last;
      continue;
    }
    if (size_t k = stepKeyword(t, keyword)) {
      if (keyword == "Then")
        inThen = true;
      else if (keyword == "Given" || keyword == "When")
        inThen = false;
      if (inThen) {
        // "Then every well holds 70 µL": what the run is checked against,
        // not something to do.
        w.blank(line.start, line.end, true);
      } else {
        // Without its keyword, and ended as a sentence: step lines carry
        // no full stop, and a line after them is no wrapped rest.
        for (size_t i = line.start; i < line.content; ++i)
          w.copy(i);
        w.replace(line.content, line.end, asSentence(t.substr(k)), true);
      }
      lineBreak(line);
      continue;
    }
    // A data table under a Then is part of the check.
    if (inThen && !t.empty() && t.front() == '|') {
      w.blank(line.start, line.end, true);
      lineBreak(line);
      continue;
    }
    copyLine(line);
    lineBreak(line);
  }
  return w.take();
}

} // namespace plate::agent

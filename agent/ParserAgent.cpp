//===- ParserAgent.cpp - The Parser Agent's prompt, generated -------------===//
//
// The statement forms are rendered from grammar/PlateParser.g4 (embedded
// at build time) by a small EBNF printer: tokens become their keyword
// spellings (read from the lexer grammar's letter fragments), value rules
// become UPPER placeholders, option rules are expanded in place. A change
// to the grammar changes the prompt at the next build.
//
//===----------------------------------------------------------------------===//
#include "agent/ParserAgent.h"
#include "agent/LanguageNotes.h"
#include "frontend/Keywords.h"

#include "backend/bioforge1/Command.h"
#include "ir/Units.h"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace plate::agent {

namespace {

std::string_view noteFor(const std::string &label) {
  auto found = languageNotes().find(label);
  return found == languageNotes().end() ? std::string_view() : found->second;
}

#include "agent/GrammarText.inc"

/// Strips `// comments` (outside quotes) from grammar text.
std::string stripComments(std::string_view text) {
  std::string result;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\'' && (i == 0 || text[i - 1] != '\\'))
      quoted = !quoted;
    if (!quoted && c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n')
        ++i;
      result += '\n';
      continue;
    }
    result += c;
  }
  return result;
}

/// rule name -> body (between `:` and the closing `;`).
std::map<std::string, std::string> readRules(std::string_view grammar) {
  std::map<std::string, std::string> rules;
  std::string text = stripComments(grammar);
  std::istringstream in(text);
  std::string line, name, body;
  bool inRule = false;
  auto finish = [&] {
    size_t colon = body.find(':');
    size_t semi = body.rfind(';');
    if (colon != std::string::npos && semi != std::string::npos && semi > colon)
      rules[name] = body.substr(colon + 1, semi - colon - 1);
    inRule = false;
    body.clear();
  };
  while (std::getline(in, line)) {
    if (!inRule) {
      size_t start = line.find_first_not_of(" \t");
      if (start == std::string::npos || start != 0 || !std::isalpha(static_cast<unsigned char>(line[0])))
        continue;
      std::string word;
      size_t i = 0;
      while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_'))
        word += line[i++];
      if (word == "parser" || word == "lexer" || word == "options" || word == "fragment" ||
          word == "mode")
        continue;
      name = word;
      inRule = true;
      body = line.substr(i);
    } else {
      body += " " + line;
    }
    // A rule ends at a `;` outside quotes at the end of a line.
    std::string trimmed = body;
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back())))
      trimmed.pop_back();
    if (inRule && !trimmed.empty() && trimmed.back() == ';')
      finish();
  }
  return rules;
}

/// Splits at top-level `|`, keeping each alternative's `# label`.
std::vector<std::string> labelledAlternatives(std::string_view body) {
  std::vector<std::string> result;
  std::string current;
  int depth = 0;
  bool quoted = false;
  for (char c : body) {
    if (c == '\'')
      quoted = !quoted;
    if (!quoted && c == '(')
      ++depth;
    if (!quoted && c == ')')
      --depth;
    if (!quoted && depth == 0 && c == '|') {
      result.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  result.push_back(current);
  return result;
}

/// An alternative's ANTLR label (`# dispenseStmt`), or "".
std::string labelOf(std::string_view alternative) {
  size_t hash = alternative.find('#');
  if (hash == std::string_view::npos)
    return "";
  std::string label;
  for (char c : alternative.substr(hash + 1))
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
      label += c;
  return label;
}

/// Splits at top-level `|`, without the labels.
std::vector<std::string> alternatives(std::string_view body) {
  std::vector<std::string> result = labelledAlternatives(body);
  for (std::string &alternative : result) {
    size_t label = alternative.find('#'); // ANTLR alternative labels
    if (label != std::string::npos)
      alternative = alternative.substr(0, label);
  }
  return result;
}

/// The spelling of a lexer token: a keyword from the frontend's table, a
/// literal from its quotes (or its letter fragments: `4pl`).
std::map<std::string, std::string> tokenSpellings() {
  std::map<std::string, std::string> spellings;
  for (const auto &[name, body] : readRules(kLexerGrammar)) {
    if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0])))
      continue;
    std::string first = alternatives(body).front();
    std::string spelling;
    bool ok = true;
    std::istringstream in(first);
    std::string part;
    while (in >> part) {
      if (part.size() == 1 && std::isupper(static_cast<unsigned char>(part[0])))
        spelling += static_cast<char>(std::tolower(static_cast<unsigned char>(part[0])));
      else if (part.size() >= 3 && part.front() == '\'' && part.back() == '\'')
        spelling += part.substr(1, part.size() - 2);
      else if (part == "->" || part == "skip" || part.rfind("pushMode", 0) == 0)
        break;
      else {
        ok = false;
        break;
      }
    }
    if (ok && !spelling.empty())
      spellings[name] = spelling;
  }
  // Keywords are words the frontend retypes (frontend/Keywords.h); the
  // first spelling of each is its usual one.
  for (const KeywordSpelling &keyword : keywordSpellings())
    spellings.emplace(std::string(keyword.token), std::string(keyword.spelling));
  return spellings;
}

class FormPrinter {
public:
  FormPrinter() : rules_(readRules(kParserGrammar)), tokens_(tokenSpellings()) {}

  std::string alternative(std::string_view text) {
    std::vector<std::string> words = tokenize(text);
    size_t pos = 0;
    std::string out = sequence(words, pos);
    return collapse(out);
  }
  const std::map<std::string, std::string> &rules() const { return rules_; }

private:
  static std::vector<std::string> tokenize(std::string_view text) {
    std::vector<std::string> words;
    for (size_t i = 0; i < text.size();) {
      char c = text[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (std::string_view("()?*+|").find(c) != std::string_view::npos) {
        words.emplace_back(1, c);
        ++i;
      } else if (c == '\'') {
        size_t end = text.find('\'', i + 1);
        words.emplace_back(text.substr(i, end - i + 1));
        i = end + 1;
      } else {
        size_t start = i;
        while (i < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
          ++i;
        if (i == start)
          ++i;
        words.emplace_back(text.substr(start, i - start));
      }
    }
    return words;
  }

  // sequence := item* ; stops at `)` or `|` (which the caller consumes).
  std::string sequence(const std::vector<std::string> &words, size_t &pos) {
    std::string out;
    while (pos < words.size() && words[pos] != ")" && words[pos] != "|") {
      std::string item = atom(words, pos);
      char suffix = 0;
      if (pos < words.size() && (words[pos] == "?" || words[pos] == "*" || words[pos] == "+"))
        suffix = words[pos++][0];
      if (item.empty())
        continue;
      if (suffix == '?')
        item = optionalItem(item);
      else if (suffix == '*')
        item = item.front() == '[' ? item : "[" + item + " ...]";
      else if (suffix == '+')
        item += " ...";
      if (!out.empty())
        out += ' ';
      out += item;
    }
    return out;
  }

  static std::string optionalItem(const std::string &item) {
    if (item.front() == '[' && item.back() == ']' && item.find("] [") == std::string::npos)
      return item;
    if (item.front() == '(' && item.back() == ')')
      return "[" + item.substr(1, item.size() - 2) + "]";
    return "[" + item + "]";
  }

  std::string atom(const std::vector<std::string> &words, size_t &pos) {
    const std::string &word = words[pos++];
    if (word == "(") {
      std::vector<std::string> alts;
      alts.push_back(sequence(words, pos));
      while (pos < words.size() && words[pos] == "|") {
        ++pos;
        alts.push_back(sequence(words, pos));
      }
      if (pos < words.size() && words[pos] == ")")
        ++pos;
      return join(alts);
    }
    if (word.front() == '\'')
      return word.substr(1, word.size() - 2);
    if (std::isupper(static_cast<unsigned char>(word[0])))
      return token(word);
    return rule(word);
  }

  static std::string join(const std::vector<std::string> &alts) {
    if (alts.size() == 1)
      return alts[0];
    bool simple = true;
    for (const std::string &alt : alts)
      simple &= alt.find(' ') == std::string::npos;
    std::string out = simple ? "" : "(";
    for (size_t i = 0; i < alts.size(); ++i)
      out += (i ? (simple ? "|" : " | ") : "") + alts[i];
    return simple ? out : out + ")";
  }

  std::string token(const std::string &name) {
    static const std::map<std::string, std::string> placeholders = {
        {"IDENT", "NAME"}, {"NUMBER", "N"}, {"STRING", "\"TEXT\""}, {"WELL", "WELL"},
        {"EOF", ""}};
    if (auto it = placeholders.find(name); it != placeholders.end())
      return it->second;
    if (auto it = tokens_.find(name); it != tokens_.end())
      return it->second;
    std::string lower = name;
    for (char &c : lower)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower;
  }

  std::string rule(const std::string &name) {
    // Value rules print as the placeholder a statement takes.
    static const std::map<std::string, std::string> values = {
        {"volume", "VOLUME"},     {"duration", "TIME"},      {"temperature", "TEMPERATURE"},
        {"speed", "SPEED"},       {"wavelength", "WAVELENGTH"}, {"count", "COUNT"},
        {"ratio", "RATIO"},       {"wellSet", "WELLS"},      {"name", "NAME"},
        {"callArg", "ARG"},       {"nameRange", "NAMES"},    {"sourceNames", "NAMES"},    {"literalQuantity", "QUANTITY"},
        {"unit", "UNIT"},         {"paramType", "TYPE"},     {"stepLabel", ""}, {"lineLabel", ""}, {"liquidName", "NAME"}, {"wellSetName", "NAME"}, {"lidWord", "lid"},
        {"param", "NAME: TYPE"},  {"quantity", "QUANTITY"},
    };
    if (auto it = values.find(name); it != values.end())
      return it->second;
    auto found = rules_.find(name);
    if (found == rules_.end())
      return name;
    // Option rules (incubateOption, prepareOption, roleClause, ...) print
    // as their alternatives, each optional; others inline.
    std::vector<std::string> alts = alternatives(found->second);
    std::vector<std::string> printed;
    for (const std::string &alt : alts) {
      std::vector<std::string> words = tokenize(alt);
      size_t pos = 0;
      printed.push_back(sequence(words, pos));
    }
    bool isOption = name.size() > 6 && (name.ends_with("Option") || name.ends_with("Clause"));
    if (isOption && printed.size() > 1) {
      std::string out;
      for (const std::string &p : printed)
        out += (out.empty() ? "[" : " [") + p + "]";
      return out;
    }
    return join(printed);
  }

  static std::string collapse(std::string text) {
    std::string out;
    for (char c : text)
      if (!(c == ' ' && !out.empty() && out.back() == ' '))
        out += c;
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    return out;
  }

  std::map<std::string, std::string> rules_;
  std::map<std::string, std::string> tokens_;
};

} // namespace

std::vector<std::string> statementForms() {
  FormPrinter printer;
  std::vector<std::string> forms;
  auto rule = printer.rules().find("statement");
  if (rule == printer.rules().end())
    return forms;
  std::set<std::string> noted; // two forms of one label share one note
  for (const std::string &alt : labelledAlternatives(rule->second)) {
    std::string form = printer.alternative(alt.substr(0, alt.find('#')));
    if (std::string_view note = noteFor(labelOf(alt));
        !note.empty() && noted.insert(labelOf(alt)).second)
      form += fmt::format("   ({})", note);
    forms.push_back(std::move(form));
  }
  for (const char *extra : {"repeatHeader", "tipsClause"}) {
    auto it = printer.rules().find(extra);
    if (it != printer.rules().end())
      forms.push_back(printer.alternative(it->second) +
                      (std::string_view(extra) == "repeatHeader"
                           ? " ... }   (body on the following lines, `}` alone on its line)"
                           : "   (at the end of any pipetting statement)"));
  }
  return forms;
}

std::vector<std::string> declarationForms() {
  FormPrinter printer;
  std::vector<std::string> forms;
  for (const char *name : {"layoutStatement", "reagentDecl", "wellItem"}) {
    auto rule = printer.rules().find(name);
    if (rule == printer.rules().end())
      continue;
    std::vector<std::string> alts = alternatives(rule->second);
    std::string line = std::string(name == std::string_view("layoutStatement") ? "LAYOUT line: "
                                   : name == std::string_view("reagentDecl")   ? "REAGENTS line: "
                                                                                : "WELLS item: ");
    for (size_t i = 0; i < alts.size(); ++i)
      line += (i ? "  |  " : "") + printer.alternative(alts[i]);
    forms.push_back(line);
  }
  return forms;
}

std::vector<std::string> alternativeLabels(std::string_view ruleName) {
  FormPrinter printer;
  std::vector<std::string> labels;
  auto rule = printer.rules().find(std::string(ruleName));
  if (rule != printer.rules().end())
    for (const std::string &alt : labelledAlternatives(rule->second))
      labels.push_back(labelOf(alt));
  return labels;
}

static std::vector<std::string> notedForms(std::string_view ruleName) {
  FormPrinter printer;
  std::vector<std::string> forms;
  auto rule = printer.rules().find(std::string(ruleName));
  if (rule == printer.rules().end())
    return forms;
  for (const std::string &alt : labelledAlternatives(rule->second)) {
    std::string_view note = noteFor(labelOf(alt));
    if (note.empty())
      continue;
    // The form is printed above; its first word names it here.
    std::string form = printer.alternative(alt.substr(0, alt.find('#')));
    std::string head = form.substr(0, form.find(' '));
    if (head.find('|') != std::string::npos)
      head = "ROLE line";
    else if (head == "N")
      head = "header";
    forms.push_back(fmt::format("{}: {}", head, note));
  }
  return forms;
}

std::vector<std::string> roleWords() {
  FormPrinter printer;
  std::vector<std::string> words;
  auto rule = printer.rules().find("role");
  if (rule == printer.rules().end())
    return words;
  for (const std::string &alt : alternatives(rule->second))
    words.push_back(printer.alternative(alt));
  return words;
}

static std::string languageNotesText() {
  std::string out;
  auto line = [&](std::string_view head, const std::vector<std::string> &items) {
    if (!items.empty())
      out += fmt::format("{}: {}\n", head, fmt::join(items, "; "));
  };
  line("LAYOUT", notedForms("layoutStatement"));
  line("REAGENTS", {std::string(noteFor("reagentDecl"))});
  line("LAYOUT clauses", notedForms("roleClause"));
  std::vector<std::string> wellForms = notedForms("wellItem");
  for (std::string &form : notedForms("wellSetItem"))
    wellForms.push_back(std::move(form));
  line("WELLS items", wellForms);
  std::vector<std::string> roles;
  for (const std::string &role : roleWords())
    if (std::string_view note = noteFor(role); !note.empty())
      roles.push_back(fmt::format("{}: {}", role, note));
  line("Roles", roles);
  return out + std::string(languageRules());
}

std::string unitReference() {
  std::string out;
  for (Dimension dimension : {Dimension::Volume, Dimension::Time, Dimension::Temperature,
                              Dimension::Speed, Dimension::Wavelength, Dimension::Concentration,
                              Dimension::Count, Dimension::Ratio}) {
    // One spelling per unit: the others differ only in case or in how the
    // micro sign is typed, and the prompt says so once.
    std::vector<std::string> spellings;
    std::set<std::string> seen;
    for (const std::string &spelling : unitSpellings(dimension)) {
      std::string key;
      for (size_t i = 0; i < spelling.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(spelling[i]);
        if ((c == 0xC2 || c == 0xCE) && i + 1 < spelling.size() &&
            (static_cast<unsigned char>(spelling[i + 1]) == 0xB5 ||
             static_cast<unsigned char>(spelling[i + 1]) == 0xBC)) {
          key += 'u'; // µ (U+00B5) or μ (U+03BC)
          ++i;
          continue;
        }
        key += static_cast<char>(std::tolower(c));
      }
      if (seen.insert(key).second)
        spellings.push_back(spelling);
    }
    if (dimension == Dimension::Temperature) {
      spellings.push_back("RT");
      spellings.push_back("room temperature");
    }
    if (dimension == Dimension::Time)
      spellings.push_back("overnight");
    if (dimension == Dimension::Count && spellings.empty())
      spellings = {"N times", "Nx"};
    if (dimension == Dimension::Ratio)
      spellings.push_back("1:N");
    out += fmt::format("{}: {}\n", dimensionName(dimension), fmt::join(spellings, ", "));
  }
  return out + "(also with µ or μ for u, and l for L: µL, ml)\n";
}

std::string platformReference(const Platform &platform) {
  std::string out = fmt::format("Platform {} ({}). INSTRUMENT steps must fit it; MANUAL steps "
                                "need not.\n",
                                platform.name, platform.description);
  std::vector<std::string> labware;
  for (const auto &[name, item] : platform.labware)
    labware.push_back(fmt::format("{} ({}x{} wells, {} uL each)", name, item.shape.rows,
                                  item.shape.cols, formatNumber(item.wellCapacityUl)));
  out += fmt::format("- plates: {}\n", fmt::join(labware, ", "));
  out += fmt::format("- pipetting head: {} channels, tips up to {} uL\n", platform.channels,
                     formatNumber(platform.tipCapacityUl));
  // Round 3 of the parser seat: two first attempts had the robot load more
  // layout liquids than the reservoir holds (E700).
  // Parser seat rounds 24 and 28: stated loads below what the steps use
  // plus the dead volume failed to compile (E701), the dead volume unknown.
  out += fmt::format("- reservoir: {} positions, one per liquid the robot pipettes; beyond "
                     "that, pipette the layout in MANUAL; {} mL dead volume per position\n",
                     platform.reservoirRows * platform.reservoirCols,
                     formatNumber(platform.reservoirDeadMl));
  std::vector<std::string> filters;
  for (double nm : platform.readerFiltersNm)
    filters.push_back(formatNumber(nm));
  std::vector<std::string> cannot;
  if (!platform.readerFluorescence)
    cannot.push_back("fluorescence");
  if (!platform.readerLuminescence)
    cannot.push_back("luminescence");
  bool anyReader = platform.readerAbsorbance && !filters.empty();
  if (anyReader)
    out += fmt::format("- reader: absorbance at {} nm only{}\n", fmt::join(filters, ", "),
                       cannot.empty() ? "" : fmt::format("; no {}", fmt::join(cannot, ", no ")));
  else
    out += "- reader: none; every read is a MANUAL step on another instrument\n";
  if (platform.coolerModule.empty())
    out += fmt::format("- heater: room temperature up to {} C; no cooling (below {} C is a "
                       "MANUAL step)\n",
                       formatNumber(platform.heaterMaxCelsius),
                       formatNumber(platform.roomTempMinCelsius));
  else
    out += fmt::format("- heater: room temperature up to {} C; cooling down to {} C\n",
                       formatNumber(platform.heaterMaxCelsius),
                       formatNumber(platform.coolerMinCelsius));
  if (platform.lidModules.empty())
    out += "- lid: no lid handling; a robot incubation is `lid off` (a covered or sealed "
           "plate is a MANUAL step)\n";
  out += fmt::format("- shaker: {}..{} rpm{}\n", formatNumber(platform.shakerMinRpm),
                     formatNumber(platform.shakerMaxRpm),
                     platform.shakerHeated ? ", heated" : ", not heated (no shaking above RT)");
  out += fmt::format("- RT = {}..{} C; overnight = {} h\n",
                     formatNumber(platform.roomTempMinCelsius),
                     formatNumber(platform.roomTempMaxCelsius),
                     formatNumber(platform.overnightSeconds / 3600));
  return out;
}

namespace {

std::string commandReference() {
  std::string out;
  for (const backend::CommandSpec &spec : backend::commandSchema()) {
    std::vector<std::string> args;
    for (const backend::ArgSpec &arg : spec.args)
      args.push_back(arg.required ? arg.name : std::string(arg.name) + "?");
    out += fmt::format("{}.{}({})\n", spec.module, backend::opName(spec.op), fmt::join(args, ", "));
  }
  return out;
}

const char *kRules = R"(Rules:
1. Use only what the document says. Never invent a volume, wavelength, concentration or count; if one is missing, write a MANUAL `note "..."` saying so. A step given a time, speed or temperature only in words ("shake briefly", "a few minutes") stays a step with a usual value and a `#` comment saying so.
2. Keep the document's step order. Repeat counts ("wash 4 times", "repeat twice more", "as in step 2") must be written out with the counts the document gives.
3. Keep the person and the robot apart: reagent preparation, equilibration and anything the document gives to a person go in <MANUAL>; everything the robot does goes in <INSTRUMENT>. Move a robot step to MANUAL only when the platform below cannot do it (say why in a `note`).
4. Use the platform's symbols: RT for room temperature (20-25 C), overnight for overnight.
5. Declare every liquid you name, also one only a person pipettes.
)";

} // namespace

std::string languageReference(const Platform &platform) {
  std::string out = "Script: sections in this order, one statement per line, `#` comments:\n"
                    "<KIT_TITLE>text</KIT_TITLE> <LAYOUT>...</LAYOUT> <REAGENTS>...</REAGENTS> "
                    "then <MANUAL>...</MANUAL> and <INSTRUMENT>...</INSTRUMENT> (these may "
                    "alternate; INSTRUMENT is required). A line may start with the document's "
                    "step label: `3.`, `9.1`, `2a)`, `iv.`, `M1.`, `08:50`.\n";
  out += "\nStatement forms ([] optional, a|b alternatives, UPPER = a value):\n";
  for (const std::string &form : statementForms())
    out += form + "\n";
  for (const std::string &form : declarationForms())
    out += form + "\n";
  out += languageNotesText();
  out += "\nUnits:\n" + unitReference();
  out += "\n" + platformReference(platform);
  return out;
}

ParserPrompt buildParserPrompt(const Platform &platform, const ParserInput &input) {
  ParserPrompt prompt;
  std::string &system = prompt.system;
  if (input.direct) {
    system = "You translate a laboratory protocol written in natural language into the "
             "BioForge-1 robot's command stream: one JSON object per line, "
             "{\"seq\": N, \"module\": M, \"op\": OP, \"args\": {...}}, seq counting from 1.\n";
    system += kRules;
    system += "\nCommands (module.op(arguments), ? = optional):\n" + commandReference();
    system += "\n" + platformReference(platform);
    system += "\nAnswer with the JSONL lines only, in one ```jsonl fenced block.\n";
  } else {
    system = "You translate a laboratory protocol written in natural language into a .plate "
             "script for a lab robot. The compiler checks every quantity and step.\n";
    system += kRules;
    system += "\n" + languageReference(platform);
    system += "\nAnswer with the script only, in one ```plate fenced block.\n";
  }

  std::string &user = prompt.user;
  user = "Protocol document (line numbers added):\n";
  std::istringstream in(input.protocolText);
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number)
    user += fmt::format("{:>3}| {}\n", number, line);
  if (!input.layout.empty())
    user += "\nPlate layout given by the user (use it for <LAYOUT>):\n" + input.layout +
            (input.layout.back() == '\n' ? "" : "\n");
  if (!input.feedback.empty()) {
    user += fmt::format("\nYour attempt {} was rejected. Fix every point below and answer "
                        "with the whole corrected {}.\n",
                        input.attempt - 1, input.direct ? "command stream" : "script");
    user += input.feedback;
    if (!input.previousOutput.empty())
      user += fmt::format("\nYour attempt {}:\n```\n{}\n```\n", input.attempt - 1,
                          input.previousOutput);
  }
  return prompt;
}

namespace {

/// The body of the first fenced block, or nullopt when there is none.
std::optional<std::string> firstFence(std::string_view reply) {
  size_t open = reply.find("```");
  if (open == std::string_view::npos)
    return std::nullopt;
  size_t bodyStart = reply.find('\n', open);
  if (bodyStart == std::string_view::npos)
    return std::nullopt;
  ++bodyStart;
  size_t close = reply.find("```", bodyStart);
  // A reply cut off inside its fence keeps what it has.
  std::string_view body = reply.substr(bodyStart, close == std::string_view::npos
                                                      ? std::string_view::npos
                                                      : close - bodyStart);
  return std::string(body);
}

std::string trimmed(std::string text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos)
    return "";
  size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(start, end - start + 1) + "\n";
}

} // namespace

std::string extractScript(std::string_view reply) {
  if (auto fenced = firstFence(reply))
    return trimmed(*fenced);
  // Bare: drop any prose before the first section tag.
  size_t tag = reply.find("\n<");
  if (!reply.empty() && reply.front() == '<')
    tag = 0;
  else if (tag != std::string_view::npos)
    ++tag;
  return trimmed(std::string(tag == std::string_view::npos ? reply : reply.substr(tag)));
}

std::string extractCommands(std::string_view reply) {
  std::string text = firstFence(reply).value_or(std::string(reply));
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    size_t start = line.find_first_not_of(" \t\r");
    if (start != std::string::npos && line[start] == '{')
      out += line.substr(start) + "\n";
  }
  return out;
}

} // namespace plate::agent

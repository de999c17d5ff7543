//===- LanguageNotes.cpp - What each grammar form means, for the prompt ---===//
//
// Kept short: every word here is paid for in every Parser call. Each note
// says what the form alone cannot: defaults, what a name or role covers,
// and the choices of docs/language.md a model would otherwise guess.
//
//===----------------------------------------------------------------------===//
#include "agent/LanguageNotes.h"

namespace plate::agent {

const std::vector<std::string_view> &notedRules() {
  static const std::vector<std::string_view> rules = {"statement", "layoutStatement",
                                                      "roleClause", "wellItem", "wellSetItem"};
  return rules;
}

const std::map<std::string_view, std::string_view> &languageNotes() {
  static const std::map<std::string_view, std::string_view> notes = {
      // statements
      {"dispenseStmt", "NAMES: a reagent, or a list of layout names, ranges (`S1..S7`), roles; "
                       "`layout`: each well its own liquid; "
                       "no `to`: a layout source fills its wells, a reagent all"},
      {"aspirateStmt", "`all` = whatever the wells hold"},
      {"washStmt", "empties the wells, then COUNT fill/remove cycles; default WELLS all"},
      {"incubateStmt", "default RT, lid on; `dark` keeps the lid on; cover, seal, adhesive strip = the lid"},
      {"shakeStmt", ""},
      {"mixStmt", "pipette up and down in place"},
      {"transferStmt", "pairs in column-major order, one after another; `mix`: each destination"},
      {"serialDilutionStmt", "a series per row (across) or column (down) from its first well; "
                             "`with` first adds VOLUME x (factor-1) of NAME to the rest; "
                             "`discard` removes VOLUME from each last well"},
      {"magnetStmt", ""},
      {"absorbanceStmt", "no WELLS: every layout well"},
      {"fluorescenceStmt", "no WELLS: every layout well"},
      {"analyzeStmt", "standard_curve: signal vs calibrants; competitive: %B/B0 (NSB "
                      "subtracted) vs calibrants; cutoff: index = OD / cut-off, calls"},
      {"waitStmt", ""},
      {"pauseStmt", "the operator confirms"},
      {"noteStmt", "text for the operator, no action"},
      {"useStmt", "imports a stdlib module by name: use \"elisa\""},
      {"prepareStmt", "MANUAL only"},
      {"equilibrateStmt", "MANUAL only; `all reagents` = every reagent; `all` = the plate (plate "
                          "and reagents: both statements); or names: `equilibrate tmb, stop to RT`"},
      {"callStmt", "calls a procedure of a `use`d module"},
      // reagent lines (one form: the note is the rule's)
      {"reagentDecl", "NAMES: a name, a list A, B or a range Stock1..Stock6 (no commas: only "
                      "numbered names, D1x D2x); each gets the line's volume and flags; later "
                      "words are flags (dark = light sensitive); a layout name here only sets "
                      "its loading; QUANTITY: the load, only if stated and enough (dead volume "
                      "included), else omit it"},
      // layout lines and clauses
      {"plateLine", ""},
      {"roleLine", "NAMES: a name, a range S1..S7 or a list Std1, Std2, QC; names fill the "
                   "wells in column-major order (A1, B1, ... H1, A2); one name at many wells "
                   "fills them all; positive|negative only before control"},
      {"gridHeader", "grid form: column numbers"},
      {"gridRow", "grid form: row letter, a name or . per cell"},
      {"atClause", ""},
      {"concClause", "one value per name"},
      {"replicatesClause", "each name takes N adjacent wells of one row (across) or column (down)"},
      {"dilutionClause", "the sample was pre-diluted; results are multiplied back"},
      {"seriesClause", "one name per well, diluted on the plate from the one before "
                       "(serial_dilution; a sample titrated in 8 wells: `T1..T8`); `from`: the "
                       "first's concentration (calibrants, controls only)"},
      // well-set items
      {"wellOrBlock", "A1..H12 = the block between two corners"},
      {"rowItem", ""},
      {"rowsItem", ""},
      {"colItem", "col or column"},
      {"colsItem", ""},
      {"colsList", "a list too (cols 1, 2, 5..7)"},
      {"singleItem", ""},
      {"allItem", "every well the layout uses"},
      {"nameItem", "a role (sample) or layout name (S3) = its wells"},
      {"nameRangeItem", "Std1..Std6 = those layout names' wells"},
      {"roleNameItem", "the liquid NAME of that role, also when NAME looks like a well (sample D1)"},
      {"explicitWell", "the well, when the layout also has a liquid of that name"},
      // roles
      {"blank", "`subtract blank` subtracts their mean"},
      {"calibrant", "`conc` feeds the standard curve"},
      {"standard", "= calibrant"},
      {"sample", "interpolated on the curve"},
      {"control", "reported like a sample"},
      {"nsb", "non-specific binding wells"},
      {"bmax", "B0, maximum binding (zero standard)"},
      {"cutoff", "cut-off calibrator"},
  };
  return notes;
}

std::string_view languageRules() {
  return "WELLS: items separated by commas (A1, A3, B1..B4), then `except ITEMS` to leave "
         "wells out (all except col 1).\n"
         "Names: a letter, then letters, digits or _. A well coordinate (D1, P1) may name a "
         "liquid where only a name stands (declarations, `of NAME`); in WELLS it is never a "
         "name: write `sample D1` for the liquid. Keywords in any case (Read, Plate, of, all, ...) "
         "are reserved; role words, wash and mix may name liquids. Declare a name once (a liquid in two roles "
         "takes two names).\n"
         "Wells start empty: seeded cells are a MANUAL reagent "
         "(`dispense 100 uL of cells to all except blank`; medium to blanks); medium already "
         "on cells when the script starts is taken off with `remove all from WELLS`.\n"
         "Step labels: 3. 9.1 2a) iv. (b) M1. Step 3: 08:50 (kept in diagnostics).\n"
         "One statement may cover many wells: prefer `dispense 100 uL of layout` or a role "
         "to one statement per well.\n";
}

} // namespace plate::agent

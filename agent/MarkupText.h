//===- MarkupText.h - HTML and LaTeX sources read as their text -------------===//
//
// Protocols reach the alignment as the source of a web page (an intranet
// SOP copied with its tags and entities) or of a thesis (LaTeX with
// siunitx macros and `%` comment lines). Each function returns the text a
// reader sees, with every byte offset and line break kept, so locations in
// findings still point into the original: what a rendering drops (tags,
// comments, macro names) becomes blanks, what it turns into a character
// (`&micro;`, `\SI{100}{\micro\litre}`) becomes that character followed by
// blanks. Blanks inside a line are no-break spaces (two bytes each), so no
// run of spaces makes a column of a table; a table's cell boundaries
// (`<td>`, LaTeX's `&`) become plain spaces, which do.
//
//===----------------------------------------------------------------------===//
#ifndef PLATE_AGENT_MARKUPTEXT_H
#define PLATE_AGENT_MARKUPTEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

/// The text has HTML's closing tags of paragraphs, list items, headings or
/// table cells (at least two), or its character entities.
bool looksLikeHtml(std::string_view text);

/// What a browser shows of `text`: tags and comments as blanks (a comment
/// holds what the page's author took out), `<script>`, `<style>` and
/// `<nav>` content as blanks, entities as their characters.
std::string withHtmlAsText(std::string_view text);

/// The text has LaTeX's environments, sections or siunitx quantities.
bool looksLikeLatex(std::string_view text);

/// What a typeset page shows of `text`: `%` comments as blanks (they hold
/// what the author took out or never printed), `\SI{100}{\micro\litre}` as
/// `100 µL`, `~` as a space, `\cite`, `\ref` and `\label` as blanks, a
/// tabular's `&` and `\\` as cell and row breaks.
std::string withLatexAsText(std::string_view text);

/// Three or more lines open with a timestamp ("[00:04:20]", "00:04:20"):
/// a transcript of a video or a recorded talk.
bool looksLikeTranscript(std::string_view text);

/// What was said: timestamps and speaker labels ("NARRATOR:", "DR. SMITH:")
/// as blanks, and captions ("ON SCREEN: 100 µL/well ...", with the lines
/// that continue them up to the next timestamp) as blanks too, since a
/// caption repeats the narration's values beside it.
std::string withTranscriptAsSpeech(std::string_view text);

/// Whether a speaker's `turn` is a read-back that the next speaker's
/// `answer` cuts off to correct its value ("So a hundred microlitres of
/// enzyme per well --" / "Ten. Ten microlitres."): the turn ends cut off
/// or asking, and the answer opens with a lone number ("Ten.", "No, 10.").
bool readBackCorrected(std::string_view turn, std::string_view answer);

/// Three or more step elements with attributes (`<Step no="6"
/// type="Dispense" volume="50" unit="uL" .../>`): a method exported from
/// another liquid handler's software.
bool looksLikeXmlMethod(std::string_view text);

/// What the method does, as a person reading the export would tell it:
/// each step element as a numbered sentence ("6. Dispense 50 uL from
/// pNPP substrate ...", "7. Shake 20 s at 900 rpm.") written over the
/// element's own lines, its values read from the vendor's attributes (a
/// volume and its unit, ISO 8601 durations, a set point, a frequency in
/// Hz as rpm, wavelengths); a step with `enabled="false"` as blanks, an
/// operator step as "By hand:" and its message. Comments keep their text
/// (an export's cover note); other elements (labware, the plate map) and
/// closing tags become blanks.
std::string withXmlMethodAsText(std::string_view text);

/// A behaviour-driven acceptance spec: a "Feature:" line, a "Scenario:"
/// (or Background, Scenario Outline) and three or more Given/When/Then
/// steps.
bool looksLikeGherkin(std::string_view text);

/// What the spec asks to be done: step keywords as blanks, a Then step and
/// its And/But lines (checks of the run, not actions) as blanks, tags as
/// blanks, a scenario's title as the heading of its steps ("By hand: ..."
/// when a tag such as @manual gives it to a person), and a Scenario
/// Outline told once per row of its Examples, the row's values in its
/// placeholders, over the outline's lines.
std::string withGherkinAsSteps(std::string_view text);

/// A YAML run configuration with a list of three or more steps that name
/// what they do (`steps:` / `- op: dispense` ...): an in-house scheduler's
/// input.
bool looksLikeYamlMethod(std::string_view text);

/// What the steps do, each item as the JSON reader tells a step object,
/// written over the item's lines (an alias `- *wash` over the alias): the
/// anchor's fields with a merge key's overrides (`{<<: *wash, cycles: 3}`),
/// ISO 8601 durations, a `{min, max}` window as a range, `manual: true` as
/// "By hand:", an item with only a note as that instruction. The rest
/// (metadata, reagents, templates, analysis, comments) reads as blanks.
std::string withYamlMethodAsText(std::string_view text);

/// A unified diff (`git diff`, `git show`): a hunk header and a file
/// header, and changed lines.
bool looksLikeUnifiedDiff(std::string_view text);

/// The file after the change: added and context lines as the file has
/// them, removed lines, headers and a commit's header and message (what
/// changed, not what is done) as blanks; anything before the commit kept.
std::string withDiffAfterChange(std::string_view text);

/// A text rebuilt from lines written elsewhere in its source: line i of
/// `text` is the source's line `origins[i].line` from its column
/// `origins[i].column` on, so a location in `text` maps back to one in the
/// text as written.
struct RebuiltText {
  struct Origin {
    uint32_t line = 1, column = 1;
  };
  std::string text;
  std::vector<Origin> origins;
};

/// A file's history told as its diffs (`git log -p` newest first, a patch
/// series oldest first): when the text creates every file it changes
/// (`--- /dev/null`) and every hunk applies to the file as the changes
/// before it left it (in the order the `index` lines chain, else the
/// order of the text, read backwards when the creation comes last), the
/// files as the last change leaves them, after any lines before the first
/// commit. Nothing when a hunk does not apply or no file changes twice:
/// a diff alone is read in place (withDiffAfterChange).
std::optional<RebuiltText> filesAfterHistory(std::string_view text);

/// An Emacs org-mode file: `*` headlines with TODO/DONE keywords, `#+`
/// keyword lines, property drawers or planning lines (CLOCK, SCHEDULED).
bool looksLikeOrgMode(std::string_view text);

/// The file as a reader sees it exported: a top-level headline is a
/// heading, a deeper one a bullet item (its TODO/DONE keyword, priority and
/// tags as blanks) whose indented body continues it; `#+TITLE:` keeps its
/// title; other keyword lines, drawers, planning lines and source blocks
/// (a calculation, not a step) as blanks.
std::string withOrgModeAsText(std::string_view text);

/// A reStructuredText page defines substitutions (`.. |uL| unicode:: U+00B5
/// L`, `.. |PBST| replace:: PBS-T`).
bool looksLikeRstSubstitutions(std::string_view text);

/// Each `|name|` as the text its definition gives ("100 |uL|" is "100 µL",
/// "37 |degC|" is "37 °C"), cut to the reference's length where it is
/// longer; the definitions as blanks.
std::string withRstSubstitutions(std::string_view text);

/// Five or more lines hang from branches drawn with box-drawing or ASCII
/// characters ("├── ", "└── ", "|-- "): a mind map or a `tree` listing.
bool looksLikeTextTree(std::string_view text);

/// The tree as an outline: a main branch with children as a heading
/// ("Day 3 — readout:"), deeper nodes as bullets indented by depth, and
/// the leaves of a node that has only leaves as the wrapped rest of its
/// item after a comma ("- incubate" / ", 37 °C, lid on" / ", 3 h").
std::string withTextTreeAsOutline(std::string_view text);

/// What a PDF's typesetting joined into one glyph, as its letters:
/// "ﬁnal", "ﬂuorescence", "efﬁciency" read as "final", "fluorescence",
/// "efficiency" (U+FB00..U+FB06). A three-byte glyph of two letters owes
/// one blank, at the word's end.
std::string withLettersForLigatures(std::string_view text);

/// A JSON document with an array of three or more step objects that name
/// what they do ("steps": [{"op": "dispense", "volume": {"value": 100,
/// "unit": "uL"}, ...}]): a protocol exported from a LIMS's web API.
bool looksLikeJsonMethod(std::string_view text);

/// What the steps do, each object as the sentence the XML reader makes of a
/// step element, written over the object's lines: its number, "By hand:"
/// where an operator does it, the operation, volume, reagent, cycles,
/// duration, temperature (in words too: "RT"), speed and wavelengths read
/// from the object's fields (quantities as {"value", "unit"}, words as
/// {"text"}, nested objects as their fields). The rest of the document
/// (metadata, reagents, the plate map, notes) reads as blanks.
std::string withJsonMethodAsText(std::string_view text);

/// A SQL dump of a method (`CREATE TABLE method_step (...)`, `INSERT INTO
/// method_step VALUES (1, 'dispense', ...), ...`): three or more rows of
/// a table whose name says it holds steps, in a column that names what
/// each does.
bool looksLikeSqlMethod(std::string_view text);

/// What the step rows do, each row as the JSON reader tells a step object
/// whose keys are the table's columns (NULL fields left out), written over
/// the row: after the dump's `UPDATE ... SET ... WHERE key = N` (the row's
/// new values) and without the rows its `DELETE ... WHERE key = N`
/// removes. The rest (other tables, comments, the schema) reads as blanks.
std::string withSqlMethodAsText(std::string_view text);

/// A shell script that drives the robot through a command-line tool
/// (`#!/usr/bin/env bash`, `VOL_SUB=50`, `bf1 dispense --reagent pnag --vol
/// "$VOL_SUB" --wells "$RXN"`): a shebang, or three variable assignments
/// and three commands with `--options`.
bool looksLikeShellScript(std::string_view text);

/// A flow-based automation export (Node-RED style JSON): an array of node
/// objects with `id`, `type` and `wires`, three or more of them wired.
bool looksLikeFlowExport(std::string_view text);

/// What the flow does, in the order its wires run it from the nodes no wire
/// reaches: each node as the JSON reader tells a step object (a manual
/// node's name by hand), packed over the document's lines in run order.
/// Disabled nodes (`"d": true`) and what only they reach, comments, tabs,
/// configuration, start and output nodes read as blanks.
std::string withFlowExportAsText(std::string_view text);

/// What the script does when it runs: each command with options as the
/// JSON reader tells a step (`--vol` in µL, `--min`, `--sec`, `--temp`,
/// `--rpm`, `--abs`, `--ref`, `--reagent`, `--cycles`), its variables
/// substituted; an `echo` or `read -p` (or a function of the script that
/// only does those) as an instruction done by hand. Comments (old
/// values, commented-out lines, history), assignments, control lines and
/// function bodies read as blanks; a call of another function as its words.
std::string withShellScriptAsText(std::string_view text);

} // namespace plate::agent

#endif // PLATE_AGENT_MARKUPTEXT_H

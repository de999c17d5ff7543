//===- MarkupTextTest.cpp - HTML and LaTeX read as text, offsets kept -----===//
//
// The alignment's findings point into the text as written, so the rewrite of
// a web page or a LaTeX source must keep every byte offset and line break,
// whatever the input (a page cut off mid-tag, an unclosed brace).
//
//===----------------------------------------------------------------------===//
#include "agent/MarkupText.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using namespace plate::agent;

namespace {

/// Line breaks at the same offsets, and the same size.
void expectOffsetsKept(const std::string &in, const std::string &out) {
  ASSERT_EQ(in.size(), out.size()) << in;
  for (size_t i = 0; i < in.size(); ++i)
    if (in[i] == '\n' || out[i] == '\n')
      ASSERT_EQ(in[i], out[i]) << "at " << i << " of " << in;
}

/// The text with no-break spaces as plain ones and runs of blanks as one.
std::string shown(std::string s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\xA0') {
      c = ' ';
      ++i;
    }
    if (c == ' ' && !out.empty() && out.back() == ' ')
      continue;
    out += c;
  }
  // Blanks at a line's end are what the markup left there.
  std::string trimmed;
  for (char c : out) {
    if (c == '\n')
      while (!trimmed.empty() && trimmed.back() == ' ')
        trimmed.pop_back();
    trimmed += c;
  }
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\n'))
    trimmed.pop_back();
  return trimmed;
}

/// shown() with line breaks as blanks: sentences packed over several lines
/// compared as words.
std::string shownAsWords(const std::string &text) {
  std::string read;
  for (char c : shown(text))
    if (c != '\n' || (!read.empty() && read.back() != ' '))
      read += c == '\n' ? ' ' : c;
  return read;
}

TEST(MarkupText, HtmlAsABrowserShowsIt) {
  std::string page = "<h2>Procedure</h2>\n<ol>\n  <li>Add 50&nbsp;&micro;L pNPP.</li>\n"
                     "  <!-- <li>Shake 60 s.</li> -->\n  <li>Incubate 30&nbsp;min at "
                     "37&nbsp;&deg;C.</li>\n</ol>\n<p>KH<sub>2</sub>PO<sub>4</sub>, 1&ndash;10</p>\n";
  ASSERT_TRUE(looksLikeHtml(page));
  std::string text = withHtmlAsText(page);
  expectOffsetsKept(page, text);
  EXPECT_EQ(shown(text), "Procedure\n\n 1. Add 50 µL pNPP.\n\n 2. Incubate 30 min at 37 °C.\n\n"
                         "KH2PO4, 1–10");
}

TEST(MarkupText, LatexAsTypeset) {
  std::string source = "\\subsection{ELISA}\n% old: \\SI{2}{\\hour}\nBlocked for 1--2~h, then "
                       "\\SI{100}{\\micro\\litre} streptavidin--HRP \\cite{x} at "
                       "4~\\si{\\degreeCelsius} (Table~\\ref{t}).\n";
  ASSERT_TRUE(looksLikeLatex(source));
  std::string text = withLatexAsText(source);
  expectOffsetsKept(source, text);
  EXPECT_EQ(shown(text), "ELISA\n\nBlocked for 1-2 h, then 100 µL streptavidin-HRP at 4 °C "
                         "(Table ).");
}

TEST(MarkupText, TranscriptAsSpoken) {
  std::string video = "[00:00:41] NARRATOR: Add 50 microlitres\nby hand.\nON SCREEN: 50 µL/well\n"
                      "Step 2 of 4\n[00:01:10] DR. OKAFOR: Wait 10 minutes.\n[1:32] Read it.\n";
  ASSERT_TRUE(looksLikeTranscript(video));
  std::string text = withTranscriptAsSpeech(video);
  expectOffsetsKept(video, text);
  // What was said stays in its columns, indented by the blanks.
  EXPECT_EQ(shown(text), " Add 50 microlitres\nby hand.\n\n\n Wait 10 minutes.\n Read it.");
  EXPECT_EQ(text.find("Add"), video.find("Add"));
}

TEST(MarkupText, XmlMethodAsRead) {
  std::string method =
      "<?xml version=\"1.0\"?>\n<!-- Step 2 is off. -->\n<M>\n"
      "<Trough id=\"T1\" content=\"TMB\"/>\n"
      "<Step no=\"1\" type=\"Dispense\" volume=\"50\" unit=\"uL\" source=\"T1\"/>\n"
      "<Step no=\"2\" type=\"Dispense\" enabled=\"false\" volume=\"9\" unit=\"uL\"/>\n"
      "<Step no=\"3\"\n"
      "      type=\"Shake\" orbitalFreq=\"15\" freqUnit=\"Hz\" duration=\"PT1M30S\"/>\n"
      "<Step no=\"4\" type=\"UserPrompt\" operatorStep=\"true\" message=\"Seal it\"/>\n"
      "<Step no=\"5\" type=\"Incubate\" setpoint=\"98.6\" setpointUnit=\"degF\" "
      "duration=\"PT30M\" lightProtect=\"true\"/>\n</M>\n";
  ASSERT_TRUE(looksLikeXmlMethod(method));
  EXPECT_FALSE(looksLikeHtml(method));
  std::string text = withXmlMethodAsText(method);
  expectOffsetsKept(method, text);
  // The cover comment's text stays; disabled steps, labware and closing
  // tags are blanks; a step too long for its first line goes on in the
  // next, indented.
  EXPECT_EQ(shown(text), "\n Step 2 is off.\n\n\n1. Dispense 50 uL from TMB.\n\n3. Shake 1\n min 30 s "
                         "at 900 rpm.\n4. By hand: Seal it.\n5. Incubate 30 min at 37 °C in the "
                         "dark.");
}

TEST(MarkupText, PlainTextIsNeitherMarkup) {
  std::string text = "1. Add 100 uL TMB (see table) -> 15 min RT.\n2. Read at 450 nm; 5 % CO2.\n";
  EXPECT_FALSE(looksLikeHtml(text));
  EXPECT_FALSE(looksLikeLatex(text));
  EXPECT_FALSE(looksLikeTranscript("09:00 coat\n10:30 wash\nread at 12:00\n"));
  // Two step elements, or steps without attributes, are no method export.
  EXPECT_FALSE(looksLikeXmlMethod("<Step no=\"1\" type=\"Read\"/>\n<Step no=\"2\" type=\"Read\"/>\n"));
  EXPECT_FALSE(looksLikeXmlMethod(text));
}

TEST(MarkupText, JsonMethodAsRead) {
  std::string method =
      "HTTP/1.1 200 OK\n\n{\n  \"id\": \"RUN-7\",\n  \"steps\": [\n"
      "    {\n      \"seq\": 1,\n      \"op\": \"wash\",\n      \"executor\": \"robot\",\n"
      "      \"reagent\": \"wash_buffer\",\n      \"cycles\": 3,\n"
      "      \"volume\": {\"value\": 300, \"unit\": \"uL\"}\n    },\n"
      "    {\n      \"seq\": 2,\n      \"op\": \"load_samples\",\n"
      "      \"executor\": \"operator\",\n      \"volume\": {\"value\": 50, \"unit\": \"uL\"},\n"
      "      \"note\": \"robot pauses\"\n    },\n"
      "    {\n      \"seq\": 3,\n      \"op\": \"incubate\",\n"
      "      \"incubation\": {\"duration\": {\"value\": 30, \"unit\": \"min\"},\n"
      "                     \"temperature\": {\"text\": \"RT\"}}\n    }\n  ],\n"
      "  \"samples\": [{\"id\": \"S1\", \"description\": \"LPS 2 h\"}]\n}\n";
  ASSERT_TRUE(looksLikeJsonMethod(method));
  std::string text = withJsonMethodAsText(method);
  expectOffsetsKept(method, text);
  // Each step on its object's longest line; the HTTP header, the
  // metadata and the samples' descriptions ("LPS 2 h") are blanks.
  EXPECT_EQ(shown(text), "\n\n\n\n\n\n\n\n\n\n\n1. wash 3 times with 300 uL of wash buffer.\n\n\n\n\n\n"
                         "2. By hand: load samples 50 uL.\n\n\n\n\n\n3. incubate 30 min at RT.");
  // Two steps, or steps that name no operation, are no method export.
  EXPECT_FALSE(looksLikeJsonMethod("{\"steps\": [{\"op\": \"read\"}, {\"op\": \"wash\"}]}"));
  EXPECT_FALSE(looksLikeJsonMethod("{\"steps\": [{\"a\": 1}, {\"a\": 2}, {\"a\": 3}]}"));
}

TEST(MarkupText, YamlMethodAsRead) {
  std::string config = "templates:\n  wash: &wash\n    op: wash\n    cycles: 3\n"
                       "    volume: \"300 uL\"\nsteps:\n  - op: dispense\n    reagent: tmb\n"
                       "    volume: \"100 uL\"\n  - op: incubate\n    duration: \"PT30M\"\n"
                       "    manual: true\n  - *wash\n  - {<<: *wash, cycles: 1}\nanalysis:\n"
                       "  model: 4PL   # back-calculated, x dilution\n";
  ASSERT_TRUE(looksLikeYamlMethod(config));
  std::string text = withYamlMethodAsText(config);
  expectOffsetsKept(config, text);
  // The template is no step; each item a numbered sentence, wrapped under
  // its text; the alias and the merge as the anchored wash, the last over
  // the analysis block's lines after the list.
  EXPECT_EQ(shown(text), "\n\n\n\n\n\n1. dispense 100\n uL of tmb.\n\n2. incubate 30\n min by hand.\n\n"
                         "3. wash 3\n times with 300 uL.\n4. wash 1\n times with 300 uL.");
  EXPECT_FALSE(looksLikeYamlMethod("steps:\n  - op: wash\n  - op: read\n"));
  EXPECT_FALSE(looksLikeYamlMethod("steps: [unclosed\n  - op: wash\n"));
}

TEST(MarkupText, SqlMethodAsRead) {
  std::string dump =
      "CREATE TABLE method_step (step_no INTEGER PRIMARY KEY, action VARCHAR(20),\n"
      "  volume_ul NUMERIC(5,1), duration_min NUMERIC(5,1), performed_by VARCHAR(9),\n"
      "  CHECK (volume_ul > 0));\n"
      "INSERT INTO method_step VALUES\n"
      "  (1, 'dispense', 50.0, NULL, 'analyst'),\n"
      "  (2, 'incubate', NULL, 20.0, 'robot'),\n"
      "  (3, 'shake', NULL, 0.5, 'robot'),\n"
      "  (4, 'read', NULL, NULL, 'it''s the robot');\n"
      "-- CR-1: 30 min, and no shake\n"
      "UPDATE method_step SET duration_min = 30.0 WHERE step_no = 2;\n"
      "DELETE FROM method_step WHERE step_no = 3;\n";
  ASSERT_TRUE(looksLikeSqlMethod(dump));
  std::string text = withSqlMethodAsText(dump);
  expectOffsetsKept(dump, text);
  std::string read = shown(text);
  EXPECT_NE(read.find("1. By hand: dispense 50 uL."), std::string::npos) << read;
  EXPECT_NE(read.find("2. incubate 30 min."), std::string::npos) << read;
  EXPECT_EQ(read.find("shake"), std::string::npos) << read;
  EXPECT_EQ(read.find("20"), std::string::npos) << read;
  EXPECT_NE(read.find("4. read."), std::string::npos) << read;
  // Not a method: too few rows, a table not named for steps, a dump cut
  // off inside a string.
  EXPECT_FALSE(looksLikeSqlMethod("INSERT INTO method_step VALUES (1, 'wash'), (2, 'read');"));
  EXPECT_FALSE(looksLikeSqlMethod(
      "INSERT INTO reagent (id, action) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');"));
  EXPECT_FALSE(looksLikeSqlMethod("INSERT INTO method_step VALUES (1, 'dispense, (2"));
}

TEST(MarkupText, ShellScriptAsRun) {
  std::string script = "#!/bin/bash\n# v1 used 45 min\nVOL=100   # uL\nT_MIN=30\n"
                       "say() { echo \"$*\"; }\n"
                       "go() {\n  bf1 dispense --reagent tmb --vol 5\n}\n"
                       "say \"Load the plate\"\n"
                       "bf1 dispense --reagent tmb --vol \"$VOL\" --wells A1-H6\n"
                       "bf1 incubate --min ${T_MIN} --temp 37   # lid on\n"
                       "#bf1 shake --rpm 300\n"
                       "sleep 10m\n"
                       "for i in 1 2; do\n  echo \"cycle $i\"\ndone\n";
  ASSERT_TRUE(looksLikeShellScript(script));
  std::string text = withShellScriptAsText(script);
  expectOffsetsKept(script, text);
  // Sentences wrap over the script's lines: compare them as words.
  std::string read = shownAsWords(text);
  EXPECT_NE(read.find("Load the plate, by hand."), std::string::npos) << read;
  EXPECT_NE(read.find("dispense 100 uL of tmb."), std::string::npos) << read;
  EXPECT_NE(read.find("incubate 30 min at 37 °C."), std::string::npos) << read;
  EXPECT_NE(read.find("wait 10 min."), std::string::npos) << read;
  // Comments, the function's body and the commented-out shake are no steps.
  EXPECT_EQ(read.find("45"), std::string::npos) << read;
  EXPECT_EQ(read.find("5 uL"), std::string::npos) << read;
  EXPECT_EQ(read.find("shake"), std::string::npos) << read;
  EXPECT_FALSE(looksLikeShellScript("Add 100 uL --vol to each well.\nA=1\n"));
  // Unbalanced quotes and braces read without a fault.
  std::string broken = "#!/bin/sh\nf() {\n bf1 read --abs \"405\nbf1 dispense --vol ${X\n";
  EXPECT_TRUE(looksLikeShellScript(broken));
  expectOffsetsKept(broken, withShellScriptAsText(broken));
}

TEST(MarkupText, FlowExportInWireOrder) {
  std::string flow =
      "[\n{\"id\": \"b\", \"type\": \"incubate\", \"duration\": \"10 min\", \"wires\": [[\"c\"]]},\n"
      "{\"id\": \"a\", \"type\": \"dispense\", \"reagent\": \"tmb\", \"volume\": \"100 uL\",\n"
      "  \"wires\": [[\"b\"]]},\n"
      "{\"id\": \"c\", \"type\": \"read\", \"wavelength\": \"450 nm\", \"wires\": [[\"d\"]]},\n"
      "{\"id\": \"d\", \"type\": \"shake\", \"d\": true, \"wires\": [[\"e\"]]},\n"
      "{\"id\": \"e\", \"type\": \"read\", \"wavelength\": \"620 nm\", \"wires\": []}\n]\n";
  ASSERT_TRUE(looksLikeFlowExport(flow));
  std::string text = withFlowExportAsText(flow);
  expectOffsetsKept(flow, text);
  std::string read = shownAsWords(text);
  size_t dispense = read.find("dispense 100 uL of tmb"), incubate = read.find("incubate 10 min"),
         reads = read.find("read at 450 nm");
  ASSERT_NE(dispense, std::string::npos) << read;
  ASSERT_NE(incubate, std::string::npos) << read;
  ASSERT_NE(reads, std::string::npos) << read;
  EXPECT_LT(dispense, incubate) << read; // the wires' order, not the file's
  EXPECT_LT(incubate, reads) << read;
  // The disabled node passes nothing on.
  EXPECT_EQ(read.find("620"), std::string::npos) << read;
  EXPECT_FALSE(looksLikeFlowExport("[{\"id\": 1}, {\"id\": 2}]"));
  EXPECT_FALSE(looksLikeFlowExport("[{\"id\": \"a\", \"type\": \"x\", \"wires\": [[\"a\"]"));
}

TEST(MarkupText, LigaturesAsLetters) {
  std::string in = "Brie\xEF\xAC\x82y, the \xEF\xAC\x81nal e\xEF\xAC\x83" "ciency\n\xEF\xAC\x80";
  std::string text = withLettersForLigatures(in);
  expectOffsetsKept(in, text);
  // A glyph of two letters owes a blank, paid at the word's end.
  EXPECT_EQ(shown(text), "Briefly, the final efficiency\nff");
  EXPECT_EQ(withLettersForLigatures("no ligature"), "no ligature");
}

TEST(MarkupText, GherkinAsSteps) {
  std::string feature =
      "Feature: Griess\n  @manual\n  Scenario: Load\n    When the operator adds 50 uL of sample\n"
      "    Then every well holds 50 uL\n  @robot\n  Scenario Outline: Develop\n"
      "    When the robot adds <v> uL of <r> to every used well\n    And the plate stands <t>\n"
      "    Then the colour is pink\n\n    Examples:\n      | v  | r             | t      |\n"
      "      | 50 | sulfanilamide | 10 min |\n      | 50 | NED           | 5 min  |\n";
  ASSERT_TRUE(looksLikeGherkin(feature));
  std::string text = withGherkinAsSteps(feature);
  expectOffsetsKept(feature, text);
  // Keywords, tags and checks as blanks; the outline once per row, no
  // sentence across the blank line before its Examples.
  EXPECT_EQ(shown(text),
            "Feature: Griess\n\n By hand:\n the operator adds 50 uL of sample.\n\n\n Robot:\n"
            " the robot adds 50 uL of sulfanilamide to every used\n well. the plate stands\n"
            " 10 min.\n\n the robot\n adds 50 uL of NED to every used\n well. the plate stands 5 min.");
  EXPECT_FALSE(looksLikeGherkin("Given a plate\nWhen I add 50 uL\nThen it holds 50 uL\n"));
}

// Whatever the input, offsets and line breaks hold: pieces of markup cut
// and joined at random (unclosed tags, comments and braces, entities
// without their semicolon, lone backslashes).
TEST(MarkupText, LaterDiffChangesAnEarlierOne) {
  std::string in = "--- a/m.md\n+++ b/m.md\n@@ -1,2 +1,2 @@\n 1. Add 50 uL.\n"
                   "-2. Wait 5 min.\n+2. Incubate 10 min.\n 3. Read at 540 nm.\n"
                   "Commit 2/2\n--- a/m.md\n+++ b/m.md\n@@ -2,2 +2,2 @@\n"
                   "-2. Incubate 10 min.\n+2. Incubate 15 min.\n 3. Read at 540 nm.\n";
  std::string out = withDiffAfterChange(in);
  expectOffsetsKept(in, out);
  // The first diff's line reads as the second commit left it; the first
  // commit's removed line stays blank.
  EXPECT_NE(out.find("2. Incubate 15 min."), std::string::npos) << out;
  EXPECT_EQ(out.find("2. Incubate 10 min."), std::string::npos) << out;
  EXPECT_EQ(out.find("Wait 5 min"), std::string::npos) << out;
  size_t first = out.find("2. Incubate 15 min."), second = out.rfind("2. Incubate 15 min.");
  EXPECT_LT(first, out.find("Commit 2/2"));
  EXPECT_GT(second, out.find("Commit 2/2"));
  // A line two earlier diffs both have is ambiguous: left as it was.
  std::string twice = "--- a/m.md\n+++ b/m.md\n@@ -1 +1 @@\n+Shake 30 s.\n+Shake 30 s.\n"
                      "--- a/m.md\n+++ b/m.md\n@@ -1 +1 @@\n-Shake 30 s.\n+Shake 60 s.\n";
  std::string kept = withDiffAfterChange(twice);
  EXPECT_EQ(kept.find("Shake 30 s."), kept.rfind("Shake 30 s.") - 13) << kept;
}

TEST(MarkupText, OffsetsHoldOnBrokenMarkup) {
  const char *pieces[] = {"<p>", "</p>", "<li>", "</li>", "<ol>", "</ol>", "<!--", "-->",
                          "&micro;", "&nbsp;", "&#956;", "&#x3bc;", "&amp", "<", ">",
                          "\\SI{", "}", "{", "\\micro", "\\litre", "%", "~", "--", "&", "\\\\",
                          "\\", "$", "_", "^", "100", " ", "\n", "µ", "a", "Add", "\xC2\xA0",
                          "[00:01:10] ", "00:12 ", "NARRATOR: ", "ON SCREEN: ", ":",
                          "<Step no=\"1\" type=\"Dispense\" volume=\"50\" unit=\"uL\"",
                          "/>", "\"", "=\"", " enabled=\"false\"", " duration=\"PT", "<?xml ",
                          "?>", " source=\"T1\"", "<T id=\"T1\" content=\"µL\"/>",
                          "{", "}", "[", "]", "\"steps\": [", "{\"op\": \"wash\", ",
                          "\"volume\": {\"value\": 3", "\"unit\": \"uL\"}", ",", "\\\"", "\xEF\xAC\x81", "\xEF\xAC\x83", "\xEF\xAC",
                          "Feature: f\n", "  Scenario Outline: o\n", "    When the robot adds <v> uL\n",
                          "    Then done\n", "    Examples:\n", "      | v |\n", "      | 50 |\n",
                          "@manual\n", "    And ", "steps:\n", "  - op: wash\n", "  - *w\n",
                          "  w: &w\n", "    <<: *w\n", "    duration: \"PT1H\"\n", "  - {op: read}\n",
                          "commit 4be1c07f2d\n", "--- a/f\n", "+++ b/f\n", "@@ -1,2 +1,2 @@\n",
                          "+Add 50 uL\n", "-Add 5 uL\n", "\xE2\x94\x9C\xE2\x94\x80\xE2\x94\x80 ",
                          "\xE2\x94\x82   ", "\xE2\x94\x94\xE2\x94\x80\xE2\x94\x80 ", "|-- "};
  std::mt19937 rng(14);
  for (int round = 0; round < 3000; ++round) {
    std::string in;
    int n = static_cast<int>(rng() % 40);
    for (int k = 0; k < n; ++k)
      in += pieces[rng() % (sizeof pieces / sizeof *pieces)];
    expectOffsetsKept(in, withHtmlAsText(in));
    expectOffsetsKept(in, withLatexAsText(in));
    expectOffsetsKept(in, withTranscriptAsSpeech(in));
    expectOffsetsKept(in, withXmlMethodAsText(in));
    expectOffsetsKept(in, withJsonMethodAsText(in));
    expectOffsetsKept(in, withLettersForLigatures(in));
    expectOffsetsKept(in, withGherkinAsSteps(in));
    expectOffsetsKept(in, withYamlMethodAsText(in));
    expectOffsetsKept(in, withDiffAfterChange(in));
    expectOffsetsKept(in, withTextTreeAsOutline(in));
  }
}

} // namespace

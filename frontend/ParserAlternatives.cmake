# Lists the labelled alternatives (`# label` in grammar/PlateParser.g4) of
# every rule of the generated parser, as the specializations of
# `Alternatives<RuleContext>` that frontend/ParseTreeDispatch.h includes.
# ANTLR gives each labelled alternative its own context class derived from
# the rule's; this list is what makes a dispatch over those classes
# exhaustive at compile time (see ParseTreeDispatch.h).
#   cmake -DHEADER=PlateParser.h -DOUT=PlateParserAlternatives.inc -P ...
cmake_policy(VERSION 3.20)
file(STRINGS ${HEADER} classes
     REGEX "^  class  [A-Za-z0-9_]+Context : public [A-Za-z0-9_]+Context {$")
if(NOT classes)
  message(FATAL_ERROR "${HEADER}: no labelled alternative found: the ANTLR tool's output changed")
endif()

set(rules)
foreach(line IN LISTS classes)
  string(REGEX REPLACE "^  class  ([A-Za-z0-9_]+)Context : public ([A-Za-z0-9_]+)Context {$"
         "\\1;\\2" pair "${line}")
  list(GET pair 0 alternative)
  list(GET pair 1 rule)
  if(NOT rule IN_LIST rules)
    list(APPEND rules ${rule})
  endif()
  list(APPEND alternatives_${rule} ${alternative})
endforeach()

# `WashStmt` -> `washStmt`, the spelling of the grammar.
function(grammar_name out name)
  string(SUBSTRING "${name}" 0 1 first)
  string(SUBSTRING "${name}" 1 -1 rest)
  string(TOLOWER "${first}" first)
  set(${out} "${first}${rest}" PARENT_SCOPE)
endfunction()

get_filename_component(headerName ${HEADER} NAME)
set(text "// Generated from ${headerName} by frontend/ParserAlternatives.cmake. Do not edit.\n")
set(ruleTypes)
foreach(rule IN LISTS rules)
  set(types)
  set(labels)
  foreach(alternative IN LISTS alternatives_${rule})
    grammar_name(label ${alternative})
    list(APPEND types "grammar::PlateParser::${alternative}Context")
    list(APPEND labels "\"${label}\"")
  endforeach()
  grammar_name(ruleName ${rule})
  list(JOIN types ",\n                        " typeList)
  list(JOIN labels ", " labelList)
  string(APPEND text
    "template <> struct Alternatives<grammar::PlateParser::${rule}Context> {\n"
    "  using List = TypeList<${typeList}>;\n"
    "  static constexpr std::string_view rule = \"${ruleName}\";\n"
    "  static constexpr std::string_view labels[] = {${labelList}};\n"
    "};\n")
  list(APPEND ruleTypes "grammar::PlateParser::${rule}Context")
endforeach()
list(JOIN ruleTypes ",\n                              " ruleList)
string(APPEND text "using LabelledRules = TypeList<${ruleList}>;\n")

file(WRITE ${OUT} "${text}")

# Post-processes the generated lexer and parser so that each deserializes
# its ATN on first construction instead of in a static initializer: ANTLR
# 4.7.2 emits `Name::Initializer Name::_init;`, which made every process
# (`plate --version` included) pay about 6 million instructions before
# main (bench/README.md, startup). A function-local static in the
# constructor runs the same Initializer once, thread-safely.
#
# The Initializer also skips the runtime's verifyATN, a consistency check
# of the ATN that the ANTLR tool generated: it was 3.5 million of the 9.2
# million instructions deserializing costs every process that parses
# (bench/README.md). The ATN is fixed at build time, so the check runs
# once, in test/unit/parse/AtnTest.cpp, on the very ATNs plate uses.
#   cmake -DFILE=PlateLexer.cpp -DCLASS=PlateLexer -DBASE=Lexer -DARG="CharStream *input" -P ...
file(READ ${FILE} text)
set(definition "${CLASS}::Initializer ${CLASS}::_init;")
string(FIND "${text}" "${definition}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${FILE}: no `${definition}`: the ANTLR tool's output changed")
endif()
string(REPLACE "${definition}" "" text "${text}")
set(constructor "${CLASS}::${CLASS}(${ARG}) : ${BASE}(input) {")
string(FIND "${text}" "${constructor}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${FILE}: no constructor `${constructor}`: the ANTLR tool's output changed")
endif()
string(REPLACE "${constructor}" "${constructor}\n  static Initializer initializeOnce;" text "${text}")
set(deserializer "  atn::ATNDeserializer deserializer;")
string(FIND "${text}" "${deserializer}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${FILE}: no `${deserializer}`: the ANTLR tool's output changed")
endif()
string(REPLACE "${deserializer}" "  atn::ATNDeserializationOptions options;
  options.setVerifyATN(false);
  atn::ATNDeserializer deserializer(options);" text "${text}")
file(WRITE ${FILE} "${text}")

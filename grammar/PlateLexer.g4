// PlateLexer.g4 - tokens of the .plate language (spec: docs/language.md,
// shared spec plate-language.md §1-§2).
//
// Design notes (why, not what):
//  * The lexer never fails: every character it does not know becomes a STRAY
//    token, so the frontend reports E108 with our wording and ANTLR never
//    prints anything.
//  * Keywords are case-insensitive; names are case-sensitive IDENTs. The
//    lexer reads both as IDENT and the frontend retypes a word that spells
//    a keyword (the `tokens` block below), which is what a keyword rule
//    before IDENT did: only a whole word is a keyword.
//  * Units are NOT keywords: `uL`, `min`, `nm`, `rpm`, `x` ... are IDENTs and
//    the unit spelling is kept exactly as written for Sema (which resolves it
//    with plate::lookupUnit and offers did-you-mean). Units with non-ASCII
//    symbols (`µL`, `μL`, `°C`, `℃`) and `%`, `×` get SYMUNIT tokens.
//  * A well coordinate (row A-P, column 1-24) is a WELL and never a name.
//    WELL precedes IDENT so `A1` is a WELL; `A25`, `B0`, `S1` are longer or
//    not wells and lex as IDENT (longest match wins).
//  * `<KIT_TITLE>` switches to the TITLE mode: the title is free text up to
//    `</KIT_TITLE>`. Any other section tag there ends the title too, so an
//    unclosed title does not swallow the rest of the file.
//  * Tags are matched case-insensitively in the frontend; here any
//    `<NAME>` / `</NAME>` is a tag token so unknown tags can be reported.
//  * NEWLINE is a real token: the language is line-oriented and the frontend
//    splits the token stream into lines before parsing each one.
lexer grammar PlateLexer;

// --- keywords (case-insensitive) -------------------------------------------
// The lexer reads a keyword as an IDENT; the frontend gives it its keyword
// type (frontend/Keywords.cpp, case-insensitively), so that the lexer's
// automaton has one rule for all words instead of a state per letter of
// every keyword, which every process paid to build (bench/README.md,
// "Against the peers"). A keyword is spelled as its name in lower case
// unless a comment beside it says otherwise.
tokens {
  // Statements.
  DISPENSE,
  ASPIRATE,
  REMOVE,
  WASH,
  INCUBATE,
  SHAKE,
  MIX,
  TRANSFER,
  MAGNET,
  READ,
  ANALYZE,
  WAIT,
  PAUSE,
  NOTE,
  REPEAT,
  PROC,
  USE,
  PREPARE,
  EQUILIBRATE,
  SERIAL_DILUTION,
  // `equilibrate all reagents to RT`.
  REAGENTS_WORD,  // `reagents`
  // Step labels (`Step 3:`).
  STEP,
  // Layout and reagents.
  PLATE,
  BLANK,
  CALIBRANT,
  STANDARD,
  SAMPLE,
  CONTROL,
  // Roles of competitive and qualitative (cut-off) assays, and the polarity
  // of a control (docs/language.md §4).
  NSB,
  BMAX,
  CUTOFF,  // `cutoff`, `cut_off`
  POSITIVE,
  NEGATIVE,
  CONC,
  REPLICATES,
  ACROSS,
  DOWN,
  DILUTION,
  SERIES,
  RESERVOIR,
  // Clause words.
  OF,
  TO,
  INTO,
  AT,
  FROM,
  WITH,
  IN,
  FOR,
  TIMES,
  ALL,
  LAYOUT,
  WASTE,
  SOAK,
  SHAKING,
  LID,
  ON,
  OFF,
  DARK,
  // Spellings of the lid (kit inserts cover or seal the plate).
  COVER,
  SEAL,
  ADHESIVE,
  STRIP,
  COVERED,
  SEALED,
  UNCOVERED,
  UNSEALED,
  ABSORBANCE,
  FLUORESCENCE,
  REFERENCE,
  EXCITATION,
  EMISSION,
  STANDARD_CURVE,
  COMPETITIVE,
  LINEAR,
  SUBTRACT,
  DILUTE,
  DISCARD,
  TIPS,
  NEW,
  PER_SOURCE,
  PER_WELL,
  REUSE,
  // Well sets.
  ROW,
  ROWS,
  COL,  // `col`, `column`
  COLS,  // `cols`, `columns`
  EXCEPT,
  // `well D1`: the well, when the layout also names a liquid `D1`.
  WELL_WORD,  // `well`
  // Temperature and time literals.
  RT,
  ROOM,
  TEMPERATURE,
  AMBIENT,
  OVERNIGHT,
  // Not a keyword: the frontend's fast first parse of a line gives a known
  // unit spelling right after a number this type (frontend/ParseScript.cpp,
  // parseLine), so that `100 uL` needs no lookahead past the unit.
  UNIT
}


// --- layout, comments, tags -------------------------------------------------
NEWLINE : '\r'? '\n' ;
WS : [ \t\f\r\u000B\u00A0\uFEFF]+ -> skip ;
COMMENT : '#' ~[\r\n]* -> skip ;

TITLE_OPEN : '<' K I T '_' T I T L E '>' -> pushMode(TITLE) ;
TAG_OPEN : '<' TAGNAME '>' ;
TAG_CLOSE : '</' TAGNAME '>' ;

// --- literals ---------------------------------------------------------------
STRING : '"' ( ~["\\\r\n] | '\\' ~[\r\n] )* '"' ;
UNTERMINATED_STRING : '"' ( ~["\\\r\n] | '\\' ~[\r\n] )* '\\'? ;

// A leading minus is lexed so Sema can say "not positive" instead of the
// lexer saying "stray `-`".
NUMBER
  : '-'? DIGITS ( '.' DIGITS )? EXPONENT?
  | '-'? '.' DIGITS EXPONENT?
  ;
// `4pl` starts with a digit, so it is no IDENT and stays a rule of its own.
FOURPL : '4' P L ;

// --- names, wells, punctuation ---------------------------------------------
WELL : [A-P] ( [1-9] | '1' [0-9] | '2' [0-4] ) ;
IDENT : [A-Za-z_] [A-Za-z0-9_]* ;

// Unit spellings that are not ASCII identifiers. `° C` (with a space) is one
// token so the unit spelling stays one unit; the frontend drops the blank.
SYMUNIT
  : [µμ] [A-Za-z]+ ( '/' [A-Za-z]+ )?
  | '°' [ \t]* [A-Za-z]*
  | '℃'
  | '%'
  | '×'
  ;

RANGE : '..' ;
DOT : '.' ;
COMMA : ',' ;
COLON : ':' ;
SLASH : '/' ;
LPAREN : '(' ;
RPAREN : ')' ;
LBRACE : '{' ;
RBRACE : '}' ;

// Anything else; reported as E108 by the frontend.
STRAY : . ;

// --- fragments --------------------------------------------------------------
fragment TAGNAME : [A-Za-z_] [A-Za-z0-9_]* ;
fragment DIGITS : [0-9]+ ;
fragment EXPONENT : [eE] [+-]? DIGITS ;
fragment A : [aA] ; fragment B : [bB] ; fragment C : [cC] ; fragment D : [dD] ;
fragment E : [eE] ; fragment F : [fF] ; fragment G : [gG] ; fragment H : [hH] ;
fragment I : [iI] ; fragment J : [jJ] ; fragment K : [kK] ; fragment L : [lL] ;
fragment M : [mM] ; fragment N : [nN] ; fragment O : [oO] ; fragment P : [pP] ;
fragment Q : [qQ] ; fragment R : [rR] ; fragment S : [sS] ; fragment T : [tT] ;
fragment U : [uU] ; fragment V : [vV] ; fragment W : [wW] ; fragment X : [xX] ;
fragment Y : [yY] ; fragment Z : [zZ] ;
fragment SECTION_NAME
  : K I T '_' T I T L E | P L A T F O R M | L A Y O U T | R E A G E N T S
  | M A N U A L | I N S T R U M E N T
  ;

// --- the free text of <KIT_TITLE> -----------------------------------------
mode TITLE;
TITLE_CLOSE : '</' K I T '_' T I T L E '>' -> popMode ;
// Another section tag ends an unclosed title (the frontend reports E102).
TITLE_END_OPEN : '<' SECTION_NAME '>' -> type(TAG_OPEN), popMode ;
TITLE_END_CLOSE : '</' SECTION_NAME '>' -> type(TAG_CLOSE), popMode ;
TITLE_NEWLINE : '\r'? '\n' -> type(NEWLINE) ;
TITLE_TEXT : ~[<\n]+ ;
TITLE_LT : '<' -> type(TITLE_TEXT) ;

// PlateLexer.g4 - tokens of the .plate language (spec: docs/language.md,
// shared spec plate-language.md §1-§2).
//
// Design notes (why, not what):
//  * The lexer never fails: every character it does not know becomes a STRAY
//    token, so the frontend reports E108 with our wording and ANTLR never
//    prints anything.
//  * Keywords are case-insensitive (built from the letter fragments at the
//    bottom); names are case-sensitive IDENTs. Keywords are defined before
//    IDENT so that an equally long match is a keyword.
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

// --- keywords (case-insensitive) -------------------------------------------
// Statements.
DISPENSE : D I S P E N S E ;
ASPIRATE : A S P I R A T E ;
REMOVE : R E M O V E ;
WASH : W A S H ;
INCUBATE : I N C U B A T E ;
SHAKE : S H A K E ;
MIX : M I X ;
TRANSFER : T R A N S F E R ;
MAGNET : M A G N E T ;
READ : R E A D ;
ANALYZE : A N A L Y Z E ;
WAIT : W A I T ;
PAUSE : P A U S E ;
NOTE : N O T E ;
REPEAT : R E P E A T ;
PROC : P R O C ;
USE : U S E ;
PREPARE : P R E P A R E ;
EQUILIBRATE : E Q U I L I B R A T E ;
SERIAL_DILUTION : S E R I A L '_' D I L U T I O N ;
// `equilibrate all reagents to RT`.
REAGENTS_WORD : R E A G E N T S ;
// Step labels (`Step 3:`).
STEP : S T E P ;
// Layout and reagents.
PLATE : P L A T E ;
BLANK : B L A N K ;
CALIBRANT : C A L I B R A N T ;
STANDARD : S T A N D A R D ;
SAMPLE : S A M P L E ;
CONTROL : C O N T R O L ;
// Roles of competitive and qualitative (cut-off) assays, and the polarity
// of a control (docs/language.md §4).
NSB : N S B ;
BMAX : B M A X ;
CUTOFF : C U T O F F | C U T '_' O F F ;
POSITIVE : P O S I T I V E ;
NEGATIVE : N E G A T I V E ;
CONC : C O N C ;
REPLICATES : R E P L I C A T E S ;
ACROSS : A C R O S S ;
DOWN : D O W N ;
DILUTION : D I L U T I O N ;
SERIES : S E R I E S ;
RESERVOIR : R E S E R V O I R ;
// Clause words.
OF : O F ;
TO : T O ;
INTO : I N T O ;
AT : A T ;
FROM : F R O M ;
WITH : W I T H ;
IN : I N ;
FOR : F O R ;
TIMES : T I M E S ;
ALL : A L L ;
LAYOUT : L A Y O U T ;
WASTE : W A S T E ;
SOAK : S O A K ;
SHAKING : S H A K I N G ;
LID : L I D ;
ON : O N ;
OFF : O F F ;
DARK : D A R K ;
// Spellings of the lid (kit inserts cover or seal the plate).
COVER : C O V E R ;
SEAL : S E A L ;
ADHESIVE : A D H E S I V E ;
STRIP : S T R I P ;
COVERED : C O V E R E D ;
SEALED : S E A L E D ;
UNCOVERED : U N C O V E R E D ;
UNSEALED : U N S E A L E D ;
ABSORBANCE : A B S O R B A N C E ;
FLUORESCENCE : F L U O R E S C E N C E ;
REFERENCE : R E F E R E N C E ;
EXCITATION : E X C I T A T I O N ;
EMISSION : E M I S S I O N ;
STANDARD_CURVE : S T A N D A R D '_' C U R V E ;
COMPETITIVE : C O M P E T I T I V E ;
LINEAR : L I N E A R ;
FOURPL : '4' P L ;
SUBTRACT : S U B T R A C T ;
DILUTE : D I L U T E ;
DISCARD : D I S C A R D ;
TIPS : T I P S ;
NEW : N E W ;
PER_SOURCE : P E R '_' S O U R C E ;
PER_WELL : P E R '_' W E L L ;
REUSE : R E U S E ;
// Well sets.
ROW : R O W ;
ROWS : R O W S ;
COL : C O L | C O L U M N ;
COLS : C O L S | C O L U M N S ;
EXCEPT : E X C E P T ;
// `well D1`: the well, when the layout also names a liquid `D1`.
WELL_WORD : W E L L ;
// Temperature and time literals.
RT : R T ;
ROOM : R O O M ;
TEMPERATURE : T E M P E R A T U R E ;
AMBIENT : A M B I E N T ;
OVERNIGHT : O V E R N I G H T ;

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

// PlateParser.g4 - the line grammar of the .plate language.
//
// The language is line-oriented, and so is this parser. The frontend
// (frontend/Parser.cpp) lexes the whole file, checks the section structure
// (tags, order, duplicates, text outside tags) on the token stream, splits
// each section into lines at NEWLINE and parses every line on its own with
// one of the entry rules below (each ends at EOF = end of the line). That
// gives the line-oriented error recovery the language wants for free: an
// error abandons one line, never the rest of the section. Blocks
// (`repeat N {` ... `}` and `proc f(...) {` ... `}`) are assembled from
// their header and `}` lines by the frontend, which also enforces the
// nesting limit and reports an unclosed `{` (E112).
//
// Optional units: `wash 3 times with 300 uL` (the reagent forgotten) parses
// as volume `300` without a unit and reagent `uL`, because ANTLR's adaptive
// prediction picks the only reading that parses. Sema recognizes a volume
// unit in the name's place and reports the missing reagent (E114) there.
//
// Keywords that can also be names: the role words (blank, calibrant,
// standard, sample, control, nsb, bmax, cutoff) and the control tags
// (positive, negative) are accepted wherever a name is (`name`), so
// `dispense 50 uL of standard` and a well set `calibrant` both work and Sema
// decides by the text. Other keywords are reserved: a reagent called `wash`
// gets a syntax error that says `wash` is a keyword. Units are never
// keywords (see PlateLexer.g4).
parser grammar PlateParser;

options { tokenVocab = PlateLexer; }

// --- entry rules, one line each ---------------------------------------------

statementLine
  : stepLabel? ( statement tipsClause? | repeatHeader | procHeader | RBRACE ) EOF
  ;

layoutLine : lineLabel? layoutStatement EOF ;

reagentLine : lineLabel? reagentDecl EOF ;

platformLine : name EOF ;

// Step labels as kit inserts number steps: `3.`, `3)`, `9.1`, `9.1.2:`,
// `2a`, `Step 3:`. No statement starts with a number, so on a statement
// line the mark after the number may be left out. The label's spelling
// (no blanks inside, one letter at most: `9.1`, not `9 .1` or `2ab`) is
// checked by the frontend (E115), so the rule can stay this simple.
stepLabel
  : clockLabel
  | STEP? labelNumber ( DOT | RPAREN | COLON )?
  | STEP? labelWord ( DOT | RPAREN | COLON )
  | LPAREN ( labelNumber | labelWord ) RPAREN
  ;

// Kit inserts also number steps with a letter or a Roman numeral: `b)`,
// `iv.`, `(iii)`, `Step C:`, and parts of a method by a letter and a
// number: `M1.`, `R2)`, `A3:` (which lexes as a well: no statement starts
// with a well). A word label needs its mark, since a call statement starts
// with a word too; the frontend checks the word's shape (E115).
labelWord : IDENT | WELL ;

// In LAYOUT and REAGENTS the mark is required: a bare number there starts
// a grid header.
lineLabel : STEP? labelNumber ( DOT | RPAREN | COLON ) ;

// Run sheets and timetables label a step with its clock time: `08:50`,
// `14:30`. The builder checks the shape (E115).
clockLabel : NUMBER COLON NUMBER ;

labelNumber : NUMBER+ IDENT? ;

// --- LAYOUT -------------------------------------------------------------------

layoutStatement
  : PLATE name                          # plateLine
  | polarity? role nameRange ( COMMA? nameRange )* roleClause*   # roleLine
  | NUMBER+                             # gridHeader
  | IDENT gridCell*                     # gridRow
  ;

role : BLANK | CALIBRANT | STANDARD | SAMPLE | CONTROL | NSB | BMAX | CUTOFF ;

// `positive control PC at A1..A2`: a tag that only a control takes; Sema
// reports it on any other role (E316), so the grammar accepts it on all.
polarity : POSITIVE | NEGATIVE ;

nameRange : liquidName ( RANGE liquidName )? ;

roleClause
  : AT wellSet                                  # atClause
  | CONC NUMBER ( COMMA NUMBER )* unit          # concClause
  | REPLICATES count ( ACROSS | DOWN )?         # replicatesClause
  | DILUTION ratio                              # dilutionClause
  | SERIES ratio ( FROM NUMBER unit )?          # seriesClause
  ;

gridCell : IDENT | DOT | role | WELL ;

// --- REAGENTS -----------------------------------------------------------------

// A line may declare a family: `Stock1, Stock2, Stock3`, `Stock1..Stock6`,
// or `D1x D2x D3x` (names that differ only in their number). Without a
// comma a word after the names is a flag unless it continues the family;
// the frontend decides (AstBuilder::reagentLine), because `tmb
// light_sensitive` and `Stock1 Stock2` have the same tokens.
reagentDecl : nameRange moreReagentName* literalQuantity? reservoirPos? reagentFlag* ;

// `dark` is a keyword (`incubate ... dark`); as a reagent's flag it says the
// reagent is light sensitive ("TMB, keep dark").
reagentFlag : IDENT | DARK ;

moreReagentName : COMMA? nameRange ;

reservoirPos : AT RESERVOIR LPAREN NUMBER COMMA NUMBER RPAREN ;

// --- statements ---------------------------------------------------------------

statement
  : DISPENSE volume OF? dispenseSource ( ( TO | INTO ) wellSet )? mixClause?  # dispenseStmt
  | ( ASPIRATE | REMOVE ) ( volume | ALL ) FROM wellSet ( TO WASTE )?         # aspirateStmt
  | WASH count WITH volume OF? liquidName ( SOAK duration )? wellSet?              # washStmt
  | INCUBATE duration incubateOption*                                         # incubateStmt
  | SHAKE duration AT speed                                                   # shakeStmt
  | MIX count volume IN wellSet                                               # mixStmt
  | TRANSFER volume FROM wellSet TO wellSet mixClause?                        # transferStmt
  | SERIAL_DILUTION ratio ( ACROSS | DOWN )? wellSet TRANSFER volume seriesOption*  # serialDilutionStmt
  | MAGNET duration                                                           # magnetStmt
  | READ ABSORBANCE AT wavelength ( REFERENCE wavelength )? wellSet?          # absorbanceStmt
  | READ FLUORESCENCE EXCITATION wavelength EMISSION wavelength wellSet?      # fluorescenceStmt
  | ANALYZE ( STANDARD_CURVE | COMPETITIVE ) ( LINEAR | FOURPL ) ( AT wavelength )? ( SUBTRACT BLANK )?  # analyzeStmt
  | ANALYZE CUTOFF ( AT wavelength )? ( SUBTRACT BLANK )?                    # analyzeStmt
  | WAIT duration                                                             # waitStmt
  | PAUSE STRING                                                              # pauseStmt
  | NOTE STRING                                                               # noteStmt
  | USE STRING                                                                # useStmt
  | PREPARE nameRange ( COMMA? nameRange )* prepareOption*                      # prepareStmt
  | EQUILIBRATE ( ALL? REAGENTS_WORD | wellSet ) TO temperature ( FOR duration )?  # equilibrateStmt
  | IDENT LPAREN ( callArg ( COMMA callArg )* )? RPAREN                       # callStmt
  ;

// `of S1..S7`: a numbered range of layout names, each well its own liquid.
// `of S1..S7`, `of Std0, Std1..Std7`, `of control, sample`: layout names,
// ranges of them and roles (docs/language.md, dispense sources).
dispenseSource : LAYOUT | sourceNames ;
sourceNames : nameRange ( COMMA nameRange )* ;

mixClause : MIX count volume? ;

seriesOption
  : WITH name             # seriesDiluent
  | mixClause             # seriesMix
  | DISCARD               # seriesDiscard
  ;

incubateOption
  : AT temperature        # incubateAt
  | SHAKING speed         # incubateShaking
  | lidWord ( ON | OFF )  # incubateLid
  | WITH lidWord          # incubateLid
  | ( COVERED | SEALED | UNCOVERED | UNSEALED )  # incubateLid
  | DARK                  # incubateDark
  ;

// What the robot puts on the plate is its lid; protocols call it a cover,
// a seal or an adhesive strip, and every spelling means the lid.
lidWord : LID | COVER | SEAL | ADHESIVE STRIP ;

prepareOption
  : FROM STRING           # prepareFrom
  | DILUTE ratio          # prepareDilute
  | volume                # prepareVolume
  ;

// A call argument is one well-set item (commas separate arguments) or a
// quantity; a bare name may be either and Sema decides by the parameter.
callArg
  : literalQuantity
  | wellItem ( EXCEPT wellItem )?
  ;

repeatHeader : REPEAT count LBRACE ;

procHeader : PROC IDENT LPAREN ( param ( COMMA param )* )? RPAREN LBRACE ;

param : IDENT COLON paramType ;

paramType : IDENT | TEMPERATURE ;

tipsClause : TIPS ( NEW | PER_SOURCE | PER_WELL | REUSE ) ;

// --- well sets ------------------------------------------------------------------

// A set that starts with `except` subtracts from `all`.
wellSet
  : wellSetItem ( COMMA wellSetItem )* ( EXCEPT wellSetItem ( COMMA wellSetItem )* )?
  | EXCEPT wellSetItem ( COMMA wellSetItem )*
  ;

// `cols 1, 2, 5, 6` and `cols 1..3, 7`: after `cols` a comma goes on with
// the columns, since a bare number starts no other item (docs/language.md).
// In a call's arguments a comma separates the arguments, so there only the
// single items below are taken.
wellSetItem
  : COLS colSpan ( COMMA colSpan )+   # colsList
  | wellItem                         # singleItem
  ;

colSpan : NUMBER ( RANGE NUMBER )? ;

wellItem
  : WELL ( RANGE WELL )?           # wellOrBlock
  | ROW IDENT                      # rowItem
  | ROWS IDENT RANGE IDENT         # rowsItem
  | COL NUMBER                     # colItem
  | COLS NUMBER RANGE NUMBER       # colsItem
  | ALL                            # allItem
  | name RANGE name                # nameRangeItem
  | name                           # nameItem
  | role wellSetName               # roleNameItem
  | WELL_WORD WELL                 # explicitWell
  ;

name : IDENT | role | polarity ;

// Where only a liquid's name can stand (a layout or reagent declaration, a
// dispense source, a wash buffer, `prepare`), a well coordinate is a name:
// protocols call samples P1..P40, dilutions D1..D8, controls C1..C3. In a
// well set `D1` stays the well; `sample D1` names the liquid and `well D1`
// the well when the layout also has a liquid `D1` (Sema, E315). So are
// `wash` and `mix` there: kits call their buffers "Wash" and "Mix", and a
// model in the Parser's seat named a reagent `Wash` in three of 152 replies
// though the prompt said keywords are reserved; in these positions no
// statement can start. So is `step`, which the spec does not reserve: it
// only opens a step label (`Step 3:`), which needs its number and mark.
liquidName : name | WELL | WASH | MIX | STEP ;

// In a well set a name refers to a layout liquid; `wash` and `mix` stay
// statement words there (`... to sample mix 3 times`).
wellSetName : name | WELL ;

// --- quantities -------------------------------------------------------------------
// The wrappers name what a position expects, so syntax errors can say
// "expected a volume"; the dimension itself is checked by Sema.

volume : quantity ;
duration : quantity ;
temperature : quantity ;
speed : quantity ;
wavelength : quantity ;
// `3 times` is a number with the unit `times`; a Count parameter takes the
// word after it: `wash n times with ...`, `repeat n times {`.
count : quantity TIMES? ;
ratio : quantity ;

// A quantity in a statement may be a procedure parameter (a bare name).
quantity : literalQuantity | IDENT ;

// `1:20` and `100 uL` share their first token in one alternative, so that
// choosing among these takes one token of lookahead; as two alternatives,
// every quantity made prediction look past its unit into whatever may
// follow a quantity anywhere (bench/README.md).
literalQuantity
  : NUMBER ( COLON NUMBER | unit )?  # numberQuantity
  | RT                        # roomTemp
  | ROOM TEMPERATURE          # roomTemp
  | AMBIENT                   # roomTemp
  | OVERNIGHT                 # overnight
  ;

unit : unitAtom ( SLASH unitAtom )? ;

// UNIT: a unit spelling the frontend recognized after a number (PlateLexer.g4).
unitAtom : IDENT | UNIT | SYMUNIT | TIMES ;

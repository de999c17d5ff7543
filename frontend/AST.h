//===- AST.h - The typed syntax tree of a .plate script -------------------===//
//
// Built from the ANTLR parse tree by AstBuilder and consumed by Sema and
// IRGen. It keeps what was written (unit spellings, names, step labels and
// locations) so that diagnostics can quote it; meaning (dimensions, wells,
// liquids) is decided by Sema. No ANTLR type appears here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/SourceManager.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace plate::ast {

/// A name as written, with where it was written.
struct Name {
  std::string text;
  SourceLoc loc;
};

/// `S1..S7` or a single name.
struct NameRange {
  SourceLoc loc;
  Name first;
  std::optional<Name> last;
};

/// A quantity as written: `100 uL`, `100uL`, `3x`, `3 times`, `1:20`, `RT`,
/// `room temperature`, `overnight`, a bare number, or a procedure parameter.
struct QuantityExpr {
  enum class Kind {
    Number,     ///< value with optional unit spelling
    RoomTemp,   ///< RT, room temperature, ambient
    Overnight,  ///< overnight
    ColonRatio, ///< 1:20 -> value is 20 (the factor)
    Param,      ///< a procedure parameter name (in `param`)
  };
  Kind kind = Kind::Number;
  SourceLoc loc;      ///< the whole quantity
  double value = 0;   ///< as written
  std::string text;   ///< the number as written, for messages
  std::string unit;   ///< unit spelling as written ("" when bare); `x`,
                      ///< `times` and `×` are kept for Count/Ratio
  SourceLoc unitLoc;
  std::string param;  ///< Kind::Param
};

/// One element of a well set.
struct WellItem {
  enum class Kind {
    Well,     ///< A1             (a)
    Block,    ///< A1..H12        (a, b)
    Row,      ///< row A          (a)
    Rows,     ///< rows A..D      (a, b)
    Col,      ///< col 1          (a)
    Cols,     ///< cols 1..3      (a, b)
    Name,     ///< blank / calibrant / sample / control / S3 / a parameter
    NameRange, ///< Std1..Std6: layout liquids of one family (a, b)
    All,      ///< all
  };
  Kind kind = Kind::Well;
  SourceLoc loc;
  std::string a, b;
  bool wellWord = false; ///< Well: written `well D1`, never a liquid's name
  std::string role;      ///< Name: the role word of `sample D1`, else empty
};

struct WellSetExpr {
  SourceLoc loc;
  std::vector<WellItem> items;
  std::vector<WellItem> except; ///< `except ...` (empty when absent)
};

enum class TipPolicy { Default, New, PerSource, PerWell, Reuse };

struct MixClause {
  SourceLoc loc;
  QuantityExpr count;
  std::optional<QuantityExpr> volume;
};

struct Dispense {
  QuantityExpr volume;
  Name source;            ///< reagent, layout role or name, or `layout`
  bool sourceIsLayout = false;
  /// `of S1..S7`, `of Std0, Std1..Std7`, `of control, sample`: the layout
  /// liquids of a range or a list of names, ranges and roles (`source` is
  /// the list as written); empty for one name or `layout`.
  std::vector<NameRange> sourceNames;
  std::optional<WellSetExpr> wells;
  std::optional<MixClause> mix;
};
struct Aspirate {
  std::optional<QuantityExpr> volume; ///< nullopt = `all`
  SourceLoc allLoc;
  WellSetExpr wells;
  bool toWaste = false;
};
struct Wash {
  QuantityExpr count;
  QuantityExpr volume;
  Name reagent;
  std::optional<QuantityExpr> soak;
  std::optional<WellSetExpr> wells;
};
struct Incubate {
  QuantityExpr time;
  std::optional<QuantityExpr> temperature;
  std::optional<QuantityExpr> shaking;
  std::optional<bool> lidOn;
  SourceLoc lidLoc;
  std::string lidText; ///< the lid clause as written (`lid off`, `uncovered`)
  bool dark = false;
};
struct Shake {
  QuantityExpr time;
  QuantityExpr speed;
};
struct Mix {
  QuantityExpr count;
  QuantityExpr volume;
  WellSetExpr wells;
};
struct Transfer {
  QuantityExpr volume;
  WellSetExpr from;
  WellSetExpr to;
  std::optional<MixClause> mix;
};
/// `serial_dilution 1:2 across A1..A12 transfer 100 uL [with DILUENT]
/// [mix N x [V]] [discard]`: each row (or column, `down`) of the wells is
/// one series, its first well the starting material.
struct SerialDilution {
  QuantityExpr ratio;
  bool down = false;
  WellSetExpr wells;
  QuantityExpr volume;
  std::optional<Name> diluent;
  std::optional<MixClause> mix;
  bool discard = false;
};
struct Magnet {
  QuantityExpr time;
};
struct ReadAbsorbance {
  QuantityExpr wavelength;
  std::optional<QuantityExpr> reference;
  std::optional<WellSetExpr> wells;
};
struct ReadFluorescence {
  QuantityExpr excitation;
  QuantityExpr emission;
  std::optional<WellSetExpr> wells;
};
struct Analyze {
  /// `standard_curve`: signal against the calibrants; `competitive`: %B/B0
  /// (NSB subtracted) against the calibrants; `cutoff`: sample/cut-off index.
  enum class Kind { StandardCurve, Competitive, Cutoff };
  enum class Model { Linear, FourPL };
  Kind kind = Kind::StandardCurve;
  Model model = Model::Linear; ///< unused for `cutoff`
  SourceLoc kindLoc;           ///< the kind word
  std::optional<QuantityExpr> wavelength;
  bool subtractBlank = false;
};
struct Wait {
  QuantityExpr time;
};
struct Pause {
  std::string message;
};
struct Note {
  std::string text;
};
struct Prepare { ///< MANUAL only
  /// Kits have the operator make a whole set at once (`prepare S1..S7 from
  /// "stock" dilute 1:2`); each name is one PrepareOp with the same options.
  NameRange names;
  std::vector<NameRange> moreNames;
  std::optional<std::string> from;
  std::optional<QuantityExpr> dilute;
  std::optional<QuantityExpr> volume;
};
struct Equilibrate { ///< MANUAL only
  /// `all` in the spec's form; reagent names (`tmb, stop`) are a set of
  /// names that Sema reads as reagents.
  WellSetExpr wells;
  bool allReagents = false; ///< `[all] reagents`
  SourceLoc reagentsLoc;
  std::string reagentsText; ///< as written, `all reagents` or `reagents`
  QuantityExpr temperature;
  std::optional<QuantityExpr> time;
};
struct Use {
  std::string module;
  SourceLoc loc; ///< the quoted module name
};

/// A call argument: a quantity, or a name / well set. Which one a bare name
/// means (reagent or wells) is decided by the parameter's type in Sema.
struct Arg {
  SourceLoc loc;
  std::optional<QuantityExpr> quantity;
  std::optional<WellSetExpr> wells;
};
struct Call {
  Name callee;
  std::vector<Arg> args;
};

struct Statement;
struct Repeat {
  QuantityExpr count;
  std::vector<Statement> body;
};

enum class ParamType { Volume, Time, Temperature, Speed, Wavelength, Count, Reagent, Wells };

struct Param {
  Name name;
  ParamType type;
  SourceLoc typeLoc;
};
struct ProcDef {
  Name name;
  std::vector<Param> params;
  std::vector<Statement> body;
};

using StatementKind =
    std::variant<Dispense, Aspirate, Wash, Incubate, Shake, Mix, Transfer, SerialDilution,
                 Magnet, ReadAbsorbance, ReadFluorescence, Analyze, Wait, Pause,
                 Note, Prepare, Equilibrate, Use, Call, Repeat, ProcDef>;

struct Statement {
  SourceLoc loc;         ///< start of the statement (after the step label)
  std::string stepLabel; ///< `3` for `3.` or `3)`; empty when none
  TipPolicy tips = TipPolicy::Default;
  SourceLoc tipsLoc;
  StatementKind kind;
};

enum class SectionKind { Manual, Instrument };

struct Section {
  SectionKind kind;
  SourceLoc loc; ///< the opening tag
  std::vector<Statement> statements;
};

enum class Role { Blank, Calibrant, Sample, Control, Nsb, Bmax, Cutoff };
/// `positive control …` / `negative control …`; only controls take one.
enum class Polarity { None, Positive, Negative };

struct ConcList {
  SourceLoc loc;
  std::vector<double> values;
  std::vector<SourceLoc> valueLocs;
  std::string unit;
  SourceLoc unitLoc;
};

struct SeriesClause {
  SourceLoc loc;
  QuantityExpr ratio;
  std::optional<ConcList> top; ///< `from VALUE UNIT`: one value
};

struct RoleLine {
  SourceLoc loc;
  Role role;
  SourceLoc roleLoc;
  Polarity polarity = Polarity::None;
  SourceLoc polarityLoc;
  NameRange names;
  /// Further names, as protocols list them: `Std1, Std2, QC` or
  /// `S1..S4 S6` (each may be a range); they follow `names` in order.
  std::vector<NameRange> moreNames;
  std::optional<WellSetExpr> wells; ///< nullopt: placed by the grid
  std::optional<ConcList> conc;
  std::optional<QuantityExpr> replicates; ///< count
  bool down = false;                      ///< `down`; default `across`
  std::optional<QuantityExpr> dilution;   ///< ratio
  /// `series 1:2 [from 1000 pg/mL]`: the names are a dilution series made on
  /// the plate from the first one.
  std::optional<SeriesClause> series;
};

struct GridCell {
  std::string text; ///< a name, or "." for an empty cell
  SourceLoc loc;
};
struct GridRow {
  Name row; ///< the row letter
  std::vector<GridCell> cells;
};
struct Grid {
  SourceLoc loc;
  std::vector<unsigned> columns; ///< the header line of column numbers
  std::vector<SourceLoc> columnLocs;
  std::vector<GridRow> rows;
};

struct Layout {
  SourceLoc loc;
  std::optional<Name> plateType;
  std::vector<RoleLine> roles;
  std::optional<Grid> grid;
};

struct ReagentDecl {
  /// The first name or range; the declaration's place in messages.
  NameRange names;
  /// Further names of a family declared on one line (`Stock1, Stock2`).
  std::vector<NameRange> moreNames;
  std::optional<QuantityExpr> volume;
  std::optional<std::pair<unsigned, unsigned>> position; ///< reservoir(R,C)
  SourceLoc positionLoc;
  std::vector<Name> flags; ///< light_sensitive, ...
};

struct Script {
  uint32_t fileId = 0;
  std::optional<std::string> title;
  SourceLoc titleLoc;
  std::optional<Name> platform;
  std::optional<Layout> layout;
  std::vector<ReagentDecl> reagents;
  SourceLoc reagentsLoc;
  bool hasReagents = false;
  std::vector<Section> sections;
};

/// A stable, readable dump (`plate compile --emit=ast`), one node a line,
/// each with its line:col.
std::string dump(const Script &script);

} // namespace plate::ast

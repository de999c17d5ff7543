//===- Diagnostics.h - The one diagnostics engine -------------------------===//
//
// Every layer (frontend, passes, backend, agents) reports user errors only
// through DiagnosticEngine, using a DiagId from Diagnostics.def. Rendering
// (clang-style text, JSON or SARIF) is separate from reporting so that the driver,
// the tests and the Validation Agent each choose how to consume them.
//
// Internal invariant failures are NOT diagnostics: they use PLATE_ASSERT /
// plate::internalError, which abort with a "compiler bug" message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/SourceManager.h"

#include <fmt/args.h>
#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace plate {

enum class Severity : uint8_t { Error, Warning, Note };

enum class Category : uint8_t {
  Syntax,
  Type,
  Layout,
  Parameter,
  Physical,
  Capability,
  Resource,
  Completeness,
  Order,
  Io,
};

enum class DiagId : uint16_t {
#define DIAG(Name, Code, Severity, Category, Format) Name,
#include "ir/Diagnostics.def"
  NumDiagIds
};

struct DiagInfo {
  const char *name;
  const char *code;
  Severity severity;
  Category category;
  const char *format;
};
const DiagInfo &diagInfo(DiagId id);
/// Looks a diagnostic up by its stable code ("E200"); nullptr if unknown.
const DiagInfo *diagInfoByCode(std::string_view code);
std::string_view categoryName(Category category);
std::string_view severityName(Severity severity);

struct DiagNote {
  SourceLoc loc;
  std::string message;
};

struct Diagnostic {
  DiagId id;
  Severity severity;
  Category category;
  SourceLoc loc;
  std::string step; ///< step label of the statement, when there is one
  std::string message;
  std::string suggestion; ///< replacement text for the caret range, if any
  std::vector<DiagNote> notes;
};

/// The arguments of a diagnostic found in one place and reported in
/// another: the digital twin finds a violation, and the interpreter, the
/// journal replay, translation validation and the simulated device each
/// report it with their own context. Each argument is kept as the text
/// `{}` makes of it, so a stored argument renders exactly as one passed to
/// report() (the rows that use stored arguments have no format specs).
class DiagArgs {
public:
  DiagArgs() = default;
  template <typename... Args> explicit DiagArgs(const Args &...args) { (push(args), ...); }

  template <typename T> void push(const T &value) {
    // fmt prints 1e15 and 0.1 + 0.2 differently from formatNumber(); a
    // quantity (Quantity::count for a bare number) prints as messages do.
    static_assert(!std::is_floating_point_v<T>, "pass a Quantity, not a bare double");
    values_.push_back(fmt::format("{}", value));
  }
  void append(const DiagArgs &other) {
    values_.insert(values_.end(), other.values_.begin(), other.values_.end());
  }
  size_t size() const { return values_.size(); }
  const std::vector<std::string> &values() const { return values_; }
  /// `format` (a row's fmt string, or a part of one) over the arguments.
  std::string format(std::string_view format) const {
    fmt::dynamic_format_arg_store<fmt::format_context> store;
    for (const std::string &value : values_)
      store.push_back(value);
    return fmt::vformat(format, store);
  }

  friend bool operator==(const DiagArgs &, const DiagArgs &) = default;

private:
  std::vector<std::string> values_;
};

class DiagnosticEngine;

/// Builder returned by report(); the diagnostic is committed when it dies.
class InFlightDiagnostic {
public:
  InFlightDiagnostic(DiagnosticEngine *engine, Diagnostic diagnostic)
      : engine_(engine), diagnostic_(std::move(diagnostic)) {}
  InFlightDiagnostic(InFlightDiagnostic &&other) noexcept
      : engine_(other.engine_), diagnostic_(std::move(other.diagnostic_)) {
    other.engine_ = nullptr;
  }
  InFlightDiagnostic(const InFlightDiagnostic &) = delete;
  InFlightDiagnostic &operator=(const InFlightDiagnostic &) = delete;
  ~InFlightDiagnostic();

  // The format is checked at run time, not through fmt::format_string:
  // clang 14 destroys the temporary of `report(...).note("...", x);` at the
  // end of the enclosing block, not of the statement, when a consteval
  // call appears in it (llvm/llvm-project#60709, fixed in clang 17), so
  // diagnostics reported later in the block were committed first.
  template <typename... Args>
  InFlightDiagnostic &note(SourceLoc loc, fmt::string_view format, const Args &...args) {
    diagnostic_.notes.push_back({loc, fmt::vformat(format, fmt::make_format_args(args...))});
    return *this;
  }
  InFlightDiagnostic &suggest(std::string replacement) {
    diagnostic_.suggestion = std::move(replacement);
    return *this;
  }
  InFlightDiagnostic &step(std::string label) {
    diagnostic_.step = std::move(label);
    return *this;
  }

private:
  DiagnosticEngine *engine_;
  Diagnostic diagnostic_;
};

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(const SourceManager &sources) : sources_(sources) {}

  template <typename... Args>
  InFlightDiagnostic report(DiagId id, SourceLoc loc, Args &&...args) {
    const DiagInfo &info = diagInfo(id);
    Diagnostic diagnostic{id, info.severity, info.category, loc, {}, {}, {}, {}};
    diagnostic.message = fmt::vformat(
        info.format, fmt::make_format_args(std::forward<Args>(args)...));
    return InFlightDiagnostic(this, std::move(diagnostic));
  }

  /// report() with arguments gathered earlier (see DiagArgs).
  InFlightDiagnostic reportWith(DiagId id, SourceLoc loc, const DiagArgs &args) {
    const DiagInfo &info = diagInfo(id);
    Diagnostic diagnostic{id, info.severity, info.category, loc, {}, {}, {}, {}};
    diagnostic.message = args.format(info.format);
    return InFlightDiagnostic(this, std::move(diagnostic));
  }

  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ != 0; }
  const std::vector<Diagnostic> &diagnostics() const { return diagnostics_; }
  const SourceManager &sources() const { return sources_; }

  /// Called for each committed diagnostic (the driver streams them).
  void setConsumer(std::function<void(const Diagnostic &)> consumer) {
    consumer_ = std::move(consumer);
  }
  /// After this many errors further errors are dropped and one E113 is
  /// emitted, so hostile input cannot flood the output.
  void setErrorLimit(unsigned limit) { errorLimit_ = limit; }
  /// Promote or silence by the caller's policy, e.g. -Werror.
  void setWarningsAsErrors(bool value) { warningsAsErrors_ = value; }

private:
  friend class InFlightDiagnostic;
  void commit(Diagnostic diagnostic);

  const SourceManager &sources_;
  std::vector<Diagnostic> diagnostics_;
  std::function<void(const Diagnostic &)> consumer_;
  unsigned errors_ = 0;
  unsigned warnings_ = 0;
  unsigned errorLimit_ = 50;
  bool limitReported_ = false;
  bool warningsAsErrors_ = false;
};

/// Renders one diagnostic clang-style: `file:line:col: error: msg [E200]`,
/// the source line with a caret, the fix-it text, then the notes.
std::string renderText(const Diagnostic &diagnostic,
                       const SourceManager &sources, bool color);
/// Renders all diagnostics as one JSON document (see docs/diagnostics.md).
std::string renderJson(const std::vector<Diagnostic> &diagnostics,
                       const SourceManager &sources);

/// Renders all diagnostics as one SARIF 2.1.0 log (docs/diagnostics.md):
/// one run whose rules are every row of Diagnostics.def, in table order.
/// Columns are UTF-16 code units, as the log's run.columnKind says.
std::string renderSarif(const std::vector<Diagnostic> &diagnostics,
                        const SourceManager &sources, std::string_view toolVersion);

/// A file name as a URI reference (SARIF artifact locations, LSP locations
/// of other files): an absolute path becomes a file:// URI.
std::string artifactUri(std::string_view path);

/// Closest candidate by edit distance, for did-you-mean hints; empty when
/// nothing is close enough to be a likely typo.
std::string closestMatch(std::string_view word,
                         const std::vector<std::string> &candidates);

[[noreturn]] void internalError(const char *file, int line, const std::string &message);

} // namespace plate

/// For invariants of the compiler itself. A failure is a plate bug, never a
/// user error, and says so.
#define PLATE_ASSERT(cond, message)                                            \
  do {                                                                         \
    if (!(cond))                                                               \
      ::plate::internalError(__FILE__, __LINE__, (message));                   \
  } while (false)

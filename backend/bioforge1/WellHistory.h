//===- WellHistory.h - What happened to each well, in order -----*- C++ -*-===//
//
// Translation validation (TranslationValidation.h) compares two accounts of
// one run: the reference interpreter's reading of the script
// (ReferenceInterpreter.h) and the digital twin's replay of the command
// stream. Both are written down as a History:
//
//  - per well, the events that changed it or looked at it: liquid added,
//    liquid removed, mixed, read (with the wavelengths), and MANUAL work
//    (one event per MANUAL statement, whatever it did); each with what the
//    well holds afterwards, by source liquid, and the number of plate-wide
//    events before it (its epoch), so that a dispense moved across an
//    incubation shows;
//  - for the plate, the incubations, shakes, waits and magnet holds, with
//    their seconds and, where the script states them, temperature, speed,
//    lid and magnet.
//
// Commands split a statement's work into pieces (a 400 µL dispense is two
// trips; a wash cycle is several head positions), so consecutive events of
// the same kind from the same statement merge into one whose state is the
// last. The two accounts are then equal event by event when the stream
// means what the script says.
//
// Compositions are kept here, not in the twin's LiquidMix: the reference
// must not share the code it checks.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Wells.h"

#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plate::backend {

/// µL per liquid within which two accounts agree, absolute and relative:
/// far below any pipette's precision (1 nL), far above double rounding
/// over a whole run.
constexpr double kHistoryToleranceUl = 1e-6;
constexpr double kHistoryRelativeTolerance = 1e-9;

/// Names of liquids and statements, shared by the two histories of one
/// comparison so that both index them alike.
class HistoryNames {
public:
  uint32_t liquid(const std::string &name);
  /// A statement, by its source line and step label (what a command
  /// carries; a call's body commands carry the call site's step).
  uint32_t origin(uint32_t line, const std::string &step);
  const std::string &liquidName(uint32_t id) const { return liquids_[id]; }
  std::string originText(uint32_t id) const;
  uint32_t originLine(uint32_t id) const { return origins_.at(id).first; }
  std::optional<uint32_t> findOrigin(uint32_t line, const std::string &step) const;

private:
  std::vector<std::string> liquids_;
  std::map<std::string, uint32_t, std::less<>> liquidIds_;
  std::vector<std::pair<uint32_t, std::string>> origins_;
  std::map<std::pair<uint32_t, std::string>, uint32_t> originIds_;
};

/// Liquid -> µL, sorted by liquid id. Removal takes every liquid in
/// proportion (ideal mixing, language spec §7's model of a well).
struct Composition {
  llvm::SmallVector<std::pair<uint32_t, double>, 4> parts;

  double total() const;
  void add(uint32_t liquid, double ul);
  void addAll(const Composition &other);
  /// Takes `ul` (at most what there is) out in proportion; returns it.
  Composition take(double ul);
};

enum class WellEventKind : uint8_t { Add, Remove, Mix, Read, Manual };
inline bool changesWell(WellEventKind kind) {
  return kind != WellEventKind::Mix && kind != WellEventKind::Read;
}
std::string_view wellEventName(WellEventKind kind);

/// Small (a run of a full 384-well plate records 10^5 of them): what the
/// well holds afterwards lives in History::contents().
struct WellEvent {
  static constexpr uint32_t kNoContents = UINT32_MAX;
  WellEventKind kind = WellEventKind::Add;
  uint32_t origin = 0;
  uint32_t epoch = 0; ///< plate-wide events before it
  /// Index of what the well holds afterwards; only events that change it
  /// have one (a read or a mix changes nothing, and every change is an
  /// event of its own, so the contents at a read are those of the change
  /// before it).
  uint32_t after = kNoContents;
  uint64_t serial = 0; ///< when it happened in its own account
  double wavelengthNm = 0, referenceNm = 0; ///< Read
};

/// An incubation, shake, wait or magnet hold. The stream's account fills
/// every field; the script's states only what the statement says.
struct PlateEvent {
  uint32_t origin = 0;
  double seconds = 0;
  std::optional<std::optional<double>> celsius; ///< inner nullopt: no device
  std::optional<double> rpm;                    ///< 0: not shaken
  std::optional<bool> lidOn;
  std::optional<bool> onMagnet;
};

class History {
public:
  History(HistoryNames &names, PlateShape shape);

  HistoryNames &names() { return *names_; }
  const HistoryNames &names() const { return *names_; }
  /// Records an event that changes `well` (Add, Remove, Manual), merging
  /// it into the well's last event when kind, statement and epoch are the
  /// same.
  void wellChanged(Well well, WellEventKind kind, uint32_t origin, const Composition &after);
  /// Records a read or a mix of `well`, merged likewise (and for reads
  /// only when the wavelengths are the same).
  void wellLookedAt(Well well, WellEventKind kind, uint32_t origin, double wavelengthNm = 0,
                    double referenceNm = 0);
  /// Records a plate-wide event, merging consecutive pieces of one
  /// statement (their seconds add up).
  void plateEvent(const PlateEvent &event);

  const std::vector<WellEvent> &events(Well well) const { return wells_[index(well)]; }
  const Composition &contents(const WellEvent &event) const { return contents_[event.after]; }
  const std::vector<PlateEvent> &plateEvents() const { return plate_; }
  const PlateShape &shape() const { return shape_; }

private:
  size_t index(Well well) const { return (well.row - 1) * shape_.cols + (well.col - 1); }
  /// The well's last event when the new one merges into it, else a new
  /// event appended.
  WellEvent &event(Well well, WellEventKind kind, uint32_t origin, double wavelengthNm,
                   double referenceNm);

  HistoryNames *names_;
  PlateShape shape_;
  std::vector<std::vector<WellEvent>> wells_;
  std::vector<Composition> contents_;
  std::vector<PlateEvent> plate_;
  uint64_t serial_ = 0;
  /// serial_ right after the last plate event: equal while no well has
  /// changed or been read since.
  uint64_t serialAfterPlate_ = 0;
};

struct Difference {
  std::string message;
  uint32_t line = 0; ///< the script line of the statement where they part
};

/// The first way in which `stream` departs from `script`, worded for the
/// person who will fix the compiler: the well (or the plate), the
/// statement, and what each account has there. nullopt when they agree.
std::optional<Difference> firstDifference(const History &script, const History &stream);

} // namespace plate::backend

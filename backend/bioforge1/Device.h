//===- Device.h - One interface for the simulator and the real robot -------===//
//
// The interpreter sends each command to a Device and commits the command to
// its digital twin only when the device confirms it (status Ok). A real
// robot implements the same interface, so fault injection, a journal of
// confirmed commands and resuming after a failure sit in the interpreter
// and need no second code path.
//
// A failed command carries the kind of fault (FaultKind) so that the
// interpreter can pick the documented recovery of docs/reliability.md:
// retry with other tips after a tip pick-up failure, retry a read after a
// reader timeout, stop safely otherwise.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>
#include <optional>
#include <string>
#include <string_view>

namespace plate::backend {

class DeckState;

/// What went wrong on the device, for the recovery policy.
enum class FaultKind : uint8_t {
  None,
  TipPickup,     ///< tips not seated on pick-up; the rack keeps them
  LiquidDetect,  ///< no liquid detected on aspirate; nothing aspirated
  GripperDrop,   ///< the gripper lost the plate or lid it was moving
  ReaderTimeout, ///< the reader did not answer; no read
  Disconnect,    ///< controller connection lost; command not delivered
  PowerLoss,     ///< the host dies at once (the simulator kills itself)
};

inline constexpr FaultKind kAllFaultKinds[] = {
    FaultKind::TipPickup,     FaultKind::LiquidDetect, FaultKind::GripperDrop,
    FaultKind::ReaderTimeout, FaultKind::Disconnect,   FaultKind::PowerLoss};

inline std::string_view faultKindName(FaultKind kind) {
  switch (kind) {
  case FaultKind::None: return "none";
  case FaultKind::TipPickup: return "tip_pickup";
  case FaultKind::LiquidDetect: return "liquid_detect";
  case FaultKind::GripperDrop: return "gripper_drop";
  case FaultKind::ReaderTimeout: return "reader_timeout";
  case FaultKind::Disconnect: return "disconnect";
  case FaultKind::PowerLoss: return "power_loss";
  }
  return "none";
}

inline std::optional<FaultKind> parseFaultKind(std::string_view name) {
  for (FaultKind kind : kAllFaultKinds)
    if (faultKindName(kind) == name)
      return kind;
  return std::nullopt;
}

/// Faults the simulator injects: `--fault SEQ:KIND` (each fires once, on
/// the first attempt of command SEQ) and a seeded random rate per attempt.
struct FaultPlan {
  std::map<uint32_t, FaultKind> at;
  double rate = 0; ///< 0..1, chance that an attempt fails
  uint64_t seed = 1;
  bool empty() const { return at.empty() && rate <= 0; }
};

/// Well -> value, sorted by well: a flat map. A read of a whole plate
/// fills hundreds of these per command; a node per well was the largest
/// cost of reading (bench/README.md, throughput).
class WellValues {
public:
  using value_type = std::pair<Well, double>;
  using const_iterator = std::vector<value_type>::const_iterator;

  WellValues() = default;
  /// From (well, value) pairs in any order; a later duplicate wins, as
  /// with repeated `operator[]` assignments.
  static WellValues fromUnsorted(std::vector<value_type> pairs) {
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const value_type &a, const value_type &b) { return a.first < b.first; });
    WellValues values;
    values.entries_.reserve(pairs.size());
    for (const value_type &pair : pairs)
      if (!values.entries_.empty() && values.entries_.back().first == pair.first)
        values.entries_.back().second = pair.second;
      else
        values.entries_.push_back(pair);
    return values;
  }

  /// From pairs already in increasing well order, without duplicates.
  static WellValues fromSorted(std::vector<value_type> pairs) {
    WellValues values;
    values.entries_ = std::move(pairs);
    return values;
  }

  double &operator[](Well well) {
    if (entries_.empty() || entries_.back().first < well)
      return entries_.emplace_back(well, 0.0).second;
    auto it = lowerBound(well);
    if (it != entries_.end() && it->first == well)
      return it->second;
    return entries_.insert(it, value_type{well, 0.0})->second;
  }
  const_iterator find(Well well) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), well,
                               [](const value_type &entry, Well w) { return entry.first < w; });
    return it != entries_.end() && it->first == well ? it : entries_.end();
  }
  const double &at(Well well) const {
    auto it = find(well);
    if (it == entries_.end())
      throw std::out_of_range("WellValues::at");
    return it->second;
  }
  size_t count(Well well) const { return find(well) != entries_.end() ? 1 : 0; }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  friend bool operator==(const WellValues &, const WellValues &) = default;

private:
  std::vector<value_type>::iterator lowerBound(Well well) {
    return std::lower_bound(entries_.begin(), entries_.end(), well,
                            [](const value_type &entry, Well w) { return entry.first < w; });
  }
  std::vector<value_type> entries_;
};

/// One absorbance read as the reader reports it: well -> optical density.
struct PlateRead {
  uint32_t seq = 0;
  double wavelengthNm = 0;
  std::optional<double> referenceNm;
  WellValues values;
  std::string step;
  uint32_t line = 0;
  /// The values come from the simulator's reader model, not a reader
  /// (docs/simulator.md): every output that shows them says so.
  bool simulated = false;
  /// The `--reader-data` file whose values replaced the device's read.
  std::string dataFile;
};

enum class DeviceStatus : uint8_t {
  Ok,       ///< done; commit it
  Failed,   ///< the hardware could not do it; state unchanged
  Aborted,  ///< the operator or the controller stopped the run
};

struct DeviceResult {
  DeviceStatus status = DeviceStatus::Ok;
  std::string message;           ///< why, when not Ok
  std::optional<PlateRead> read; ///< for RDR.ReadAbsorbance
  FaultKind fault = FaultKind::None; ///< when Failed: which fault
};

class Device {
public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;
  /// Executes one command and reports the outcome. Must not throw for
  /// hardware problems; those are DeviceStatus::Failed.
  virtual DeviceResult execute(const Command &command) = 0;

  /// Compares what the device senses with the state the journal implies
  /// (plate place, lid, tips, volumes as far as the device can tell);
  /// the reason for the first difference, nullopt when they agree. Called
  /// before a resumed run sends its first command.
  virtual std::optional<std::string> verifyState(const DeckState &expected) {
    return std::nullopt;
  }
  /// Told, on resume, each command the journal records as confirmed. A
  /// robot's deck already holds their effects; the simulator, whose world
  /// died with the process, replays them into it.
  virtual void restoreConfirmed(const Command &command) {}
};

} // namespace plate::backend

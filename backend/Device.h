//===- Device.h - One interface for the simulator and the real robot -------===//
//
// The interpreter sends each command to a Device and commits the command to
// its digital twin only when the device confirms it (status Ok). A real
// robot implements the same interface, so fault injection, a journal of
// confirmed commands and resuming after a failure sit in the interpreter
// and need no second code path.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/Command.h"

#include <map>
#include <optional>
#include <string>

namespace plate::backend {

/// One absorbance read as the reader reports it: well -> optical density.
struct PlateRead {
  uint32_t seq = 0;
  double wavelengthNm = 0;
  std::optional<double> referenceNm;
  std::map<Well, double> values;
  std::string step;
  uint32_t line = 0;
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
};

class Device {
public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;
  /// Executes one command and reports the outcome. Must not throw for
  /// hardware problems; those are DeviceStatus::Failed.
  virtual DeviceResult execute(const Command &command) = 0;
};

} // namespace plate::backend

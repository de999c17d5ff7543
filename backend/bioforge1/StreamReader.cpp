//===- StreamReader.cpp - Parse and validate a saved command stream --------===//
//
// A stream is read completely before anything runs: a bad line anywhere
// means no command executes. Each line is checked against commandSchema(),
// the same table the emitter writes from; values (ranges, places) are the
// interpreter's business, types and presence are checked here.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"

#include <cerrno>
#include <cstring>
#include <limits>
#include <fmt/format.h>

#include <cmath>

namespace plate::backend {

namespace {

std::string_view typeName(ArgType type) {
  switch (type) {
  case ArgType::Integer: return "an integer";
  case ArgType::Number: return "a number";
  case ArgType::String: return "a string";
  case ArgType::Slot: return "a slot (a number 1..9 or a string like \"A1\")";
  case ArgType::Mask: return "a mask string like \"1111\"";
  case ArgType::WellList: return "a list of well names";
  }
  return "a value";
}

bool hasType(const Json &value, ArgType type) {
  switch (type) {
  case ArgType::Integer:
    return value.is_number_integer() ||
           (value.is_number_float() && value.get<double>() == std::floor(value.get<double>()));
  case ArgType::Number: return value.is_number();
  case ArgType::String:
  case ArgType::Mask: return value.is_string();
  case ArgType::Slot: return value.is_number_integer() || value.is_string();
  case ArgType::WellList:
    if (!value.is_array())
      return false;
    for (const Json &item : value)
      if (!item.is_string())
        return false;
    return true;
  }
  return false;
}

/// Column of `key` in the line, for the caret; 1 when it cannot be found.
uint32_t columnOf(std::string_view line, std::string_view key) {
  auto at = line.find(fmt::format("\"{}\"", key));
  return at == std::string_view::npos ? 1 : static_cast<uint32_t>(at + 1);
}

} // namespace

std::optional<std::vector<Command>> parseCommandStream(uint32_t fileId,
                                                       const SourceManager &sources,
                                                       DiagnosticEngine &diags) {
  std::vector<Command> commands;
  unsigned errorsBefore = diags.errorCount();
  uint32_t lastSeq = 0;
  std::vector<std::string> knownCommands;
  for (const CommandSpec &spec : commandSchema())
    knownCommands.push_back(fmt::format("{}.{}", spec.module, opName(spec.op)));

  for (uint32_t lineNo = 1; lineNo <= sources.lineCount(fileId); ++lineNo) {
    std::string_view line = sources.lineText(fileId, lineNo);
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#')
      continue;
    auto at = [&](uint32_t col, uint32_t length = 1) {
      return SourceLoc{fileId, lineNo, col, length};
    };
    Json json;
    try {
      json = Json::parse(line);
    } catch (const nlohmann::json::parse_error &error) {
      // byte is 1-based and points just past the offending character.
      uint32_t col = static_cast<uint32_t>(std::max<size_t>(1, std::min(error.byte, line.size())));
      std::string what = error.what();
      auto colon = what.find("syntax error");
      diags.report(DiagId::StreamBadJson, at(col),
                   colon == std::string::npos ? what : what.substr(colon));
      continue;
    } catch (const nlohmann::json::exception &) {
      // A number beyond a double (`1e999`) throws out_of_range even here.
      diags.report(DiagId::StreamNumberOutOfRange, at(static_cast<uint32_t>(first + 1)));
      continue;
    }
    if (!json.is_object()) {
      diags.report(DiagId::StreamLineNotObject, at(static_cast<uint32_t>(first + 1)));
      continue;
    }

    Command command;
    command.streamLoc = at(static_cast<uint32_t>(first + 1));
    bool ok = true;
    auto field = [&](const char *key, auto check, DiagId wrongType, bool required) -> const Json * {
      auto it = json.find(key);
      if (it == json.end()) {
        if (required) {
          diags.report(DiagId::StreamMissingField, at(static_cast<uint32_t>(first + 1)), key);
          ok = false;
        }
        return nullptr;
      }
      if (!check(*it)) {
        diags.report(wrongType, at(columnOf(line, key), std::strlen(key) + 2), key, it->dump());
        ok = false;
        return nullptr;
      }
      return &*it;
    };
    // A count past 32 bits would wrap to a small seq or line, not fail.
    auto isCount = [](const Json &v) {
      constexpr uint64_t kMax = std::numeric_limits<uint32_t>::max();
      if (v.is_number_unsigned())
        return v.get<uint64_t>() <= kMax;
      return v.is_number_integer() && v.get<int64_t>() >= 0 && uint64_t(v.get<int64_t>()) <= kMax;
    };
    auto isString = [](const Json &v) { return v.is_string(); };
    auto isObject = [](const Json &v) { return v.is_object(); };
    const Json *seq = field("seq", isCount, DiagId::StreamFieldNotCount, true);
    const Json *module = field("module", isString, DiagId::StreamFieldNotString, true);
    const Json *op = field("op", isString, DiagId::StreamFieldNotString, true);
    const Json *args = field("args", isObject, DiagId::StreamArgsNotObject, false);
    const Json *step = field("step", isString, DiagId::StreamFieldNotString, false);
    const Json *source = field("line", isCount, DiagId::StreamFieldNotCount, false);
    const Json *tips = field("tips", [](const Json &v) { return v == "reuse"; },
                             DiagId::StreamTipsNotReuse, false);
    for (const auto &[key, value] : json.items())
      if (key != "seq" && key != "module" && key != "op" && key != "args" && key != "step" &&
          key != "line" && key != "tips") {
        diags.report(DiagId::StreamUnknownKey, at(columnOf(line, key), key.size() + 2), key);
        ok = false;
      }
    if (seq) {
      command.seq = seq->get<uint32_t>();
      if (command.seq != lastSeq + 1) {
        diags.report(DiagId::StreamSeqGap, at(columnOf(line, "seq"), 5), command.seq, lastSeq)
            .note(SourceLoc{}, "expected seq {}", lastSeq + 1);
        ok = false;
      }
      lastSeq = command.seq;
    }
    if (!module || !op)
      continue;
    command.module = module->get<std::string>();
    const std::string &opSpelling = op->get_ref<const std::string &>();
    static const Json kNoArgs = Json::object();
    const Json &argsObject = args ? *args : kNoArgs;
    command.step = step ? step->get<std::string>() : std::string();
    command.line = source ? source->get<uint32_t>() : 0;
    command.tipsReuse = tips != nullptr;

    std::string name = fmt::format("{}.{}", command.module, opSpelling);
    const CommandSpec *spec = findCommandSpec(command.module, opSpelling);
    if (!spec) {
      std::string hint = closestMatch(name, knownCommands);
      if (hint.empty())
        diags.report(DiagId::StreamUnknownCommand, at(columnOf(line, "module"), 8), name);
      else
        diags.report(DiagId::StreamUnknownCommandTypo, at(columnOf(line, "module"), 8), name,
                     hint);
      continue;
    }
    for (const ArgSpec &arg : spec->args) {
      auto it = argsObject.find(arg.name);
      if (it == argsObject.end()) {
        if (arg.required) {
          diags.report(DiagId::StreamMissingArgument,
                       at(args ? columnOf(line, "args") : static_cast<uint32_t>(first + 1), 6),
                       name, arg.name, typeName(arg.type));
          ok = false;
        }
        continue;
      }
      if (!hasType(*it, arg.type)) {
        diags.report(DiagId::StreamArgumentType,
                     at(columnOf(line, arg.name), std::strlen(arg.name) + 2), name, arg.name,
                     it->dump(), typeName(arg.type));
        ok = false;
      }
    }
    for (const auto &item : argsObject.items()) {
      // Not a structured binding: clang 14 cannot capture one in a lambda.
      const std::string &key = item.key();
      bool known = std::any_of(spec->args.begin(), spec->args.end(),
                               [&](const ArgSpec &arg) { return key == arg.name; });
      if (!known) {
        diags.report(DiagId::StreamUnknownArgument, at(columnOf(line, key), key.size() + 2),
                     name, key);
        ok = false;
      }
    }
    if (ok) {
      command.fields = decodeFields(spec->op, argsObject);
      commands.push_back(std::move(command));
    }
  }
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return commands;
}

std::optional<std::vector<Command>> readCommandStream(const std::string &path,
                                                      SourceManager &sources,
                                                      DiagnosticEngine &diags) {
  auto fileId = sources.addFile(path);
  if (!fileId) {
    diags.report(DiagId::CannotRead, SourceLoc{}, path, std::strerror(errno));
    return std::nullopt;
  }
  return parseCommandStream(*fileId, sources, diags);
}

} // namespace plate::backend

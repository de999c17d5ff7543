//===- JsonRpc.cpp --------------------------------------------------------===//
#include "tools/plate/JsonRpc.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <optional>
#include <poll.h>
#include <unistd.h>

namespace plate::lsp {

namespace {
/// Header lines are short (`Content-Length: 123`); anything longer is not
/// a header and is consumed without being kept.
constexpr size_t kMaxHeaderLine = 4096;
constexpr size_t kReadChunk = 64 * 1024;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}
} // namespace

MessageReader::MessageReader(int fd, size_t maxBodyBytes) : fd_(fd), maxBodyBytes_(maxBodyBytes) {}

bool MessageReader::fill() {
  if (eof_)
    return false;
  if (pos_ > 0 && pos_ == buffer_.size()) {
    buffer_.clear();
    pos_ = 0;
  } else if (pos_ > kReadChunk) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  size_t old = buffer_.size();
  buffer_.resize(old + kReadChunk);
  ssize_t got;
  do
    got = ::read(fd_, buffer_.data() + old, kReadChunk);
  while (got < 0 && errno == EINTR);
  buffer_.resize(old + (got > 0 ? static_cast<size_t>(got) : 0));
  if (got <= 0)
    eof_ = true;
  return got > 0;
}

bool MessageReader::inputPending() const {
  if (pos_ < buffer_.size())
    return true;
  if (eof_)
    return false;
  pollfd descriptor{fd_, POLLIN, 0};
  return ::poll(&descriptor, 1, 0) > 0;
}

bool MessageReader::readLine(std::string &line, bool &tooLong) {
  line.clear();
  tooLong = false;
  for (;;) {
    size_t newline = buffer_.find('\n', pos_);
    size_t end = newline == std::string::npos ? buffer_.size() : newline;
    if (!tooLong) {
      line.append(buffer_, pos_, std::min(end - pos_, kMaxHeaderLine + 1 - line.size()));
      if (line.size() > kMaxHeaderLine) {
        tooLong = true;
        line.clear();
      }
    }
    pos_ = newline == std::string::npos ? buffer_.size() : newline + 1;
    if (newline != std::string::npos)
      break;
    if (!fill())
      return false;
  }
  if (!line.empty() && line.back() == '\r')
    line.pop_back();
  return true;
}

Frame MessageReader::next() {
  for (;;) {
    // The header block: lines up to an empty one.
    std::optional<size_t> length;
    std::string error;
    bool sawHeader = false;
    std::string line;
    bool tooLong = false;
    for (;;) {
      if (!readLine(line, tooLong))
        return Frame{Frame::Kind::End, {}, {}};
      if (line.empty() && !tooLong)
        break;
      sawHeader = true;
      if (!error.empty())
        continue; // the block is already bad; read to its end
      if (tooLong) {
        error = fmt::format("header line longer than {} bytes", kMaxHeaderLine);
        continue;
      }
      size_t colon = line.find(':');
      if (colon == std::string::npos) {
        error = "header line without `:`";
        continue;
      }
      std::string_view name = trim(std::string_view(line).substr(0, colon));
      std::string_view value = trim(std::string_view(line).substr(colon + 1));
      if (!equalsIgnoringCase(name, "Content-Length"))
        continue; // Content-Type and unknown headers carry nothing we need
      size_t parsed = 0;
      auto [end, status] = std::from_chars(value.data(), value.data() + value.size(), parsed);
      if (status != std::errc() || end != value.data() + value.size() || value.empty())
        error = fmt::format("Content-Length `{}` is not a byte count", value);
      else
        length = parsed;
    }
    if (!sawHeader)
      continue; // stray empty lines between messages
    if (error.empty() && !length)
      error = "header block without Content-Length";
    if (!error.empty())
      return Frame{Frame::Kind::BadHeader, {}, std::move(error)};

    if (*length > maxBodyBytes_) {
      // Read past the body without keeping it, so the next message is
      // still found.
      size_t left = *length;
      while (left > 0) {
        if (pos_ == buffer_.size() && !fill())
          return Frame{Frame::Kind::End, {}, {}};
        size_t take = std::min(left, buffer_.size() - pos_);
        pos_ += take;
        left -= take;
      }
      return Frame{Frame::Kind::TooLarge, {},
                   fmt::format("message of {} bytes; the limit is {} bytes", *length,
                               maxBodyBytes_)};
    }
    Frame frame{Frame::Kind::Message, {}, {}};
    frame.body.reserve(*length);
    while (frame.body.size() < *length) {
      if (pos_ == buffer_.size() && !fill())
        return Frame{Frame::Kind::End, {}, {}}; // the client left mid-message
      size_t take = std::min(*length - frame.body.size(), buffer_.size() - pos_);
      frame.body.append(buffer_, pos_, take);
      pos_ += take;
    }
    return frame;
  }
}

bool writeMessage(int fd, const nlohmann::json &message) {
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out = fmt::format("Content-Length: {}\r\n\r\n", body.size());
  out += body;
  size_t written = 0;
  while (written < out.size()) {
    ssize_t n = ::write(fd, out.data() + written, out.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

} // namespace plate::lsp

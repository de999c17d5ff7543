//===- JsonRpcTest.cpp - Content-Length framing ---------------------------===//
#include "tools/plate/JsonRpc.h"

#include <gtest/gtest.h>

#include <csignal>

#include <string>
#include <thread>
#include <unistd.h>

using namespace plate::lsp;

namespace {

/// A pipe whose write end is fed `input` by a thread (so inputs larger than
/// the pipe's buffer do not block the test) and then closed.
class Pipe {
public:
  explicit Pipe(std::string input) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    read_ = fds[0];
    writer_ = std::thread([fd = fds[1], input = std::move(input)] {
      size_t written = 0;
      while (written < input.size()) {
        ssize_t n = ::write(fd, input.data() + written, input.size() - written);
        if (n <= 0)
          break;
        written += static_cast<size_t>(n);
      }
      ::close(fd);
    });
  }
  ~Pipe() {
    writer_.join();
    ::close(read_);
  }
  int fd() const { return read_; }

private:
  int read_ = -1;
  std::thread writer_;
};

std::string framed(const std::string &body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

TEST(JsonRpc, ReadsMessagesBackToBack) {
  Pipe pipe(framed("{\"a\":1}") + "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" +
            framed("[]") + framed(""));
  MessageReader reader(pipe.fd(), 1000);
  Frame first = reader.next();
  EXPECT_EQ(first.kind, Frame::Kind::Message);
  EXPECT_EQ(first.body, "{\"a\":1}");
  Frame second = reader.next(); // after a Content-Type header
  EXPECT_EQ(second.kind, Frame::Kind::Message);
  EXPECT_EQ(second.body, "[]");
  Frame empty = reader.next();
  EXPECT_EQ(empty.kind, Frame::Kind::Message);
  EXPECT_EQ(empty.body, "");
  EXPECT_EQ(reader.next().kind, Frame::Kind::End);
}

TEST(JsonRpc, HeaderNamesIgnoreCaseAndBareNewlinesAreTolerated) {
  Pipe pipe("content-length:  2 \n\n{}");
  MessageReader reader(pipe.fd(), 1000);
  Frame frame = reader.next();
  EXPECT_EQ(frame.kind, Frame::Kind::Message);
  EXPECT_EQ(frame.body, "{}");
}

TEST(JsonRpc, SkipsABadHeaderBlockAndReadsTheNext) {
  std::string longLine(10000, 'x');
  Pipe pipe("Content-Length: -3\r\n\r\n" + longLine + "\r\n\r\n" + "X-Other: 1\r\n\r\n" +
            framed("{}"));
  MessageReader reader(pipe.fd(), 1000);
  Frame bad = reader.next();
  EXPECT_EQ(bad.kind, Frame::Kind::BadHeader);
  EXPECT_EQ(bad.error, "Content-Length `-3` is not a byte count");
  Frame tooLong = reader.next();
  EXPECT_EQ(tooLong.kind, Frame::Kind::BadHeader);
  EXPECT_EQ(tooLong.error, "header line longer than 4096 bytes");
  EXPECT_EQ(reader.next().error, "header block without Content-Length");
  Frame good = reader.next();
  EXPECT_EQ(good.kind, Frame::Kind::Message);
  EXPECT_EQ(good.body, "{}");
}

TEST(JsonRpc, SkipsABodyOverTheLimitWithoutLosingTheNextMessage) {
  std::string huge(300000, 'z');
  Pipe pipe(framed(huge) + framed("{}"));
  MessageReader reader(pipe.fd(), 1000);
  Frame skipped = reader.next();
  EXPECT_EQ(skipped.kind, Frame::Kind::TooLarge);
  EXPECT_EQ(skipped.error, "message of 300000 bytes; the limit is 1000 bytes");
  Frame next = reader.next();
  EXPECT_EQ(next.kind, Frame::Kind::Message);
  EXPECT_EQ(next.body, "{}");
}

TEST(JsonRpc, TheEndOfInputMidMessageIsTheEnd) {
  Pipe pipe("Content-Length: 50\r\n\r\n{\"jsonrpc\"");
  MessageReader reader(pipe.fd(), 1000);
  EXPECT_EQ(reader.next().kind, Frame::Kind::End);
  Pipe headerOnly("Content-Len");
  MessageReader second(headerOnly.fd(), 1000);
  EXPECT_EQ(second.next().kind, Frame::Kind::End);
}

TEST(JsonRpc, WritesTheByteCountAndReplacesInvalidUtf8) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  nlohmann::json message{{"text", std::string("µ\xff")}};
  ASSERT_TRUE(writeMessage(fds[1], message));
  ::close(fds[1]);
  std::string out(256, '\0');
  ssize_t n = ::read(fds[0], out.data(), out.size());
  ::close(fds[0]);
  ASSERT_GT(n, 0);
  out.resize(static_cast<size_t>(n));
  std::string body = "{\"text\":\"µ\xEF\xBF\xBD\"}"; // U+FFFD for the bad byte
  EXPECT_EQ(out, "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
}

TEST(JsonRpc, WritingToAClosedPipeFailsInsteadOfKilling) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  std::signal(SIGPIPE, SIG_IGN);
  EXPECT_FALSE(writeMessage(fds[1], nlohmann::json::object()));
  ::close(fds[1]);
}

} // namespace

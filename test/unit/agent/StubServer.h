//===- StubServer.h - Runs test/agent/stub_llm_server.py for a test -------===//
//
// Starts the stub LLM server on 127.0.0.1 with a scenario, reads the port
// it prints, and stops it (by its pid) when the test ends; the server also
// stops by itself when idle, so a crashed test leaves nothing running.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace plate::agent::test {

inline std::filesystem::path freshTempDir(const std::string &name) {
  static int counter = 0;
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                              ("plate_agent_" + std::to_string(getpid()) + "_" + name + "_" +
                               std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

class StubServer {
public:
  explicit StubServer(const nlohmann::json &scenario, const std::string &name = "stub") {
    dir_ = freshTempDir(name);
    std::ofstream(dir_ / "scenario.json") << scenario.dump(1);
    logPath_ = (dir_ / "requests.json").string();
    int pipeFds[2];
    if (pipe(pipeFds) != 0)
      return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(pipeFds[1], STDOUT_FILENO);
      close(pipeFds[0]);
      close(pipeFds[1]);
      std::string script = std::string(PLATE_SOURCE_DIR) + "/test/agent/stub_llm_server.py";
      std::string scenarioPath = (dir_ / "scenario.json").string();
      execlp("python3", "python3", script.c_str(), "--scenario", scenarioPath.c_str(), "--log",
             logPath_.c_str(), "--idle-timeout", "15", static_cast<char *>(nullptr));
      _exit(127);
    }
    close(pipeFds[1]);
    FILE *out = fdopen(pipeFds[0], "r");
    if (out) {
      if (std::fscanf(out, "PORT %d", &port_) != 1)
        port_ = 0;
      std::fclose(out);
    }
  }
  ~StubServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  StubServer(const StubServer &) = delete;
  StubServer &operator=(const StubServer &) = delete;

  int port() const { return port_; }
  std::string openaiBase() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::string anthropicBase() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::filesystem::path &dir() const { return dir_; }
  /// The requests the server received so far, in order.
  nlohmann::json requests() const {
    std::ifstream in(logPath_);
    nlohmann::json log = nlohmann::json::parse(in, nullptr, false);
    return log.is_discarded() ? nlohmann::json::array() : log;
  }

private:
  std::filesystem::path dir_;
  std::string logPath_;
  pid_t pid_ = -1;
  int port_ = 0;
};

} // namespace plate::agent::test

// A Caper Arena bot in C++ that plays both editions, "caper" and "caper-europe". It speaks the
// wire protocol directly (proto/arena/v1/bot.proto): one long-lived bidirectional stream,
// Hello -> Welcome, then one ActionReply per DecisionRequest.
//
//   make && ARENA_TARGET=localhost:50051 ARENA_TOKEN=... build/bot
//
// Environment: ARENA_TARGET (default localhost:50051), ARENA_TOKEN (required), ARENA_MAX_GAMES
// (stop after that many games), ARENA_TLS=1 (TLS with the system's roots, e.g. through an Ingress),
// ARENA_PING_MS (milliseconds between application Pings, default 30000).
//
// Exit codes: 0 when stopped (ARENA_MAX_GAMES reached, SIGINT/SIGTERM, or replaced by a newer
// connection of the same bot), 2 when the arena refuses the bot (e.g. a wrong token).

#include <grpcpp/grpcpp.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "arena/v1/bot.grpc.pb.h"

namespace v1 = arena::v1;
using Clock = std::chrono::steady_clock;
using Stream = grpc::ClientReaderWriter<v1::ConnectRequest, v1::ConnectResponse>;

namespace {

constexpr uint32_t kProtocolVersion = 1;
// Reconnect backoff: 0.5 s doubling to 30 s, up to half of it taken off at random; a session
// that lasted 5 s after its Welcome starts the count again.
constexpr double kBackoffInitialS = 0.5, kBackoffMaxS = 30.0, kBackoffJitter = 0.5;
constexpr auto kBackoffReset = std::chrono::seconds(5);

void Log(const std::string& line) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::cout << std::put_time(&utc, "%FT%TZ") << ' ' << line << std::endl;
}

std::string StatusName(grpc::StatusCode code) {
  // clang-format off
  static const char* const kNames[] = {
      "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
      "UNAUTHENTICATED"};
  // clang-format on
  const auto index = static_cast<size_t>(code);
  return index < std::size(kNames) ? kNames[index] : "status " + std::to_string(index);
}

// Refusals that a retry cannot fix: the bot stops instead of reconnecting.
bool IsFatal(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::UNIMPLEMENTED:
      return true;
    default:
      return false;
  }
}

// Discarding a card for a coin, or declining an ability: actions that play no card.
bool PlaysNoCard(const v1::Action& action) {
  switch (action.game_case()) {
    case v1::Action::kCaper:
      return action.caper().kind() == v1::CAPER_ACTION_KIND_DISCARD ||
             action.caper().kind() == v1::CAPER_ACTION_KIND_PASS;
    case v1::Action::kCaperEurope:
      return action.caper_europe().kind() == v1::CAPER_EUROPE_ACTION_KIND_DISCARD;
    default:
      return false;
  }
}

// The strategy: a random legal action, preferring to play a card over discarding one or passing.
// The answer is an index into `legal_actions`, the simplest legal reply there is.
uint32_t Choose(const v1::DecisionRequest& request, std::mt19937& rng) {
  std::vector<uint32_t> all, plays;
  for (int i = 0; i < request.legal_actions_size(); ++i) {
    all.push_back(static_cast<uint32_t>(i));
    if (!PlaysNoCard(request.legal_actions(i).action())) plays.push_back(static_cast<uint32_t>(i));
  }
  const auto& pool = plays.empty() ? all : plays;
  return pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)];
}

struct Settings {
  std::string target = "localhost:50051";
  std::string token;
  std::optional<int> max_games;
  bool tls = false;
  // An application Ping also crosses proxies that swallow HTTP/2 pings.
  std::chrono::milliseconds ping_interval{30'000};
};

class ArenaBot {
 public:
  explicit ArenaBot(Settings settings)
      : settings_(std::move(settings)), rng_(std::random_device{}()) {}

  // Plays until stopped; returns the process's exit code.
  int Run() {
    int attempt = 0;
    while (!Stopping()) {
      const Clock::time_point started = Clock::now();
      bool welcomed = false;
      const grpc::Status status = Session(welcomed);
      if (Stopping()) break;
      if (status.error_code() == grpc::StatusCode::ABORTED) {
        Log("replaced by a newer connection (" + status.error_message() + "): stopping");
        return 0;
      }
      if (IsFatal(status.error_code())) {
        Log("the arena refused this bot: " + StatusName(status.error_code()) + ": " +
            status.error_message());
        return 2;
      }
      if (welcomed && Clock::now() - started >= kBackoffReset) attempt = 0;
      const double delay = Backoff(attempt++);
      std::ostringstream line;
      line << "connection lost (" << StatusName(status.error_code()) << ": "
           << status.error_message() << "); retrying in " << std::fixed << std::setprecision(1)
           << delay << " s";
      Log(line.str());
      std::unique_lock lock(mutex_);
      changed_.wait_for(lock, std::chrono::duration<double>(delay), [this] { return stopping_; });
    }
    return 0;
  }

  // Safe from any thread: ends the current stream and the reconnect loop.
  void Stop() {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (context_ != nullptr) context_->TryCancel();
    changed_.notify_all();
  }

 private:
  // One connection, from Connect to the end of the stream; its final status.
  grpc::Status Session(bool& welcomed) {
    auto stub = v1::BotGatewayService::NewStub(
        grpc::CreateCustomChannel(settings_.target, Credentials(), ChannelArguments()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + settings_.token);
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return grpc::Status::CANCELLED;
      context_ = &context;
    }
    const std::unique_ptr<Stream> stream = stub->Connect(&context);
    bool ended = false;
    std::thread pinger([&] { Ping(*stream, ended); });
    v1::ConnectRequest hello;
    hello.mutable_hello()->set_protocol_version(kProtocolVersion);
    hello.mutable_hello()->add_games("caper");
    hello.mutable_hello()->add_games("caper-europe");
    hello.mutable_hello()->set_bot_version("1.0.0");
    hello.mutable_hello()->set_info("C++ example");
    Write(*stream, hello);
    v1::ConnectResponse message;
    while (stream->Read(&message)) {
      if (message.has_welcome()) welcomed = true;
      OnMessage(*stream, message);
    }
    {
      std::lock_guard lock(mutex_);
      ended = true;
      changed_.notify_all();
    }
    pinger.join();
    const grpc::Status status = stream->Finish();
    std::lock_guard lock(mutex_);
    context_ = nullptr;
    return status;
  }

  void OnMessage(Stream& stream, const v1::ConnectResponse& message) {
    switch (message.message_case()) {
      case v1::ConnectResponse::kWelcome:
        Log("connected to " + settings_.target + " as " + message.welcome().bot_name() +
            " (bot id " + message.welcome().bot_id() + ")");
        break;
      case v1::ConnectResponse::kDecisionRequest: {
        const v1::DecisionRequest& request = message.decision_request();
        if (request.legal_actions_size() == 0) {
          Log("request " + request.request_id() + " lists no legal action: not answered");
          break;
        }
        v1::ConnectRequest reply;
        reply.mutable_action_reply()->set_request_id(request.request_id());
        reply.mutable_action_reply()->set_legal_index(Choose(request, rng_));
        Write(stream, reply);
        break;
      }
      case v1::ConnectResponse::kGameOver:
        OnGameOver(message.game_over());
        break;
      case v1::ConnectResponse::kError:
        Log("the arena refused a message: " + v1::ErrorCode_Name(message.error().code()) + " " +
            message.error().message());
        break;
      default:  // GameStarted and Pong need no answer
        break;
    }
  }

  void OnGameOver(const v1::GameOver& over) {
    // A game's GameOver may come again after a reconnect: count each game once.
    if (!finished_.insert(over.game_id()).second) return;
    const v1::GameResult& result = over.result();
    std::string scores;  // the bot's own score first
    if (static_cast<int>(over.seat()) < result.scores_size()) {
      scores = std::to_string(result.scores(static_cast<int>(over.seat())));
    }
    for (int i = 0; i < result.scores_size(); ++i) {
      if (i != static_cast<int>(over.seat())) scores += "-" + std::to_string(result.scores(i));
    }
    std::string outcome = "lost";
    if (!result.has_winner()) outcome = "drew";
    if (result.has_winner() && result.winner() == over.seat()) outcome = "won";
    Log("game " + over.game_id() + " over: " + outcome + " " + scores + " (" +
        v1::Termination_Name(result.termination()) + ")" +
        (over.reason().empty() ? "" : ": " + over.reason()));
    if (settings_.max_games && static_cast<int>(finished_.size()) >= *settings_.max_games) {
      Log("played " + std::to_string(finished_.size()) + " games: stopping");
      Stop();
    }
  }

  // Sends a Ping every ping_interval until the session ends.
  void Ping(Stream& stream, const bool& ended) {
    uint64_t nonce = 0;
    std::unique_lock lock(mutex_);
    while (!changed_.wait_for(lock, settings_.ping_interval, [&] { return ended || stopping_; })) {
      lock.unlock();
      v1::ConnectRequest ping;
      ping.mutable_ping()->set_nonce(++nonce);
      Write(stream, ping);
      lock.lock();
    }
  }

  // gRPC allows one Write at a time on a stream; the reader and the pinger both write.
  void Write(Stream& stream, const v1::ConnectRequest& request) {
    std::lock_guard lock(write_mutex_);
    stream.Write(request);  // false once the stream is broken: the Read loop then sees the end
  }

  std::shared_ptr<grpc::ChannelCredentials> Credentials() const {
    return settings_.tls ? grpc::SslCredentials(grpc::SslCredentialsOptions())
                         : grpc::InsecureChannelCredentials();
  }

  static grpc::ChannelArguments ChannelArguments() {
    // The gateway allows HTTP/2 pings every 10 s; faster ones get the connection closed.
    grpc::ChannelArguments arguments;
    arguments.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 20'000);
    arguments.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10'000);
    arguments.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
    arguments.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
    return arguments;
  }

  double Backoff(int attempt) {
    const double base =
        std::min(kBackoffMaxS, kBackoffInitialS * std::pow(2.0, std::min(attempt, 64)));
    return base * (1.0 - kBackoffJitter * std::uniform_real_distribution<double>(0, 1)(rng_));
  }

  bool Stopping() {
    std::lock_guard lock(mutex_);
    return stopping_;
  }

  const Settings settings_;
  std::mt19937 rng_;
  std::set<std::string> finished_;  // ids of the games that are over
  std::mutex mutex_;                // guards stopping_, context_ and the pinger's wake-ups
  std::condition_variable changed_;
  bool stopping_ = false;
  grpc::ClientContext* context_ = nullptr;
  std::mutex write_mutex_;
};

std::optional<int> PositiveNumber(const char* name, const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 1 || value > 1'000'000'000) {
    std::cerr << name << " must be a whole number of at least 1, got '" << text << "'\n";
    return std::nullopt;
  }
  return static_cast<int>(value);
}

std::optional<Settings> ReadSettings() {
  Settings settings;
  if (const char* target = std::getenv("ARENA_TARGET"); target && *target) settings.target = target;
  if (const char* token = std::getenv("ARENA_TOKEN"); token) settings.token = token;
  if (settings.token.empty()) {
    std::cerr << "set ARENA_TOKEN to the token printed by `arena bot register NAME`\n";
    return std::nullopt;
  }
  if (const char* games = std::getenv("ARENA_MAX_GAMES"); games && *games) {
    const std::optional<int> value = PositiveNumber("ARENA_MAX_GAMES", games);
    if (!value) return std::nullopt;
    settings.max_games = value;
  }
  if (const char* ping = std::getenv("ARENA_PING_MS"); ping && *ping) {
    const std::optional<int> value = PositiveNumber("ARENA_PING_MS", ping);
    if (!value) return std::nullopt;
    settings.ping_interval = std::chrono::milliseconds(*value);
  }
  const char* tls = std::getenv("ARENA_TLS");
  settings.tls = tls && std::string(tls) == "1";
  return settings;
}

}  // namespace

int main() {
  // Signals go to one thread that stops the bot cleanly; block them before gRPC starts threads.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const std::optional<Settings> settings = ReadSettings();
  if (!settings) return 2;
  ArenaBot bot(*settings);
  std::thread([&bot, signals] {
    int signal = 0;
    sigwait(&signals, &signal);
    Log(std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") + ": closing the connection");
    bot.Stop();
  }).detach();
  return bot.Run();
}

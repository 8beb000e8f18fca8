// A Caper Arena bot in Node.js that plays both Caper editions, "caper" and "caper-europe", and
// Age of Thieves, "age-of-thieves" (2 to 4 thieves, each seat for itself). It speaks the
// wire protocol directly (proto/arena/v1/bot.proto): one long-lived bidirectional stream,
// Hello -> Welcome, then one ActionReply per DecisionRequest.
//
//   ARENA_TARGET=localhost:50051 ARENA_TOKEN=... node bot.js
//
// Environment: ARENA_TARGET (default localhost:50051), ARENA_TOKEN (required), ARENA_MAX_GAMES
// (stop after that many games), ARENA_PROTO_DIR (default: the repository's proto/ folder).
//
// Messages are decoded with proto-loader's defaults for field names (keepCase: false), so every
// field is in camelCase: `legal_actions` is `legalActions`, `round_kind` is `roundKind`.
//
// First-edition Caper is also played by 3 (the Snitch) and 4 players (two teams): one bot may
// hold several seats of one game (both seats of its team). Every message names its game and
// seat, and each seat's requests carry that seat's own view only: answer each on its own.
'use strict';

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTOCOL_VERSION = 1;
const PING_INTERVAL_MS = 30_000; // an application Ping also crosses proxies that eat HTTP/2 pings
const BACKOFF = { initialMs: 500, maxMs: 30_000, multiplier: 2, jitter: 0.5, resetAfterMs: 5_000 };
// The gateway allows HTTP/2 pings every 10 s; faster ones get the connection closed.
const CHANNEL_OPTIONS = {
  'grpc.keepalive_time_ms': 20_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc.http2.max_pings_without_data': 0,
};
const FATAL = new Set([
  grpc.status.UNAUTHENTICATED,
  grpc.status.PERMISSION_DENIED,
  grpc.status.INVALID_ARGUMENT,
  grpc.status.FAILED_PRECONDITION,
  grpc.status.UNIMPLEMENTED,
]);

function loadService(protoDir) {
  const definition = protoLoader.loadSync('arena/v1/bot.proto', {
    includeDirs: [protoDir],
    keepCase: false,
    longs: String,
    enums: String, // enum values arrive by name, e.g. 'CAPER_ACTION_KIND_DISCARD'
    defaults: true,
    oneofs: true, // `message.message` names the field set in a oneof
  });
  return grpc.loadPackageDefinition(definition).arena.v1.BotGatewayService;
}

// The games this bot plays, announced in Hello: first-edition Caper, Caper: Europe and Age of
// Thieves. Each puts its messages in the `game` oneofs of Observation and Action (`caper` /
// `caperEurope` / `ageOfThieves`).
const GAMES = ['caper', 'caper-europe', 'age-of-thieves'];
// Age of Thieves verbs that pocket something: a jewel or tile where the thief stands, a theft.
const GRABS = new Set(['AGE_OF_THIEVES_VERB_TAKE', 'AGE_OF_THIEVES_VERB_STEAL']);
// Action kinds that play no card: discarding for a coin, or declining an ability.
const NOT_PLAYING = new Set([
  'CAPER_ACTION_KIND_DISCARD',
  'CAPER_ACTION_KIND_PASS',
  'CAPER_EUROPE_ACTION_KIND_DISCARD',
]);
const PLACES_THIEF = new Set(['CAPER_ACTION_KIND_THIEF', 'CAPER_EUROPE_ACTION_KIND_THIEF']);

// The message set in a `game` oneof (with `oneofs: true`, `message.game` names the field).
function inner(message) {
  return message[message.game];
}

// How many Thieves `seat` has at `location`: a first-edition crew is a list of stacks, one per
// Thief; a Caper: Europe crew a list of cards, each naming the Thief it belongs to.
function thieves(obs, game, seat, location) {
  const crew = obs.sides[seat].crews[location];
  if (game === 'caper') return crew.stacks.length;
  return new Set(crew.cards.map((card) => card.thief)).size;
}

// The strategy: play a card rather than discard one or pass; in Thief rounds, place the Thief
// where the opponent's crew outnumbers ours the most (crew sizes are public). Random otherwise.
function choose(request, random = Math.random) {
  const actions = request.legalActions.map((legal) => inner(legal.action));
  const all = actions.map((_, index) => index);
  if (request.observation.game === 'ageOfThieves') return chooseThieves(actions, all, random);
  const plays = all.filter((i) => !NOT_PLAYING.has(actions[i].kind));
  let pool = plays.length > 0 ? plays : all;
  const game = request.observation.game;
  const obs = inner(request.observation);
  // Only Masterminds place Thieves: the Snitch's GIVE and the Lookouts' SEND are chosen at random.
  if (pool.every((i) => PLACES_THIEF.has(actions[i].kind))) {
    const crew = (seat, location) => thieves(obs, game, seat, location);
    const behind = (i) => crew(1 - obs.seat, actions[i].location) - crew(obs.seat, actions[i].location);
    const most = Math.max(...pool.map(behind));
    pool = pool.filter((i) => behind(i) === most);
  }
  return pool[Math.floor(random() * pool.length)];
}

// Age of Thieves: an action is a verb and an argument (`verb`, `arg`); grab whatever can be
// grabbed, otherwise play at random.
function chooseThieves(actions, all, random) {
  const grabs = all.filter((i) => GRABS.has(actions[i].verb));
  const pool = grabs.length > 0 ? grabs : all;
  return pool[Math.floor(random() * pool.length)];
}

function backoffMs(attempt, random = Math.random) {
  const base = Math.min(BACKOFF.maxMs, BACKOFF.initialMs * BACKOFF.multiplier ** Math.min(attempt, 64));
  return base * (1 - BACKOFF.jitter * random());
}

function log(...words) {
  console.log(new Date().toISOString(), ...words);
}

// Every seat that won: with 3 or 4 players `detailsJson` lists them under "winners" (both seats of
// a winning team, the Snitch alone); in a 2-player game `winner` alone (absent for a draw).
function winners(result) {
  let details = {};
  try {
    details = JSON.parse(result.detailsJson || '{}');
  } catch {
    // not JSON: fall back on `winner`
  }
  if (Array.isArray(details.winners)) return details.winners;
  return result.winner === null || result.winner === undefined ? [] : [result.winner];
}

// "seat 2 (lookout, cream)" from GameStarted.seats, or "seat 2" from an arena that sends none.
function describeSeat(started) {
  const mine = started.seats[started.seat];
  if (!mine) return `seat ${started.seat}`;
  return `seat ${started.seat} (${[mine.role, mine.team].filter(Boolean).join(', ')})`;
}

class ArenaBot {
  constructor({ target, token, maxGames, protoDir }) {
    this.target = target;
    this.token = token;
    this.maxGames = maxGames;
    this.Service = loadService(protoDir);
    this.finished = new Set(); // ids of the games over for every seat this bot held
    this.seats = new Map(); // `${gameId}/${seat}` -> its description, while the seat plays
    this.seatsOver = new Set(); // `${gameId}/${seat}` of every seat whose GameOver arrived
    this.attempt = 0;
    this.stopping = false;
    this.session = null;
  }

  start() {
    if (this.stopping) return;
    const client = new this.Service(this.target, grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${this.token}`);
    const call = client.Connect(metadata);
    const session = { client, call, welcomed: false, startedAt: Date.now(), nonce: 0, pinger: null };
    this.session = session;
    call.on('data', (message) => this.onMessage(session, message));
    call.on('error', () => {}); // every end, errors included, is handled once in 'status'
    call.on('status', (status) => this.onEnd(session, status));
    session.pinger = setInterval(() => {
      session.nonce += 1;
      call.write({ ping: { nonce: session.nonce } });
    }, PING_INTERVAL_MS);
    call.write({ hello: { protocolVersion: PROTOCOL_VERSION, games: GAMES, botVersion: '1.2.0', info: 'Node.js example' } });
  }

  onMessage(session, message) {
    switch (message.message) {
      case 'welcome':
        session.welcomed = true;
        log(`connected to ${this.target} as ${message.welcome.botName} (bot id ${message.welcome.botId})`);
        break;
      case 'decisionRequest': {
        const request = message.decisionRequest;
        session.call.write({ actionReply: { requestId: request.requestId, legalIndex: choose(request) } });
        break;
      }
      case 'gameOver':
        this.onGameOver(message.gameOver);
        break;
      case 'error':
        log(`the arena refused a message: ${message.error.code} ${message.error.message}`);
        break;
      case 'gameStarted':
        this.onGameStarted(message.gameStarted);
        break;
      default: // pong needs no answer
        break;
    }
  }

  onGameStarted(started) {
    const seat = describeSeat(started);
    this.seats.set(`${started.gameId}/${started.seat}`, seat);
    const players = started.seats.map((s) => s.playerName).join(', ');
    log(`game ${started.gameId} started: ${started.game}, ${seat}${players ? `; seats: ${players}` : ''}`);
  }

  onGameOver(over) {
    const key = `${over.gameId}/${over.seat}`;
    if (this.seatsOver.has(key)) return; // told twice, after a reconnect
    this.seatsOver.add(key);
    const seat = this.seats.get(key) || `seat ${over.seat}`;
    this.seats.delete(key);
    // A game counts once, when every seat this bot holds in it is over (a team: both).
    if (![...this.seats.keys()].some((k) => k.startsWith(`${over.gameId}/`))) this.finished.add(over.gameId);
    const { scores, termination } = over.result;
    const outcome = winners(over.result).includes(over.seat) ? 'won' : 'lost';
    log(`game ${over.gameId} over: ${outcome} ${scores.join('-')} (${termination}) as ${seat}${over.reason ? `: ${over.reason}` : ''}`);
    if (this.maxGames !== null && this.finished.size >= this.maxGames) {
      log(`played ${this.finished.size} games: stopping`);
      this.stop(0);
    }
  }

  onEnd(session, status) {
    clearInterval(session.pinger);
    session.client.close();
    if (this.stopping || session !== this.session) return;
    if (status.code === grpc.status.ABORTED) {
      log(`replaced by a newer connection (${status.details}): stopping`);
      this.stop(0);
      return;
    }
    if (FATAL.has(status.code)) {
      log(`the arena refused this bot: ${grpc.status[status.code]}: ${status.details}`);
      this.stop(2);
      return;
    }
    if (session.welcomed && Date.now() - session.startedAt >= BACKOFF.resetAfterMs) this.attempt = 0;
    const delay = backoffMs(this.attempt);
    this.attempt += 1;
    log(`connection lost (${grpc.status[status.code]}: ${status.details}); retrying in ${(delay / 1000).toFixed(1)} s`);
    this.retry = setTimeout(() => this.start(), delay);
  }

  stop(exitCode) {
    this.stopping = true;
    process.exitCode = exitCode;
    clearTimeout(this.retry);
    const session = this.session;
    if (session) {
      clearInterval(session.pinger);
      session.call.cancel();
      session.client.close();
    }
  }
}

function main() {
  const token = process.env.ARENA_TOKEN;
  if (!token) {
    console.error('set ARENA_TOKEN to the token printed by `arena bot register NAME`');
    process.exit(2);
  }
  const bot = new ArenaBot({
    target: process.env.ARENA_TARGET || 'localhost:50051',
    token,
    maxGames: process.env.ARENA_MAX_GAMES ? Number(process.env.ARENA_MAX_GAMES) : null,
    protoDir: process.env.ARENA_PROTO_DIR || path.resolve(__dirname, '../../../proto'),
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      log(`${signal}: closing the connection`);
      bot.stop(0);
    });
  }
  bot.start();
}

module.exports = { choose, backoffMs, winners };

if (require.main === module) main();

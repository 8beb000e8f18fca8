// A Caper Arena program bot in Node.js, with no dependencies: the arena runs it and speaks to it
// over stdin and stdout, one protocol message a line in protobuf's JSON mapping
// (docs/program-protocol.md). It plays a random legal action, preferring plays over discards.
//
//   arena play "cmd:node --max-old-space-size=256 stdio_bot.js" greedy --runtime NODE_DIR
//
// (NODE_DIR: the folder holding Node's bin/, shown read-only to the sandbox; there `node` is
// called by its full path if it is not under /usr.)
'use strict';

const readline = require('node:readline');

const NOT_PLAYING = /DISCARD|PASS/; // action kinds arrive by name, e.g. CAPER_ACTION_KIND_DISCARD

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function choose(request) {
  const legal = request.legalActions || [];
  const kinds = legal.map((entry) => Object.values(entry.action || {})[0]?.kind || '');
  const plays = kinds.flatMap((kind, index) => (NOT_PLAYING.test(kind) ? [] : [index]));
  const pool = plays.length ? plays : legal.map((_, index) => index);
  return pool[Math.floor(Math.random() * pool.length)];
}

send({ hello: { protocolVersion: 1, games: ['caper', 'caper-europe', 'age-of-thieves'] } });
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  const request = message.decisionRequest;
  if (request) {
    send({ actionReply: { requestId: request.requestId, legalIndex: choose(request) } });
  } else if (message.gameOver) {
    console.error(`game ${message.gameOver.gameId} over: ${message.gameOver.reason || 'played out'}`);
  }
});

'use strict';
// boardgame.io's side of benchmarks/idle_sockets.py: KiB of server memory per idle socket.
// Run from a copy of the bgio harness (benchmarks/bgio_compare.py copies this file there):
//   node bgio_idle.js [--sockets 2000]
// Starts server.js (in memory) on a free loopback port, creates one match per 50 sockets
// through the lobby, opens 50 warm-up spectator clients (no playerID), reads the server's
// RSS, opens --sockets more spectator clients spread over the matches, waits until every
// one has synced plus 3 s, reads the RSS again, prints one JSON line.

const { spawn } = require('child_process');
const fs = require('fs');
const { Client, LobbyClient } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { HiddenPicks, GAME_NAME } = require('./game');

function rssKb(pid) {
  const txt = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(txt.match(/^VmRSS:\s+(\d+)\s+kB/m)[1]);
}

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

async function main() {
  const argv = process.argv.slice(2);
  const i = argv.indexOf('--sockets');
  const sockets = i >= 0 ? Number(argv[i + 1]) : 2000;
  const server = spawn('node', ['server.js', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise((res, rej) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^READY (\d+) (\d+)/m);
      if (m) res({ port: Number(m[1]), pid: Number(m[2]) });
    });
    server.on('exit', () => rej(new Error('server exited')));
  });
  const url = `http://127.0.0.1:${ready.port}`;
  const lobby = new LobbyClient({ server: url });
  const matches = [];
  for (let m = 0; m < Math.max(1, Math.floor(sockets / 50)); m++) {
    matches.push((await lobby.createMatch(GAME_NAME, { numPlayers: 4 })).matchID);
  }
  const clients = [];
  async function open(n, offset) {
    let synced = 0;
    await new Promise((res) => {
      for (let k = 0; k < n; k++) {
        const client = Client({
          game: HiddenPicks,
          numPlayers: 4,
          matchID: matches[(offset + k) % matches.length],
          debug: false,
          multiplayer: SocketIO({
            server: url,
            socketOpts: { transports: ['websocket'], forceNew: true, reconnection: false },
          }),
        });
        let counted = false;
        client.subscribe((state) => {
          if (!counted && state && state.G) {
            counted = true;
            if (++synced === n) res();
          }
        });
        client.start();
        clients.push(client);
      }
    });
  }
  await open(50, 0);
  await sleep(2000);
  const before = rssKb(ready.pid);
  await open(sockets, 50);
  await sleep(3000);
  const after = rssKb(ready.pid);
  process.stdout.write(
    JSON.stringify({
      idle_sockets: sockets,
      rss_before_kib: before,
      rss_after_kib: after,
      kib_per_idle_socket: Math.round(((after - before) / sockets) * 10) / 10,
    }) + '\n'
  );
  for (const c of clients) c.stop();
  server.kill('SIGTERM');
  setTimeout(() => process.exit(0), 500).unref();
}

main().catch((err) => {
  process.stderr.write(`bgio_idle: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});

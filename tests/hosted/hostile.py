"""Hostile program bots in Node and in C, one program each, told by their first argument what
to do at their first decision: answer ("probe"), spin, allocate 10 GiB, print 100 MB, close
stdout, fork without end (C). Before their hello every one probes the host: a port listening on
its loopback (the second argument), /proc/1/environ, another bot's submission (the third), the
host's /etc/passwd, writes outside its tmpfs, and fills its tmpfs. Each logs what it got.
"""

from __future__ import annotations

NODE = r"""
const fs = require("fs"), net = require("net"), readline = require("readline");
const [what, port, other] = process.argv.slice(2);
const log = (...words) => process.stderr.write(words.join(" ") + "\n");
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
for (const path of ["/proc/1/environ", other, "/etc/passwd"]) {
  try { log("READ", path, fs.readFileSync(path).toString()); } catch (e) { log("UNREADABLE", e.code); }
}
for (const path of ["/bot/x", "/usr/x", "/x"]) {
  try { fs.writeFileSync(path, "x"); log("WROTE", path); } catch (e) { log("UNWRITABLE", e.code); }
}
try {
  for (let i = 0; i < 64; i++) fs.appendFileSync("/tmp/big", Buffer.alloc(1 << 20));
  log("WROTE /tmp/big");
} catch (e) { log("FULL", e.code); }
let first = true;
function play() {
  send({hello: {protocolVersion: 1, games: ["caper"]}});
  readline.createInterface({input: process.stdin}).on("line", (line) => {
    const request = JSON.parse(line).decisionRequest;
    if (!request) return;
    if (first) {
      first = false;
      if (what === "spin") for (;;) {}
      if (what === "alloc") new Uint8Array(10 * 2 ** 30).fill(1);
      // Node may queue what it cannot write to the pipe at once and answer at once: a short
      // match could then end before the arena has read past the limit, so it answers no more.
      if (what === "print") { for (let i = 0; i < 100; i++) log("x".repeat(1 << 20)); return; }
      if (what === "close") { fs.closeSync(1); setTimeout(() => {}, 30000); return; }
    }
    send({actionReply: {requestId: request.requestId, legalIndex: 0}});
  });
}
const socket = net.connect(Number(port), "127.0.0.1");
socket.on("connect", () => { log("CONNECTED"); play(); });
socket.on("error", (e) => { log("REFUSED", e.code); play(); });
"""

C = r"""
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void try_read(const char *path) {
    char text[4096] = "";
    int fd = open(path, O_RDONLY);
    if (fd < 0) { fprintf(stderr, "UNREADABLE %d\n", errno); return; }
    ssize_t size = read(fd, text, sizeof text - 1);
    for (ssize_t i = 0; i < size; i++) if (text[i] == '\0' || text[i] == '\n') text[i] = ' ';
    fprintf(stderr, "READ %s %s\n", path, text);
    close(fd);
}

static void try_write(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0) fprintf(stderr, "WROTE %s\n", path); else fprintf(stderr, "UNWRITABLE %d\n", errno);
    if (fd >= 0) close(fd);
}

static void fill_tmp(void) {
    static char block[1 << 20];
    int fd = open("/tmp/big", O_WRONLY | O_CREAT, 0644);
    for (int i = 0; i < 64; i++) {
        if (write(fd, block, sizeof block) < 0) { fprintf(stderr, "FULL %d\n", errno); return; }
    }
    fprintf(stderr, "WROTE /tmp/big\n");
}

static void try_connect(int port) {
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) == 0) fprintf(stderr, "CONNECTED\n");
    else fprintf(stderr, "REFUSED %d\n", errno);
    close(fd);
}

static void misbehave(const char *what) {
    if (strcmp(what, "spin") == 0) for (volatile int i = 0;; i++) {}
    if (strcmp(what, "alloc") == 0) {
        char *block = malloc((size_t)10 << 30);
        if (block == NULL) { fprintf(stderr, "NO MEMORY\n"); exit(3); }
        memset(block, 1, (size_t)10 << 30);
    }
    if (strcmp(what, "print") == 0) {
        static char line[1 << 20];
        memset(line, 'x', sizeof line);
        for (int i = 0; i < 100; i++) fwrite(line, 1, sizeof line, stderr);
    }
    if (strcmp(what, "close") == 0) { close(1); sleep(30); }
    if (strcmp(what, "bomb") == 0 && fork() == 0) {
        for (;;) if (fork() < 0) usleep(50000);
    }
}

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    try_read("/proc/1/environ"); try_read(argv[3]); try_read("/etc/passwd");
    try_write("/bot/x"); try_write("/usr/x"); try_write("/x");
    fill_tmp();
    try_connect(atoi(argv[2]));
    printf("{\"hello\":{\"protocolVersion\":1,\"games\":[\"caper\"]}}\n");
    static char line[1 << 20];
    int first = 1;
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *id = strstr(line, "\"decisionRequest\":{\"requestId\":\"");
        if (id == NULL) continue;
        id += strlen("\"decisionRequest\":{\"requestId\":\"");
        *strchr(id, '"') = '\0';
        if (first) { first = 0; misbehave(argv[1]); }
        printf("{\"actionReply\":{\"requestId\":\"%s\",\"legalIndex\":0}}\n", id);
    }
    return 0;
}
"""

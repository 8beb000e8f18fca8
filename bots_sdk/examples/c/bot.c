/* A Caper Arena program bot in C, with no library but libc: the arena runs it and speaks to it
 * over stdin and stdout, one protocol message a line in protobuf's JSON mapping
 * (docs/program-protocol.md). It answers every decision request with a random legal index.
 *
 * It reads just enough JSON to play: the request's id, and how many entries its legalActions
 * array holds, counted by walking the array with its nesting and strings (a key's text inside
 * a string never fools it). Submitted as source, the arena's build step compiles it:
 *
 *   arena bot submit my-c-bot bots_sdk/examples/c      # arena-bot.toml: build = "cc ..."
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The text of the string value of `"key":` in `line`, copied into `out` (empty if absent). */
static void string_field(const char *line, const char *key, char *out, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *start = strstr(line, pattern);
    out[0] = '\0';
    if (start == NULL) return;
    start += strlen(pattern);
    size_t n = 0;
    while (start[n] != '\0' && start[n] != '"' && n + 1 < size) n++;
    memcpy(out, start, n);
    out[n] = '\0';
}

/* How many elements the array after `"legalActions":` holds (0 if there is none). */
static int legal_count(const char *line) {
    const char *at = strstr(line, "\"legalActions\":[");
    if (at == NULL) return 0;
    at += strlen("\"legalActions\":[");
    int depth = 0, count = 0, in_string = 0;
    for (; *at != '\0'; at++) {
        char c = *at;
        if (in_string) {
            if (c == '\\' && at[1] != '\0') at++;
            else if (c == '"') in_string = 0;
            continue;
        }
        if (c == '"') in_string = 1;
        else if (c == '{' || c == '[') {
            if (depth == 0) count++;
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0) break; /* the end of legalActions */
            depth--;
        }
    }
    return count;
}

int main(void) {
    srand((unsigned)time(NULL) ^ (unsigned)clock());
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("{\"hello\":{\"protocolVersion\":1,"
           "\"games\":[\"caper\",\"caper-europe\",\"age-of-thieves\"]}}\n");
    char *line = NULL;
    size_t capacity = 0;
    char request_id[256], game_id[256];
    while (getline(&line, &capacity, stdin) != -1) {
        if (strstr(line, "\"decisionRequest\":") != NULL) {
            string_field(line, "requestId", request_id, sizeof request_id);
            int legal = legal_count(line);
            int index = legal > 0 ? rand() % legal : 0;
            printf("{\"actionReply\":{\"requestId\":\"%s\",\"legalIndex\":%d}}\n", request_id,
                   index);
        } else if (strstr(line, "\"gameOver\":") != NULL) {
            string_field(line, "gameId", game_id, sizeof game_id);
            fprintf(stderr, "game %s over\n", game_id);
        }
    }
    free(line);
    return 0;
}

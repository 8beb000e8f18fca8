"""An event's games as one download: its game records as JSON lines, gzipped.

The arena's answer to a tournament's PGN file: one record a line (`GameRecord.dumps`, what the
workers store and the replay page reads), in order of round, board and game number. Only the
games the replay page shows in full are in it (`arena.services.game_access.shown_games`): a
game still sharing its deal with one in play stays out, as it stays hidden there. A stored
record that cannot be read is left out too (the replay page does not find it either).

The file is produced a batch of records at a time, so neither the CLI nor the site holds a
large event's games in memory at once. The gzip header carries no time or file name: the same
games give the same bytes, whoever asks.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

import redis

from arena.games.record import GameRecord, RecordError
from arena.services.game_access import shown_games
from arena.store import keys
from arena.store.tournaments import TournamentStore
from arena.store.values import as_text

RECORDS_A_READ = 64  # one Redis round trip reads this many records
GZIP_CONTAINER = 16 + zlib.MAX_WBITS  # zlib's window bits for a gzip header and trailer


def export_games(client: redis.Redis, name: str) -> Iterator[bytes]:
    """The gzipped JSON lines of event `name`'s shown games, in chunks. An unknown event is a
    `TournamentStoreError` (a ValueError) at once, before any byte is produced."""
    definition = TournamentStore(client).get(name)
    return _gzipped(_record_lines(client, shown_games(client, definition)))


def _record_lines(client: redis.Redis, game_ids: list[str]) -> Iterator[bytes]:
    """Each stored, readable record of `game_ids` as one line of JSON, in the order given."""
    for start in range(0, len(game_ids), RECORDS_A_READ):
        batch = game_ids[start : start + RECORDS_A_READ]
        for stored in client.mget([keys.game_record(g) for g in batch]):
            if stored is None:
                continue
            try:
                record = GameRecord.loads(as_text(stored))
            except RecordError:
                continue
            yield record.dumps().encode() + b"\n"


def _gzipped(chunks: Iterable[bytes]) -> Iterator[bytes]:
    packer = zlib.compressobj(6, zlib.DEFLATED, GZIP_CONTAINER)
    for chunk in chunks:
        packed = packer.compress(chunk)
        if packed:
            yield packed
    yield packer.flush()

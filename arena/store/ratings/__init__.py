"""The rating store: a ladder's standings, leaderboards and histories in Redis, rated exactly once
per result (`store`), in batches (`batch`, `script`, `pipeline`), with the serialisers both the
live path and `arena ladder rebuild` (`rebuild`) write through (`records`)."""

from arena.store.ratings.store import AnyResult, Applied, RatedResult, RatingStore, TableResult

__all__ = ["AnyResult", "Applied", "RatedResult", "RatingStore", "TableResult"]

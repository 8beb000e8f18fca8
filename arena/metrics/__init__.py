"""Prometheus metrics: events recorded in Redis by any process (`recorder`), read at scrape time
by a custom collector (`collector`), served on /metrics (`server`)."""

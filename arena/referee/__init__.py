"""The referee, pure: one game between seats under a time control and a fault policy, how seats
group into sides, and the scoring of pairs and tables. It reads no clock and does no I/O; the
playing layer (`arena.play`) hands it seats and a timer."""

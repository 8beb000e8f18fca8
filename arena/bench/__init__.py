"""Every benchmark, each behind an `arena bench ...` subcommand: they measure and report, they
never assert. One module per benchmark; `engine` holds the engine's own throughput measures."""

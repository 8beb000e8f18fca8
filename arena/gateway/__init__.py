"""The gRPC servers: BotGatewayService (bots connect here) and ArenaService (organisers, CLI)."""

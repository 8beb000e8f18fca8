"""Operations the CLI, the web site, the gateway and the workers share, one module per concept."""

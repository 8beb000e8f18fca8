"""Examples that need the `research` extra (OpenSpiel, PettingZoo): install it with
`pip install -e '.[research]'`."""

"""The referee: plays games and matches between two seats."""

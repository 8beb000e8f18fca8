"""`arena web`: a read-only web site over the arena's Redis, served by uvicorn."""

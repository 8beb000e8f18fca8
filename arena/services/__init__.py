"""The arena's operations, one module per concept, with their validation and lifecycle rules.

The CLI, the web site, the gateway and the workers call these; none of them holds a second copy.
A service takes a Redis client and plain values, returns plain values, and refuses bad input with
a `ValueError` whose message a person can act on.
"""

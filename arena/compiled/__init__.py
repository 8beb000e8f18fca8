"""The optional compiled build of the engines (Caper, Caper Europe, Age of Thieves) and the
rating maths (mypyc).

`build` is the build tool (`python -m arena.compiled.build`, or `make engine-compiled`);
`loader` is the import hook that loads a build when `ARENA_COMPILED_ENGINE` asks for it. It
lives beside the engines rather than inside them: the engines stay plain Python that knows
nothing of how it may be compiled. Standard library only, so `arena.games` can import it.
"""

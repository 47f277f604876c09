"""The Ex Libris rules engine: pure and stdlib-only, over the contract of `games.engine.protocol`.

`engine` is its facade (the module the registry names); the card, location and library tables are
`data/`, loaded by `cards`; the seeded setup is `setup`; the bookshelf and its moves, the rounds,
the decisions, the locations, the assistants, the view and the inspection are modules of their
own (docs/exlibris.md). Rules are cited by the X tags of the project's Ex Libris spec.
"""

"""Ex Libris rules engine, first building blocks (issue 16).

Pure, stdlib-only pieces of an Ex Libris engine: the card, location and library tables
(`data/`, loaded by `cards`), the seeded setup (`setup`), the bookshelf and the inspection form.
Rules are cited by the X tags of the project's Ex Libris spec. The package is NOT registered as a
game yet: no game kind, view or protocol module uses it, so players never see it.
"""

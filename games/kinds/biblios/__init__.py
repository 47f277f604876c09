"""Biblios (and its first edition, Scripts & Scribes) as a game kind of the platform: its pure
engine (`engine/`: rules, cards, scoring, deck), the table options and action parser (`forms`),
the presenter, printed names and card faces, template tags, templates, bots and benchmarks.
`kind.KIND` registers it (`games.kinds.registry`)."""

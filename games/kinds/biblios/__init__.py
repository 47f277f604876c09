"""Biblios (and its first edition, Scripts & Scribes) as a game kind of the platform: everything
Biblios-specific that is not the pure engine (`games/engine/biblios/`): the table options, the
action parser, the presenter, printed names and card faces, template tags, templates and bots.
`kind.KIND` registers it (`games.kinds.registry`)."""

"""Moderation: banning, muting, aborting a game, hiding and resolving reports, the admin."""

"""Tables: the lobby, opening a table, the join rule, invites, the start and the rematch."""

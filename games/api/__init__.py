"""The games' JSON API for bots and other clients: tables, boards, moves and records."""

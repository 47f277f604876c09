"""The games the platform hosts: `registry` (the platform's one door to them) and one package per
game kind. Platform modules import `games.kinds.registry`, never a kind's package."""

"""The 18 locations (X35-X52): one module per location, or per group sharing a step.

Each module registers its effect (`effect`, or `delayed` for a tile resolved at Resolution, X25)
and its decisions (`decision`). Importing this package registers them all.
"""

from . import (  # noqa: F401 - imported to register
    auction,
    cabin,
    den,
    discarding,
    dump,
    guild,
    hut,
    lodge,
    shelfmasons,
    taking,
    tavern,
    tax,
    yard_sale,
)

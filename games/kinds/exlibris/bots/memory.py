"""What an Ex Libris bot remembers: the cards it saw go to the discard pile, and leave it.

A view shows the whole discard pile in multiplayer (X30) but only its top card in solo (X83),
where that pile is the Public Library the player must beat (X84). `observe` keeps the cards the
seat's events showed going there, less those the Town Dump took back out (X45), so the Greedy
can weigh the Prominent contest against it, and the slot a Ghost last went to share (X60),
which no view shows, for the Archivist's worlds.
Memory is plain JSON data, built from the seat's own views only.
"""

# Events that put public cards onto the discard pile (X25 b, X30, X83), naming them under
# "card" or "cards".
DISCARD_EVENTS = ("solo_discard", "tile_cleared", "discarded")


def new_memory(seat: int, players: int) -> dict:
    return {"seat": seat, "players": players, "version": -1, "discarded": [], "ghost_shares": {}}


def observe(memory: dict, view: dict) -> dict:
    """Learn from the events of one step (each version once); returns `memory`."""
    if view["version"] <= memory["version"]:
        return memory
    memory["version"] = view["version"]
    for event in view["events"]:
        if event["type"] in DISCARD_EVENTS:
            cards = event.get("cards") or [event.get("card")]
            memory["discarded"] = [*memory["discarded"], *filter(None, cards)]
        elif event["type"] == "took" and event.get("source") == "discard":  # X45
            memory["discarded"] = [c for c in memory["discarded"] if c != event["card"]]
        elif event["type"] == "placed" and event.get("share"):  # X60: where a Ghost shares
            shares = {**memory.get("ghost_shares", {})}
            shares[str(event["seat"])] = [event["target"], event["slot"]]
            memory["ghost_shares"] = shares
    return memory


def public_library(view: dict, memory: dict | None) -> list[str]:
    """The discard pile's cards this seat knows of: the view's, plus those memory saw."""
    known = list(view["discard"])
    if memory is not None:
        known += [card for card in memory["discarded"] if card not in known]
    return known

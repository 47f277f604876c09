"""High card's board, as template context: from a view only (a seat's, a spectator's, a
replayed step's or the inspector's "all"), so the page can show nothing the view does not."""


def view_context(game, view: dict, names: list[str], *, connected=None) -> dict:
    seat = view["seat"]

    def named(played: list) -> list[dict]:
        return [{"name": names[player], "card": card} for player, card in played]

    return {
        "game": game,
        "view": view,
        "me": seat,
        "names": names,
        "banner": _banner(view, names),
        "players": [
            {
                "seat": player,
                "name": name,
                "is_me": player == seat,
                "connected": None if connected is None else player in connected,
                "hand_size": view["hand_sizes"][player],
                "points": view["points"][player],
                "to_act": player in view["to_act"],
            }
            for player, name in enumerate(names)
        ],
        "hand": view["hand"],
        "playable": [action["card"] for action in view["legal_actions"]],
        "trick": named([[entry["seat"], entry["card"]] for entry in view["trick"]]),
        "tricks": [
            {**trick, "cards": named(trick["cards"]), "winner": names[trick["winner"]]}
            for trick in view["tricks"]
        ],
        "all_hands": list(zip(names, view["hands"], strict=True)) if "hands" in view else [],
    }


def _banner(view: dict, names: list[str]) -> dict:
    """Whose turn it is, or who won."""
    if "result" in view:
        winners = ", ".join(names[seat] for seat in view["result"]["winners"])
        return {"mine": False, "text": f"Game over: won by {winners}."}
    if view["legal_actions"] and isinstance(view["seat"], int):
        return {"mine": True, "text": "Your turn: play a card face down."}
    return {"mine": False, "text": f"{names[view['to_act'][0]]} is to play."}

"""Final scoring (R19–R21), kept apart from the turn rules because it reads only hands and dice."""

from .cards import CATEGORIES, CATEGORY, KIND, LETTER, VALUE, letter_rank

# R21's order: VP, Gold value, then each category's total and earliest letter in Scriptorium order.
TIE_BREAK_STEPS = ("vp", "gold") + tuple(
    f"{category}_{what}" for category in CATEGORIES for what in ("total", "letter")
)


def score(hands: list[list[str]], dice: list[int]) -> dict:
    """Score final hands against the dice.

    Returns, per category, every player's total and earliest letter, the winner and the letter
    that broke a tie; per player VP and Gold value; the ranking with shared places; and for each
    place the R21 step that separated it from the next one down.
    """
    seats = range(len(hands))
    totals = {category: [0 for _ in seats] for category in CATEGORIES}
    letters = {category: [None for _ in seats] for category in CATEGORIES}
    gold = [0 for _ in seats]
    for seat, hand in enumerate(hands):
        for card in hand:
            if KIND[card] == "gold":
                gold[seat] += VALUE[card]  # R20
            elif KIND[card] == "category":
                category = CATEGORY[card]
                totals[category][seat] += VALUE[card]
                best = letters[category][seat]
                if letter_rank(LETTER[card]) < letter_rank(best):
                    letters[category][seat] = LETTER[card]

    vp = [0 for _ in seats]
    categories = []
    for category, die in zip(CATEGORIES, dice, strict=True):
        best_total = max(totals[category])
        winner, tie_letter = None, None
        if best_total > 0:  # R19: nobody scores a category nobody holds
            tied = [seat for seat in seats if totals[category][seat] == best_total]
            winner = min(tied, key=lambda seat: letter_rank(letters[category][seat]))
            if len(tied) > 1:
                tie_letter = letters[category][winner]
            vp[winner] += die
        categories.append(
            {
                "category": category,
                "die": die,
                "totals": totals[category],
                "letters": letters[category],
                "winner": winner,
                "tie_letter": tie_letter,
            }
        )

    def tie_break_key(seat: int) -> tuple:
        key = [vp[seat], gold[seat]]
        for category in CATEGORIES:  # R21: higher total, then earlier letter, category by category
            key += [totals[category][seat], -letter_rank(letters[category][seat])]
        return tuple(key)

    keys = {seat: tie_break_key(seat) for seat in seats}
    ranking = sorted(seats, key=lambda seat: keys[seat], reverse=True)
    players = {seat: {"seat": seat, "vp": vp[seat], "gold": gold[seat]} for seat in seats}
    place = 1
    for i, seat in enumerate(ranking):
        if i and keys[seat] != keys[ranking[i - 1]]:
            place = i + 1
        players[seat]["place"] = place
        below = ranking[i + 1] if i + 1 < len(ranking) else None
        players[seat]["decided_by"] = (
            None if below is None else _deciding_step(keys[seat], keys[below])
        )
    winners = [seat for seat in ranking if players[seat]["place"] == 1]
    return {
        "dice": dict(zip(CATEGORIES, dice, strict=True)),
        "categories": categories,
        "players": [players[seat] for seat in seats],
        "ranking": ranking,
        "winners": winners,
        "shared_win": len(winners) > 1,
        "win_decided_by": players[ranking[0]]["decided_by"] if len(winners) == 1 else "shared",
    }


def _deciding_step(upper: tuple, lower: tuple) -> str:
    """The first R21 step on which two players differ; "shared" when they never do."""
    for step, a, b in zip(TIE_BREAK_STEPS, upper, lower, strict=True):
        if a != b:
            return step
    return "shared"

"""What an Ex Libris board says a seat is asked (the banner and the move's prompt, `PROMPTS`)
and what a seat is doing while the others wait (`DOING`), by decision kind, with the assistant
or location a sentence is about named from names.py in the reader's language (`naming`).
"""

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.kinds.exlibris import names


class _Fields(dict):
    """Format values that leave a field they do not hold as it was ("%(owner)s"), for the
    prompt to fill from the pending decision."""

    def __missing__(self, key: str) -> str:
        return f"%({key})s"


def naming(text, *, assistant: str = "", location: str = ""):
    """`text` with the special assistant or the location it is about filled in when read
    (%(assistant)s or an article form such as %(the_assistant)s, %(location)s), as names.py
    names it in the reader's language: a sentence's translation never spells a game name or
    its article itself, so it can neither stay English nor disagree with the names list."""

    def named() -> str:
        values = _Fields()
        if assistant:
            values.update(names.assistant_forms(assistant))
        if location:
            values["location"] = names.location(location)
        return names.capitalized(text, str(text) % values)

    return lazy(named, str)()


# What a seat is asked, said to that seat (the banner and the move's prompt). %(…)s are filled
# from the pending decision's public fields; the assistant or location a prompt is about, from
# names.py (`naming`).
NAME_A_CATEGORY = gettext_lazy("%(location)s: name a category.")
PROMPTS = {
    "draft_take": gettext_lazy("Take a library for your game."),
    "draft_remove": gettext_lazy("Remove one of the libraries left from the game."),
    "solo_keep": gettext_lazy("Keep one of the two libraries."),
    "place": gettext_lazy(
        "Place an assistant: choose a location on the town board, or your library."
    ),
    "home": gettext_lazy("Home action: draw a card, shelve a card, or do nothing."),
    "cube": gettext_lazy(
        "Your assistant arrived where %(owners_assistant)s is: give them a random card from "
        "your hand, or let them take both home actions."
    ),
    "sasquatch": naming(
        gettext_lazy(
            "An opponent arrived at %(tile)s: take your %(assistant)s back to your supply, or "
            "leave it."
        ),
        assistant="sasquatch",
    ),
    "goblin": naming(
        gettext_lazy("%(assistant)s: choose a victim and a category, or stop."), assistant="goblin"
    ),
    "goblin_give": gettext_lazy(
        "%(owners_assistant)s named %(category)s: give them a card of your hand holding it."
    ),
    "wisp": naming(
        gettext_lazy("%(assistant)s: discard a card of the tile, all of them, or pass."),
        assistant="wisp",
    ),
    "bookworm": naming(
        gettext_lazy(
            "%(assistant)s: discard a hand card to take both home actions once more, or stop."
        ),
        assistant="bookworm",
    ),
    "witch": naming(
        gettext_lazy("%(assistant)s: keep the card you received or the one revealed."),
        assistant="witch",
    ),
    "take_tile_card": gettext_lazy("Take a card from %(tile)s."),
    "shelve_card": gettext_lazy("Choose a card to shelve, or you are done."),
    "shelve_cell": gettext_lazy("Click a highlighted cell of your bookshelf to shelve %(card)s."),
    "swap_give": naming(gettext_lazy("Give a card of your hand to %(location)s."), location="swap"),
    "community_give": naming(
        gettext_lazy("Give a card of the %(location)s to an opponent."), location="community"
    ),
    "discard_card": gettext_lazy("Discard one more card, or you are done."),
    "cabin_name": naming(NAME_A_CATEGORY, location="cabin"),
    "cabin_take": naming(
        gettext_lazy("%(location)s: take one more card of %(category)s, or you are done."),
        location="cabin",
    ),
    "run_start": naming(
        gettext_lazy("%(location)s: click the first cell of the run to move, or pass."),
        location="shelfmasons",
    ),
    "run_end": naming(
        gettext_lazy("%(location)s: click the last cell of the run."), location="shelfmasons"
    ),
    "run_dest": naming(
        gettext_lazy("%(location)s: click where the run goes."), location="shelfmasons"
    ),
    "auction_pay": naming(
        gettext_lazy("%(location)s: pay a card of your hand for your bid."), location="auction"
    ),
    "den_name": naming(NAME_A_CATEGORY, location="den"),
    "lodge_part": naming(
        gettext_lazy("%(location)s: choose part (a) or (b), or you are done."), location="lodge"
    ),
    "lodge_assistant": naming(
        gettext_lazy("%(location)s: bring an assistant home."), location="lodge"
    ),
    "lodge_shelf": naming(
        gettext_lazy("%(location)s: click a cell of your bookshelf and what to do with it."),
        location="lodge",
    ),
    "lodge_exchange": naming(
        gettext_lazy("%(location)s: the hand card that takes the cell."), location="lodge"
    ),
    "lodge_swap": naming(
        gettext_lazy("%(location)s: click the other cell of the swap."), location="lodge"
    ),
    "lodge_reshelve": naming(
        gettext_lazy("%(location)s: click where the card goes."), location="lodge"
    ),
    "dump_name": naming(NAME_A_CATEGORY, location="dump"),
    "dump_take": naming(
        gettext_lazy("%(location)s: take a discarded card of %(category)s, or none."),
        location="dump",
    ),
    "tavern_pick": naming(
        gettext_lazy("%(location)s: take one of the revealed cards."), location="tavern"
    ),
    "guild_assistant": naming(
        gettext_lazy("%(location)s: which assistant moves from your library?"), location="guild"
    ),
    "guild_slot": naming(
        gettext_lazy("%(location)s: choose the slot it moves to."), location="guild"
    ),
    "tax_pay": naming(
        gettext_lazy(
            "%(location)s: pay a card of your hand or a top card of your bookshelf (click it)."
        ),
        location="tax",
    ),
    "tax_discard": naming(
        gettext_lazy("%(location)s: discard one more of your cards, or you are done."),
        location="tax",
    ),
    "tax_take": naming(gettext_lazy("%(location)s: take a card of the tile."), location="tax"),
    "yard_reveal": naming(
        gettext_lazy("%(location)s: reveal a card of your hand, or you are done."),
        location="yard_sale",
    ),
    "yard_claim": naming(
        gettext_lazy("%(seller)s's %(location)s: take or shelve a revealed card, or pass."),
        location="yard_sale",
    ),
    "golem": naming(
        gettext_lazy("%(assistant)s: take or shelve a leftover card, or pass."), assistant="golem"
    ),
    "solo_remove": gettext_lazy("Remove a face-up location from the game."),
    "flip": gettext_lazy(
        "Before scoring, you may turn top cards of your bookshelf face down (click them), then "
        "say you are done. Nobody sees your choice until everyone is done."
    ),
}

# The prompts about another seat's special assistant: (its library, the pending decision's field
# naming its owner), for "Alice's Gelatinous Cube".
OWNED_ASSISTANTS = {"cube": ("cube", "owner"), "goblin_give": ("goblin", "to")}

# What the others read while a seat decides: "Waiting for Alice to …".
USE_THE = gettext_lazy("use %(the_assistant)s")
DOING = {
    "draft_take": gettext_lazy("take a library"),
    "draft_remove": gettext_lazy("remove a library"),
    "solo_keep": gettext_lazy("keep a library"),
    "place": gettext_lazy("place an assistant"),
    "home": gettext_lazy("take a home action"),
    "cube": naming(gettext_lazy("reply %(to_the_assistant)s"), assistant="cube"),
    "sasquatch": naming(
        gettext_lazy("decide the fate %(of_the_assistant)s"), assistant="sasquatch"
    ),
    "goblin": naming(gettext_lazy("choose the victim %(of_the_assistant)s"), assistant="goblin"),
    "goblin_give": naming(gettext_lazy("give a card %(to_the_assistant)s"), assistant="goblin"),
    # The Wisp, the Bookworm and the Junk Golem share these words: the article is the name's.
    "wisp": naming(USE_THE, assistant="wisp"),
    "bookworm": naming(USE_THE, assistant="bookworm"),
    "witch": naming(gettext_lazy("choose a card for %(the_assistant)s"), assistant="witch"),
    "shelve_card": gettext_lazy("shelve a card"),
    "shelve_cell": gettext_lazy("choose a cell"),
    "auction_pay": naming(gettext_lazy("pay at the %(location)s"), location="auction"),
    # Two sentences alike in English: the Den and the Dump differ in gender in French.
    "den_name": naming(
        pgettext_lazy("at the Gambling Den", "name a category at the %(location)s"),
        location="den",
    ),
    "dump_name": naming(
        pgettext_lazy("at the Town Dump", "name a category at the %(location)s"), location="dump"
    ),
    "dump_take": naming(gettext_lazy("search the %(location)s"), location="dump"),
    "tavern_pick": naming(gettext_lazy("pick a card at the %(location)s"), location="tavern"),
    "tax_pay": naming(gettext_lazy("pay the %(location)s"), location="tax"),
    "yard_claim": naming(gettext_lazy("answer the %(location)s"), location="yard_sale"),
    "golem": naming(USE_THE, assistant="golem"),
    "flip": gettext_lazy("finish the pre-scoring flip"),
}
DOING_DEFAULT = gettext_lazy("use a location's effect")

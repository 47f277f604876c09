"""The Ex Libris deal (spec §2, X6–X11; variants X78–X80; solo X82, X85): pure and seeded.

`deal` turns a player count, a seed and the chosen variants into plain JSON-able data: seats,
first player, locations, the library pool and draft order, assistants, category cards, hands and
deck. It takes no decision for a player: the library draft (X8) and the solo library choice (X82)
are decisions of the engine's later steps, so the deal only lays out what they choose from. All
chance comes from one `random.Random(seed)`, drawn in a fixed order, so a seed always gives the
same deal (X86: `replay` rebuilds a game from its setup).
"""

import random
from collections.abc import Iterable

from .bookshelf import IllegalAction
from .cards import CARD_IDS, CATEGORIES, LIBRARIES, LOCATION_BY_NUMBER, LOCATIONS

PLAYER_COUNTS = (1, 2, 3, 4)  # X1: 2 to 4 players, or 1 in solo mode (X82)
VARIANTS = ("beginner", "friendly", "long")  # X78, X79, X80; they combine freely (X80)
HAND_SIZE = 6  # X11, X82.4
HUT = LOCATION_BY_NUMBER[1]  # X7: the Diviner's Hut starts face up

# X67 / X80: a shelved count at Restoration that makes the next round the final one.
END_THRESHOLD = {2: 16, 3: 14, 4: 12}
LONG_END_THRESHOLD = {2: 19, 3: 17, 4: 15}

# Tiles (by printed number) and libraries each variant removes from the game.
REMOVED_TILES = {"beginner": (3, 7, 8, 9, 15, 17), "friendly": (3, 7, 15, 16)}  # X78, X79
FRIENDLY_REMOVED_LIBRARIES = tuple(lib.id for lib in LIBRARIES.values() if lib.friendly_removed)

STANDARD_ASSISTANTS = 2  # X9
BEGINNER_STANDARD_ASSISTANTS = 3  # X78
SOLO_STANDARD_ASSISTANTS = 3  # X82.2: with the special assistant, 4 in all

SOLO_FACE_UP_TILES = 6  # X82.1: the other solo tiles form the face-down solo stack
SOLO_LIBRARY_OFFER = 2  # X82.2
SOLO_HINTS = 2  # X82.3
SOLO_ROUNDS = 5  # X83
# X85: cards discarded per solo Preparation, by difficulty (English names are the project's).
SOLO_DIFFICULTIES = {
    1: {"en": "Initiate", "fr": "Initié"},
    2: {"en": "Student", "fr": "Étudiant"},
    3: {"en": "Professor", "fr": "Professeur"},
    4: {"en": "Scholar", "fr": "Érudit"},
    5: {"en": "Sage", "fr": "Savant"},
    6: {"en": "Mandarin", "fr": "Mandarin"},
    7: {"en": "Demiurge", "fr": "Démiurge"},
}


def deal(
    players: int,
    *,
    seed: int | str,
    variant: Iterable[str] = (),
    solo_difficulty: int | None = None,
    first_player: int | None = None,
) -> dict:
    """The table after setup, as plain data (X6–X11, X78–X80; one player: X82, X85).

    `variant` is any collection of "beginner", "friendly", "long"; `first_player` lets the host
    pick the first player (X6), otherwise the seed does. IllegalAction names the rule a refused
    setup breaks."""
    if isinstance(players, bool) or players not in PLAYER_COUNTS:
        raise IllegalAction("X1: Ex Libris is played by 2 to 4 players, or 1 in solo mode")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise IllegalAction("setup: the seed must be an integer or a string")
    variants = _checked_variants(variant)
    solo = players == 1
    if solo:
        _check_solo(variants, solo_difficulty)
    elif solo_difficulty is not None:
        raise IllegalAction("X85: a difficulty is chosen only for a solo game")
    if first_player is not None and (
        isinstance(first_player, bool)
        or not isinstance(first_player, int)
        or not 0 <= first_player < players
    ):
        raise IllegalAction(f"X6: the first player must be a seat from 0 to {players - 1}")

    rng = random.Random(seed)
    drawn_first = rng.randrange(players)  # always drawn, so a host's pick changes nothing else
    first = drawn_first if first_player is None else first_player
    table = {
        "players": players,
        "seed": seed,
        "variants": sorted(variants),
        "seats": list(range(players)),  # X6: clockwise
        "first_player": first,
        "turn_order": [(first + i) % players for i in range(players)],
        "end_threshold": None if solo else _end_threshold(players, variants),
    }
    if solo:
        table.update(_solo_deal(rng, variants, solo_difficulty))
    else:
        table.update(_multiplayer_deal(rng, players, variants, table["turn_order"]))
    return table


def _checked_variants(variant) -> frozenset[str]:
    if isinstance(variant, str) or not isinstance(variant, Iterable):
        raise IllegalAction("X78-X80: variants are a collection of variant names")
    chosen = list(variant)
    unknown = sorted({str(v) for v in chosen if v not in VARIANTS})
    if unknown:
        raise IllegalAction(f"X78-X80: unknown variants {unknown} (known: {', '.join(VARIANTS)})")
    return frozenset(chosen)


def _check_solo(variants: frozenset[str], difficulty) -> None:
    """Solo takes a difficulty (X85) and no variant that would break its own setup (DECISION)."""
    if isinstance(difficulty, bool) or difficulty not in SOLO_DIFFICULTIES:
        raise IllegalAction("X85: a solo game needs a difficulty from 1 (Initiate) to 7")
    if "beginner" in variants:
        raise IllegalAction(
            "X78, X82: the beginner variant removes a solo tile, and a solo game needs all 10"
        )
    if "long" in variants:
        raise IllegalAction("X80, X83: a solo game lasts 5 rounds; the long game does not apply")


def _end_threshold(players: int, variants: frozenset[str]) -> int:
    """X67, X80: the shelved count that triggers the final round."""
    return (LONG_END_THRESHOLD if "long" in variants else END_THRESHOLD)[players]


def _removed_tiles(variants: frozenset[str]) -> list[str]:
    numbers = sorted({n for v in variants for n in REMOVED_TILES.get(v, ())})
    return [LOCATION_BY_NUMBER[n] for n in numbers]


def _removed_libraries(variants: frozenset[str]) -> list[str]:
    return list(FRIENDLY_REMOVED_LIBRARIES) if "friendly" in variants else []


def _multiplayer_deal(
    rng: random.Random, players: int, variants: frozenset[str], turn_order: list[int]
) -> dict:
    beginner = "beginner" in variants

    # X7: the Hut face up (in play, not yet permanent); the rest shuffled face down.
    removed_tiles = _removed_tiles(variants)
    location_deck = [t for t in LOCATIONS if t != HUT and t not in removed_tiles]
    rng.shuffle(location_deck)

    # X8: shuffle the libraries, lay out 2 per player; the rest leave the game unseen.
    # X78: beginners take a library on its back instead (no draft, no power, no special).
    removed_libraries = _removed_libraries(variants)
    library_stack = [lib for lib in LIBRARIES if lib not in removed_libraries]
    rng.shuffle(library_stack)
    if beginner:
        pool, draft_order = [], []
        backs = library_stack[:players]
        unused = library_stack[players:]
    else:
        pool = library_stack[: 2 * players]
        draft_order = list(reversed(turn_order))  # X8: from the last player, counter-clockwise
        backs = []
        unused = library_stack[2 * players :]

    prominent, banned, foci, categories_out = _categories(rng, players)
    hands, deck = _cards(rng, players)

    seats = []
    for seat in range(players):
        seats.append(
            {
                "seat": seat,
                "colour": seat,  # X6: one colour per player (DECISION: colour = seat index)
                # X8: set by the draft; beginners hold a powerless back side (X78).
                "library": {"id": backs[seat], "side": "back"} if beginner else None,
                # X9: the library's special assistant arrives with the drafted library.
                "special_assistant": None,
                "standard_assistants": (
                    BEGINNER_STANDARD_ASSISTANTS if beginner else STANDARD_ASSISTANTS
                ),
                "focus": foci[seat],
                "hand": hands[seat],
                "bookshelf": {},
            }
        )
    return {
        "locations": {
            "face_up": [HUT],  # every face-up tile; `permanent` lists those that stay
            "permanent": [],
            "deck": location_deck,  # top first, face down
            "discard": [],
            "removed": removed_tiles,
        },
        "libraries": {
            "pool": pool,
            "draft_order": draft_order,
            "out": unused,
            "removed": removed_libraries,
        },
        "prominent": prominent,
        "banned": banned,
        "categories_out": categories_out,
        "deck": deck,  # top first
        "discard": [],
        "seat_setup": seats,
    }


def _categories(rng: random.Random, players: int) -> tuple[str, str, list[str], list[str]]:
    """X10: Prominent, Banned, one focus per seat, the leftovers out of the game unseen."""
    cards = list(CATEGORIES)
    rng.shuffle(cards)
    return cards[0], cards[1], cards[2 : 2 + players], cards[2 + players :]


def _cards(rng: random.Random, players: int) -> tuple[list[list[str]], list[str]]:
    """X11: shuffle the 152 cards, 6 to each seat in seat order; the rest is the draw deck."""
    pile = list(CARD_IDS)
    rng.shuffle(pile)
    hands = [pile[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(players)]
    return hands, pile[players * HAND_SIZE :]


def _solo_deal(rng: random.Random, variants: frozenset[str], difficulty: int) -> dict:
    """X82: the solo tiles and stack, 2 solo libraries offered, the Public Library's focus, the
    player's focus, 2 hints, 3 standard assistants plus the chosen library's special one."""
    tiles = [t for t, tile in LOCATIONS.items() if tile.solo]
    rng.shuffle(tiles)
    # X79: the friendly variant's library removals apply to the solo offer too (DECISION).
    removed_libraries = _removed_libraries(variants)
    offer_from = [
        lib for lib, row in LIBRARIES.items() if row.solo and lib not in removed_libraries
    ]
    rng.shuffle(offer_from)
    cards = list(CATEGORIES)
    rng.shuffle(cards)
    prominent, banned, public_focus, focus = cards[:4]
    hints = cards[4 : 4 + SOLO_HINTS]
    hands, deck = _cards(rng, 1)
    return {
        "locations": {
            "face_up": tiles[:SOLO_FACE_UP_TILES],  # X82.1: all in the permanent row
            "permanent": tiles[:SOLO_FACE_UP_TILES],
            "deck": [],
            "solo_stack": tiles[SOLO_FACE_UP_TILES:],  # top first, face down
            "discard": [],
            "removed": [t for t in LOCATIONS if t not in tiles],
        },
        "libraries": {
            "pool": offer_from[:SOLO_LIBRARY_OFFER],  # X82.2: keep 1 of these 2
            "draft_order": [0],
            # Unseen: the solo libraries not drawn, and every library without the solo icon.
            "out": [
                lib
                for lib in LIBRARIES
                if lib not in offer_from[:SOLO_LIBRARY_OFFER] and lib not in removed_libraries
            ],
            "removed": removed_libraries,
        },
        "prominent": prominent,
        "banned": banned,
        "categories_out": [],
        "deck": deck,
        "discard": [],
        "seat_setup": [
            {
                "seat": 0,
                "colour": 0,
                "library": None,
                "special_assistant": None,
                "standard_assistants": SOLO_STANDARD_ASSISTANTS,
                "focus": focus,
                "hand": hands[0],
                "bookshelf": {},
            }
        ],
        "solo": {
            "difficulty": difficulty,
            "difficulty_name": dict(SOLO_DIFFICULTIES[difficulty]),
            "discard_per_preparation": difficulty,  # X85
            "public_library_focus": public_focus,
            "hints": hints,  # face down; one revealed and removed at rounds 2 and 4 (X83)
            "rounds": SOLO_ROUNDS,
        },
    }

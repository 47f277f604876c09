"""The Assistants Guild (X49): a home assistant moved onto an opponent's slot."""

from ..assistants import _arrive
from ..cards import LOCATIONS
from ..decisions import decision, effect
from ..state import HUT, _event, _push, _seat


@effect("guild")
def _guild(state: dict, seat: int) -> None:
    """X49: move one of your assistants from a home space onto a slot held by an opponent;
    nothing without an assistant at home or such a slot (X34)."""
    if _guild_kinds(state, seat):
        _push(state, "guild_assistant", seat=seat, rule="X49")


def _guild_assistant(record: dict, kind: str) -> str:
    """The home assistant a kind names: the special one, or a standard one (interchangeable,
    X21)."""
    if kind == "special":
        return record["special_assistant"]
    return next(a for a in record["home"] if a.startswith("standard-"))


def _guild_kinds(state: dict, seat: int) -> list[str]:
    """X49: "standard" and "special", for each kind at home with a slot to go to."""
    record = state["seats"][seat]
    kinds = []
    if any(a.startswith("standard-") for a in record["home"]):
        kinds.append("standard")
    if record["special_assistant"] in record["home"]:
        kinds.append("special")
    return [kind for kind in kinds if _guild_slots(state, seat, _guild_assistant(record, kind))]


def _guild_slots(state: dict, seat: int, assistant: str) -> list[dict]:
    """X49: a slot an opponent's assistant holds, on a location other than the Guild: « un
    emplacement [...] déjà occupé par un Assistant adverse », whose owner takes it back; never a
    free slot, nor one of yours (one an opponent's Ghost shares included: the newcomer would
    replace your own holder). At the Auction House the newcomer takes over the held bid (A-10).
    The Snowman's block and the Sasquatch's restriction do not apply (X66), the Hut's ban on the
    Ghost does (X35)."""
    found = []
    for tile in state["locations"]["face_up"]:
        if tile == "guild" or (assistant == "ghost" and tile == HUT):
            continue
        slots = state["tiles"][tile]["slots"]
        for number in LOCATIONS[tile].slots(state["players"]):
            holder = slots[number - 1]
            if holder is not None and holder["seat"] != seat:
                found.append({"type": "slot", "tile": tile, "slot": number})
    return found


def _guild_assistant_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "assistant", "assistant": kind} for kind in _guild_kinds(state, seat)]


@decision("guild_assistant", rule="X49", choices=_guild_assistant_choices)
def _do_guild_assistant(state: dict, seat: int, action: dict) -> None:
    """X49, X87: which home assistant; then which slot."""
    state["pending"].pop()
    assistant = _guild_assistant(state["seats"][seat], action["assistant"])
    _push(state, "guild_slot", seat=seat, assistant=assistant, rule="X49")


def _guild_slot_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return _guild_slots(state, seat, top["assistant"])


@decision("guild_slot", rule="X49", choices=_guild_slot_choices)
def _do_guild_slot(state: dict, seat: int, action: dict) -> None:
    """X49: the home space is freed (the home action taken there stands); the assistant
    arrives on the slot (X23): the opponents there go back to their supplies (X24), then the
    tile's instant effect applies for you; on a delayed tile it holds the slot (at the Auction
    House, with its bid) until Resolution."""
    top = state["pending"].pop()
    _seat(state, seat)["home"].remove(top["assistant"])
    _event(state, "guild_move", seat=seat, assistant=top["assistant"], rule="X49")
    _arrive(state, seat, top["assistant"], action["tile"], action["slot"])

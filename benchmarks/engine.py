"""Random full games through the engine's public API: games/s and µs/action per player count.

    python -m benchmarks.engine [--game biblios|exlibris] [--seconds S] [--players 2 3 4]
                                [--policy P …] [--variant V] [--profile]

Each game is played through `to_act`, `legal_actions` and `apply_action`, one core, no I/O; the
time counts everything a caller pays: setup, listing the legal actions, choosing, applying.
Two random policies:
- uniform: any legal action, equally likely. Such players bid far beyond their Gold (R13 allows
  it), so auctions end in defaults and re-auctions and games run to ~500 actions.
- within-means: still random, but never bids more than it holds and pays when it can, which
  gives games of a realistic length.

With `--game exlibris` (players 1 to 4, 1 being solo at its default difficulty; `--variant` one of
the engine's VARIANTS) the policy is uniform, and a second table lists, per decision kind, the
longest `legal_actions` list met beside the bound of the spec's §0 table for that decision (its
formula, and its largest value over the states where that kind was asked): a list longer than
its bound is counted as "over".

With `--game biblios`, a last table times Biblios' plain mutable simulator
(`games.kinds.biblios.bench.simulator`) on the same uniformly random games (cards as ints,
lists changed in place, no events, no copies), in the same run, and prints the engine's speed
as a ratio of the simulator's: actions/s through the public API (uniform policy) over the
simulator's actions/s.
"""

import argparse
import cProfile
import pstats
import random
import time

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bench import simulator
from games.kinds.biblios.engine.cards import KIND, VALUE
from games.kinds.exlibris import engine as exlibris


def uniform(state, seat, legal, chooser):
    return chooser.choice(legal)


def within_means(state, seat, legal, chooser):
    """Random among the actions a careful player would consider: no bid it cannot pay."""
    hand = state.hands[seat]
    if state.step == "bid":
        gold_card = KIND[state.auction_card] == "gold"
        means = len(hand) if gold_card else sum(VALUE[c] for c in hand if KIND[c] == "gold")
        legal = [a for a in legal if a["type"] == "pass" or a["amount"] <= means]
    elif state.step in ("pay", "give") and len(legal) > 1:
        legal = [a for a in legal if a["type"] != "refuse"]
    return chooser.choice(legal)


POLICIES = {"uniform": uniform, "within-means": within_means}


def play_one(num_players: int, seed: int, policy) -> int:
    """Play one random game to the end; returns the number of actions applied."""
    state = biblios.new_game(num_players, seed=seed)
    chooser = random.Random(seed)
    actions = 0
    while seats := biblios.to_act(state):
        seat = seats[0]
        action = policy(state, seat, biblios.legal_actions(state, seat), chooser)
        state = biblios.apply_action(state, seat, action)
        actions += 1
    biblios.result(state)
    return actions


def measure(num_players: int, seconds: float, policy=uniform) -> dict:
    return timed_games(num_players, seconds, lambda seed: play_one(num_players, seed, policy))


def timed_games(num_players: int, seconds: float, play) -> dict:
    """Games played by `play(seed) -> actions` for `seconds` of CPU, seeds 0, 1, 2…: the row."""
    games = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        actions += play(games)
        games += 1
    return {
        "players": num_players,
        "games": games,
        "actions_per_game": actions / games,
        "games_per_s": games / elapsed,
        "us_per_action": elapsed / actions * 1e6,
    }


ROW = "{:>12} {:>7} {:>6} {:>12} {:>8} {:>9}"


# ------------------------------------------------------------------------------ Ex Libris


def _shelf_width(shelf: dict) -> int:
    cols = [int(key.split(",")[1]) for key in shelf]
    return max(cols) - min(cols) + 1 if cols else 0


def _exlibris_sizes(state: dict, seat: int) -> dict:
    """The quantities §0's bounds are written in, for the seat asked now."""
    record = state["seats"][seat]
    top = state["pending"][-1]
    tile = top.get("tile")
    tiles = state["tiles"]
    cards_on = [len(t["cards"]) for name, t in tiles.items() if tile in (None, name)]
    start, end = top.get("start"), top.get("end")
    return {
        "h": len(record["hand"]),
        "n": len(record["bookshelf"]),
        "w": _shelf_width(record["bookshelf"]),
        "c": max(cards_on, default=0),
        "d": len(state["discard"]),
        "T": len(state["locations"]["face_up"]),
        "N": state["players"],
        "L": end[1] - start[1] + 1 if start and end else _shelf_width(record["bookshelf"]),
        "r": len(tiles.get("yard_sale", {}).get("revealed", [])),
    }


# Spec §0's table: per decision kind, the most actions one step may list (formula, function of
# `_exlibris_sizes`). Kinds missing here are printed with "?".
EXLIBRIS_BOUNDS = {
    "draft_take": ("2N", lambda q: 2 * q["N"]),
    "draft_remove": ("2N − 1", lambda q: 2 * q["N"] - 1),
    "solo_keep": ("2", lambda q: 2),
    "cube": ("2", lambda q: 2),
    "sasquatch": ("2", lambda q: 2),
    "goblin": ("6(N − 1) + 1", lambda q: 6 * (q["N"] - 1) + 1),
    "goblin_give": ("h", lambda q: q["h"]),
    "wisp": ("c + 2", lambda q: q["c"] + 2),
    "bookworm": ("h + 1", lambda q: q["h"] + 1),
    "witch": ("2", lambda q: 2),
    "golem": ("2c + 1", lambda q: 2 * q["c"] + 1),
    "auction_pay": ("h", lambda q: q["h"]),
    "guild_assistant": ("2", lambda q: 2),
    "guild_slot": ("35", lambda q: 35),
    "yard_claim": ("2r + 1", lambda q: 2 * q["r"] + 1),
    "place": ("2(T + 4) + 25", lambda q: 2 * (q["T"] + 4) + 25),
    "home": ("3", lambda q: 3),
    "shelve_card": ("h + 1", lambda q: q["h"] + 1),
    "shelve_cell": ("6n + 2", lambda q: 6 * q["n"] + 2),
    "take_tile_card": ("c", lambda q: q["c"]),
    "swap_give": ("h", lambda q: q["h"]),
    "community_give": ("2(N − 1)", lambda q: 2 * (q["N"] - 1)),
    "discard_card": ("h + n + 1", lambda q: q["h"] + q["n"] + 1),
    "den_name": ("6", lambda q: 6),
    "lodge_part": ("3", lambda q: 3),
    "lodge_assistant": ("3", lambda q: 3),
    "lodge_shelf": ("3n", lambda q: 3 * q["n"]),
    "lodge_exchange": ("max(h, n − 1, 6n + 2)", lambda q: max(q["h"], q["n"] - 1, 6 * q["n"] + 2)),
    "lodge_swap": ("max(h, n − 1, 6n + 2)", lambda q: max(q["h"], q["n"] - 1, 6 * q["n"] + 2)),
    "lodge_reshelve": ("max(h, n − 1, 6n + 2)", lambda q: max(q["h"], q["n"] - 1, 6 * q["n"] + 2)),
    "dump_name": ("6", lambda q: 6),
    "dump_take": ("d + 1", lambda q: q["d"] + 1),
    "tavern_pick": ("8", lambda q: 8),
    "cabin_name": ("6", lambda q: 6),
    "cabin_take": ("5", lambda q: 5),
    "tax_pay": ("h + n", lambda q: q["h"] + q["n"]),
    "tax_discard": ("h + n + 1", lambda q: q["h"] + q["n"] + 1),
    "tax_take": ("c", lambda q: q["c"]),
    "yard_reveal": ("h + 1", lambda q: q["h"] + 1),
    "run_start": ("n + 1", lambda q: q["n"] + 1),
    "run_end": ("row length", lambda q: q["w"]),
    "run_dest": ("5(w + L + 1)", lambda q: 5 * (q["w"] + q["L"] + 1)),
    "solo_remove": ("6", lambda q: 6),
    "flip": ("n + 1", lambda q: q["n"] + 1),
}


def exlibris_new_game(players: int, seed: int, variant: str) -> dict:
    """A table of `players` (1: solo, where beginner and long do not apply, X78, X80)."""
    if players == 1:
        variant = "friendly" if "friendly" in variant.split("+") else "standard"
    return exlibris.new_game(players, seed=seed, variant=variant)


def play_exlibris(players: int, seed: int, variant: str = "standard", listed=None) -> int:
    """One uniform random Ex Libris game to its result; returns the number of actions applied.
    `listed`, if given, gathers per decision kind [decisions, longest list, largest bound,
    lists over their bound]."""
    state = exlibris_new_game(players, seed, variant)
    chooser = random.Random(seed)
    actions = 0
    while seats := exlibris.to_act(state):
        seat = chooser.choice(seats)
        legal = exlibris.legal_actions(state, seat)
        if listed is not None:
            _note_list(listed, state, seat, len(legal))
        state = exlibris.apply_action(state, seat, chooser.choice(legal))
        actions += 1
    exlibris.result(state)
    return actions


def _note_list(listed: dict, state: dict, seat: int, size: int) -> None:
    kind = state["pending"][-1]["kind"]
    row = listed.setdefault(kind, [0, 0, 0, 0])
    row[0] += 1
    row[1] = max(row[1], size)
    if kind in EXLIBRIS_BOUNDS:
        bound = EXLIBRIS_BOUNDS[kind][1](_exlibris_sizes(state, seat))
        row[2] = max(row[2], bound)
        row[3] += size > bound


def measure_exlibris(players: int, seconds: float, variant: str = "standard") -> dict:
    return timed_games(players, seconds, lambda seed: play_exlibris(players, seed, variant))


def list_sizes(players_list: list[int], games: int, variant: str) -> dict:
    """Per decision kind, over `games` random games of each player count (not timed)."""
    listed: dict = {}
    for players in players_list:
        for seed in range(games):
            play_exlibris(players, seed, variant, listed)
    return listed


LIST_ROW = "{:>16} {:>9} {:>8}  {:<22} {:>9} {:>5}"


def main_exlibris(args) -> None:
    players_list = args.players or [2, 3, 4, 1]
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(measure_exlibris, players_list[-1], args.seconds, args.variant)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return
    print(f"Ex Libris, {args.variant}, uniform random players (1 player: solo)")
    print(ROW.format("policy", "players", "games", "actions/game", "games/s", "µs/action"))
    for players in players_list:
        row = measure_exlibris(players, args.seconds, args.variant)
        print(
            ROW.format(
                "uniform",
                players,
                row["games"],
                f"{row['actions_per_game']:.1f}",
                f"{row['games_per_s']:.1f}",
                f"{row['us_per_action']:.2f}",
            )
        )
    listed = list_sizes(players_list, args.list_games, args.variant)
    print(f"\nLongest legal_actions per decision ({args.list_games} games per player count)")
    print(LIST_ROW.format("decision", "asked", "longest", "spec bound (§0)", "its max", "over"))
    for kind in sorted(listed):
        asked, longest, bound, over = listed[kind]
        formula = EXLIBRIS_BOUNDS.get(kind, ("?",))[0]
        shown = bound if kind in EXLIBRIS_BOUNDS else "?"
        print(LIST_ROW.format(kind, asked, longest, formula, shown, over))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="biblios", choices=["biblios", "exlibris"])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per row")
    parser.add_argument("--players", type=int, nargs="+", choices=[1, 2, 3, 4])
    parser.add_argument("--policy", nargs="+", default=list(POLICIES), choices=list(POLICIES))
    parser.add_argument("--variant", default="standard", choices=exlibris.VARIANTS)
    parser.add_argument("--list-games", type=int, default=20, help="Ex Libris: games per count")
    parser.add_argument("--profile", action="store_true", help="print the top functions instead")
    args = parser.parse_args()
    if args.game == "exlibris":
        main_exlibris(args)
        return
    args.players = args.players or [2, 3, 4]
    if 1 in args.players:
        parser.error("Biblios is played by 2 to 4 players")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(measure, args.players[-1], args.seconds, POLICIES[args.policy[0]])
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    print(ROW.format("policy", "players", "games", "actions/game", "games/s", "µs/action"))
    uniform_rows = {}
    for name in args.policy:
        for num_players in args.players:
            row = measure(num_players, args.seconds, POLICIES[name])
            if name == "uniform":
                uniform_rows[num_players] = row
            print(
                ROW.format(
                    name,
                    num_players,
                    row["games"],
                    f"{row['actions_per_game']:.1f}",
                    f"{row['games_per_s']:.1f}",
                    f"{row['us_per_action']:.2f}",
                )
            )
    if uniform_rows:
        against_simulator(uniform_rows, args.seconds)


def against_simulator(api_rows: dict, seconds: float) -> None:
    """The plain mutable simulator's row beside each uniform row, and the engine's ratio."""
    print("\nPlain mutable simulator (biblios.bench.simulator), same uniform random games")
    print(SIM_ROW.format("players", "actions/game", "sim µs/action", "API µs/action", "API/sim"))
    for players, api in api_rows.items():
        sim = timed_games(players, seconds, lambda seed, n=players: simulator.play(n, seed))
        print(
            SIM_ROW.format(
                players,
                f"{sim['actions_per_game']:.1f}",
                f"{sim['us_per_action']:.2f}",
                f"{api['us_per_action']:.2f}",
                f"{sim['us_per_action'] / api['us_per_action']:.3f}",
            )
        )


SIM_ROW = "{:>7} {:>12} {:>14} {:>14} {:>8}"


if __name__ == "__main__":
    main()

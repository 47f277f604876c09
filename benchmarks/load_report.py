"""What a load run prints, and the check of its database afterwards: the figures of a steady
run (`report`), the steps of a capacity search and why a step failed (`capacity_report`), and
`verify`, which holds the database to the moves the run saw accepted.
"""

import os

# A capacity step with fewer moves asked than this is not failed for missing the pace.
MIN_MOVES_TO_JUDGE_PACE = 50


def step_failures(step: dict, target_p95_ms: float) -> list[str]:
    """Why a capacity step did not hold (empty if it held)."""
    failures = []
    p95 = step["latency_ms_every_seat"].get("p95")
    if p95 is None or p95 > target_p95_ms:
        failures.append(f"p95 {p95 or 0:.0f} ms > {target_p95_ms:.0f} ms")
    for name in ("http_errors", "socket_errors"):
        if step[name]:
            failures.append(f"{len(step[name])} {name.replace('_', ' ')}")
    for name in ("shed", "pushes_missing"):
        if step[name]:
            failures.append(f"{step[name]} {name.replace('_', ' ')}")
    # Moves start at random phases: with few moves asked, the count says nothing.
    asked = step["asked_moves_per_s"] * step["duration_s"]
    if asked >= MIN_MOVES_TO_JUDGE_PACE and step["moves"] < 0.9 * asked:
        failures.append(f"only {step['moves_per_s']:.1f} moves/s accepted")
    return failures


def capacity_row(step: dict) -> str:
    every, post = step["latency_ms_every_seat"], step["post_ms"]
    cpu = step["cpu_during_play"]
    load_average = step["load_average"]["play_end"][0]
    return (
        f"asked {step['asked_moves_per_s']:6.1f}/s  accepted {step['moves_per_s']:6.1f}/s  "
        f"push p95 {every.get('p95', 0):7.1f} ms  POST p95 {post.get('p95', 0):7.1f} ms  "
        f"CPU {cpu['workers_ms_per_move']:5.1f} ms/move ({100 * cpu['workers_core_share']:.0f}%)  "
        f"load {load_average:.1f}  "
        + ("held" if not step["failed"] else "FAILED: " + "; ".join(step["failed"]))
    )


def capacity_report(result: dict, log_errors: list[str]) -> str:
    kind = "browsers on HTML" if result["html"] else "JSON"
    lines = [
        f"capacity: {result['games']} games x {result['players']} players ({kind} sockets), "
        f"{result['workers']} worker(s); a step holds with push p95 <= "
        f"{result['target_p95_ms']:.0f} ms, no error, no 503, every push received",
        *(capacity_row(step) for step in result["steps"]),
    ]
    held = result["held"]
    if held:
        lines.append(
            f"highest rate that held: {held['asked_moves_per_s']:.1f} moves/s asked, "
            f"{held['moves_per_s']:.1f} accepted, push p95 "
            f"{held['latency_ms_every_seat']['p95']:.0f} ms, worker CPU "
            f"{held['cpu_during_play']['workers_ms_per_move']:.1f} ms per move"
        )
    else:
        lines.append("highest rate that held: none (the first step already failed)")
    lines.append(f"server log errors: {len(log_errors)}")
    lines += [f"  log: {item}" for item in log_errors[:5]]
    return "\n".join(lines)


def verify(accepted: dict[int, list[int]]) -> list[str]:
    """Problems found in the database: moves not accepted or lost, replays that disagree."""
    from games.models import Game
    from games.moderation import services as moderation

    problems = []
    for game in Game.objects.filter(pk__in=accepted).prefetch_related("moves"):
        stored = sorted(move.seq for move in game.moves.all())
        if stored != accepted[game.pk]:
            problems.append(f"game {game.pk}: moves {stored} != accepted {accepted[game.pk]}")
        integrity = moderation.check_integrity(game)
        if not integrity.ok:
            problems.append(f"game {game.pk}: the replayed log disagrees: {integrity.problem}")
    return problems


def report(result: dict, log_errors: list[str]) -> str:
    def row(name, stats):
        if not stats.get("n"):
            return f"  {name:<34} n/a"
        return (
            f"  {name:<34} p50 {stats['p50']:7.1f}  p95 {stats['p95']:7.1f}  "
            f"p99 {stats['p99']:7.1f}  max {stats['max']:7.1f}  (n={stats['n']})"
        )

    floor = result["floor_ms_idle"].get("p50")
    every = result["latency_ms_every_seat"]
    lines = [
        f"{result['games']} games x {result['players']} players "
        f"({'browsers on HTML' if result['html'] else 'JSON'} sockets), "
        f"{result['workers']} worker(s), "
        f"one move per game every {result['interval_s']} s, {result['duration_s']:.1f} s "
        f"(setup {result['setup_s']:.1f} s)",
        f"moves accepted: {result['moves']}  ({result['moves_per_s']:.1f} moves/s); "
        f"games finished: {result['finished_games']}",
        "latency, ms:",
        row("POST -> every seat's push", every),
        row("POST -> slowest seat's push", result["latency_ms_slowest_seat"]),
        row("POST -> HTTP answer", result["post_ms"]),
        row("floor: echo round trip, idle", result["floor_ms_idle"]),
        row("echo round trip under load", result["echo_ms_under_load"]),
    ]
    if floor and every.get("n"):
        lines.append(
            f"  ratio to the floor (p50 / p95):    {every['p50'] / floor:.1f}x / "
            f"{every['p95'] / floor:.1f}x"
        )
    lines += [
        f"frames pushed: {result['frames']} (mean {result['mean_frame_bytes']:.0f} bytes)",
        f"HTTP errors: {len(result['http_errors'])}   socket errors: "
        f"{len(result['socket_errors'])}   pushes never received: {result['pushes_missing']}   "
        f"stale moves: {result['stale_moves']}   shed (503): {result['shed']}   "
        f"resyncs: {result['resyncs']}   "
        f"server log errors: {len(log_errors)}",
    ]
    for name in ("http_errors", "socket_errors"):
        lines += [f"  {name}: {item}" for item in result[name][:5]]
    lines += [f"  log: {item}" for item in log_errors[:5]]
    pages = result["pages"]
    lines.append(
        f"pages at the end: {pages['checked']} players' pages, "
        + (
            "each the same as the board a new socket is pushed"
            if not pages["unlike"]
            else f"{len(pages['unlike'])} unlike the board a new socket is pushed"
        )
    )
    lines += [f"  unlike: {item}" for item in pages["unlike"][:5]]
    cpu = result["cpu_during_play"]
    if cpu["workers_core_share"]:
        lines.append(
            f"CPU during play: workers {100 * cpu['workers_core_share']:.0f}% of a core "
            f"({cpu['workers_ms_per_move']:.1f} ms per move, everything included), "
            f"this load client {100 * cpu['client_core_share']:.0f}%"
        )
    start_load, end_load = result["load_average"]["play_start"], result["load_average"]["play_end"]
    lines.append(
        f"load average (1/5/15 min) at the start of play {'/'.join(f'{x:.2f}' for x in start_load)}"
        f", at the end {'/'.join(f'{x:.2f}' for x in end_load)} ({os.cpu_count()} cores)"
    )
    memory = result["memory_kib"]
    if memory.get("idle"):
        lines.append(
            f"worker memory (RSS, all workers): {memory['idle'] / 1024:.0f} MiB idle, "
            f"{memory['play_start'] / 1024:.0f} MiB with the games set up, "
            f"{memory['play_half'] / 1024:.0f} MiB half-way, "
            f"{memory['play_end'] / 1024:.0f} MiB at the end "
            f"(second half: {memory['second_half_growth_per_game']:+.0f} KiB per game)"
        )
    return "\n".join(lines)

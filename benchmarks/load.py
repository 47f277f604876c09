"""Load and latency of live games: real HTTP moves, real WebSockets, one socket per player.

    python -m benchmarks.load --games 200 --players 4 [--game biblios|exlibris] [--workers W]
                              [--duration S] [--interval S] [--url http://HOST:PORT]
                              [--json PATH] [--html]

Unless `--url` is given it starts W daphne workers itself on free localhost ports, with a fresh
SQLite database in a temporary directory, or the DATABASE_URL / REDIS_URL of the environment
(W > 1 needs REDIS_URL: workers only see each other's hints through Redis). With `--url` it
drives a running site, which must use the DATABASE_URL of the environment (players are created
and the result is checked in that database) and, for the floor, be served by
`daphne benchmarks.asgi:application` (the site plus the bare echo socket).

Players and their API tokens are written to the database directly, and so are their tables:
each is opened, filled and started through the services (`open_tables`), for any installed kind,
one still at the alpha stage too (`--game exlibris`: only this process opens it, for its own
set-up; the workers serve a started game of any kind). Everything else goes through the site:
every player opens `ws/games/<id>/?format=json`. Each game then moves at a steady
pace, one move every `--interval` seconds: the seat to act picks a random legal action from the
board its own socket pushed and POSTs it to /api/games/<id>/actions. Latency is measured from
that POST being sent to the moment *each* seat's socket receives a board at that version or
later. At the end the database must hold exactly the accepted moves, and every game's replay of
its move log must equal its stored state; and each player's page, as the frames its socket was
pushed left it (the latest view; or the regions, as htmx swaps them in), must be the board a
page opened then is pushed: a new socket per player, whose first push is a whole board.

With `--html` the players are browsers instead: each logs in through the site's login form (a
CSRF cookie and token, a session cookie back) and opens the page's socket `ws/games/<id>/` with
its session cookie and the site's Origin, which pushes the HTML board (oob regions) rendered for
its seat (the regions that changed since its last push, games/live_regions.py). A push counts
when the frame carrying the message region at the new `data-version` arrives (every push carries
it). The player whose banner (the latest pushed) says it is their turn (`data-mine="1"`) asks the
API for its legal actions and POSTs its move there as above. Logging in costs the site one
password hash per player (~0.3 s of CPU each), so setting up takes minutes; it is not part of the
measured play.

The floor is the round trip of a bare echo socket (`ws/echo/`, benchmarks/echo.py) on the same
server: measured idle before the load, and again during it.

Bounded: localhost only, at most 1000 games, one hour, 16 workers.
"""

import argparse
import asyncio
import bisect
import json
import os
import random
import re
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks.client import Http, Socket, close_all, echo_round_trips, game_socket_url, log_in
from benchmarks.load_report import capacity_report, capacity_row, report, step_failures, verify
from benchmarks.site import Workers, create_players, open_tables, setup_database, site_env
from games.play.live_regions import SentRegions

MAX_GAMES, MAX_SECONDS, MAX_WORKERS = 1000, 3600, 16
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
# A game silent for this many intervals (and at least 10 s) asks its sockets for the board.
RESYNC_AFTER_INTERVALS = 3
# An HTML push: its message region carries the version it shows, its banner (when it changed)
# whose turn it is.
BOARD_VERSION = re.compile(
    r'<div id="board-message" class="region board-message" data-version="(\d+)"'
)
BANNER_STEP = re.compile(r'id="board-banner"[^>]* data-step="([^"]*)" data-mine="([01])"')


# ---------------------------------------------------------------------------- the games


@dataclass
class Counts:
    http_errors: list = field(default_factory=list)
    socket_errors: list = field(default_factory=list)
    stale: int = 0
    shed: int = 0  # requests answered 503 (the site shedding load), retried after Retry-After
    resyncs: int = 0
    frames: int = 0
    frame_bytes: int = 0

    def snapshot(self) -> dict:
        """The counts so far (lists by length), to take the figures of one step."""
        return {
            "http_errors": len(self.http_errors),
            "socket_errors": len(self.socket_errors),
            **{n: getattr(self, n) for n in ("stale", "shed", "resyncs", "frames", "frame_bytes")},
        }


class Table:
    """One game: its players' tokens and sockets, the boards they were pushed, its pace."""

    def __init__(self, index, game_id, tokens, urls, interval, rng, counts, logins=None):
        self.index, self.tokens, self.interval, self.rng = index, tokens, interval, rng
        self.counts = counts
        self.logins = logins  # (username, password) per player: browsers on HTML sockets
        self.base = urls[index % len(urls)]
        self.http = Http(self.base)
        self.seat_urls = [urls[(index + seat) % len(urls)] for seat in range(len(tokens))]
        self.game_id = game_id
        self.seat_of_token: dict[str, int] = {}
        self.sockets: list[Socket] = []
        self.boards: list[dict | None] = [None] * len(tokens)
        self.arrivals: list[dict[int, float]] = [{} for _ in tokens]
        self.banners: list[tuple[str, bool] | None] = [None] * len(tokens)  # HTML: step, mine
        # What each player's page shows now, from every frame its socket was pushed: the latest
        # view (JSON), or the regions as htmx swaps them in (HTML, `live_regions.SentRegions`).
        self.shown: list = [None if logins is None else SentRegions() for _ in tokens]
        self.socket_args: list[tuple[str, dict]] = []  # (url, headers) of each player's socket
        self.accepted: list[tuple[int, float, float]] = []  # (version, sent, answered)
        self.moving = False
        self.stopped = True
        self.known = 0  # the newest version the server confirmed; no move before its board
        self.next_at = 0.0
        self.progress_at = 0.0
        self.finished = False
        self.scheduled = None  # the timer of the next move, until it is sent

    async def connect(self) -> None:
        """One socket per player; the seat numbers come from the first board each receives
        (HTML boards do not say the seat: a browser's pushes are counted per player)."""
        for position, token in enumerate(self.tokens):
            base, headers = self.seat_urls[position], {}
            if self.logins:
                session = await log_in(base, *self.logins[position])
                url = f"{base}/ws/games/{self.game_id}/"
                headers = {"Cookie": f"sessionid={session}"}
            else:
                url = game_socket_url(base, self.game_id, token)
            self.socket_args.append((url, headers))
            sock = Socket(
                url,
                lambda text, p=position: self.on_frame(p, text),
                lambda code, p=position: self.on_close(p, code),
            )
            await sock.connect(headers=headers)
            self.sockets.append(sock)

    def on_close(self, player: int, code) -> None:
        if not self.stopped or code not in (1000, None):
            self.counts.socket_errors.append(f"game {self.game_id} player {player}: closed {code}")

    def on_frame(self, player: int, text: str) -> None:
        now = time.perf_counter()
        self.counts.frames += 1
        self.counts.frame_bytes += len(text)
        if self.logins:
            self.on_html(player, text, now)
            return
        frame = json.loads(text)
        if "error" in frame:
            self.counts.socket_errors.append(f"game {self.game_id}: {frame}")
            return
        view = frame.get("view")
        if view is None:
            return
        seat = view["seat"]
        version = frame["version"]
        self.arrivals[seat].setdefault(version, now)
        current = self.boards[seat]
        if current is None or version >= current["version"]:
            self.boards[seat] = {**view, "status": frame["status"], "player": player}
            self.shown[player] = shown_view(frame)
        if frame["status"] != "active":
            self.finished = True
        self.maybe_move()

    def on_html(self, player: int, text: str, now: float) -> None:
        """A browser's push: a frame with the message region is a board of a new version (its
        banner only when it changed: the page keeps the one it has); presence and chat frames
        redraw one region, and an error frame is a message alone. Its legal actions are asked
        for when it is this player's turn to move."""
        if 'role="alert"' in text:
            self.counts.socket_errors.append(f"game {self.game_id}: {text[:200]}")
            return
        self.shown[player].remember(text)
        board = BOARD_VERSION.search(text)
        if board is None:
            return
        version = int(board[1])
        banner = BANNER_STEP.search(text)
        if banner is not None:
            self.banners[player] = (banner[1], banner[2] == "1")
        if self.banners[player] is None:
            self.counts.socket_errors.append(f"game {self.game_id}: a board without a banner")
            return
        step, mine = self.banners[player]
        self.arrivals[player].setdefault(version, now)
        current = self.boards[player]
        if current is None or version >= current["version"]:
            self.boards[player] = {
                "version": version,
                "seat": player,
                "to_act": [player] if mine else [],
                "legal_actions": None,  # not in the HTML: asked for before moving
                "player": player,
            }
        if step == "over":
            self.finished = True
        self.maybe_move()

    def latest(self) -> int:
        return max((board["version"] for board in self.boards if board), default=-1)

    def maybe_move(self) -> None:
        """If the seat to act has been pushed the latest board, schedule its move."""
        if self.moving or self.stopped or self.finished:
            return
        version = self.latest()
        if version < self.known:
            return
        for board in self.boards:
            if board and board["version"] == version and board["seat"] in board["to_act"]:
                if board["legal_actions"] is None or board["legal_actions"]:
                    self.moving = True
                    delay = max(0.0, self.next_at - time.perf_counter())
                    self.scheduled = asyncio.get_running_loop().call_later(
                        delay, lambda b=board: asyncio.ensure_future(self.move(b))
                    )
                return

    def stop(self) -> None:
        """No more moves; one scheduled but not yet sent is dropped (not waited for)."""
        self.stopped = True
        if self.scheduled is not None and self.moving:
            self.scheduled.cancel()
            self.moving = False
        self.scheduled = None

    async def move(self, board: dict) -> None:
        self.scheduled = None  # sent now: stop() waits for it
        if self.stopped:
            self.moving = False
            return
        token = self.tokens[board["player"]]
        if board["legal_actions"] is None:
            board = await self.fetch_board(board)
            if board is None:
                self.moving = False
                if self.next_at > time.perf_counter():  # shed: ask again when it says
                    self.maybe_move()
                return
        action = self.rng.choice(board["legal_actions"])
        body = {"version": board["version"], "action": action}
        sent = time.perf_counter()
        try:
            status, headers, answer = await self.http.request(
                "POST", f"/api/games/{self.game_id}/actions", token, body
            )
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as failure:
            self.counts.http_errors.append(f"game {self.game_id}: {failure!r}")
            status, headers, answer = None, {}, None
        answered = time.perf_counter()
        self.next_at = sent + self.interval
        if status == 200:
            self.accepted.append((answer["version"], sent, answered))
            self.known = max(self.known, answer["version"])
            self.progress_at = answered
        elif status == 409:
            self.counts.stale += 1
            self.known = max(self.known, answer.get("version", 0))
        elif status == 503:  # shed: the same move again once the site says
            self.shed(headers)
        elif status is not None:
            self.counts.http_errors.append(f"game {self.game_id}: {status} {answer}")
        self.moving = False
        self.maybe_move()

    async def fetch_board(self, board: dict) -> dict | None:
        """The legal actions of a browser's board, from the API (the HTML only has forms)."""
        try:
            status, headers, answer = await self.http.request(
                "GET", f"/api/games/{self.game_id}", self.tokens[board["player"]]
            )
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as failure:
            self.counts.http_errors.append(f"game {self.game_id}: {failure!r}")
            return None
        if status == 503:
            self.shed(headers)
            return None
        if status != 200:
            self.counts.http_errors.append(f"game {self.game_id}: GET {status} {answer}")
            return None
        view = answer["view"]
        if answer["version"] != board["version"] or not view["legal_actions"]:
            return None  # moved on meanwhile: the next push brings the new board
        return {**board, "legal_actions": view["legal_actions"]}

    def shed(self, headers: dict) -> None:
        """The site answered 503: not an error, load it sheds; try again after Retry-After."""
        self.counts.shed += 1
        retry_after = headers.get("retry-after", "")
        delay = float(retry_after) if retry_after.isdigit() else 1.0
        self.next_at = time.perf_counter() + delay

    def watchdog(self) -> None:
        """A game that made no progress for a while asks every socket for its board again."""
        if self.stopped or self.finished or self.moving:
            return
        if time.perf_counter() - self.progress_at > max(
            10.0, RESYNC_AFTER_INTERVALS * self.interval
        ):
            self.counts.resyncs += 1
            self.progress_at = time.perf_counter()
            for sock in self.sockets:
                sock.send({"type": "resync"})

    async def open_fresh(self) -> list:
        """A new socket per player, as a page opened now: its first push is a whole board, and
        what it is pushed after that (somebody comes or goes) it shows too. (socket, page)."""
        fresh = []
        for url, headers in self.socket_args:
            page = {"shown": SentRegions() if self.logins else None}

            def on_frame(text, page=page):
                if self.logins:
                    page["shown"].remember(text)
                elif "view" in (frame := json.loads(text)):
                    page["shown"] = shown_view(frame)

            sock = Socket(url, on_frame)
            await sock.connect(headers=headers)
            fresh.append((sock, page))
        return fresh

    def pages_unlike(self, fresh: list) -> list[str]:
        """Each player's page as its pushes left it against the page of its new socket: what
        differs, by player and region (or view)."""
        differ = []
        for player, (_, page) in enumerate(fresh):
            if self.logins:
                shown, now = self.shown[player].digests, page["shown"].digests
                unlike = sorted(r for r, digest in now.items() if shown.get(r) != digest)
            else:
                unlike = ["view"] if self.shown[player] != page["shown"] else []
            if unlike:
                differ.append(f"game {self.game_id} player {player}: {', '.join(unlike)}")
        return differ

    def latencies(self, moves=None) -> tuple[list[float], list[float], int]:
        """Per (move, seat) latencies, per move the slowest seat's, and pushes never received,
        of `moves` (accepted ones; all by default)."""
        per_seat, per_move, missing = [], [], 0
        ordered = []
        for arrivals in self.arrivals:
            versions = sorted(arrivals)
            firsts = [arrivals[v] for v in versions]
            for i in range(len(firsts) - 2, -1, -1):  # earliest arrival at this version or later
                firsts[i] = min(firsts[i], firsts[i + 1])
            ordered.append((versions, firsts))
        for version, sent, _ in self.accepted if moves is None else moves:
            slowest = 0.0
            for versions, firsts in ordered:
                i = bisect.bisect_left(versions, version)
                if i == len(versions):
                    missing += 1
                    continue
                latency = firsts[i] - sent
                per_seat.append(latency)
                slowest = max(slowest, latency)
            per_move.append(slowest)
        return per_seat, per_move, missing


def shown_view(frame: dict) -> dict:
    """What a JSON board frame shows, but who is connected (which changes without a move)."""
    return {name: frame.get(name) for name in ("version", "status", "view")}


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(q):
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {
        "n": len(ordered),
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": ordered[-1] * 1000,
    }


class Load:
    """The games of one run, set up once and played in one or more steps, each at its own pace
    (`--find-capacity` plays the same games faster step by step)."""

    def __init__(self, urls, game_ids, tokens, args, worker_cpu=lambda: 0.0, logins=None):
        self.urls, self.args, self.worker_cpu = urls, args, worker_cpu
        self.logins = logins
        self.rng = random.Random(args.seed)
        self.counts = Counts()
        players = args.players
        self.tables = [
            Table(
                i,
                game_ids[i],
                tokens[i * players : (i + 1) * players],
                urls,
                args.interval,
                random.Random(self.rng.random()),
                self.counts,
                logins[i * players : (i + 1) * players] if logins else None,
            )  # fmt: skip
            for i in range(args.games)
        ]
        self.setup_seconds = 0.0

    async def echo(self, url: str, until: float = float("inf")) -> list[float]:
        try:
            count = self.args.echo
            return await echo_round_trips(url, count, until=until) if count else []
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as failure:
            self.counts.socket_errors.append(f"echo: {failure!r}")
            return []

    async def set_up(self) -> None:
        """Connect the players' sockets of every (started) table."""
        # Gently: each connection makes the other seats of its game redraw who is connected,
        # and daphne drops a handshake the application has not accepted within 5 s.
        limit = asyncio.Semaphore(8)
        players = self.args.players

        async def prepare(table):
            async with limit:
                try:
                    await table.connect()
                except (
                    OSError,
                    TimeoutError,
                    RuntimeError,
                    asyncio.IncompleteReadError,
                ) as failure:
                    self.counts.socket_errors.append(f"setup of table {table.index}: {failure!r}")
                    table.finished = True  # not played; its accepted moves stay empty

        started = time.perf_counter()
        progress(f"opening {len(self.tables) * players} sockets")
        await asyncio.gather(*(prepare(table) for table in self.tables))
        self.setup_seconds = time.perf_counter() - started

    async def play(self, interval: float, duration: float, during=None) -> dict:
        """Play every table at one move per `interval` s for `duration` s, then let the moves
        in flight and their pushes arrive; the figures of the moves sent in this step.
        `during(start)` runs alongside (echo round trips, memory samples)."""
        tables, counts = self.tables, self.counts
        marks = [len(table.accepted) for table in tables]
        before = counts.snapshot()
        start = time.perf_counter()
        cpu_at_start = self.worker_cpu(), time.process_time()
        load_at_start = os.getloadavg()
        for table in tables:  # stagger the first moves over one interval
            table.interval = interval
            table.stopped = False
            table.next_at = start + self.rng.random() * interval
            table.progress_at = start
            table.maybe_move()

        async def watch():
            while True:
                await asyncio.sleep(1)
                for table in tables:
                    table.watchdog()

        watcher = asyncio.ensure_future(watch())
        extra = await during(start) if during else {}
        await asyncio.sleep(max(0.0, start + duration - time.perf_counter()))
        for table in tables:
            table.stop()
        elapsed = time.perf_counter() - start
        worker_cpu_s = self.worker_cpu() - cpu_at_start[0]
        client_cpu_s = time.process_time() - cpu_at_start[1]
        load_at_end = os.getloadavg()
        watcher.cancel()
        deadline = time.perf_counter() + 30
        while any(t.moving for t in tables) and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(self.args.settle)  # the last moves' pushes

        per_seat, per_move, missing, http_times = [], [], 0, []
        for table, mark in zip(tables, marks, strict=True):
            moves = table.accepted[mark:]
            seat_lat, move_lat, lost = table.latencies(moves)
            per_seat += seat_lat
            per_move += move_lat
            missing += lost
            http_times += [answered - sent for _, sent, answered in moves]
        moves = sum(len(table.accepted) - mark for table, mark in zip(tables, marks, strict=True))
        after = counts.snapshot()
        return {
            "interval_s": interval,
            "asked_moves_per_s": len(tables) / interval,
            "duration_s": elapsed,
            "moves": moves,
            "moves_per_s": moves / elapsed,
            "finished_games": sum(t.finished for t in tables),
            "latency_ms_every_seat": percentiles(per_seat),
            "latency_ms_slowest_seat": percentiles(per_move),
            "post_ms": percentiles(http_times),
            "pushes_missing": missing,
            "stale_moves": after["stale"] - before["stale"],
            "shed": after["shed"] - before["shed"],
            "resyncs": after["resyncs"] - before["resyncs"],
            "frames": after["frames"] - before["frames"],
            "mean_frame_bytes": (after["frame_bytes"] - before["frame_bytes"])
            / max(1, after["frames"] - before["frames"]),
            "http_errors": counts.http_errors[before["http_errors"] :],
            "socket_errors": counts.socket_errors[before["socket_errors"] :],
            "cpu_during_play": {
                "workers_core_share": worker_cpu_s / elapsed,
                "workers_ms_per_move": 1000 * worker_cpu_s / max(1, moves),
                "client_core_share": client_cpu_s / elapsed,
            },
            "load_average": {"play_start": load_at_start, "play_end": load_at_end},
            **extra,
        }

    async def pages_unlike_fresh(self) -> list[str]:
        """Every played table's pages against new sockets' (`Table.open_fresh`), once the news
        their opening brings has settled; each difference by player and region."""
        limit = asyncio.Semaphore(8)
        played = [table for table in self.tables if table.sockets]

        async def open_fresh(table):
            async with limit:
                try:
                    return await table.open_fresh()
                except (OSError, TimeoutError, ConnectionError, asyncio.IncompleteReadError) as e:
                    self.counts.socket_errors.append(f"fresh page of table {table.index}: {e!r}")
                    return None

        fresh = await asyncio.gather(*map(open_fresh, played))
        await asyncio.sleep(self.args.settle)
        differ = []
        for table, pages in zip(played, fresh, strict=True):
            differ += table.pages_unlike(pages) if pages else [f"game {table.game_id}: no page"]
        await close_all([sock for pages in fresh if pages for sock, _ in pages])
        return differ

    async def close(self) -> None:
        await close_all([sock for table in self.tables for sock in table.sockets])
        for table in self.tables:
            table.http.close()

    def accepted(self) -> dict[int, list[int]]:
        """Every move accepted, by game: what the database must hold."""
        return {t.game_id: sorted(v for v, _, _ in t.accepted) for t in self.tables if t.game_id}


async def run_load(
    urls, game_ids, tokens, args, memory=lambda: 0, worker_cpu=lambda: 0.0, logins=None
) -> dict:
    """Set the games up, play them for `args.duration` s, and measure; `memory()` is the
    workers' resident size (KiB), sampled when play starts, half-way and at the end (the first
    half includes warming up: caches, pools, first allocations); `worker_cpu()` their CPU
    seconds so far. The CPU used during play, the workers' and this client's own, shows
    whether the site or the load client is the bottleneck on a shared machine, and the load
    average beside it how busy the machine was."""
    load = Load(urls, game_ids, tokens, args, worker_cpu, logins)
    floor = await load.echo(urls[0])
    await load.set_up()
    progress(f"playing for {args.duration:.0f} s (set up in {load.setup_seconds:.0f} s)")

    async def during(start: float) -> dict:
        memory_at_start = memory()
        under_load = []
        if args.echo:
            await asyncio.sleep(min(2.0, args.duration / 4))
            under_load = await load.echo(urls[-1], until=start + args.duration)
        await asyncio.sleep(max(0.0, start + args.duration / 2 - time.perf_counter()))
        memory_at_half = memory()
        await asyncio.sleep(max(0.0, start + args.duration - time.perf_counter()))
        memory_at_end = memory()
        progress("stopping: waiting for the moves in flight and their pushes")
        return {
            "echo_ms_under_load": percentiles(under_load),
            "memory_kib": {
                "play_start": memory_at_start,
                "play_half": memory_at_half,
                "play_end": memory_at_end,
                "second_half_growth_per_game": (memory_at_end - memory_at_half) / args.games,
            },
        }

    step = await load.play(args.interval, args.duration, during)
    progress("checking every page against a fresh board")
    unlike = await load.pages_unlike_fresh()
    await load.close()
    checked = sum(len(table.socket_args) for table in load.tables if table.sockets)
    pages = {"checked": checked, "unlike": unlike}
    return {**run_facts(load, args), "floor_ms_idle": percentiles(floor), **step, "pages": pages}


async def find_capacity(urls, game_ids, tokens, args, worker_cpu=lambda: 0.0, logins=None) -> dict:
    """Play the same games faster step by step (`--start-rate`, then `--rate-step` more moves
    per second each step, for `--step-duration` s each) until a step does not hold: p95 of
    POST -> every seat's push over `--target-p95` ms, any error, shed request (503) or push
    never received, or fewer than 90% of the moves asked for accepted (pushes too late for
    the players to keep the pace; judged from `load_report.MIN_MOVES_TO_JUDGE_PACE` moves
    asked). The highest rate that held is the capacity."""
    load = Load(urls, game_ids, tokens, args, worker_cpu, logins)
    await load.set_up()
    progress(f"set up in {load.setup_seconds:.0f} s")
    steps, held = [], None
    rate = args.start_rate
    while rate <= args.max_rate + 1e-9:
        interval = args.games / rate
        progress(f"step: {rate:.1f} moves/s asked (a move per game every {interval:.2f} s)")
        step = await load.play(interval, args.step_duration)
        step["failed"] = step_failures(step, args.target_p95)
        steps.append(step)
        progress(capacity_row(step))
        if step["failed"]:
            break
        held = step
        rate += args.rate_step
    await load.close()
    return {
        **run_facts(load, args),
        "target_p95_ms": args.target_p95,
        "steps": steps,
        "held": held,
    }


def run_facts(load, args) -> dict:
    """What every run reports about itself: its games, sockets, workers, setup and moves."""
    return {
        "games": args.games,
        "players": args.players,
        "workers": len(load.urls),
        "html": bool(load.logins),
        "setup_s": load.setup_seconds,
        "accepted": load.accepted(),
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--game", default="biblios", help="the kind: biblios, exlibris")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument(
        "--interval", type=float, default=2.0, help="seconds between two moves of one game"
    )
    parser.add_argument("--url", help="drive this running site instead of starting workers")
    parser.add_argument("--echo", type=int, default=200, help="echo round trips (0: none)")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds to wait for pushes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--logs", help="keep the workers' logs in this directory")
    parser.add_argument(
        "--html",
        action="store_true",
        help="browsers: log in with the form, HTML board sockets (moves still via the API)",
    )
    capacity = parser.add_argument_group("--find-capacity: the same games, faster each step")
    capacity.add_argument("--find-capacity", action="store_true")
    capacity.add_argument("--start-rate", type=float, default=10.0, help="moves/s, first step")
    capacity.add_argument("--rate-step", type=float, default=10.0, help="moves/s more per step")
    capacity.add_argument("--max-rate", type=float, default=200.0, help="moves/s, last step")
    capacity.add_argument("--step-duration", type=float, default=25.0, help="seconds per step")
    capacity.add_argument("--target-p95", type=float, default=100.0, help="ms, push p95")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games must be 1 to {MAX_GAMES}")
    if not 0 < args.duration <= MAX_SECONDS:
        parser.error(f"--duration must be at most {MAX_SECONDS} s")
    if not 1 <= args.workers <= MAX_WORKERS:
        parser.error(f"--workers must be 1 to {MAX_WORKERS}")
    if args.interval <= 0:
        parser.error("--interval must be positive")
    if args.find_capacity:
        if min(args.start_rate, args.rate_step, args.step_duration) <= 0:
            parser.error("--start-rate, --rate-step and --step-duration must be positive")
        steps = int((args.max_rate - args.start_rate) / args.rate_step) + 1
        if steps * (args.step_duration + args.settle) > MAX_SECONDS:
            parser.error(f"the steps would take over {MAX_SECONDS} s")
    if args.url and urlsplit(args.url).hostname not in LOCAL_HOSTS:
        parser.error("--url must be a localhost address")
    if args.url and not os.environ.get("DATABASE_URL"):
        parser.error("--url needs the site's DATABASE_URL in the environment")
    if args.workers > 1 and not args.url and not os.environ.get("REDIS_URL"):
        parser.error("several workers need REDIS_URL (they share hints through Redis)")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="biblios-load-") as temp:
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{temp}/load.sqlite3"
        env = site_env(database_url, os.environ.get("REDIS_URL", ""), STATIC_ROOT=f"{temp}/static")
        setup_database(env)
        prefix, count = f"load-{secrets.token_hex(3)}-", args.games * args.players
        password = secrets.token_urlsafe(16) if args.html else ""
        tokens = create_players(count, prefix, password)
        logins = [(f"{prefix}{i}", password) for i in range(count)] if args.html else None
        progress(f"opening {args.games} {args.game} tables")
        game_ids = open_tables(args.game, args.players, prefix, args.games)
        workers = None
        try:
            if args.url:
                urls = [args.url.rstrip("/")]
            else:
                log_dir = Path(args.logs or temp)
                log_dir.mkdir(parents=True, exist_ok=True)
                workers = Workers(args.workers, env, log_dir)
                workers.start()
                urls = workers.urls
            rss = (lambda: sum(workers.rss_kib())) if workers else (lambda: 0)
            cpu = workers.cpu_seconds if workers else (lambda: 0.0)
            idle = rss()
            if args.find_capacity:
                result = asyncio.run(find_capacity(urls, game_ids, tokens, args, cpu, logins))
            else:
                result = asyncio.run(run_load(urls, game_ids, tokens, args, rss, cpu, logins))
                result["memory_kib"]["idle"] = idle
            log_errors = workers.log_errors() if workers else []
        finally:
            if workers:
                workers.stop()
        accepted = result.pop("accepted")
        result["server_log_errors"] = log_errors
        write = capacity_report if args.find_capacity else report
        print(write(result, log_errors), flush=True)
        progress("checking the database")
        problems = verify(accepted)
    result["problems"] = problems
    print(
        "database: "
        + (
            "every accepted move stored once, every replay equals its state"
            if not problems
            else f"{len(problems)} PROBLEM(S)"
        )
    )
    for problem in problems[:10]:
        print(f"  {problem}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    if args.find_capacity:  # a step that did not hold is the answer, not a failure
        return 1 if problems or log_errors else 0
    failed = problems or log_errors or result["http_errors"] or result["socket_errors"]
    return 1 if failed or result["pushes_missing"] or result["pages"]["unlike"] else 0


if __name__ == "__main__":
    sys.exit(main())

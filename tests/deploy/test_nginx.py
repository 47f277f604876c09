"""docs/deploy.md's production shape, run: Debian's nginx with the repository's own
deploy/nginx/biblios.conf (this test's ports, host and a throw-away certificate put in place of
the production ones) ending TLS in front of two daphne workers started as the doc starts them
(`daphne --proxy-headers`, DEBUG off), on a PostgreSQL database and a Redis of the test's own.

Two people in chromium sign up, sit at one table and play; their game sockets are on different
workers, so every move reaches one of them through Redis and the other worker, over the proxy's
WebSocket. Then what a client sends in the proxy's headers must not count: a forged
X-Forwarded-For, X-Forwarded-Proto, X-Forwarded-Port or Daphne-Root-Path changes neither the
address a failed log-in is recorded and rate-limited under (django-axes' records, the limiter's
counters) nor the scheme or the site's URLs. Last, the pages' rate limit refuses a flood.
"""

import http.client
import os
import re
import secrets
import socket
import ssl
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from benchmarks.site import Workers, free_port
from tests.browser.players import play_moves, seat_a_table, unique_tag
from tests.deploy.conftest import ROOT
from tests.reliability.test_redis_restart import RedisServer

pytestmark = pytest.mark.slow(seconds=40)

NGINX = "/usr/sbin/nginx"
CONFIG = ROOT / "deploy" / "nginx" / "biblios.conf"
TIMEOUT = 15
# The site's name: a host name, not an address, because the browser must send it in the TLS
# handshake (SNI) for nginx to choose the site's server over the one turning other names away.
HOST = "localhost"
# What a client forges: another address, plain http, another port, a URL prefix.
FORGED_ADDRESS = "203.0.113.9"
FORGED = {
    "X-Forwarded-For": FORGED_ADDRESS,
    "X-Forwarded-Proto": "http",
    "X-Forwarded-Port": "1",
    "Daphne-Root-Path": "/forged",
}
# Where nginx connects to the workers from (the browsers: 127.0.0.1).
PROXY_ADDRESS = "127.0.0.2"
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A day's certificate for HOST and its key, as PEM files (certificate, key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST)])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName(HOST)]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "fullchain.pem", folder / "privkey.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def site_config(https_port: int, http_port: int, worker_ports: list[int], cert, key) -> str:
    """The repository's nginx file with this test's values in place of the production ones."""
    text = CONFIG.read_text()
    upstream = "\n    ".join(f"server 127.0.0.1:{port};" for port in worker_ports)
    replacements = {
        "/etc/letsencrypt/live/biblios.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/biblios.example.org/privkey.pem": str(key),
        "server_name biblios.example.org;": f"server_name {HOST};",
        # The site's and the default (other hosts') server on each port.
        "listen 443 ": f"listen 127.0.0.1:{https_port} ",
        "listen 80": f"listen 127.0.0.1:{http_port}",
        "server 127.0.0.1:8001;\n    server 127.0.0.1:8002;": upstream,
    }
    for production, test in replacements.items():
        assert production in text, f"{CONFIG} no longer has {production!r}: update this test"
        text = text.replace(production, test)
    return text


class Nginx:
    """nginx in the foreground with everything of its own (configuration, pid, logs, temporary
    files) under `folder`; its access log names the worker (`$upstream_addr`) of each request."""

    def __init__(self, folder: Path, site: str, https_port: int):
        self.folder, self.https_port = folder, https_port
        self.access_log = folder / "access.log"
        (folder / "biblios.conf").write_text(site)
        temp_paths = "\n".join(
            f"    {kind}_temp_path {folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        # As root its workers would run as nobody, who cannot reach a test's private folder.
        user = "user root;\n" if os.geteuid() == 0 else ""
        (folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\n"
            "events { worker_connections 512; }\n"
            "http {\n"
            "    log_format upstreams '$remote_addr \"$request\" $status $upstream_addr';\n"
            f"    access_log {self.access_log} upstreams;\n"
            # The workers see nginx coming from another address than the browser's, so an
            # address of 127.0.0.1 in the site's records can only come from X-Forwarded-For.
            f"    proxy_bind {PROXY_ADDRESS};\n"
            f"{temp_paths}\n"
            f"    include {folder / 'biblios.conf'};\n"
            "}\n"
        )
        self.process = None

    def start(self) -> None:
        assert Path(NGINX).exists(), f"this test needs {NGINX} (make test-services installs it)"
        error_log = self.folder / "error.log"
        with (self.folder / "nginx.out").open("wb") as out:
            self.process = subprocess.Popen(
                [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"),
                 "-e", str(error_log), "-g", "daemon off;"],
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"nginx exited: {error_log.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.https_port), timeout=1).close()
                return
            except OSError:
                assert time.monotonic() < deadline, f"nginx did not listen within {TIMEOUT} s"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=TIMEOUT)

    def upstreams_of(self, request: str) -> set[str]:
        """The workers (host:port) that served the requests starting with `request`."""
        lines = self.access_log.read_text().splitlines() if self.access_log.exists() else []
        served = {line.rsplit(" ", 1)[1] for line in lines if f' "{request}' in line}
        return served - {"-"}  # "-": nginx answered itself (a refusal, a redirect)


def worker_env(database_url: str, redis_url: str, origin: str, static_root: Path) -> dict:
    """Production settings (DEBUG off, every limit at its default) as docs/deploy.md sets them,
    with the browser tests' cheap password hasher."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.browser.site_settings",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "CSRF_TRUSTED_ORIGINS": origin,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "STATIC_ROOT": str(static_root),
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",  # each access-log line in the worker's log as it happens
    }


class SocketLog:
    """Which worker accepted each game socket, from the workers' own access logs."""

    def __init__(self, workers: Workers, game_id: int):
        self.workers, self.line = workers, f'"WSCONNECT /ws/games/{game_id}/"'

    def counts(self) -> list[int]:
        return [
            sum(
                path.read_text().count(self.line)
                for path in self.workers.log_dir.glob(f"worker-{i}-*")
            )
            for i in range(len(self.workers.ports))
        ]

    def reconnect(self, player) -> int:
        """Reload `player`'s game page; the worker its new socket is on."""
        before = self.counts()
        player.page.reload()
        player.wait_for_board()
        grown = [
            i for i, (old, new) in enumerate(zip(before, self.counts(), strict=True)) if new > old
        ]
        assert len(grown) == 1, f"one new game socket expected, got {before} -> {self.counts()}"
        return grown[0]


def spread_over_workers(log: SocketLog, players, base: str) -> list[int]:
    """Reconnect the second player until the two game sockets are on different workers. nginx
    hands requests to the workers in turn, so the parity of the requests between two sockets
    decides where the next one goes. A reload makes some number of requests (the page, its
    static files, the sockets), so one or two requests more in turn between reloads make sure
    that parity changes whatever that number is."""
    first = log.reconnect(players[0])
    for attempt in range(6):
        second = log.reconnect(players[1])
        if second != first:
            return [first, second]
        for _ in range(1 + attempt % 2):
            players[1].context.request.get(base + "/manifest.webmanifest")
    raise AssertionError("the second player's socket kept landing on the first one's worker")


@pytest.fixture
def deployment(postgres, tmp_path):
    """The site behind nginx: yields (https base URL, plain http base URL, nginx, workers,
    database name, Redis URL)."""
    https_port, http_port = free_port(), free_port()
    base = f"https://{HOST}:{https_port}"
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    database = postgres.create()
    env = worker_env(postgres.url(database), redis_server.url, base, tmp_path / "static")
    # docs/deploy.md's steps, side by side.
    steps = [
        subprocess.Popen(
            [sys.executable, "manage.py", command, "--noinput", "-v0"], cwd=ROOT, env=env
        )
        for command in ("migrate", "collectstatic")
    ]
    assert [step.wait(timeout=120) for step in steps] == [0, 0], "migrate or collectstatic failed"
    workers = Workers(
        2,
        env,
        tmp_path,
        options=("--proxy-headers", "--websocket-max-message-size", "65536", "--access-log", "-"),
    )
    folder = tmp_path / "nginx"
    folder.mkdir()
    cert, key = self_signed_certificate(folder)
    nginx = Nginx(folder, site_config(https_port, http_port, workers.ports, cert, key), https_port)
    try:
        workers.start()
        nginx.start()
        yield base, f"http://{HOST}:{http_port}", nginx, workers, database, redis_server.url
    finally:
        nginx.stop()
        workers.stop()
        redis_server.stop()
    assert not workers.log_errors(), workers.log_errors()


def test_people_play_through_nginx_in_front_of_two_workers(deployment, browser, postgres):
    base, plain, nginx, workers, database, redis_url = deployment
    tag = unique_tag()
    players = seat_a_table(
        browser,
        base,
        [f"ada{tag}", f"basil{tag}"],
        reduced_motion="reduce",
        ignore_https_errors=True,
    )
    game_id = int(players[0].page.url.rstrip("/").rsplit("/", 1)[1])
    on = spread_over_workers(SocketLog(workers, game_id), players, base)
    for player in players:
        player.mark_loaded()

    kinds = play_moves(players, 6)
    assert kinds, "no move was made"
    for player in players:
        assert player.still_same_page(), f"{player.name} reloaded: moves must arrive live"
    answers = [status for player in players for status in player.move_answers]
    assert answers and set(answers) == {204}, answers
    for player in players:
        player.close()

    # nginx too saw the game's sockets on both workers (it logs a socket once it closes).
    assert sorted(on) == [0, 1]
    both = {f"127.0.0.1:{port}" for port in workers.ports}
    deadline = time.monotonic() + TIMEOUT
    while nginx.upstreams_of(f"GET /ws/games/{game_id}/") != both:
        assert time.monotonic() < deadline, nginx.access_log.read_text()[-3000:]
        time.sleep(0.1)

    check_forged_headers_do_not_count(browser, base, postgres, database, redis_url, workers)
    check_plain_http_is_sent_to_https(browser, plain)
    check_other_names_are_turned_away(nginx.https_port)
    check_a_flood_of_pages_is_refused(base)


def check_forged_headers_do_not_count(browser, base, postgres, database, redis_url, workers):
    """A failed log-in with forged proxy headers is recorded (axes) and counted (the log-in rate
    limit) under the client's real address, over https, at the site's own URLs."""
    context = browser.new_context(ignore_https_errors=True)
    try:
        page = context.request.get(base + "/accounts/login/", headers=FORGED, max_redirects=0)
        # Plain http would be redirected to https (SECURE_SSL_REDIRECT), again and again.
        assert page.status == 200, (page.status, page.headers)
        assert "/forged/" not in page.text()
        username = f"forger{unique_tag()}"
        answer = context.request.post(
            base + "/accounts/login/",
            form={
                "csrfmiddlewaretoken": CSRF_FIELD.search(page.text()).group(1),
                "username": username,
                "password": "not-the-password",
            },
            headers={**FORGED, "Origin": base, "Referer": base + "/accounts/login/"},
            max_redirects=0,
        )
        assert answer.status == 200 and "/forged/" not in answer.text(), answer.status
    finally:
        context.close()
    attempts = postgres.query(
        database, "SELECT ip_address FROM axes_accessattempt WHERE username = %s", [username]
    )
    assert [str(address) for (address,) in attempts] == ["127.0.0.1"]
    counters = [key.decode() for key in redis.Redis.from_url(redis_url).keys("*ratelimit:login:*")]
    assert counters and all(":127.0.0.1:" in key for key in counters), counters
    # The workers' access logs: each line starts with the client's address and port.
    logs = "".join(path.read_text() for path in workers.log_dir.glob("worker-*")).splitlines()
    clients = [line.split()[0].rsplit(":", 1) for line in logs if ' /accounts/login/" ' in line]
    assert len(clients) == 2, logs
    assert all(host == "127.0.0.1" and port != FORGED["X-Forwarded-Port"] for host, port in clients)


def check_plain_http_is_sent_to_https(browser, plain):
    context = browser.new_context()
    try:
        answer = context.request.get(plain + "/accounts/login/?next=/", max_redirects=0)
        assert answer.status == 301
        assert answer.headers["location"] == f"https://{HOST}/accounts/login/?next=/"
    finally:
        context.close()


def check_other_names_are_turned_away(https_port: int):
    """No TLS handshake without the site's name (a scanner trying the address), and no answer
    at all to a request naming another host."""
    address = ("127.0.0.1", https_port)
    with socket.create_connection(address, timeout=TIMEOUT) as raw, pytest.raises(ssl.SSLError):
        unverified_tls().wrap_socket(raw, server_hostname=None).close()
    connection = http.client.HTTPSConnection(
        HOST, https_port, context=unverified_tls(), timeout=TIMEOUT
    )
    connection.request("GET", "/", headers={"Host": "elsewhere.example.org"})
    with pytest.raises(http.client.RemoteDisconnected):
        connection.getresponse()
    connection.close()


def unverified_tls() -> ssl.SSLContext:
    """TLS that takes the test's self-signed certificate."""
    tls = ssl.create_default_context()
    tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
    return tls


def check_a_flood_of_pages_is_refused(base):
    """Past the pages' burst (40) at their rate (20 a second), nginx answers 429 itself. On a
    loaded machine the workers answer slower, so more requests pass nginx's rate before the
    flood ends, and past the site's own page limit (60 in 10 s from one address) the workers
    refuse the rest themselves, in a sentence: both are refusals of the flood."""
    host, port = base.removeprefix("https://").split(":")

    def requests(count: int) -> list[tuple[int, bytes]]:
        connection = http.client.HTTPSConnection(
            host, int(port), context=unverified_tls(), timeout=TIMEOUT
        )
        answers = []
        for _ in range(count):
            connection.request("GET", "/manifest.webmanifest")
            response = connection.getresponse()
            answers.append((response.status, response.read()))
        connection.close()
        return answers

    with ThreadPoolExecutor(8) as pool:
        answers = [answer for batch in pool.map(requests, [15] * 8) for answer in batch]
    statuses = [status for status, _ in answers]
    assert statuses.count(200) >= 40 and statuses.count(429) > 0, statuses
    refusals = [body for status, body in answers if status == 429]
    assert any(b"nginx" in body for body in refusals), statuses
    by_workers = [body for body in refusals if b"nginx" not in body]
    assert all(body.startswith(b"Too many requests") for body in by_workers), by_workers[:3]


def test_the_doc_shows_parts_of_the_configuration_file_and_no_copy_of_its_own():
    """docs/deploy.md shows key parts of deploy/nginx/biblios.conf: every line it shows is a
    line of the file, so the two cannot drift apart."""
    doc = (ROOT / "docs" / "deploy.md").read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", doc, re.DOTALL)
    shown = [line.strip() for block in blocks for line in block.splitlines() if line.strip()]
    lines = {line.strip() for line in CONFIG.read_text().splitlines()}
    assert shown and [line for line in shown if line not in lines] == []

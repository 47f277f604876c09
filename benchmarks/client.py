"""A benchmark's client of the site: plain HTTP requests and WebSockets over asyncio streams, no
library in between, so what is measured is the site and not a client framework; logging in
through the form as a browser does, and the bare echo socket's round trips (the floor).
"""

import asyncio
import base64
import contextlib
import json
import os
import re
import struct
import time
from urllib.parse import urlencode, urlsplit

LOGIN_PATH = "/accounts/login/"
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Http:
    """One keep-alive HTTP/1.1 connection; requests on it are sent one at a time."""

    def __init__(self, base_url: str, timeout: float = 30.0):
        parts = urlsplit(base_url)
        self.host, self.port, self.timeout = parts.hostname, parts.port or 80, timeout
        self.lock = asyncio.Lock()
        self.reader = self.writer = None
        self.cookies: dict[str, str] = {}  # what the site set, sent back by `browse`

    async def request(self, method: str, path: str, token: str, body=None):
        """(status, headers, JSON or None); raises OSError/TimeoutError on transport failure."""
        data = b"" if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        status, headers, raw = await self._send(method, path, headers, data)
        try:
            return status, headers, json.loads(raw) if raw else None
        except ValueError:
            return status, headers, None

    async def browse(self, method: str, path: str, form: dict | None = None):
        """(status, headers, text) as a browser asks: cookies sent back, a form posted
        url-encoded with the site's own Origin (which Django's CSRF check compares)."""
        headers = {}
        if form is not None:
            headers["Origin"] = f"http://{self.host}:{self.port}"
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        data = urlencode(form or {}).encode()
        status, headers, raw = await self._send(method, path, headers, data)
        return status, headers, raw.decode(errors="replace")

    async def _send(self, method: str, path: str, headers: dict, data: bytes):
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            + "".join(f"{name}: {value}\r\n" for name, value in headers.items())
            + f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        async with self.lock:
            try:
                return await asyncio.wait_for(self._exchange(head + data), self.timeout)
            except BaseException:
                self.close()
                raise

    async def _exchange(self, payload: bytes):
        if self.reader is not None and self.reader.at_eof():  # closed by the server while idle
            self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.writer.write(payload)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
            if name.strip().lower() == "set-cookie":
                cookie, _, _ = value.strip().partition(";")
                cookie_name, _, cookie_value = cookie.partition("=")
                self.cookies[cookie_name] = cookie_value
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                body += await self.reader.readexactly(size)
                await self.reader.readline()
            await self.reader.readline()
        else:
            body = await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Socket:
    """A minimal RFC 6455 client on asyncio streams: `on_frame(text)` per message, `on_close(code)`.

    Not autobahn's asyncio client: in a process where Django has loaded daphne (the tests),
    autobahn is bound to Twisted. Enough of the protocol for a benchmark and hostile tests:
    text, binary, ping/pong, close; it sends any frame, including ones a server must refuse.
    """

    def __init__(self, url: str, on_frame, on_close=None, *, origin: str | None = None):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.target = parts.path + (f"?{parts.query}" if parts.query else "")
        self.origin = origin if origin is not None else f"http://{self.host}:{self.port}"
        self.on_frame, self.on_close = on_frame, on_close
        self.reader = self.writer = None
        self.reading = None
        self.close_code = None
        self.closed = asyncio.get_running_loop().create_future()

    async def connect(self, timeout: float = 30.0, headers: dict | None = None) -> None:
        await asyncio.wait_for(self._handshake(headers or {}), timeout)
        self.reading = asyncio.ensure_future(self._read())

    async def _handshake(self, headers: dict) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {self.target} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *([f"Origin: {self.origin}"] if self.origin else []),
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        status = await self.reader.readline()
        # The other response headers tell this client nothing: read on to the blank line.
        while (await self.reader.readline()) not in (b"\r\n", b""):
            continue
        if not status.startswith(b"HTTP/1.1 101"):
            self.writer.close()
            self._set_closed(1006)
            raise ConnectionError(f"handshake refused: {status.decode(errors='replace').strip()}")

    async def _read(self) -> None:
        code = 1006
        message, opcode = b"", 0
        try:
            # A connection that drops or ends mid-frame closes the socket as 1006 (abnormal).
            with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, OSError):
                while True:
                    head = await self.reader.readexactly(2)
                    fin, op, size = head[0] & 0x80, head[0] & 0x0F, head[1] & 0x7F
                    if size == 126:
                        size = struct.unpack("!H", await self.reader.readexactly(2))[0]
                    elif size == 127:
                        size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
                    payload = await self.reader.readexactly(size)
                    if op == 0x8:
                        code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                        self._write(0x8, payload[:2])
                        break
                    if op == 0x9:
                        self._write(0xA, payload)
                        continue
                    if op == 0xA:
                        continue
                    message, opcode = message + payload, op or opcode
                    if fin:
                        self.on_frame(message.decode() if opcode == 0x1 else message)
                        message, opcode = b"", 0
        finally:
            self.writer.close()
            self._set_closed(code)

    def _set_closed(self, code) -> None:
        if self.close_code is None:
            self.close_code = code
            self.closed.set_result(code)
            if self.on_close is not None:
                self.on_close(code)

    def _write(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        repeated = (mask * (size // 4 + 1))[:size]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(
            size, "big"
        )
        if not self.writer.is_closing():
            self.writer.write(head + mask + masked)

    def send(self, frame: dict | str | bytes) -> None:
        """A JSON object, a text, or (bytes) a binary frame."""
        if isinstance(frame, bytes):
            self._write(0x2, frame)
        else:
            self._write(0x1, (frame if isinstance(frame, str) else json.dumps(frame)).encode())

    def close(self) -> None:
        if self.close_code is None and self.writer is not None:
            self._write(0x8, struct.pack("!H", 1000))


async def close_all(sockets: list[Socket], timeout: float = 5.0) -> None:
    """Close sockets and wait for the server's closing handshakes (or give up on them)."""
    for sock in sockets:
        sock.close()
    waiting = [sock.reading for sock in sockets if sock.reading is not None]
    if waiting:
        _, pending = await asyncio.wait(waiting, timeout=timeout)
        for task in pending:
            task.cancel()


def game_socket_url(base_url: str, game_id: int, token: str) -> str:
    return f"{base_url}/ws/games/{game_id}/?format=json&token={token}"


async def log_in(base_url: str, username: str, password: str) -> str:
    """The session cookie of `username`, logged in through the login form as a browser does:
    the page sets the CSRF cookie and carries the token the form posts back."""
    http = Http(base_url)
    try:
        status, _, page = await http.browse("GET", LOGIN_PATH)
        token = CSRF_FIELD.search(page)
        if status != 200 or token is None:
            raise RuntimeError(f"GET {LOGIN_PATH} answered {status} without a CSRF token")
        form = {"csrfmiddlewaretoken": token[1], "username": username, "password": password}
        status, _, _ = await http.browse("POST", LOGIN_PATH, form)
        if status != 302 or not http.cookies.get("sessionid"):
            raise RuntimeError(f"logging in as {username} answered {status}")
        return http.cookies["sessionid"]
    finally:
        http.close()


async def echo_round_trips(
    base_url: str, count: int, sockets: int = 4, until: float = float("inf")
) -> list[float]:
    """Round trips (s) of `count` small frames over `sockets` echo sockets, one at a time each,
    stopping early at perf_counter() `until`."""
    times: list[float] = []

    async def one(n: int):
        waiting: asyncio.Queue = asyncio.Queue()
        echo = Socket(f"{base_url}/ws/echo/", waiting.put_nowait)
        await echo.connect()
        try:
            for i in range(n):
                if time.perf_counter() > until:
                    break
                start = time.perf_counter()
                echo.send({"ping": i, "pad": "x" * 64})
                await asyncio.wait_for(waiting.get(), 30)
                times.append(time.perf_counter() - start)
                await asyncio.sleep(0.005)
        finally:
            await close_all([echo])

    await asyncio.gather(*(one(count // sockets) for _ in range(sockets)))
    return times

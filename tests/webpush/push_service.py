"""A push service on 127.0.0.1 that records what it receives, and browsers' subscription keys
that can read it: what the tests send to instead of Google's or Mozilla's servers."""

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from webpush.vapid import new_pair


def vapid_keys() -> dict:
    """A fresh VAPID pair as the settings take it (what `manage.py generate_vapid_keys` prints)."""
    public, private = new_pair()
    return {
        "VAPID_PUBLIC_KEY": public,
        "VAPID_PRIVATE_KEY": private,
        "VAPID_SUBJECT": "mailto:push-tests@example.org",
    }


class BrowserKeys:
    """What a browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret; it
    keeps the private key, which decrypts what the push service hands over (RFC 8291)."""

    def __init__(self):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh = base64.urlsafe_b64encode(public).decode().rstrip("=")
        self.auth = base64.urlsafe_b64encode(self.auth_secret).decode().rstrip("=")

    @staticmethod
    def check_point(public: str) -> None:
        """Raises unless `public` (base64url) is an uncompressed P-256 point."""
        raw = base64.urlsafe_b64decode(public + "=" * (-len(public) % 4))
        assert len(raw) == 65
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)

    def subscription(self, endpoint: str) -> dict:
        """PushSubscription.toJSON(), as push-device.js posts it."""
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth_secret, version="aes128gcm"
        )
        return json.loads(plain)


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes
    status: int  # what the service answered

    @property
    def accepted(self) -> bool:
        return self.status < 300


@dataclass
class PushService:
    """Answers each POST with the status set for its path in `answers` (201 by default), or
    with a 307 to the URL set for it in `redirects`, and records it in `received`."""

    server: ThreadingHTTPServer
    answers: dict = field(default_factory=dict)
    redirects: dict = field(default_factory=dict)
    received: list = field(default_factory=list)

    @property
    def origin(self) -> str:
        """What settings.PUSH_SERVICE_LOCAL_ORIGINS lists to let endpoints point here."""
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def url(self, path: str) -> str:
        return f"{self.origin}/{path}"

    def on(self, path: str) -> list:
        return [message for message in self.received if message.path == "/" + path]


def start_push_service() -> PushService:
    service = PushService(server=None)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            path = self.path.lstrip("/")
            elsewhere = service.redirects.get(path)
            status = 307 if elsewhere else service.answers.get(path, 201)
            headers = {name.lower(): value for name, value in self.headers.items()}
            service.received.append(Received(self.path, headers, body, status))
            self.send_response(status)
            if elsewhere:
                self.send_header("Location", elsewhere)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            """Quiet: what matters is recorded in `received`, not printed on stderr."""

    service.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=service.server.serve_forever, daemon=True).start()
    return service

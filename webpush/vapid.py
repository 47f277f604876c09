"""The VAPID key pair as the settings hold it: base64url of the raw P-256 points (the public key
is what browsers subscribe with, as PushManager.subscribe's applicationServerKey)."""

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


def new_pair() -> tuple[str, str]:
    """A fresh (public, private) pair."""
    vapid = Vapid()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return _public(vapid), b64urlencode(private)


def public_key_of(private: str) -> str:
    """The public key of `private` (raises ValueError if it is no key)."""
    return _public(Vapid.from_string(private))


def _public(vapid: Vapid) -> str:
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64urlencode(raw)

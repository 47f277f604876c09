"""Checking a subscription a browser sends before anything is stored: the server later POSTs to
its endpoint, so the endpoint must be a push service's https URL, never an address of our own
network, and the keys must be what RFC 8291 encrypts to."""

import base64
import binascii
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django import forms
from django.conf import settings
from django.core.validators import URLValidator
from django.utils.translation import gettext_lazy

LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def decode_base64url(value: str) -> bytes | None:
    """`value` as base64url (padded or not, as browsers send it), else None."""
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def push_service_host(host: str) -> bool:
    """One of the browsers' push services (settings.PUSH_SERVICE_HOSTS; a leading dot allows
    any subdomain, as Windows' wns2-*.notify.windows.com need)."""
    return any(
        host == allowed or (allowed.startswith(".") and host.endswith(allowed))
        for allowed in settings.PUSH_SERVICE_HOSTS
    )


class SubscriptionForm(forms.Form):
    endpoint = forms.CharField(max_length=1000, strip=False)
    p256dh = forms.CharField(max_length=100, strip=False)
    auth = forms.CharField(max_length=30, strip=False)
    user_agent = forms.CharField(max_length=300, required=False)

    MESSAGES = {
        "endpoint": gettext_lazy("The push endpoint must be an https address of a push service."),
        "p256dh": gettext_lazy("The subscription's p256dh key must be a P-256 public key."),
        "auth": gettext_lazy("The subscription's auth key must be 16 bytes in base64url."),
    }

    def clean_endpoint(self):
        endpoint = self.cleaned_data["endpoint"]
        parts = urlsplit(endpoint)
        # Local endpoints over http only in development and tests (the test push service).
        local = settings.DEBUG and parts.hostname in LOCAL_HOSTS
        schemes = ["https", "http"] if local else ["https"]
        try:
            URLValidator(schemes=schemes)(endpoint)
        except forms.ValidationError:
            raise forms.ValidationError(self.MESSAGES["endpoint"]) from None
        if not (local or push_service_host(parts.hostname or "")):
            raise forms.ValidationError(self.MESSAGES["endpoint"])
        return endpoint

    def clean_p256dh(self):
        raw = decode_base64url(self.cleaned_data["p256dh"])
        try:
            # Checks the length, the uncompressed form (0x04) and that the point is on the curve.
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw or b"")
        except ValueError:
            raise forms.ValidationError(self.MESSAGES["p256dh"]) from None
        if len(raw) != 65:
            raise forms.ValidationError(self.MESSAGES["p256dh"])
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def clean_auth(self):
        raw = decode_base64url(self.cleaned_data["auth"])
        if raw is None or len(raw) != 16:
            raise forms.ValidationError(self.MESSAGES["auth"])
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def subscription_fields(data) -> dict:
    """The form's fields from what the browser posts: PushSubscription.toJSON() as JSON
    ({"endpoint", "keys": {"p256dh", "auth"}}) or the same as flat form fields."""
    if not isinstance(data, dict):
        return {}
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else data
    fields = {
        "endpoint": data.get("endpoint"),
        "p256dh": keys.get("p256dh"),
        "auth": keys.get("auth"),
    }
    # Anything but a string (a number, a list) is simply missing.
    return {name: value for name, value in fields.items() if isinstance(value, str)}

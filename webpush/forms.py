"""Checking a subscription a browser sends before anything is stored: the server later POSTs to
its endpoint, so the endpoint must be a push service's https URL (webpush/endpoints.py), never
an address of our own network, and the keys must be what RFC 8291 encrypts to."""

import base64
import binascii

from cryptography.hazmat.primitives.asymmetric import ec
from django import forms
from django.utils.translation import gettext_lazy

from webpush.endpoints import endpoint_allowed


def decode_base64url(value: str) -> bytes | None:
    """`value` as base64url (padded or not, as browsers send it), else None."""
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


class SubscriptionForm(forms.Form):
    endpoint = forms.CharField(max_length=1000, strip=False)
    p256dh = forms.CharField(max_length=100, strip=False)
    auth = forms.CharField(max_length=30, strip=False)
    user_agent = forms.CharField(max_length=300, required=False)

    MESSAGES = {
        "endpoint": gettext_lazy(
            "The push endpoint must be the https address of a push service, as the browser "
            "gave it: no user name, port, backslash or space."
        ),
        "p256dh": gettext_lazy("The subscription's p256dh key must be a P-256 public key."),
        "auth": gettext_lazy("The subscription's auth key must be 16 bytes in base64url."),
    }

    def clean_endpoint(self):
        endpoint = self.cleaned_data["endpoint"]
        if not endpoint_allowed(endpoint):
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

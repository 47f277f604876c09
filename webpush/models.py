"""A browser's Web Push subscription: where the push service accepts messages for one device."""

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """One browser on one device (PushSubscription.toJSON() in the browser). The endpoint is the
    push service's capability URL for that browser, so it is unique: if another account
    subscribes the same browser, the subscription moves to that account (webpush/views.py)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    # The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url unpadded:
    # the message is encrypted to them (RFC 8291), so the push service cannot read it.
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=30)
    user_agent = models.CharField(max_length=300, blank=True)
    # The log-in session that subscribed: logging out of it forgets the device (webpush/apps.py),
    # so a shared computer stops showing the notices of whoever used it last.
    session_key = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.user} on {self.user_agent or 'a browser'}"

    def as_subscription_info(self) -> dict:
        """The shape pywebpush takes (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

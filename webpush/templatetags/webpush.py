"""`{% push_device %}`: the profile page's switch for notifications on this device."""

from django import template
from django.conf import settings

from webpush.delivery import push_enabled
from webpush.models import PushSubscription

register = template.Library()


@register.inclusion_tag("webpush/_device.html", takes_context=True)
def push_device(context):
    """Nothing when push is off (no VAPID keys): no device is offered what cannot be sent."""
    request = context["request"]
    if not push_enabled() or not request.user.is_authenticated:
        return {"enabled": False}
    return {
        "enabled": True,
        "csrf_token": context.get("csrf_token"),
        "public_key": settings.VAPID_PUBLIC_KEY,
        "devices": PushSubscription.objects.filter(user=request.user).count(),
    }

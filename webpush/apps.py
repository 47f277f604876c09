from django.apps import AppConfig


class WebpushConfig(AppConfig):
    name = "webpush"
    verbose_name = "Web Push"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out

        # Registers the check that the VAPID keys are one pair.
        from webpush import checks  # noqa: F401

        user_logged_out.connect(forget_this_sessions_devices, dispatch_uid="webpush-logout")


def forget_this_sessions_devices(sender, request, user, **kwargs):
    """Logging out turns off the notices of the devices this session subscribed (as lichess
    does): the next person at a shared computer must not see the last one's games. The page's
    script also drops the browser's own subscription (static/js/pwa.js)."""
    from webpush.models import PushSubscription

    session_key = request.session.session_key if request is not None else None
    if user is not None and session_key:
        PushSubscription.objects.filter(user=user, session_key=session_key).delete()

"""`manage.py check`: the VAPID keys must be one pair. Browsers subscribe with the public key and
push services check the private key's signatures against it, so a mismatch would make every
push fail (403), quietly, long after the deploy."""

from django.conf import settings
from django.core.checks import Error, register

from webpush.delivery import push_enabled
from webpush.vapid import public_key_of

HINT = "Set both from one run of `manage.py generate_vapid_keys`."


@register()
def vapid_keys_match(app_configs, **kwargs):
    if not push_enabled():
        return []
    try:
        public = public_key_of(settings.VAPID_PRIVATE_KEY)
    except ValueError:
        return [Error("VAPID_PRIVATE_KEY is not a key.", hint=HINT, id="webpush.E001")]
    if public != settings.VAPID_PUBLIC_KEY.rstrip("="):
        message = "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY."
        return [Error(message, hint=HINT, id="webpush.E002")]
    return []

"""Log-in for a suspended (banned) account: told why, but only with its right password.

Django's model backend refuses an inactive account exactly as a wrong password, so a banned
player read "enter a correct username and password" and thought they had mistyped. This
backend, before the model backend, answers for inactive accounts only: with the right password
it hands the account to the log-in form, whose `confirm_login_allowed` refuses it with the ban's
reason (`accounts.forms.LoginForm`); with a wrong one it stops the log-in (PermissionDenied:
counted as a failure, and no other backend hashes the password again). Either way one password
hash is computed, as for any account, so the answer and its timing tell nothing to someone
without the password. It has no `get_user`: it never restores a session (the form never logs
a banned account in), and test clients' `force_login` passes it by.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied


class SuspendedAccountBackend:
    def authenticate(self, request, username=None, password=None, **kwargs):
        users = get_user_model()
        if username is None:
            username = kwargs.get(users.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = users._default_manager.filter(
            **{users.USERNAME_FIELD: username}, is_active=False
        ).first()
        if user is None:
            return None  # an active account or none: the model backend's to answer
        if user.check_password(password):
            return user
        raise PermissionDenied

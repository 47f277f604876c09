"""Sign up, profiles and API tokens; log in (with our form), log out and password change are
Django's views."""

import math
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext, ngettext
from django.views import i18n
from django.views.decorators.http import require_POST

from accounts import credentials
from accounts.context_processors import THEME_COOKIE, THEME_COOKIE_MAX_AGE
from accounts.forms import (
    EmailForm,
    LoginForm,
    SignUpForm,
    ThemeForm,
    TokenCreateForm,
    TokenRevokeForm,
)
from accounts.models import MAX_TOKENS_PER_USER, ApiToken, TooManyTokens, User
from biblios_site import errors, ratelimit
from biblios_site.inputs import page_to_return_to, same_site_path


def signup(request):
    """Create an account and log straight in, so a new player lands ready to play: in the lobby,
    or on the page of this site they came from (`next`: an invite link seats them at its table).
    """
    next_page = same_site_path(request, request.POST.get("next", request.GET.get("next", "")))
    if request.user.is_authenticated:
        return redirect(next_page or "home")
    form = SignUpForm(request.POST or None)
    context = {"form": form, "next": next_page, "next_query": next_query(next_page)}
    if request.method == "POST" and form.is_valid():
        try:
            ratelimit.hit("signup", ratelimit.client_ip(request))
        except ratelimit.RateLimited as refusal:
            form.add_error(None, errors.sentence(refusal))
            page = render(request, "accounts/signup.html", context, status=429)
            return ratelimit.with_retry_after(page, refusal)
        user = form.save_unless_taken()
        if user is None:
            return render(request, "accounts/signup.html", context)
        # Named because login() cannot guess once more than one backend is configured.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_page or "home")
    return render(request, "accounts/signup.html", context)


def next_query(next_page: str) -> str:
    """The query string that carries `next_page` (a checked path of this site) from the log-in
    page to the sign-up page and back, so that neither road loses where the visitor was going."""
    return "?" + urlencode({"next": next_page}) if next_page else ""


class LoginView(auth_views.LoginView):
    """Django's log-in page, with attempts limited per IP address: each costs a password hash
    whatever username it names, while django-axes locks out one (username, IP) pair."""

    redirect_authenticated_user = True
    authentication_form = LoginForm

    def get_redirect_url(self):
        """Django's check, narrowed to a path of this site as everywhere else: it lets through
        an absolute URL to this host, a relative one, and control characters after the first."""
        return same_site_path(self.request, super().get_redirect_url())

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["next_query"] = next_query(context.get(self.redirect_field_name, ""))
        return context

    def post(self, request, *args, **kwargs):
        try:
            ratelimit.hit("login", ratelimit.client_ip(request))
        except ratelimit.RateLimited as refusal:
            return _login_refused(request, errors.sentence(refusal), refusal.retry_after)
        return super().post(request, *args, **kwargs)


def locked_out(request, *args, **kwargs):
    """django-axes' answer once a (username, IP) pair is locked out (AXES_LOCKOUT_CALLABLE), on
    the admin's log-in as on ours. Axes passes the original response and the credentials, in an
    order that depends on the middleware's mode: neither is needed."""
    seconds = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds())
    minutes = math.ceil(seconds / 60)
    message = ngettext(
        "Too many failed log-ins for this account from your connection. "
        "Try again in %(minutes)s minute.",
        "Too many failed log-ins for this account from your connection. "
        "Try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}
    return _login_refused(request, message, seconds)


def _login_refused(request, message: str, retry_after: int):
    """The log-in page with why it refused, as a 429 that says when to come back."""
    next_page = same_site_path(request, request.POST.get("next", request.GET.get("next", "")))
    context = {
        "form": AuthenticationForm(request),
        "refusal": message,
        "next": next_page,
        "next_query": next_query(next_page),
    }
    page = render(request, "registration/login.html", context, status=429)
    page["Retry-After"] = str(retry_after)
    return page


def profile(request, username):
    player = get_object_or_404(User, username=username, is_active=True)
    return _render_profile(request, player)


def _render_profile(request, player, *, token_form=None, email_form=None, status=200):
    """A player's page; only their own lists and manages their API tokens. Their games and
    ratings are drawn by those apps' template tags, so accounts reads neither."""
    own = request.user.is_authenticated and request.user.pk == player.pk
    context = {"player": player, "own": own}
    if own:
        context["theme_form"] = ThemeForm(initial={"theme": player.theme})
        context["email_form"] = email_form or EmailForm(instance=player)
        context["tokens"] = player.api_tokens.order_by("-created_at")
        context["token_form"] = token_form or TokenCreateForm()
    return render(request, "accounts/profile.html", context, status=status)


@login_required
def my_profile(request):
    return redirect("accounts:profile", username=request.user.username)


@login_required
@require_POST
def set_email(request):
    """Change (or clear) the address notices are e-mailed to."""
    form = EmailForm(request.POST, instance=request.user)
    if not form.is_valid():
        return _render_profile(request, request.user, email_form=form, status=400)
    form.save()
    messages.success(request, gettext("Your e-mail address is saved."))
    return redirect("accounts:my_profile")


@login_required
@require_POST
def tokens(request):
    """Create (action=create) or revoke (action=revoke) one of the caller's own tokens."""
    action = request.POST.get("action")
    if action == "create":
        return _create_token(request)
    if action == "revoke":
        return _revoke_token(request)
    return HttpResponseBadRequest("Unknown token action: use create or revoke.")


def _create_token(request):
    form = TokenCreateForm(request.POST)
    if not form.is_valid():
        return _render_profile(request, request.user, token_form=form, status=400)
    try:
        token, raw = ApiToken.issue(request.user, form.cleaned_data["name"])
    except TooManyTokens:
        message = gettext("You already have %(count)s tokens; revoke one first.")
        form.add_error(None, message % {"count": MAX_TOKENS_PER_USER})
        return _render_profile(request, request.user, token_form=form, status=400)
    # Rendered, not redirected: the raw token exists only in this response and is never stored,
    # nor kept by the browser's cache or history for the next person at this computer.
    page = render(request, "accounts/token_created.html", {"token": token, "raw_token": raw})
    add_never_cache_headers(page)
    return page


def _revoke_token(request):
    form = TokenRevokeForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("Say which token to revoke by its number.")
    # Someone else's token is indistinguishable from a missing one: 404 either way.
    mine = ApiToken.objects.filter(pk=form.cleaned_data["token"], user=request.user)
    if not credentials.revoke_tokens(mine):
        raise Http404("No such token.")
    return redirect("accounts:my_profile")


@require_POST
def set_language(request):
    """Django's `set_language` (cookie, safe redirect to `next`), remembered on the profile too.

    A logged-in player's language then follows them to every device and to their live pushes.
    """
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    user = request.user
    if user.is_authenticated and language in dict(settings.LANGUAGES) and language != user.language:
        user.language = language
        user.save(update_fields=["language"])
    return response


@require_POST
def set_theme(request):
    """Light, dark or automatic colours: saved on a logged-in player's profile (so it follows
    them to every device) and in a cookie (so it outlives logging out on this one).

    A plain form, so it works without JavaScript; it goes back to `next` when that is a page of
    this site, and to the lobby otherwise.
    """
    form = ThemeForm(request.POST)
    back = page_to_return_to(request, "/")
    if not form.is_valid():
        context = {"message": form.errors["theme"][0], "back": back}
        return render(request, "accounts/theme_refused.html", context, status=400)
    theme = form.cleaned_data["theme"]
    user = request.user
    if user.is_authenticated and user.theme != theme:
        user.theme = theme
        user.save(update_fields=["theme"])
    response = redirect(back)
    response.set_cookie(
        THEME_COOKIE,
        theme,
        max_age=THEME_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response

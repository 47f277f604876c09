"""Sign up, profiles and API tokens; log in, log out and password change are Django's views."""

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views import i18n
from django.views.decorators.http import require_POST

from accounts import selectors
from accounts.forms import SignUpForm, TokenCreateForm, TokenRevokeForm
from accounts.models import ApiToken, User

# Enough for every bot and script a player runs; stops one account from piling up rows.
MAX_TOKENS_PER_USER = 20


def signup(request):
    """Create an account and log straight in, so a new player lands in the lobby ready to play."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Named because login() cannot guess once more than one backend is configured.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


def profile(request, username):
    player = get_object_or_404(User, username=username, is_active=True)
    return _render_profile(request, player)


def _render_profile(request, player, *, token_form=None, status=200):
    """A player's record; only their own profile lists and manages their API tokens."""
    own = request.user.is_authenticated and request.user.pk == player.pk
    context = {
        "player": player,
        "own": own,
        "record": selectors.player_record(player, include_private=own),
    }
    if own:
        context["tokens"] = player.api_tokens.order_by("-created_at")
        context["token_form"] = token_form or TokenCreateForm()
    return render(request, "accounts/profile.html", context, status=status)


@login_required
def my_profile(request):
    return redirect("accounts:profile", username=request.user.username)


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
    token = get_object_or_404(ApiToken, pk=form.cleaned_data["token"], user=request.user)
    token.delete()
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

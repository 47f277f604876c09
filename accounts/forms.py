"""Sign-up, log-in and token forms; Django's own form covers the password change."""

import unicodedata

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_lazy

from accounts.models import ApiToken, Theme, User

DISPLAY_NAME_MIN = 2
DISPLAY_NAME_MAX = 40
DISPLAY_NAME_PUNCTUATION = " -_.'"


def clean_display_name(value: str) -> str:
    """The name other players see: readable, and distinct so nobody can pose as someone else."""
    # NFKC folds look-alike forms (full-width letters, ligatures) so they cannot dodge uniqueness.
    name = unicodedata.normalize("NFKC", value)
    if name != name.strip():
        raise forms.ValidationError(gettext("A display name cannot start or end with a space."))
    if not DISPLAY_NAME_MIN <= len(name) <= DISPLAY_NAME_MAX:
        raise forms.ValidationError(
            gettext("A display name has %(min)s to %(max)s characters.")
            % {"min": DISPLAY_NAME_MIN, "max": DISPLAY_NAME_MAX}
        )
    if not all(ch.isalnum() or ch in DISPLAY_NAME_PUNCTUATION for ch in name):
        raise forms.ValidationError(
            gettext("Use letters, digits, spaces and - _ . ' only in a display name.")
        )
    if User.objects.filter(display_name__iexact=name).exists():
        raise forms.ValidationError(gettext("Another player already uses this display name."))
    return name


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(
        label=gettext_lazy("Display name"),
        max_length=DISPLAY_NAME_MAX,
        strip=False,
        help_text=gettext_lazy("The name other players see at the table."),
    )

    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        required=False,
        help_text=gettext_lazy(
            "Optional: where we tell you that it is your turn. Nobody else sees it."
        ),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")

    def clean_display_name(self):
        return clean_display_name(self.cleaned_data["display_name"])

    def save_unless_taken(self) -> User | None:
        """The new account, or None with the form's usual "already taken" errors when another
        sign-up took the username or display name between this form's checks and its insert
        (the unique indexes refuse the second one)."""
        try:
            with transaction.atomic():
                return self.save()
        except IntegrityError:
            self.full_clean()  # validated again, the checks now see the other account
            if not self.errors:
                raise
            return None


class LoginForm(AuthenticationForm):
    """Django's log-in form, which tells a suspended (banned) account why it is refused, with
    the moderators' reason and how long it lasts: bans have no end date, a moderator lifts them.
    Only the right password gets here (`accounts.backends`); a wrong one gets the usual
    answer, so nobody learns this way that an account exists or is banned."""

    def confirm_login_allowed(self, user):
        if not user.is_active:
            raise forms.ValidationError(
                [
                    gettext("This account is suspended: %(reason)s")
                    % {"reason": user.ban_reason or gettext("no reason was given")},
                    gettext(
                        "The suspension has no end date: it lasts until the moderators lift it."
                    ),
                ],
                code="suspended",
            )
        super().confirm_login_allowed(user)


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=ApiToken._meta.get_field("name").max_length,
        required=False,
        help_text=gettext_lazy("Optional, to remember what the token is for."),
    )


class TokenRevokeForm(forms.Form):
    token = forms.IntegerField(min_value=1)


class EmailForm(forms.ModelForm):
    """A player's e-mail address for notices (blank: none are e-mailed)."""

    class Meta:
        model = User
        fields = ("email",)
        labels = {"email": gettext_lazy("E-mail address")}
        help_texts = {"email": gettext_lazy("Leave it empty to get no e-mail at all.")}


class ThemeForm(forms.Form):
    """The theme toggle of the navigation and of the profile page."""

    theme = forms.ChoiceField(
        label=gettext_lazy("Theme"),
        choices=Theme.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("Choose a theme: automatic, light or dark."),
            "invalid_choice": gettext_lazy("Choose a theme: automatic, light or dark."),
        },
    )

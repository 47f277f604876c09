"""Sign up, log in, profiles and API tokens, mounted under /accounts/."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views
from biblios_site import inputs  # noqa: F401 (registers the <text:…> path converter)

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    # POST only (Django 5): a link or an image tag cannot log anybody out.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Own template names: registration/password_change_*.html would also restyle the admin's.
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/password_change_form.html",
            success_url=reverse_lazy("accounts:password_change_done"),
        ),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path("me/", views.my_profile, name="my_profile"),
    path("u/<text:username>/", views.profile, name="profile"),
    path("tokens/", views.tokens, name="tokens"),
    path("language/", views.set_language, name="set_language"),
    path("theme/", views.set_theme, name="set_theme"),
    path("email/", views.set_email, name="set_email"),
]

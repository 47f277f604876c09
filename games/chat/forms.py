"""The chat's forms: a message and a report."""

from django import forms

from biblios_site.inputs import IdField


class ChatForm(forms.Form):
    """A chat post. The field refuses NUL (which PostgreSQL cannot store); the chat service
    judges the rest (empty, too long, repeated), the same for every edge."""

    text = forms.CharField(required=False, strip=False)


class ReportForm(forms.Form):
    """A report of a chat message or of a player, read as ChatForm is (chat.report judges it)."""

    reason = forms.CharField(required=False, strip=False)
    message = IdField(required=False)
    user = IdField(required=False)

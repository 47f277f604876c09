"""What the moderation admins share (games' and users'): an action that asks for a reason on an
intermediate page before calling a service, and a person's or game's moderation record.
"""

from django import forms
from django.contrib import messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join

from biblios_site import errors


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=1000,
        help_text="Recorded with the action and shown on the user or game.",
    )


def reason_step(modeladmin, request, queryset, *, title: str, do, form_class=ReasonForm):
    """An admin action in two steps: a page asking for a reason (and options), then `do`.

    `do(obj, cleaned_data)` calls a service; each refusal is shown as a message, nothing is
    changed for that object.
    """
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                do(obj, form.cleaned_data)
            except errors.ServiceError as refusal:
                modeladmin.message_user(request, f"{obj}: {refusal}.", messages.ERROR)
            else:
                done += 1
        if done:
            modeladmin.message_user(request, f"{title.capitalize()}: done for {done}.")
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title.capitalize(),
        "objects": queryset,
        "form": form,
        "action": request.POST.get("action", ""),
        "selected": request.POST.getlist(ACTION_CHECKBOX_NAME),
        "checkbox_name": ACTION_CHECKBOX_NAME,
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/moderation_reason.html", context)


def moderation_record(actions) -> str:
    """The moderation actions as an HTML list, newest first (for user and game pages)."""
    rows = [
        (
            action.created_at.strftime("%Y-%m-%d %H:%M"),
            action.moderator,
            action.get_kind_display(),
            action.game_id or "",
            action.reason,
        )
        for action in actions
    ]
    if not rows:
        return "None"
    return format_html(
        "<ul>{}</ul>",
        format_html_join("", "<li>{} — {}: {} {} — “{}”</li>", rows),
    )

"""Minimal admin: for looking things up; every change of results goes through the services.

What is changed or deleted here still moves the revisions the cached pages stand on
(sessions.core.services.revisions), as the services' writes do: no page shows what was
there before.
"""

from django.contrib import admin
from django.db import models, transaction

from sessions.models import (
    ApiKey, Board, Club, ClubDirector, Event, Pair, Player, Result, ResultChange, Seating, Section, Session, Webhook,
    WebhookDelivery,
)
from sessions.analysis.services.analysis import analysis_request
from sessions.api.services.api_keys import api_key_revoke
from sessions.core.services.revisions import club_revise, club_revise_with_sessions, event_revise, players_revise, session_revise


def revise_after_admin_write(obj: models.Model) -> None:
    """Bump what shows ``obj``: its session (and club), its event's sessions, its club's."""
    if isinstance(obj, Club):
        club_revise_with_sessions(club=obj.pk)
    elif isinstance(obj, Event):
        event_revise(event=obj)
    elif isinstance(obj, Session):
        session_revise(session=obj.pk)  # (nothing, once deleted: its club still lists it)
        club_revise(club=obj.event.club_id)
    elif isinstance(obj, Player):
        players_revise(players=[obj.pk])
        club_revise(club=obj.club_id)
    elif isinstance(obj, ClubDirector):
        club_revise(club=obj.club_id)
    elif isinstance(obj, (Board, Section)):
        session_revise(session=obj.session_id)
    elif isinstance(obj, (Pair, Seating)):
        session_revise(session=obj.section.session_id)
    elif isinstance(obj, Result):
        session_revise(session=obj.board.session_id)


class RevisingAdmin(admin.ModelAdmin):
    """A ModelAdmin whose saves and deletes bump the revisions (revise_after_admin_write)."""

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        revise_after_admin_write(obj)

    # A delete bumps first, in the same transaction, while the row still links to what
    # shows it (a deleted player's pairs, so their sessions).
    def delete_model(self, request, obj) -> None:
        with transaction.atomic():
            revise_after_admin_write(obj)
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        with transaction.atomic():
            for obj in queryset:
                revise_after_admin_write(obj)
            super().delete_queryset(request, queryset)


@admin.register(Club)
class ClubAdmin(RevisingAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Event)
class EventAdmin(RevisingAdmin):
    list_display = ["name", "club", "method"]
    list_filter = ["club", "method"]


@admin.register(Session)
class SessionAdmin(RevisingAdmin):
    list_display = ["name", "event", "date", "movement_kind", "tables", "published"]
    list_filter = ["published", "movement_kind"]


@admin.register(Result)
class ResultAdmin(RevisingAdmin):
    """Read-only: a change here would bypass the checks and the change log."""

    list_display = ["board", "section", "ns_pair", "ew_pair", "text", "ns_score", "version", "updated_by"]
    list_select_related = ["board", "section", "ns_pair", "ew_pair", "updated_by"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ResultChange)
class ResultChangeAdmin(RevisingAdmin):
    list_display = ["changed_at", "changed_by", "board", "action", "before_text", "after_text"]
    list_select_related = ["board", "changed_by"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Board)
class BoardAdmin(RevisingAdmin):
    """A deal corrected here is analysed again, like one loaded from a file."""

    list_display = ["number", "session", "dealer", "vulnerability"]
    list_select_related = ["session"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if {"deal", "dealer", "vulnerability"} & set(form.changed_data):
            analysis_request(boards=[obj])


admin.site.register([ClubDirector, Player, Section, Pair, Seating], RevisingAdmin)


@admin.register(ApiKey)
class ApiKeyAdmin(RevisingAdmin):
    """A club's API keys: listed and revoked here; made on the club's settings page, the
    only place the key itself is ever shown. (A key shows on no page: nothing to revise;
    a revoked key is refused before any cached answer.)"""

    list_display = ["name", "club", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_select_related = ["club"]
    readonly_fields = ["club", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Revoke the selected keys")
    def revoke(self, request, queryset) -> None:
        for api_key in queryset:
            api_key_revoke(api_key=api_key)


class WebhookDeliveryInline(admin.TabularInline):
    """The webhook's log, as the settings page shows it."""

    model = WebhookDelivery
    extra = 0
    can_delete = False
    fields = readonly_fields = [
        "event", "subject", "subject_id", "revision", "status", "attempts", "response_code", "last_error", "created_at",
        "last_attempt_at", "delivered_at",
    ]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Webhook)
class WebhookAdmin(RevisingAdmin):
    """A club's webhooks with their log: added on the club's settings page (which checks the
    address), removed here or there. (A webhook shows on no public page: nothing to revise.)"""

    list_display = ["url", "club", "created_at"]
    list_select_related = ["club"]
    readonly_fields = ["club", "url", "created_at"]
    inlines = [WebhookDeliveryInline]

    def has_add_permission(self, request) -> bool:
        return False

"""Minimal admin: for looking things up; every change of results goes through the services."""

from django.contrib import admin

from .services.analysis import analysis_request
from .models import Board, Club, ClubDirector, Event, Pair, Player, Result, ResultChange, Seating, Section, Session


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "method"]
    list_filter = ["club", "method"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "date", "movement_kind", "tables", "published"]
    list_filter = ["published", "movement_kind"]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    """Read-only: a change here would bypass the checks and the change log."""

    list_display = ["board", "section", "ns_pair", "ew_pair", "text", "ns_score", "version", "updated_by"]
    list_select_related = ["board", "section", "ns_pair", "ew_pair", "updated_by"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ["changed_at", "changed_by", "board", "action", "before_text", "after_text"]
    list_select_related = ["board", "changed_by"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    """A deal corrected here is analysed again, like one loaded from a file."""

    list_display = ["number", "session", "dealer", "vulnerability"]
    list_select_related = ["session"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if {"deal", "dealer", "vulnerability"} & set(form.changed_data):
            analysis_request(boards=[obj])


admin.site.register([ClubDirector, Player, Section, Pair, Seating])

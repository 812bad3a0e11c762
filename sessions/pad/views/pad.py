"""The rubber and Chicago score pad: public, no account needed, phone first.

With JavaScript the pad lives in the phone's browser (static/js/pad.js scores it with
its copy of the engine, static/js/pad-engine.js) and the page works offline once
visited (the service worker, served from /pad/sw.js so that its scope is the pad's
pages). Without JavaScript the same forms post here and the pad lives in the Django
session, scored by sessions.scoring.scorepad. A signed-in member keeps pads on the
server (ScorePad) and can share a finished one read-only by its link.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from sessions.pad.forms.pad import DealChoiceForm, DealForm, NewPadForm, SavePadForm
from sessions.models import DealEra, ScorePad
from sessions.scoring.boards import Side
from sessions.scoring.errors import ScoringError
from sessions.scoring.score_table import score_table as era_score_table
from sessions.scoring.scorepad import (
    Pad,
    PadScore,
    RoundScore,
    add_deal,
    dealer_of,
    deal_vulnerabilities,
    delete_deal,
    pad_from_json,
    replace_deal,
    score_pad,
    sheet_layout,
    stop_round,
)
from sessions.pad.selectors.scorepads import member_score_pads
from sessions.pad.services.scorepads import score_pad_delete, score_pad_save
from sessions.core.values import is_token, parse_number

SESSION_KEY = "score_pad"
PAD_ID_KEY = "score_pad_id"  # the session pad's id when a member keeps it (the browser has its own)
# Counts the changes made here (forms posted without JavaScript, a kept pad opened): a
# browser whose copy is older takes the session's, so the two copies never part ways.
REVISION_KEY = "score_pad_revision"
SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "pad-sw.js"
SIDE_WORDS = {"NS": "WE", "EW": "THEY"}
VUL_WORDS = {"None": "neither side vulnerable", "NS": "WE vulnerable", "EW": "THEY vulnerable",
             "Both": "both sides vulnerable"}
NET_WORDS = {"lead": "{side} lead by {margin}", "win": "{side} win by {margin}", "level": "Level"}
ROUND_WORDS = {"rubber": ("rubber", "rubbers"), "chicago": ("Chicago", "Chicagos")}
# The words that change with the figures, for the pages rendered here and, as JSON, for
# static/js/pad.js, which fills the same partials (the page's <template>s) in the browser.
PAD_WORDS = {"sides": SIDE_WORDS, "vulnerability": VUL_WORDS, "net": NET_WORDS, "rounds": ROUND_WORDS,
             "eras": dict(DealEra.choices)}


# --- the pad's pages as the server renders them --------------------------------------


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: str
    vulnerability: str
    text: str
    points: dict[str, int]
    form: dict[str, Any]


@dataclass(frozen=True)
class RoundView:
    score: RoundScore
    title: str
    layout: dict[str, Any]
    above_rows: list[tuple[dict | None, dict | None]]
    game_rows: list[tuple[int, list[tuple[dict | None, dict | None]], str | None]]
    deals: list[DealRow]
    next_vulnerability: str  # "" once the round is over
    next_dealer: str
    net_text: str

    @property
    def nothing_above(self) -> bool:
        return not self.above_rows


def _pairs(ns: list[dict], ew: list[dict], reverse: bool) -> list[tuple[dict | None, dict | None]]:
    rows = [(ns[i] if i < len(ns) else None, ew[i] if i < len(ew) else None) for i in range(max(len(ns), len(ew)))]
    return rows[::-1] if reverse else rows


def _deal_text(pad_deal) -> str:
    if pad_deal.passed_out:
        return "Passed out"
    contract = pad_deal.deal.contract
    over = pad_deal.tricks - contract.tricks_needed
    result = "made" if over == 0 else f"made +{over}" if over > 0 else f"down {-over}"
    honours = f", honours {SIDE_WORDS[pad_deal.honours_side]}" if pad_deal.honours else ""
    return f"{contract} by {pad_deal.declarer}, {pad_deal.tricks} tricks ({result}){honours}"


def net_text(net: int, finished: bool) -> str:
    """"WE lead by 20", "THEY win by 870", "Level" (NET_WORDS)."""
    if not net:
        return NET_WORDS["level"]
    side = SIDE_WORDS["NS" if net > 0 else "EW"]
    return NET_WORDS["win" if finished else "lead"].format(side=side, margin=abs(net))


def rounds_text(kind: str, count: int) -> str:
    """"1 rubber", "3 Chicagos" (ROUND_WORDS)."""
    return f"{count} {ROUND_WORDS[kind][count != 1]}"


def round_view(pad: Pad, round_score: RoundScore) -> RoundView:
    layout = sheet_layout(round_score.sheet)
    vuls = deal_vulnerabilities(pad, round_score.round)
    deals = []
    for index, pad_deal in enumerate(round_score.round.deals, start=1):
        points = {side: sum(e.points for e in round_score.sheet.entries if e.deal == index and e.side.value == side)
                  for side in ("NS", "EW")}
        deals.append(DealRow(index, dealer_of(pad, round_score.first_deal + index - 1), VUL_WORDS[vuls[index - 1]],
                             _deal_text(pad_deal), points, DealForm.initial_for(pad_deal, round_score.number, index)))
    game = ROUND_WORDS[pad.kind][0].capitalize()
    return RoundView(
        score=round_score, title=f"{game} {round_score.number}", layout=layout,
        above_rows=_pairs(layout["above"]["NS"], layout["above"]["EW"], reverse=True),
        game_rows=[(g["number"], _pairs(g["below"]["NS"], g["below"]["EW"], reverse=False) or [(None, None)],
                    g["winner"], SIDE_WORDS.get(g["winner"] or "", "")) for g in layout["games"]],
        deals=deals,
        next_vulnerability=VUL_WORDS[vuls[-1]]
        if len(vuls) > len(round_score.round.deals) and not layout["finished"] else "",
        next_dealer=dealer_of(pad, round_score.first_deal + len(round_score.round.deals)),
        net_text=net_text(layout["net"], layout["finished"]),
    )


def _figure_prototype() -> dict[str, str]:
    return {"points": "{points}", "label": "{label}", "deal": "{deal}"}


def pad_templates() -> dict[str, Any]:
    """What the page's <template>s render the partials with: every optional part present
    (static/js/pad.js drops those marked data-if="name" when the name's value is empty)
    and {name} where pad.js writes a value. "{Title}" becomes "{title}" where the partial
    lowers it, so the two are filled apart."""
    figure = _figure_prototype
    view = {
        "score": {"number": "{round}"}, "title": "{Title}", "nothing_above": True,
        "layout": {"finished": True, "totals": {"NS": "{total_ns}", "EW": "{total_ew}"}, "net": "{net}"},
        "net_text": "{net_text}", "next_vulnerability": "{vul}", "next_dealer": "{dealer}",
        "above_rows": [(figure(), figure())],
        "game_rows": [("{game}", [(figure(), figure())], "{winner}", "{winner_word}")],
        "deals": [{"number": "{deal}", "text": "{text}", "dealer": "{dealer}", "vulnerability": "{vul}",
                   "points": {"NS": "{ns}", "EW": "{ew}"}}],
    }
    return {
        "round": view, "names": {"N": "{north}", "E": "{east}", "S": "{south}", "W": "{west}"},
        "totals": {kind: {"kind": kind, "era": "{era}"} for kind in ROUND_WORDS},
        "scored": {"player_totals": [("{name}", "{total}")]},
    }


def _session_pad(request: HttpRequest) -> Pad | None:
    data = request.session.get(SESSION_KEY)
    if data is None:
        return None
    try:
        return pad_from_json(data)
    except ScoringError:
        del request.session[SESSION_KEY]
        return None


def _keep(request: HttpRequest, pad: Pad) -> None:
    request.session[SESSION_KEY] = pad.as_json()
    request.session[REVISION_KEY] = request.session.get(REVISION_KEY, 0) + 1


def _pad_context(pad: Pad | None, scored: PadScore | None) -> dict[str, Any]:
    if pad is None or scored is None:
        return {"pad": None}
    return {
        "pad": pad, "pad_json": pad.as_json(), "scored": scored,
        "rounds": [round_view(pad, r) for r in scored.rounds],
        "era_label": DealEra(pad.era).label, "names": dict(zip("NESW", pad.names)),
        "rounds_text": rounds_text(pad.kind, len(scored.rounds)),
        "can_stop": pad.kind == "rubber" and scored.round_open,
        "can_resume": pad.kind == "rubber" and bool(scored.rounds) and scored.rounds[-1].round.stopped
        and max(scored.rounds[-1].sheet.games_won(side) for side in Side) < 2,
    }


def _render_pad(request: HttpRequest, *, deal_form: DealForm | None = None, new_form: NewPadForm | None = None,
                status: int = 200) -> HttpResponse:
    pad = _session_pad(request)
    scored = score_pad(pad) if pad else None
    if deal_form is None:
        deal_form = DealForm(initial=_edit_initial(request, scored))
    context = {
        **_pad_context(pad, scored), "deal_form": deal_form, "new_form": new_form or NewPadForm(),
        "save_form": SavePadForm(),
        "pad_id": request.session.get(PAD_ID_KEY, ""), "revision": request.session.get(REVISION_KEY, 0),
        "asking_to_clear": pad is not None and request.GET.get("clear") == "ask",
        "templates": pad_templates(), "pad_words": PAD_WORDS,
    }
    return render(request, "pad/pad.html", context, status=status)


def _edit_initial(request: HttpRequest, scored: PadScore | None) -> dict[str, Any]:
    """?edit=R-D fills the deal form with deal D of rubber R, to correct it."""
    round_text, _, deal_text = request.GET.get("edit", "").partition("-")
    round_number, deal_number = parse_number(round_text), parse_number(deal_text)
    if scored is None or round_number is None or deal_number is None:
        return {}
    if not (round_number <= len(scored.rounds)
            and deal_number <= len(scored.rounds[round_number - 1].round.deals)):
        return {}
    deal = scored.rounds[round_number - 1].round.deals[deal_number - 1]
    return DealForm.initial_for(deal, round_number, deal_number)


@require_GET
def pad(request: HttpRequest) -> HttpResponse:
    return _render_pad(request)


@require_POST
def pad_new(request: HttpRequest) -> HttpResponse:
    form = NewPadForm(request.POST)
    if not form.is_valid():
        return _render_pad(request, new_form=form, status=400)
    _keep(request, form.pad())
    request.session[PAD_ID_KEY] = secrets.token_urlsafe(12)
    return redirect("sessions:pad")


def _change(request: HttpRequest, change) -> HttpResponse | None:
    """Apply ``change`` to the session's pad; a refusal is a message and changes nothing."""
    current = _session_pad(request)
    if current is None:
        messages.error(request, "Start a pad first.")
        return redirect("sessions:pad")
    try:
        _keep(request, change(current))
    except ScoringError as error:
        messages.error(request, f"Not changed: {error}.")
    return None


@require_POST
def pad_deal(request: HttpRequest) -> HttpResponse:
    form = DealForm(request.POST)
    if not form.is_valid():
        return _render_pad(request, deal_form=form, status=400)
    data = form.cleaned_data
    if data["round"]:
        response = _change(request, lambda p: replace_deal(p, data["round"], data["deal"], data["pad_deal"]))
    else:
        response = _change(request, lambda p: add_deal(p, data["pad_deal"]))
    return response or redirect("sessions:pad")


@require_POST
def pad_delete_deal(request: HttpRequest) -> HttpResponse:
    form = DealChoiceForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a deal to delete.")
        return redirect("sessions:pad")
    data = form.cleaned_data
    return _change(request, lambda p: delete_deal(p, data["round"], data["deal"])) or redirect("sessions:pad")


@require_POST
def pad_stop(request: HttpRequest) -> HttpResponse:
    stopped = request.POST.get("stopped", "1") == "1"
    return _change(request, lambda p: stop_round(p, stopped)) or redirect("sessions:pad")


@require_POST
def pad_discard(request: HttpRequest) -> HttpResponse:
    """Clear the pad: a whole night's deals, so only once asked (the page asks first; with
    JavaScript the browser's confirm does, and posts ``confirm``)."""
    if request.POST.get("confirm") != "yes":
        return redirect(f"{reverse('sessions:pad')}?clear=ask#clear-pad")
    request.session.pop(SESSION_KEY, None)
    return redirect("sessions:pad")


@require_GET
def pad_service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served under /pad/ so that it may control the pad's pages."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


# --- pads kept on the server -------------------------------------------------------


@login_required
@require_POST
def pad_save(request: HttpRequest) -> HttpResponse:
    form = SavePadForm(request.POST)
    if not form.is_valid():
        refusal = " ".join(e for errors in form.errors.values() for e in errors)
        if request.headers.get("X-Pad-Sync") == "1":
            return HttpResponse(refusal, status=400, content_type="text/plain; charset=utf-8")
        messages.error(request, refusal)  # the pad again, with the reason, as the other forms do
        return _render_pad(request, status=400)
    pad = form.cleaned_data["pad"] or _session_pad(request)
    if pad is None:
        messages.error(request, "There is no pad to keep yet.")
        return redirect("sessions:pad")
    score_pad_save(user=request.user, client_id=form.cleaned_data["client_id"], pad=pad)
    if request.headers.get("X-Pad-Sync") == "1":
        return HttpResponse(status=204)
    messages.success(request, "The pad is kept in your account.")
    return redirect("sessions:pad_list")


@login_required
@require_GET
def pad_list(request: HttpRequest) -> HttpResponse:
    return render(request, "pad/list.html", {"pads": member_score_pads(user=request.user)})


def _own_pad(request: HttpRequest, pk: int) -> ScorePad:
    return get_object_or_404(ScorePad, pk=pk, user=request.user)


@login_required
@require_POST
def pad_open(request: HttpRequest, pk: int) -> HttpResponse:
    """Continue a kept pad on this phone: it becomes the browser's (and the session's) pad."""
    stored = _own_pad(request, pk)
    try:
        _keep(request, pad_from_json(stored.data))
    except ScoringError:
        messages.error(request, "This pad cannot be read any more.")
        return redirect("sessions:pad_list")
    request.session[PAD_ID_KEY] = stored.client_id
    return redirect("sessions:pad")


@login_required
@require_POST
def pad_forget(request: HttpRequest, pk: int) -> HttpResponse:
    score_pad_delete(pad=_own_pad(request, pk))
    messages.success(request, "The pad is deleted from your account.")
    return redirect("sessions:pad_list")


@require_GET
def pad_shared(request: HttpRequest, token: str) -> HttpResponse:
    """A kept pad, read only, for anyone with its link (and for printing)."""
    if not is_token(token):
        raise Http404("no such pad")
    stored = get_object_or_404(ScorePad, share_token=token)
    try:
        pad = pad_from_json(stored.data)
    except ScoringError:
        raise Http404("This pad cannot be read.") from None
    return render(request, "pad/shared.html", {**_pad_context(pad, score_pad(pad)), "stored": stored})


# --- the score table -----------------------------------------------------------------


@require_GET
def score_table(request: HttpRequest) -> HttpResponse:
    """The deal-score values of an era (?era=current|1935|1932), from the engine."""
    era = request.GET.get("era", DealEra.CURRENT)
    if era not in DealEra.values:
        era = DealEra.CURRENT
    return render(request, "pad/score_table.html", {
        "table": era_score_table(era), "era": era, "era_label": DealEra(era).label, "eras": DealEra.choices,
    })

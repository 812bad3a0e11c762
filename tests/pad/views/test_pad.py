"""The score pad without JavaScript: plain forms, the pad kept in the Django session and
scored by the Python engine; members keep pads on the server and share them read only."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from sessions.models import ScorePad
from tests.factories import make_user

SEED_RUBBER = [  # seeds/001 "An example rubber": (level, strain, doubling, declarer, tricks, honours, side)
    ("2", "NT", "", "N", 9, "", ""),
    ("4", "H", "", "W", 10, "", ""),
    ("5", "C", "", "W", 9, "", ""),
    ("4", "S", "X", "S", 11, "", ""),
    ("3", "C", "", "N", 10, "", ""),
    ("6", "D", "", "E", 12, "five_trumps", "EW"),
]
NAMES = {"north": "Ann", "east": "Bob", "south": "Cat", "west": "Dan"}


def start(client, kind="rubber", era="current"):
    response = client.post(reverse("sessions:pad_new"), {"kind": kind, "era": era, "first_dealer": "N", **NAMES})
    assert response.status_code == 302


def enter(client, level, strain, doubling, declarer, tricks, honours="", side="", **extra):
    return client.post(reverse("sessions:pad_deal"), {
        "level": level, "strain": strain, "doubling": doubling, "declarer": declarer, "tricks": tricks,
        "honours": honours, "honours_side": side, **extra,
    })


def without_templates(html: str) -> str:
    """The page as shown: less its <template>s (the partials for static/js/pad.js)."""
    return re.sub(r"<template\b.*?</template>", "", html, flags=re.DOTALL)


def figures(html: str, part: str, side: str) -> list[int]:
    return [int(n) for n in re.findall(
        rf'data-part="{part}" data-side="{side}"><span class="points">(\d+)</span>', html)]


def totals(html: str) -> tuple[int, int]:
    found = re.findall(r'data-part="total" data-side="(NS|EW)">(\d+)<', html)
    by_side = dict(found)
    return int(by_side["NS"]), int(by_side["EW"])


@pytest.mark.django_db
def test_the_seed_rubber_entered_without_javascript_shows_the_texts_sheet(client):
    start(client)
    for deal in SEED_RUBBER:
        assert enter(client, *deal).status_code == 302
    html = client.get(reverse("sessions:pad")).content.decode()
    # Above the line, nearest the line first on paper: the page lists the latest at the top.
    assert figures(html, "above", "NS") == [20, 50, 100, 200, 30]
    assert figures(html, "above", "EW") == [500, 150, 750]
    assert figures(html, "below", "NS") == [70, 240, 60]
    assert figures(html, "below", "EW") == [120, 120]
    assert totals(html) == (770, 1640)
    assert without_templates(html).count('class="game-line"') == 3
    assert "THEY win by 870" in html
    assert re.findall(r"data-player-total>(-?\d+)<", html) == ["-870", "870", "-870", "870"]


@pytest.mark.django_db
def test_a_deal_can_be_corrected_and_deleted_and_the_sheet_recomputes(client):
    start(client)
    enter(client, "4", "S", "", "N", 10)
    enter(client, "2", "H", "", "E", 8)
    assert enter(client, "4", "S", "", "N", 9, round=1, deal=1).status_code == 302  # it went down one
    html = client.get(reverse("sessions:pad")).content.decode()
    assert totals(html) == (0, 50 + 60)
    client.post(reverse("sessions:pad_delete_deal"), {"round": 1, "deal": 1})
    html = client.get(reverse("sessions:pad")).content.decode()
    assert totals(html) == (0, 60)


@pytest.mark.django_db
def test_a_finished_rubber_starts_the_next_with_the_same_names_and_the_night_adds_up(client):
    start(client)
    for _ in range(2):
        enter(client, "4", "S", "", "N", 10)  # WE win 2-0: 120 + 120 + 700
    enter(client, "3", "NT", "", "E", 9)      # rubber 2: THEY 100
    html = client.get(reverse("sessions:pad")).content.decode()
    assert "Rubber 2" in html
    assert re.findall(r"data-player-total>(-?\d+)<", html) == ["840", "-840", "840", "-840"]


@pytest.mark.django_db
def test_stopping_an_unfinished_rubber_scores_300_for_the_only_game(client):
    start(client)
    enter(client, "4", "S", "", "N", 10)
    client.post(reverse("sessions:pad_stop"), {"stopped": "1"})
    html = client.get(reverse("sessions:pad")).content.decode()
    assert totals(html) == (120 + 300, 0)


@pytest.mark.django_db
def test_chicago_shows_its_game_bonus_and_honours(client):
    start(client, kind="chicago")
    enter(client, "3", "NT", "", "N", 9, "four_aces", "NS")   # deal 1: 100 below, game 300, aces 150
    html = client.get(reverse("sessions:pad")).content.decode()
    assert totals(html) == (100 + 300 + 150, 0)
    assert "Next deal: dealer E, THEY vulnerable" in html  # deal 2: dealer East's side
    # The pad spells it as the rest of the app does: honours.
    assert '<span data-if="deal">1: </span>honours</small>' in html and "honors" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (("3", "NT", "", "N", 9, "four_trumps", "NS"), "At notrump there are no trump honours"),
        (("4", "S", "", "N", 10, "four_aces", "NS"), "The four aces score honours at notrump only"),
        (("4", "S", "", "N", 10, "four_trumps", ""), "Say which side held the honours"),
        (("4", "S", "", "", 10), "Give the strain, the declarer and the tricks taken"),
    ],
)
def test_impossible_deals_are_refused_with_a_message_and_change_nothing(client, deal, message):
    start(client)
    response = enter(client, *deal)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert client.session["score_pad"]["rounds"] == []


@pytest.mark.django_db
def test_a_correction_that_would_follow_the_end_of_the_rubber_is_refused(client):
    start(client)
    enter(client, "4", "S", "", "N", 10)
    enter(client, "1", "C", "", "E", 7)
    enter(client, "4", "S", "", "N", 10)   # WE win the rubber on deal 3
    enter(client, "1", "C", "", "E", 7)    # rubber 2
    response = enter(client, "4", "S", "", "N", 10, round=1, deal=2)  # would end rubber 1 at deal 2
    assert response.status_code == 302
    page = client.get(reverse("sessions:pad")).content.decode()
    assert "Not changed: rubber 1: deal 3 comes after the end of the rubber." in page
    assert client.session["score_pad"]["rounds"][0]["deals"][1]["contract"] == "1C"


@pytest.mark.django_db
def test_a_member_keeps_a_pad_and_shares_it_read_only(client):
    member = make_user("member")
    client.force_login(member)
    start(client)
    for deal in SEED_RUBBER:
        enter(client, *deal)
    response = client.post(reverse("sessions:pad_save"), {"client_id": "phone-pad-1"})
    assert response.status_code == 302
    stored = ScorePad.objects.get(user=member)
    assert (stored.kind, stored.names) == ("rubber", ["Ann", "Bob", "Cat", "Dan"])
    # Syncing the same pad again from the browser replaces the copy.
    data = {**stored.data, "era": "1935"}
    response = client.post(reverse("sessions:pad_save"), {"client_id": "phone-pad-1", "pad": json.dumps(data)},
                           HTTP_X_PAD_SYNC="1")
    assert response.status_code == 204
    assert ScorePad.objects.get(user=member).era == "1935"
    client.logout()
    shared = client.get(reverse("sessions:pad_shared", args=[stored.share_token])).content.decode()
    assert totals(shared) == (770, 1640)
    assert "pad_delete_deal" not in shared and "Delete" not in shared


@pytest.mark.django_db
def test_a_pad_that_breaks_the_rules_is_not_kept(client):
    client.force_login(make_user("member"))
    bad = {"kind": "rubber", "names": ["A", "B", "C", "D"],
           "rounds": [{"deals": [{"declarer": "N", "contract": "4S", "tricks": 10}] * 3}]}
    response = client.post(reverse("sessions:pad_save"), {"client_id": "phone-pad-1", "pad": json.dumps(bad)})
    assert response.status_code == 400
    assert not ScorePad.objects.exists()
    assert "deal 3 comes after the end of the rubber" in response.content.decode()


@pytest.mark.django_db
def test_members_see_and_change_only_their_own_pads(client):
    owner, other = make_user("owner"), make_user("other")
    stored = ScorePad.objects.create(user=owner, client_id="abcdefgh", kind="rubber", names=["A", "B", "C", "D"],
                                     data={"kind": "rubber", "names": ["A", "B", "C", "D"], "rounds": []})
    client.force_login(other)
    assert "A, B, C, D" not in client.get(reverse("sessions:pad_list")).content.decode()
    assert client.post(reverse("sessions:pad_open", args=[stored.pk])).status_code == 404
    assert client.post(reverse("sessions:pad_forget", args=[stored.pk])).status_code == 404
    assert ScorePad.objects.filter(pk=stored.pk).exists()


@pytest.mark.django_db
def test_keeping_pads_needs_a_login(client):
    response = client.post(reverse("sessions:pad_save"), {"client_id": "abcdefgh"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get(reverse("sessions:pad_list")).status_code == 302


def test_the_service_worker_is_served_under_the_pads_scope(client):
    response = client.get(reverse("sessions:pad_service_worker"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert reverse("sessions:pad_service_worker").startswith(reverse("sessions:pad"))


@pytest.mark.parametrize(
    ("era", "notrump", "three_down_doubled_nv"),
    [("current", ["40", "30", "30"], "500"), ("1935", ["40", "30", "30"], "500"), ("1932", ["30", "40", "30"], "450")],
)
def test_the_score_table_shows_the_eras_values(client, era, notrump, three_down_doubled_nv):
    html = client.get(reverse("sessions:score_table"), {"era": era}).content.decode()
    row = re.search(r'data-strain="Notrump">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r'class="num">(\d+)<', row)[:3] == notrump
    down3 = re.search(r'data-down="3">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r'class="num">(\d+)<', down3)[1] == three_down_doubled_nv


@pytest.mark.django_db
def test_without_javascript_each_new_pad_is_kept_apart(client):
    member = make_user("member")
    client.force_login(member)
    for names in ("Ann", "Eve"):
        client.post(reverse("sessions:pad_new"), {"kind": "rubber", "era": "current", "first_dealer": "N",
                                                  **NAMES, "north": names})
        enter(client, "4", "S", "", "N", 10)
        page = client.get(reverse("sessions:pad")).content.decode()
        pad_id = re.search(r'name="client_id" value="([^"]+)"', page).group(1)
        client.post(reverse("sessions:pad_save"), {"client_id": pad_id})
    assert sorted(p.names[0] for p in ScorePad.objects.filter(user=member)) == ["Ann", "Eve"]


@pytest.mark.django_db
def test_the_correct_link_fills_the_deal_form_without_javascript(client):
    start(client)
    enter(client, "4", "S", "X", "E", 9, "five_trumps", "EW")
    page = client.get(reverse("sessions:pad"), {"edit": "1-1"}).content.decode()
    assert "Correct deal" in page
    for name, value in (("round", "1"), ("deal", "1")):
        assert re.search(rf'name="{name}" value="{value}"', page)
    for name, value in (("level", "4"), ("doubling", "X"), ("declarer", "E"), ("tricks", "9"),
                        ("honours", "five_trumps"), ("honours_side", "EW")):
        select = re.search(rf'<select name="{name}".*?</select>', page, re.S).group(0)
        assert re.search(rf'<option value="{value}" selected>', select), name


@pytest.mark.django_db
def test_a_members_pads_are_listed_in_one_query(client, django_assert_num_queries):
    member = make_user("member")
    for n in range(3):
        ScorePad.objects.create(user=member, client_id=f"pad-{n:05}", kind="rubber", names=["A", "B", "C", "D"],
                                data={"kind": "rubber", "names": ["A", "B", "C", "D"], "rounds": []})
    client.force_login(member)
    # The session and its user (login), then the pads.
    with django_assert_num_queries(3):
        page = client.get(reverse("sessions:pad_list")).content.decode()
    assert page.count("Share link (read only)") == 3


@pytest.mark.django_db
def test_without_javascript_clearing_the_pad_asks_first_and_keeps_it_until_confirmed(client):
    start(client)
    enter(client, "4", "S", "", "N", 10)

    asked = client.post(reverse("sessions:pad_discard"), follow=True).content.decode()

    assert "Clear this pad? Every deal of it is lost." in asked and "Yes, clear the pad" in asked
    assert totals(asked) == (120, 0)  # still there
    client.post(reverse("sessions:pad_discard"), {"confirm": "yes"})
    cleared = client.get(reverse("sessions:pad")).content.decode()
    assert 'id="pad-new" aria-labelledby' in cleared and 'id="pad-new" aria-labelledby="pad-new-title" hidden' not in cleared


@pytest.mark.django_db
@pytest.mark.parametrize("with_pad", [False, True], ids=["new pad", "pad in play"])
def test_the_page_holds_the_partials_that_its_script_fills(client, with_pad):
    """static/js/pad.js draws the sheets from <template>s made by the same partials as the
    page (templates/pad/_round.html, _totals.html): one of each part, values left as {name}."""
    if with_pad:
        start(client)
        enter(client, *SEED_RUBBER[0])
    html = client.get(reverse("sessions:pad")).content.decode()
    templates = dict(re.findall(r'<template id="([\w-]+)">(.*?)</template>', html, flags=re.DOTALL))

    assert set(templates) == {"pad-round-template", "pad-totals-rubber", "pad-totals-chicago"}
    round_html = templates["pad-round-template"]
    assert round_html.lstrip().startswith('<section class="pad-round" id="round-{round}"')
    for part in ('<tr data-row="above"><td class="num" data-part="above" data-side="NS"><span class="points">{points}</span>',
                 '<small data-if="label"> <span data-if="deal">{deal}: </span>{label}</small>',
                 '<tr data-row="below">', '<tr class="game-line" data-if="winner"><td colspan="2">Game {game}: {winner_word}</td>',
                 '<small data-if="finished"> (finished)</small>', '<p class="pad-vul" data-if="vul">',
                 '<tr data-if="nothing_above">', '<table class="pad-deals" data-if="deals">', 'data-edit="{round}-{deal}"',
                 'aria-label="Delete deal {deal} of {title}"', "WE <small>{north} &amp; {south}</small>",
                 f'action="{reverse("sessions:pad_delete_deal")}"', '<p class="pad-net" data-net="{net}">{net_text}</p>'):
        assert part in round_html, part
    for kind, rules in (("rubber", "rubber bonus 700 / 500"), ("chicago", "Chicago (four deals")):
        night = templates[f"pad-totals-{kind}"]
        assert "total over {rounds_text}" in night and rules in night and "?era={era}" in night
        assert '<tr data-row="player"><td>{name}</td><td class="num" data-player-total>{total}</td></tr>' in night
    words = json.loads(re.search(r'<script id="pad-words" type="application/json">(.*?)</script>', html).group(1))
    assert words["sides"] == {"NS": "WE", "EW": "THEY"} and words["eras"]["1932"] == "1932 laws"
    assert words["net"]["win"] == "{side} win by {margin}" and words["rounds"]["chicago"] == ["Chicago", "Chicagos"]

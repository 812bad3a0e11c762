"""Keeping a member's score pads: one row per browser pad, replaced by each sync."""

import pytest

from sessions.models import ScorePad
from sessions.scoring.scorepad import add_deal, deal_from_json, pad_from_json
from sessions.pad.services.scorepads import score_pad_delete, score_pad_save
from tests.factories import make_user

PAD = pad_from_json({"kind": "chicago", "era": "1932", "names": ["Ann", "Bob", "Cat", "Dan"]})


@pytest.mark.django_db
def test_a_sync_replaces_the_copy_of_the_same_browser_pad():
    member = make_user("member")
    first = score_pad_save(user=member, client_id="phone-1234", pad=PAD)
    later = add_deal(PAD, deal_from_json({"declarer": "N", "contract": "3NT", "tricks": 9}))
    second = score_pad_save(user=member, client_id="phone-1234", pad=later)
    assert first.pk == second.pk and ScorePad.objects.count() == 1
    stored = ScorePad.objects.get()
    assert (stored.kind, stored.era, stored.names) == ("chicago", "1932", ["Ann", "Bob", "Cat", "Dan"])
    assert stored.data == later.as_json() and stored.share_token == first.share_token


@pytest.mark.django_db
def test_two_members_may_use_the_same_browser_id_and_a_pad_can_be_deleted():
    one, two = make_user("one"), make_user("two")
    kept = score_pad_save(user=one, client_id="phone-1234", pad=PAD)
    score_pad_save(user=two, client_id="phone-1234", pad=PAD)
    assert ScorePad.objects.count() == 2
    score_pad_delete(pad=kept)
    assert list(ScorePad.objects.values_list("user__username", flat=True)) == ["two"]

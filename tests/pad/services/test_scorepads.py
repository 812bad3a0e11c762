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


@pytest.mark.django_db
def test_a_pad_a_concurrent_sync_stored_after_the_read_is_updated_not_refused(monkeypatch):
    """Two syncs of a new pad at once (the browser test of the pad pages met it on
    PostgreSQL: a 500): the other sync's row appears between this one's read and its
    save. The unique (user, client id) is the database's to enforce, and this sync then
    updates that row; the pad's own checks still run."""
    member = make_user("member")
    later = add_deal(PAD, deal_from_json({"declarer": "N", "contract": "3NT", "tricks": 9}))
    full_clean = ScorePad.full_clean

    def after_the_other_sync(pad, *args, **kwargs):
        monkeypatch.setattr(ScorePad, "full_clean", full_clean)
        ScorePad.objects.create(user=member, client_id="phone-1234", kind="chicago", era="1932",
                                names=list(PAD.names), data=PAD.as_json())  # the other sync's commit
        return full_clean(pad, *args, **kwargs)

    monkeypatch.setattr(ScorePad, "full_clean", after_the_other_sync)
    stored = score_pad_save(user=member, client_id="phone-1234", pad=later)
    assert ScorePad.objects.count() == 1
    assert ScorePad.objects.get().data == later.as_json() == stored.data

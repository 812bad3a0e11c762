"""garbage_collection_paused: the collector paused for a block, and always resumed by
the block that paused it."""

import gc

import pytest

from sessions.core.performance import garbage_collection_paused


@pytest.fixture(autouse=True)
def collector_restored():
    was_enabled = gc.isenabled()
    yield
    if was_enabled:
        gc.enable()
    else:
        gc.disable()


def test_the_collector_is_paused_in_the_block_and_resumed_after_it():
    gc.enable()
    with garbage_collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_nested_block_leaves_it_to_the_outer_one_to_resume():
    gc.enable()
    with garbage_collection_paused():
        with garbage_collection_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_it_is_resumed_after_an_error_and_left_paused_if_it_was():
    gc.enable()
    with pytest.raises(ValueError), garbage_collection_paused():
        raise ValueError("refused")
    assert gc.isenabled()
    gc.disable()
    with garbage_collection_paused():
        pass
    assert not gc.isenabled()

"""The players' pages' published sessions (tests/views/conftest.py), for the API's tests."""

from tests.views.conftest import (  # noqa: F401 (fixtures)
    PLAYED_LINES, PLAYERS, butler_session, enter, pair_id, played_session, unpublished_session,
)

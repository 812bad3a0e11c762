"""clubscore.middleware: writes taken in turn, reads never waiting for them."""

import threading

from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from clubscore.middleware import WritesInTurnMiddleware

WAIT = 5.0  # seconds: far longer than any of these steps takes


class HeldView:
    """A view that, for the POST marked "hold", waits until the test lets it go."""

    def __init__(self) -> None:
        self.holding, self.release = threading.Event(), threading.Event()
        self.running = 0
        self.most_at_once = 0
        self.lock = threading.Lock()

    def __call__(self, request):
        with self.lock:
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        try:
            if request.GET.get("hold"):
                self.holding.set()
                assert self.release.wait(WAIT)
            return HttpResponse("ok")
        finally:
            with self.lock:
                self.running -= 1


def _in_thread(target) -> threading.Thread:
    thread = threading.Thread(target=target)
    thread.start()
    return thread


@override_settings(WRITES_AT_ONCE=1)
def test_a_post_waits_for_the_one_running_while_a_get_goes_through():
    view = HeldView()
    middleware = WritesInTurnMiddleware(view)
    requests = RequestFactory()
    first = _in_thread(lambda: middleware(requests.post("/t/a/send/?hold=1")))
    assert view.holding.wait(WAIT)
    second_done = threading.Event()
    second = _in_thread(lambda: (middleware(requests.post("/t/b/send/")), second_done.set()))

    assert middleware(requests.get("/sessions/1/")).status_code == 200  # a reload: not held up
    assert not second_done.wait(0.2)  # the second post waits its turn
    view.release.set()
    first.join(WAIT)
    second.join(WAIT)
    assert second_done.is_set() and view.most_at_once == 2  # the first post and the reload, never two posts


@override_settings(WRITES_AT_ONCE=0)
def test_no_limit_lets_posts_run_together():
    view = HeldView()
    middleware = WritesInTurnMiddleware(view)
    requests = RequestFactory()
    first = _in_thread(lambda: middleware(requests.post("/t/a/send/?hold=1")))
    assert view.holding.wait(WAIT)
    assert middleware(requests.post("/t/b/send/")).status_code == 200
    view.release.set()
    first.join(WAIT)
    assert view.most_at_once == 2

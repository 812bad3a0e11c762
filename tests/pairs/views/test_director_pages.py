"""The director's other pages: dashboard, creating a session, publishing, standings, log."""

from html.parser import HTMLParser

from django.urls import reverse

from sessions.models import Pair, Player, Session
from sessions.pairs.services.results import result_correct, result_record


def test_the_dashboard_lists_the_clubs_sessions(logged_in, session):
    html = logged_in.get(reverse("sessions:director_dashboard")).content.decode()

    assert "Home Club" in html and "Tuesday Pairs" in html and session.name in html


def test_the_director_pages_need_a_login(client, session):
    response = client.get(reverse("sessions:director_dashboard"))

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert client.get(response.url).status_code == 200  # the login page exists


def test_creating_a_session_in_three_steps(logged_in, club, event):
    url = reverse("sessions:director_session_new", args=[club.slug])

    step_2 = logged_in.get(url, {"pairs": 6, "boards_per_round": 3}).content.decode()
    assert "6-pair" in step_2 and "Howell" in step_2

    step_3 = logged_in.get(url, {"pairs": 6, "boards_per_round": 3, "movement": 1}).content.decode()
    assert "3-table Mitchell, 3 rounds of 3 boards" in step_3
    assert 'name="pair_1NS_1"' in step_3

    response = logged_in.post(url, {
        "pairs": 6, "boards_per_round": 3, "movement": 1, "event": event.pk, "name": "Evening",
        "date": "2025-05-06", "pair_1NS_1": "Ann Smith", "pair_1NS_2": "Bob Jones",
    })

    session = Session.objects.get(name="Evening")
    assert response.status_code == 302
    assert response.url == reverse("sessions:director_session", args=[session.pk])
    assert (session.movement_kind, session.tables, session.boards_per_round, session.board_count) == ("mitchell", 3, 3, 9)
    assert Pair.objects.get(section__session=session, number=1, direction="NS").names == "Ann Smith & Bob Jones"
    assert Player.objects.filter(club=club).count() == 2


class _Labels(HTMLParser):
    """The page's form fields (not hidden, not buttons), and which of them a <label> names."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []  # (name, id)
        self.labelled: set[str] = set()  # ids named by a label's "for", or names wrapped by a label
        self._open_labels = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "label":
            self._open_labels += 1
            if attrs.get("for"):
                self.labelled.add(attrs["for"])
        elif tag in ("input", "select", "textarea") and attrs.get("type") not in ("hidden", "submit"):
            self.fields.append((attrs["name"], attrs.get("id", "")))
            if self._open_labels:
                self.labelled.add(attrs.get("id") or attrs["name"])

    def handle_endtag(self, tag):
        if tag == "label":
            self._open_labels -= 1


def unlabelled_fields(html: str) -> list[str]:
    parser = _Labels()
    parser.feed(html)
    return [name for name, id_ in parser.fields if (id_ or name) not in parser.labelled]


def test_every_input_of_the_new_session_page_has_a_label(logged_in, club, event):
    url = reverse("sessions:director_session_new", args=[club.slug])
    steps = [{}, {"pairs": 6, "boards_per_round": 3}, {"pairs": 6, "boards_per_round": 3, "movement": 1}]
    pages = [logged_in.get(url, query).content.decode() for query in steps]
    assert 'name="pair_3EW_2"' in pages[-1]  # the players' boxes are there to check
    assert [unlabelled_fields(page) for page in pages] == [[], [], []]
    assert '<label for="id_pair_3EW_2" class="visually-hidden">3EW player 2</label>' in pages[-1]


def test_a_session_for_too_few_pairs_is_explained(logged_in, club):
    url = reverse("sessions:director_session_new", args=[club.slug])

    response = logged_in.get(url, {"pairs": 2})

    assert response.status_code == 200
    assert b"Ensure this value is greater than or equal to 3" in response.content


def test_a_session_needs_an_event_of_the_club(logged_in, club, event, outsider):
    from tests.factories import make_event

    foreign = make_event(outsider.directed_clubs.get())
    url = reverse("sessions:director_session_new", args=[club.slug])

    response = logged_in.post(url, {"pairs": 6, "movement": 0, "event": foreign.pk, "name": "X", "date": "2025-05-06"})

    assert response.status_code == 200
    assert not Session.objects.filter(name="X").exists()


def test_publishing_and_unpublishing_from_the_session_page(logged_in, session):
    publish = reverse("sessions:director_publish", args=[session.pk])

    response = logged_in.post(publish, follow=True)
    assert b"nothing to publish" in response.content

    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="4S N =")
    asked = logged_in.post(publish)  # 17 of 18 lines missing: the director confirms first
    session.refresh_from_db()
    assert not session.published and b"17 lines of 18 are missing" in asked.content
    logged_in.post(publish, {"confirm": "1"})
    session.refresh_from_db()
    assert session.published

    logged_in.post(reverse("sessions:director_unpublish", args=[session.pk]))
    session.refresh_from_db()
    assert not session.published


def test_publishing_needs_a_post(logged_in, session):
    assert logged_in.get(reverse("sessions:director_publish", args=[session.pk])).status_code == 405


def test_the_session_page_shows_progress(logged_in, session):
    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="4S N =")

    html = logged_in.get(reverse("sessions:director_session", args=[session.pk])).content.decode()

    assert "1 of 18" in html
    assert reverse("sessions:director_board", args=[session.pk, 6]) in html
    assert reverse("sessions:director_table", args=[session.pk, "A", 3, 3]) in html


def test_provisional_standings_rank_each_field(logged_in, session):
    for ns, ew, text in [("1NS", "1EW", "4S N ="), ("2NS", "3EW", "4S N +1"), ("3NS", "2EW", "4S N -1")]:
        result_record(board=session.boards.get(number=1), section=session.sections.get(),
                      ns_pair=ns, ew_pair=ew, text=text)

    html = logged_in.get(reverse("sessions:director_standings", args=[session.pk])).content.decode()

    assert "<h2>NS</h2>" in html and "<h2>EW</h2>" in html
    ns_table = html.split("<h2>NS</h2>")[1].split("</table>")[0]
    assert ns_table.index(">2NS<") < ns_table.index(">1NS<") < ns_table.index(">3NS<")
    assert "100.00" in ns_table


def test_the_change_log_shows_who_changed_what(logged_in, session, director):
    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =", by=director).result
    result_correct(result=line, text="4S N +1", version=1, by=director)

    html = logged_in.get(reverse("sessions:director_log", args=[session.pk])).content.decode()

    assert html.index("Corrected") < html.index("Recorded")  # newest first
    assert "<td>4S N =</td><td>4S N +1</td>" in html


def test_adding_a_player_to_the_club(logged_in, club):
    url = reverse("sessions:director_players", args=[club.slug])

    response = logged_in.post(url, {"name": "Cath  Brown", "national_number": "77"})

    assert response.status_code == 302
    assert club.players.get().name == "Cath Brown"
    assert b"Cath Brown" in logged_in.get(url).content


def test_the_session_page_offers_the_exports(logged_in, session):
    html = logged_in.get(reverse("sessions:director_session", args=[session.pk])).content.decode()

    for fmt in ("xlsx", "csv", "usebio", "pbn"):
        assert reverse("sessions:transfer_export", args=[session.pk, fmt]) in html, fmt


def test_the_dashboard_offers_an_import_and_a_new_event_for_each_club(logged_in, club):
    html = logged_in.get(reverse("sessions:director_dashboard")).content.decode()

    assert reverse("sessions:transfer_import", args=[club.slug]) in html
    assert reverse("sessions:director_event_new", args=[club.slug]) in html


def test_provisional_standings_list_north_south_before_east_west(logged_in, session):
    for ns, ew, text in [("1NS", "1EW", "4S N ="), ("2NS", "3EW", "4S N +1"), ("3NS", "2EW", "4S N -1")]:
        result_record(board=session.boards.get(number=1), section=session.sections.get(),
                      ns_pair=ns, ew_pair=ew, text=text)

    html = logged_in.get(reverse("sessions:director_standings", args=[session.pk])).content.decode()

    assert html.index("<h2>NS</h2>") < html.index("<h2>EW</h2>")

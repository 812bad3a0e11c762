import pytest


@pytest.mark.django_db
def test_home_page_renders_for_anonymous_visitors(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"ClubScore" in response.content


def test_every_page_names_its_icon_and_favicon_ico_finds_it(client, db):
    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in page

    response = client.get("/favicon.ico")

    assert response.status_code == 301 and response.url == "/static/img/favicon.svg"
    from django.contrib.staticfiles import finders

    assert finders.find("img/favicon.svg")

import pytest


@pytest.mark.django_db
def test_home_page_renders_for_anonymous_visitors(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"ClubScore" in response.content

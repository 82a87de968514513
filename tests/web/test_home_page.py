"""The home page renders without any configuration."""


def test_home_page_renders(client):
    response = client.get("/")

    assert response.status_code == 200
    content = response.content.decode()
    assert "The Messengers" in content
    assert "3rd edition (2021, Big Box 7) and 3.1 (2025, Big Box 8)" in content

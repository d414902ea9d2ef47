"""The address guard: nothing is sent to loopback, private, link-local or multicast
addresses unless scholar.allow_hosts names the host; redirects are checked hop by hop."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from papermind.scholar.address_guard import AddressGuard, RefusedAddress, address_kind
from papermind.scholar.cache import MemoryCache
from papermind.scholar.http import HttpPolicy, SourceHttp
from tests.scholar.conftest import Mocks
from tests.scholar.hostile_server import HostileServer, Play
from tests.support.cli import CliRunner, library_state


@pytest.mark.parametrize(("address", "kind"), [
    ("127.0.0.1", "loopback"), ("127.9.9.9", "loopback"), ("::1", "loopback"),
    ("::ffff:127.0.0.1", "loopback"), ("10.1.2.3", "private"), ("192.168.0.5", "private"),
    ("172.16.0.1", "private"), ("169.254.169.254", "link-local"), ("fe80::1", "link-local"),
    ("224.0.0.1", "multicast"), ("ff02::1", "multicast"), ("0.0.0.0", "unspecified"),
    ("100.64.0.1", "reserved"), ("93.184.216.34", None), ("2606:4700::1111", None)])
def test_address_kinds(address: str, kind: str | None) -> None:
    assert address_kind(address) == kind


def test_a_name_resolving_to_a_private_address_is_refused() -> None:
    guard = AddressGuard.allowing([], resolve=lambda host, port: ["93.184.216.34", "10.0.0.7"])
    with pytest.raises(RefusedAddress, match="private address: nothing was sent"):
        guard.check("https://innocent.example.org/paper.pdf")
    AddressGuard.allowing([], resolve=lambda h, p: ["93.184.216.34"]).check("https://a.org/x")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/", "http://localhost/x",
                                 "http://[::1]/", "http://2130706433/", "http://127.1/",
                                 "http://x.localhost/", "file:///etc/passwd",
                                 "gopher://127.0.0.1/"])
def test_loopback_in_any_spelling_is_refused(url: str) -> None:
    with pytest.raises(RefusedAddress):
        AddressGuard.allowing([]).check(url)


def test_a_named_host_is_allowed_and_credentials_are_not_echoed() -> None:
    AddressGuard.allowing(["127.0.0.1"]).check("http://127.0.0.1:9/x")
    with pytest.raises(RefusedAddress) as err:
        AddressGuard.allowing([]).check("http://user:secret@127.0.0.1/x?api-key=k3y")
    assert "secret" not in str(err.value) and "k3y" not in str(err.value)


@pytest.fixture
def hostile() -> Iterator[HostileServer]:
    server = HostileServer({"/paper.pdf": Play(chunk=b"%PDF-1.4 secret\n")})
    yield server
    server.stop()


def _files(allow: tuple[str, ...]) -> SourceHttp:
    return SourceHttp("files", "the PDF's server", "", MemoryCache(),
                      HttpPolicy(timeout_s=1.0, max_retries=1, backoff_base_s=0.01,
                                 allow_hosts=allow))


def test_a_loopback_pdf_location_is_never_fetched(hostile: HostileServer) -> None:
    assert _files(()).fetch_bytes(f"{hostile.base_url}/paper.pdf", max_bytes=10**6) is None
    assert hostile.requests == []
    assert _files(("127.0.0.1",)).fetch_bytes(f"{hostile.base_url}/paper.pdf",
                                              max_bytes=10**6) == b"%PDF-1.4 secret\n"


def test_a_redirect_to_loopback_is_refused_at_the_hop(hostile: HostileServer) -> None:
    target = f"{hostile.base_url}/paper.pdf"
    port = hostile.base_url.rsplit(":", 1)[1]
    hostile.plays["/go"] = Play(status=302, headers=(("Location", target),), chunk=b"")
    # the first hop is allowed by name ("localhost"), its redirect to 127.0.0.1 is not
    assert _files(("localhost",)).fetch_bytes(f"http://localhost:{port}/go",
                                              max_bytes=10**6) is None
    assert hostile.requests == ["/go"]


def test_add_by_url_of_a_loopback_address_sends_nothing(
        cli: CliRunner, mocks: Mocks, home: object, monkeypatch: pytest.MonkeyPatch,
        hostile: HostileServer) -> None:
    monkeypatch.setenv("PAPERMIND_SCHOLAR__ALLOW_HOSTS", "[]")
    result = cli("add", f"{hostile.base_url}/paper.pdf", "--online")
    assert result.code == 2, result.err
    assert "loopback address: nothing was sent" in result.err
    assert hostile.requests == [] and mocks.sent() == 0
    assert library_state(home)[0] == []  # type: ignore[arg-type]


def test_refused_and_closed_ports_answer_alike(
        cli: CliRunner, mocks: Mocks, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_SCHOLAR__ALLOW_HOSTS", "[]")
    took = []
    for port in (1, mocks.openalex.base_url.rsplit(":", 1)[1]):  # closed, open
        started = time.monotonic()
        result = cli("add", f"http://127.0.0.1:{port}/x.pdf", "--online")
        took.append(time.monotonic() - started)
        assert result.code == 2 and "loopback address: nothing was sent" in result.err
    assert mocks.sent() == 0 and max(took) < 5


def test_the_web_add_by_id_of_a_loopback_url_sends_nothing(
        home: object, hostile: HostileServer) -> None:
    from pathlib import Path

    import httpx

    from papermind.api.app import create_app
    from papermind.config import ScholarSettings, load_settings
    from tests.api.server import serve

    settings = load_settings(Path(str(home))).model_copy(update={"scholar": ScholarSettings(
        enabled=True, timeout_s=0.5, max_retries=0)})
    with serve(create_app(settings)) as base, httpx.Client(base_url=base) as http:
        for url in (f"{hostile.base_url}/paper.pdf", "http://localhost:1/x.pdf",
                    "http://169.254.169.254/latest/meta-data/"):
            answer = http.post("/ui/add-by-id", data={"identifier": url})
            assert answer.status_code in (302, 303), answer.text
            assert http.get("/api/papers").json() == []
    assert hostile.requests == []


def test_requests_go_to_the_checked_address_with_the_host_kept() -> None:
    import httpx

    from papermind.scholar.transfer import Deadline, bounded_get

    seen: list[tuple[str, str, object]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append((str(request.url), request.headers["host"],
                     request.extensions.get("sni_hostname")))
        if request.url.path == "/start":
            return httpx.Response(302, headers={"Location": "/paper.pdf"})
        return httpx.Response(200, content=b"%PDF-1.4")
    guard = AddressGuard.allowing([], resolve=lambda host, port: ["93.184.216.34"])
    with httpx.Client(transport=httpx.MockTransport(answer)) as client:
        got = bounded_get(client, "https://papers.example.org/start", {}, guard=guard,
                          deadline=Deadline(5), max_bytes=100, timeout_s=1, follow=True)
    assert got.body == b"%PDF-1.4"
    assert seen == [("https://93.184.216.34/start", "papers.example.org", "papers.example.org"),
                    ("https://93.184.216.34/paper.pdf", "papers.example.org",
                     "papers.example.org")]
    rebinding = iter([["93.184.216.34"], ["127.0.0.1"]])  # a second answer: loopback
    flip = AddressGuard.allowing([], resolve=lambda host, port: next(rebinding))
    with httpx.Client(transport=httpx.MockTransport(answer)) as client, \
            pytest.raises(RefusedAddress, match="loopback"):
        bounded_get(client, "http://flip.example.org/start", {}, guard=flip,
                    deadline=Deadline(5), max_bytes=100, timeout_s=1, follow=True)

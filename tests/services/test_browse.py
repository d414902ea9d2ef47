"""Reading a paper in bounded windows: the cursor continues on the page, then on the next
page that has lines, and ends with the paper; bad positions are errors."""

from __future__ import annotations

import pytest

from papermind.domain import Line, Page, Paper
from papermind.errors import InputError, NotFoundError
from papermind.services.browse import read_lines


def paper() -> Paper:
    def page(number: int, count: int) -> Page:
        return Page(number=number, lines=[Line(page=number, n=n, text=f"p{number} l{n}")
                                          for n in range(1, count + 1)])
    return Paper(id="f" * 64, pages=[page(1, 5), page(2, 0), page(3, 2)])


def test_a_window_is_bounded_and_its_cursor_continues_on_the_page() -> None:
    window = read_lines(paper(), 1, 2, 100, max_lines=2)
    assert [ln.text for ln in window.lines] == ["p1 l2", "p1 l3"]
    assert (window.next_page, window.next_line) == (1, 4)


def test_the_cursor_skips_pages_without_lines_and_ends_with_the_paper() -> None:
    rest = read_lines(paper(), 1, 4)
    assert [ln.n for ln in rest.lines] == [4, 5] and (rest.next_page, rest.next_line) == (3, 1)
    empty = read_lines(paper(), 2)
    assert empty.lines == [] and (empty.next_page, empty.next_line) == (3, 1)
    last = read_lines(paper(), 3)
    assert [ln.text for ln in last.lines] == ["p3 l1", "p3 l2"]
    assert (last.next_page, last.next_line) == (None, None)


def test_bad_positions_are_errors() -> None:
    with pytest.raises(NotFoundError, match="page 4 does not exist"):
        read_lines(paper(), 4)
    with pytest.raises(NotFoundError, match="page 1 has 5 lines"):
        read_lines(paper(), 1, 6)
    with pytest.raises(InputError):
        read_lines(paper(), 1, 3, 2)

"""``webresearch fetch PATH`` that cannot be read: the next step fits what was typed."""

from __future__ import annotations

import pytest

from webresearch.cli.targets import is_url, path_hint


@pytest.mark.parametrize(
    ("target", "exc", "expected"),
    [
        ("example.org/page", FileNotFoundError(2, "x"), "https://example.org/page"),
        ("docs.python.org", FileNotFoundError(2, "x"), "https://docs.python.org"),
        ("localhost:8765", FileNotFoundError(2, "x"), "scheme: http://localhost:8765"),
        ("https:x.org", FileNotFoundError(2, "x"), "scheme: https://x.org"),
        ("http:8765", FileNotFoundError(2, "x"), "check the file's path"),
        ("git@github.com:foo/bar", FileNotFoundError(2, "x"), "check the file's path"),
        ("http:127.0.0.1:8765/", FileNotFoundError(2, "x"), "scheme: http://127.0.0.1:8765/"),
        ("https:/example.org/a", FileNotFoundError(2, "x"), "scheme: https://example.org/a"),
        ("missing.html", FileNotFoundError(2, "x"), "check the file's path"),
        # review n-15: the scheme without its colon
        ("http//example.org/x", FileNotFoundError(2, "x"), "scheme: http://example.org/x"),
        ("/no/dir/file.html", FileNotFoundError(2, "x"), "check the file's path"),
        ("./site", IsADirectoryError(21, "x"), "not the directory"),
        ("locked.html", PermissionError(13, "x"), "can be read"),
    ],
)
def test_the_hint_fits_the_target(target: str, exc: OSError, expected: str) -> None:
    assert expected in path_hint(target, exc)


@pytest.mark.parametrize(
    ("target", "url"),
    [
        ("https://example.org/", True),
        ("ftp://example.org/", True),
        ("javascript:alert(1)", True),  # a scheme without // is still a URL: refused as one
        ("data:text/html,x", True),
        ("example.org:8080/page", False),  # a URL typed without its scheme: path_hint helps
        ("localhost:8080", False),
        ("page.html", False),
        ("-", False),
        ("C:\\docs\\page.html", False),  # a drive letter is no scheme
        ("c:/docs/page.html", False),
    ],
)
def test_what_is_read_as_a_url(target: str, url: bool) -> None:
    assert is_url(target) is url

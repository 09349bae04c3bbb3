"""view_image's confinement: paths, links, races (real files in a temporary directory)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from webresearch.errors import InvalidArguments, TooLarge
from webresearch.images.workspace import read_workspace_file, split_workspace_path

SECRET = b"SECRET-OUTSIDE-THE-WORKSPACE"


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """(workspace, outside): a workspace with shots/a.png and a secret file next to it."""
    root = tmp_path / "ws"
    (root / "shots").mkdir(parents=True)
    (root / "shots" / "a.png").write_bytes(b"image-a")
    (root / "top.png").write_bytes(b"image-top")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes(SECRET)
    return root, outside


def _refused(root: Path, path: str, *, max_bytes: int = 1 << 20) -> InvalidArguments:
    with pytest.raises(InvalidArguments) as caught:
        read_workspace_file(root, path, max_bytes=max_bytes)
    text = caught.value.to_text()
    assert str(root.parent) not in text, "the host path must never be shown"
    return caught.value


# --- pure path rules ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "parts"),
    [
        ("shots/a.png", ["shots", "a.png"]),
        ("./shots//a.png", ["shots", "a.png"]),
        ("/workspace/shots/a.png", ["shots", "a.png"]),
        ("/workspace//shots/./a.png", ["shots", "a.png"]),
        ("shots\\a.png", ["shots", "a.png"]),
        ("~/a.png", ["~", "a.png"]),
        ("/srv/ws/shots/a.png", ["shots", "a.png"]),
    ],
)
def test_accepted_paths(path: str, parts: list[str]) -> None:
    assert split_workspace_path(path, "/srv/ws") == parts


@pytest.mark.parametrize(
    "path",
    [
        "",
        "   ",
        "../secret.png",
        "shots/../../secret.png",
        "shots/..",
        "/workspace/../etc/passwd",
        "/etc/passwd",
        "/workspaces/a.png",
        "/srv/wsx/a.png",
        "..\\..\\secret.png",
        "a.png\x00.txt",
        "/workspace",
        ".",
    ],
)
def test_refused_paths(path: str) -> None:
    with pytest.raises(InvalidArguments):
        split_workspace_path(path, "/srv/ws")


# --- the open ----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["shots/a.png", "/workspace/shots/a.png", "./shots/a.png"])
def test_reads_files_inside(tree: tuple[Path, Path], path: str) -> None:
    root, _ = tree
    assert read_workspace_file(root, path, max_bytes=100) == b"image-a"


def test_absolute_path_inside_the_workspace_is_accepted(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    assert read_workspace_file(root, str(root / "shots" / "a.png"), max_bytes=100) == b"image-a"


def test_dotdot_and_absolute_elsewhere_are_refused(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    _refused(root, "../outside/secret.png")
    _refused(root, str(outside / "secret.png"))


def test_symlink_leading_out_is_refused(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    (root / "abs.png").symlink_to(outside / "secret.png")
    (root / "rel.png").symlink_to("../outside/secret.png")
    (root / "shots" / "deep.png").symlink_to("../../outside/secret.png")
    (root / "outdir").symlink_to(outside, target_is_directory=True)
    (root / "etc").symlink_to("/etc", target_is_directory=True)
    for path in ("abs.png", "rel.png", "shots/deep.png", "outdir/secret.png", "etc/hostname"):
        err = _refused(root, path)
        assert "workspace" in err.message
        assert "outside" not in err.message.replace(path, "")  # the link target is not shown


def test_symlinks_that_stay_inside_work(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    (root / "latest.png").symlink_to("shots/a.png")
    (root / "shots" / "up.png").symlink_to("../top.png")
    (root / "alias").symlink_to("shots", target_is_directory=True)
    (root / "abs-inside.png").symlink_to(root / "shots" / "a.png")
    (root / "sandbox.png").symlink_to("/workspace/top.png")
    assert read_workspace_file(root, "latest.png", max_bytes=100) == b"image-a"
    assert read_workspace_file(root, "shots/up.png", max_bytes=100) == b"image-top"
    assert read_workspace_file(root, "alias/a.png", max_bytes=100) == b"image-a"
    assert read_workspace_file(root, "abs-inside.png", max_bytes=100) == b"image-a"
    assert read_workspace_file(root, "sandbox.png", max_bytes=100) == b"image-top"


def test_symlink_loops_end(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    (root / "a").symlink_to("b")
    (root / "b").symlink_to("a")
    assert "symbolic links" in _refused(root, "a").message


def test_missing_files_directories_and_fifos(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    assert "no file" in _refused(root, "nope.png").message
    assert "directory" in _refused(root, "shots").message
    assert "not a directory" in _refused(root, "top.png/x.png").message
    os.mkfifo(root / "pipe.png")
    assert "not a regular file" in _refused(root, "pipe.png").message  # and did not block


def test_too_large_file_is_refused_before_reading(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    (root / "big.png").write_bytes(b"x" * 1000)
    with pytest.raises(TooLarge):
        read_workspace_file(root, "big.png", max_bytes=999)


def test_missing_workspace(tmp_path: Path) -> None:
    with pytest.raises(InvalidArguments, match="workspace is not available"):
        read_workspace_file(tmp_path / "gone", "a.png", max_bytes=10)


# --- races ---------------------------------------------------------------------------------------
def _swap_before_open(monkeypatch: pytest.MonkeyPatch, name: str, swap: object) -> None:
    """Run ``swap()`` right before the walk opens component ``name`` (an attacker's move)."""
    real_open = os.open
    done: list[bool] = []

    def racing_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if path == name and not done:
            done.append(True)
            swap()  # type: ignore[operator]
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", racing_open)  # the module uses os.open


def test_file_swapped_for_a_symlink_before_the_open_is_refused(
    tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, outside = tree
    victim = root / "shots" / "a.png"

    def swap() -> None:
        victim.unlink()
        victim.symlink_to(outside / "secret.png")

    _swap_before_open(monkeypatch, "a.png", swap)
    _refused(root, "shots/a.png")


def test_directory_swapped_for_a_symlink_before_the_open_is_refused(
    tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, outside = tree
    (outside / "a.png").write_bytes(SECRET)

    def swap() -> None:
        (root / "shots").rename(root / "old")
        (root / "shots").symlink_to(outside, target_is_directory=True)

    _swap_before_open(monkeypatch, "shots", swap)
    _refused(root, "shots/a.png")


def test_concurrent_swapping_never_leaks_the_outside_file(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    stop = threading.Event()
    victim = root / "shots" / "a.png"
    link = root / "shots" / "tmp-link"

    def attacker() -> None:
        while not stop.is_set():
            try:
                link.symlink_to(outside / "secret.png")
                os.replace(link, victim)  # atomically: victim is now a link out
                victim.unlink()
                victim.write_bytes(b"image-a")  # and a plain file again
            except OSError:
                pass

    thread = threading.Thread(target=attacker)
    thread.start()
    seen = set()
    try:
        for _ in range(1500):
            try:
                seen.add(read_workspace_file(root, "shots/a.png", max_bytes=100))
            except InvalidArguments:
                seen.add(b"refused")
    finally:
        stop.set()
        thread.join()
    assert SECRET not in seen
    assert seen <= {b"image-a", b"refused", b""}


# --- a trailing slash names a directory (POSIX), never the file before it ----------------------
@pytest.mark.parametrize(
    "path",
    [
        "top.png/",
        "top.png//",
        "top.png/.",
        "top.png/./",
        "shots/a.png/",
        "/workspace/shots/a.png/",
        "/workspace/top.png/.",
        "shots\\a.png\\",
        "./top.png/",
    ],
)
def test_a_path_ending_in_a_slash_never_reads_the_file(tree: tuple[Path, Path], path: str) -> None:
    root, _ = tree
    assert "directory" in _refused(root, path).message
    with pytest.raises(InvalidArguments):
        split_workspace_path(path, str(root))


@pytest.mark.parametrize("target", ["top.png/", "top.png/.", "shots/a.png/"])
def test_a_link_whose_target_ends_in_a_slash_is_no_file(
    tree: tuple[Path, Path], target: str
) -> None:
    root, _ = tree
    (root / "link.png").symlink_to(target)
    assert "directory" in _refused(root, "link.png").message

"""``fetch -i FILE``: a list of URLs is read from a file, a pipe or stdin, never from a device
(fresh review: ``-i /dev/zero`` grew to 3 GB in 5 s, reading one endless line)."""

from __future__ import annotations

import os
from pathlib import Path

from webresearch.cli.targets import list_file_problem


def test_a_device_is_refused_with_the_next_step() -> None:
    with open("/dev/zero", encoding="utf-8") as zero:
        problem = list_file_problem(zero)
    assert problem is not None
    assert "/dev/zero: it is a character device, not a list of URLs" in problem
    assert "'-' for stdin" in problem


def test_files_pipes_and_dev_null_are_read(tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text("http://127.0.0.1:9/a\n", encoding="utf-8")
    with open(urls, encoding="utf-8") as file:
        assert list_file_problem(file) is None
    with open(os.devnull, encoding="utf-8") as null:
        assert list_file_problem(null) is None
    read_end, write_end = os.pipe()
    os.close(write_end)
    with os.fdopen(read_end, encoding="utf-8") as pipe:
        assert list_file_problem(pipe) is None
    assert list_file_problem(None) is None

"""A <pre> listing of links is lines with their links, not a code block
(extract/pre_links.py, review n-18): a web server's "Index of /" page lost its links.
Code whose names are linked stays code. Pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html

URL = "https://data.example.org/pub/rivers/"


def page(pre: str) -> str:
    return (
        "<html><head><title>Index of /pub/rivers</title></head><body>"
        f"<h1>Index of /pub/rivers</h1>{pre}<address>Apache/2.4.57 Server at "
        "data.example.org Port 443</address></body></html>"
    )


APACHE = (
    "<pre><img src='/icons/blank.gif' alt='Icon '> <a href='?C=N;O=D'>Name</a>"
    "                    <a href='?C=M;O=A'>Last modified</a>      <a href='?C=S;O=A'>Size</a>"
    "<hr><img src='/icons/back.gif' alt='[PARENTDIR]'> <a href='/pub/'>Parent Directory</a>"
    "                             -   \n"
    "<img src='/icons/text.gif' alt='[TXT]'> <a href='flow-2023.csv'>flow-2023.csv</a>"
    "           2023-04-01 10:12  1.2M  \n"
    "<img src='/icons/text.gif' alt='[TXT]'> <a href='flow-2024.csv'>flow-2024.csv</a>"
    "           2024-04-01 09:40  1.3M  \n"
    "<img src='/icons/folder.gif' alt='[DIR]'> <a href='old_data/'>old_data/</a>"
    "               2022-01-02 08:00    -   \n<hr></pre>"
)
NGINX = (
    "<hr><pre><a href='../'>../</a>\n"
    "<a href='flow-2023.csv'>flow-2023.csv</a>                  01-Apr-2023 10:12     1234567\n"
    "<a href='flow-2024.csv'>flow-2024.csv</a>                  01-Apr-2024 09:40     1334567\n"
    "<a href='old_data/'>old_data/</a>                      02-Jan-2022 08:00           -\n"
    "</pre><hr>"
)


@pytest.mark.parametrize("listing", [APACHE, NGINX])
def test_a_directory_listings_links_stay_links(listing: str) -> None:
    out = extract_html(page(listing), URL).markdown
    assert "```" not in out
    assert "[flow-2023.csv](https://data.example.org/pub/rivers/flow-2023.csv)" in out
    assert "[old\\_data/](https://data.example.org/pub/rivers/old_data/)" in out
    line = next(ln for ln in out.splitlines() if "flow-2024.csv" in ln)
    assert "2024" in line.split(")", 1)[1] and line.endswith("\\")  # one line a file


@pytest.mark.parametrize(
    "code",
    [
        # a signature with linked types (rustdoc, Javadoc): lines start with keywords
        "<pre><code>pub fn <a href='fn.read.html'>read</a>(path: &amp;<a href='struct.Path.html'>"
        "Path</a>) -&gt; <a href='type.Result.html'>Result</a>&lt;<a href='struct.Vec.html'>Vec"
        "</a>&lt;u8&gt;&gt;\npub fn <a href='fn.write.html'>write</a>(path: &amp;Path)\n"
        "pub fn <a href='fn.copy.html'>copy</a>(from: &amp;Path, to: &amp;Path)</code></pre>",
        # two linked lines only
        "<pre><a href='a.txt'>a.txt</a>  1K\n<a href='b.txt'>b.txt</a>  2K\n</pre>",
    ],
)
def test_code_with_links_stays_code(code: str) -> None:
    out = extract_html(page(code), URL).markdown
    assert "```" in out


INTRO = "<p>" + "This note walks through a short source file and what each line of it does. " * 3
INTRO += "</p>"


def article(pre: str) -> str:
    return (
        "<html><head><title>Reading main.c</title></head><body><article><h1>Reading main.c</h1>"
        f"{INTRO}{pre}{INTRO.replace('This', 'That')}</article></body></html>"
    )


CODE = ["int main(void) {", "    int x = 1;", "    if (x) {", "        x = 2;", "    }", "}"]
# a source view (OpenGrok, LXR): every line starts with a link to its own number
SOURCE_VIEW = (
    "<pre>"
    + "\n".join(f"<a class='l' name='{i}' href='#{i}'>{i}</a> {c}" for i, c in enumerate(CODE, 1))
    + "</pre>"
)
# Pygments linenos="inline", anchorlinenos=True (MkDocs Material's anchored line numbers)
PYGMENTS_INLINE = (
    "<div class='highlight'><pre><span></span>"
    + "\n".join(
        f"<a id='l-{i}' name='l-{i}'></a><a href='#l-{i}'><span class='linenos'>{i}</span></a>{c}"
        for i, c in enumerate(CODE, 1)
    )
    + "\n</pre></div>"
)
# Pygments linenos="table": a gutter <pre> of linked numbers beside the code
PYGMENTS_TABLE = (
    "<div class='highlight'><table class='highlighttable'><tr><td class='linenos'>"
    "<div class='linenodiv'><pre>"
    + "\n".join(f"<span class='normal'><a href='#l-{i}'>{i}</a></span>" for i in range(1, 7))
    + "</pre></div></td><td class='code'><div><pre>"
    + "\n".join(f"<a id='l-{i}' name='l-{i}'></a>{c}" for i, c in enumerate(CODE, 1))
    + "\n</pre></div></td></tr></table></div>"
)


@pytest.mark.parametrize("code", [SOURCE_VIEW, PYGMENTS_INLINE, PYGMENTS_TABLE])
def test_code_with_linked_line_numbers_stays_code(code: str) -> None:
    out = extract_html(article(code), "https://src.example.org/xref/main.c").markdown
    assert "```" in out
    assert "        x = 2;" in out  # its indentation kept
    assert "](https://src.example.org/xref/main.c#" not in out  # no line of links


def test_a_listing_in_a_highlight_block_is_code() -> None:
    listing = NGINX.replace("<hr><pre>", "<div class='highlight'><pre>").replace(
        "</pre><hr>", "</pre></div>"
    )
    out = extract_html(page(listing), URL).markdown
    assert "```" in out and "[flow-2023.csv]" not in out

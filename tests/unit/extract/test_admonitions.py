"""A documentation admonition's title is bold on a line of its own (extract/admonitions.py,
review, session 17), on pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html

URL = "https://docs.example.org/install"
LEAD = (
    "<p>The installer copies the service files, writes a default configuration and starts "
    "the daemon; it takes about two minutes on a small machine.</p>"
)
AFTER = (
    "<p>Once it is done, open the dashboard on port 8080 and sign in with the account you "
    "created during the first step of this guide.</p>"
)


def doc_page(callout: str) -> str:
    return (
        "<html><head><title>Install</title></head><body><main><h1>Install the service</h1>"
        f"{LEAD}{callout}{AFTER}</main></body></html>"
    )


@pytest.mark.parametrize(
    ("callout", "title"),
    [
        (  # Sphinx and MkDocs
            "<div class='admonition note'><p class='admonition-title'>Note</p>"
            "<p>Run the installer as an administrator on every machine.</p></div>",
            "Note",
        ),
        (  # Docusaurus: a CSS module's class, an icon before the title
            "<div class='theme-admonition alert admonition_xJq3'><div class='admonitionHeading_Gu2k'>"
            "<span class='admonitionIcon_Rf37'><svg viewBox='0 0 1 1'></svg></span>Warning</div>"
            "<div class='admonitionContent_BuS1'><p>Run the installer as an administrator on "
            "every machine.</p></div></div>",
            "Warning",
        ),
        (  # an inline title before the body's text
            "<div class='note'><span class='admonition-title'>Tip</span> Run the installer as "
            "an administrator on every machine.</div>",
            "Tip",
        ),
    ],
)
def test_an_admonition_title_is_bold_on_its_own_line(callout: str, title: str) -> None:
    markdown = extract_html(doc_page(callout), URL).markdown
    assert f"**{title}**\n\nRun the installer as an administrator" in markdown


def test_a_see_also_admonitions_links_are_kept() -> None:
    callout = (
        "<div class='admonition seealso'><p class='admonition-title'>See also</p>"
        "<p><a href='/config/'>Configuration</a>, <a href='/themes/'>Themes</a></p></div>"
    )
    page = (
        "<html><head><title>Cache</title></head><body><div class='document'>"
        "<div class='body' role='main'><section><h1>Configuring the cache</h1>"
        "<p>The tool keeps a disk cache of compiled templates.</p>"
        f"<p>Set <code>CACHE_DIR</code> to move it.</p>{callout}</section></div></div>"
        "</body></html>"
    )  # Sphinx's layout: the box last on a short page (review n-17)
    markdown = extract_html(page, URL).markdown
    assert "**See also**\n\n[Configuration](https://docs.example.org/config/)" in markdown
    assert "[Themes]" in markdown


def test_a_see_also_admonitions_list_of_links_is_kept() -> None:
    # Four links or more made the whole box a link farm to trafilatura's test of <div>s:
    # the title and the list went together (review n-18).
    pages = ["Configuration", "Themes", "Plugins", "Deployment", "Logging"]
    items = "".join(f"<li><a href='/{name.lower()}/'>{name}</a></li>" for name in pages)
    callout = (
        "<div class='admonition seealso'><p class='admonition-title'>See also</p>"
        f"<ul>{items}</ul></div>"
    )
    page = (
        "<html><head><title>Cache</title></head><body><div class='document'>"
        "<div class='body' role='main'><section><h1>Configuring the cache</h1>"
        "<p>The tool keeps a disk cache of compiled templates, keyed by each template's path "
        f"and modification time.</p>{callout}<h2>Limits</h2><p>The cache grows until it "
        "reaches <code>CACHE_MAX</code> bytes; the oldest entries go first.</p></section>"
        "</div></div></body></html>"
    )
    markdown = extract_html(page, URL).markdown
    assert "**See also**\n\n- [Configuration](https://docs.example.org/configuration/)" in markdown
    assert "- [Logging](https://docs.example.org/logging/)" in markdown
    assert markdown.index("See also") < markdown.index("## Limits")


def test_a_box_of_site_links_that_is_no_admonition_still_goes() -> None:
    items = "".join(f"<li><a href='/{n}/'>{n.title()}</a></li>" for n in ("a", "b", "c", "d"))
    page = (
        "<html><head><title>Cache</title></head><body><main><h1>Configuring the cache</h1>"
        f"{LEAD}<div class='sidebar-box'><p>Pages</p><ul>{items}</ul></div>{AFTER}"
        "</main></body></html>"
    )
    markdown = extract_html(page, URL).markdown
    assert "The installer copies" in markdown and "[B]" not in markdown


@pytest.mark.parametrize("klass", ["tip", "seealso", "admonition note", "info inline end"])
def test_a_collapsible_see_also_box_is_kept_with_its_title_bold(klass: str) -> None:
    # MkDocs Material's collapsible admonition, <details> with a <summary> title: its list of
    # links went whole as the <div> form's did before (review n-18 M2)
    pages = ["Compose", "Volumes", "Networks", "Logging"]
    items = "".join(f"<li><a href='/{name.lower()}/'>{name}</a></li>" for name in pages)
    page = (
        "<html><head><title>Deploy</title></head><body><main><article><h1>Deploying</h1>"
        "<p>The service runs in any container platform; this guide covers Docker and its "
        "compose files, then Kubernetes.</p><h2>Docker</h2><p>Build the image with the "
        "provided Dockerfile and run it with port 8080 exposed.</p>"
        f"<details class='{klass}'><summary>See also</summary><ul>{items}</ul></details>"
        "<h2>Kubernetes</h2><p>Apply the manifests in the deploy directory; the service "
        "listens on port 8080.</p></article></main></body></html>"
    )
    markdown = extract_html(page, URL).markdown
    assert "**See also**\n\n- [Compose](https://docs.example.org/compose/)" in markdown
    assert "- [Logging](https://docs.example.org/logging/)" in markdown


def test_a_details_box_of_another_class_is_no_admonition() -> None:
    page = doc_page(
        "<details class='spoiler'><summary>Answer</summary><p>Run it twice.</p></details>"
    )
    markdown = extract_html(page, URL).markdown
    assert "**Answer**" not in markdown

"""The menu a collapsed aria-haspopup button opens is left out; other panels stay."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.closed_popups import closed_popups, popup_controls
from webresearch.extract.html import extract_html

DEPARTMENTS = ("Garden", "Kitchen", "Bathroom", "Lighting", "Flooring", "Paint", "Tools", "Doors")
PROSE = (
    "<h1>Oak garden bench</h1><p>This bench is made of solid English oak, seats three adults "
    "and weathers to a silver grey within a year; it needs no oil and no cover in winter.</p>"
    "<p>It arrives assembled and weighs forty kilograms, so two people can carry it to any "
    "corner of the garden, the patio or the front porch without tools of any kind.</p>"
    "<p>Every bench is signed by the joiner who made it and is guaranteed for ten years "
    "against rot, splits and loose joints, wherever in the country it stands.</p>"
)


def flyout(haspopup: str, expanded: str, panel: str) -> str:
    return (
        f"<button aria-haspopup='{haspopup}' aria-expanded='{expanded}' "
        f"aria-controls='dept-panel'>Shop by department</button>"
        f"<div id='dept-panel'>{panel}</div>"
    )


#: A mega-menu panel: a link and a line per department (trafilatura keeps such text).
MENU = "".join(
    f"<p><a href='/d/{d.lower()}'>{d} department</a> with low prices on all of it, every day</p>"
    for d in DEPARTMENTS
)


def page(body: str) -> str:
    return f"<html><head><title>Bench</title></head><body><main>{body}</main></body></html>"


def test_a_closed_menu_of_links_is_left_out() -> None:
    markdown = extract_html(
        page(flyout("true", "false", MENU) + PROSE), "https://o.example/"
    ).markdown
    assert "solid English oak" in markdown
    assert "department" not in markdown.replace("Shop by department", "")
    assert "low prices" not in markdown


def test_an_open_menu_and_a_disclosure_panel_stay() -> None:
    for body in (flyout("true", "true", MENU), flyout("false", "false", MENU)):
        roots = etree.fromstring(f"<div>{body}</div>")
        assert closed_popups(roots, None) == []


def test_a_closed_dialog_of_prose_stays() -> None:
    panel = (
        "<p>Delivery takes three to five working days; a bench that arrives damaged is "
        "replaced free. <a href='/delivery'>Delivery terms</a> <a href='/returns'>Returns</a> "
        "<a href='/contact'>Contact us</a></p>"
    )
    root = etree.fromstring(f"<div>{flyout('dialog', 'false', panel)}</div>")
    assert closed_popups(root, None) == []
    menu = etree.fromstring(f"<div>{flyout('menu', 'false', MENU)}</div>")
    assert [el.get("id") for el in closed_popups(menu, None)] == ["dept-panel"]


def test_controls_are_read_from_the_served_markup() -> None:
    markup = (
        "<nav><BUTTON class=a aria-haspopup=true aria-expanded='false' aria-controls=\"m1 m2\">"
        "Shop</BUTTON><a aria-haspopup='dialog' aria-expanded=\"false\" aria-controls='d&amp;1'>"
        "<button aria-haspopup='true' aria-expanded='true' aria-controls='open'>"
        "<button aria-expanded='false' aria-controls='acc'><span aria-haspopup='false' "
        "aria-expanded='false' aria-controls='no'>"
    )
    assert popup_controls(markup) == {"m1": 0.3, "m2": 0.3, "d&1": 0.8}
    assert popup_controls("<p>no popups</p>") == {}

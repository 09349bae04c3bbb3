"""A heading inside a layout table's cell stays a heading (review of session 10): a product
page laid out with a table gave ``**Steel Kettle** $10``, its name flattened into one line
with the price. A data table's cell still holds it as bold text (a pipe table's cell is one
line)."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://kettles.example.net/steel"
DESCRIPTION = (
    "<p>This kettle boils a litre of water in three minutes, switches itself off, and keeps "
    "its handle cool while it pours; the base turns all the way round.</p>"
) * 3


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body>{body}</body></html>"), URL)


def test_a_product_name_in_a_layout_cell_is_a_heading_and_its_price_a_line() -> None:
    page = (
        "<html><head><title>Kettles</title></head><body><main><table><tr><td>"
        "<h1>Steel Kettle</h1><span class='price'>$10</span></td></tr></table>"
        f"{DESCRIPTION}<button>Add to cart</button></main></body></html>"
    )
    out = extract_html(page, URL).markdown
    assert out.startswith("# Steel Kettle\n\n$10\n\nThis kettle boils")


def test_layout_tables_keep_headings_and_data_tables_bold_them() -> None:
    layouts = [
        "<table role='presentation'><tr><td><h2>Kettle</h2>$10</td><td>In stock</td></tr>"
        "<tr><td>a</td><td>b</td></tr></table>",
        "<table><tr><td><h2>Kettle</h2>$10</td><td>In stock</td></tr></table>",  # one row
        "<table><tr><td><h2>Kettle</h2>$10</td></tr><tr><td>x</td></tr></table>",  # one column
        "<table><tr><td><h2>Kettle</h2>$10<table><tr><td>x</td></tr></table></td><td>y</td>"
        "</tr><tr><td>a</td><td>b</td></tr></table>",  # nested
    ]
    for table in layouts:
        assert md(table).startswith("## Kettle\n\n$10"), table
    data = "<table><tr><th>Name</th><th>Price</th></tr><tr><td><h3>Kettle</h3></td><td>$10</td></tr></table>"
    assert md(data) == "| Name | Price |\n|---|---|\n| **Kettle** | $10 |"

"""Page readers and screenshot services behind web_fetch and page_screenshot (issue 8)."""

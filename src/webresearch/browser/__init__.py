"""The browser tool over the Chrome DevTools Protocol (the only place the browser library is used)."""

"""The per-URL gates of every tool that takes a URL, in one place: the domain policy, then
robots.txt.

Where they run:

* the URL a model chose — before any cache lookup — in web_fetch, fetch_image, and the
  screenshot service (:meth:`AccessPolicy.check`);
* every hop of a guarded fetch (web_fetch's local reader, fetch_image), redirects
  included: :meth:`AccessPolicy.hop_gate`, given to :meth:`GuardedClient.get`;
* what a cache or a hosted service reports (redirect hops, the final URL): the hops of a
  cached result or of a page Firecrawl/Jina fetched (:meth:`AccessPolicy.check_hops`);
* the browser: its request policy applies the same :class:`DomainPolicy` to every request
  (navigations, redirect hops, subresources) and :meth:`AccessPolicy.check_robots` to
  top-level navigations (``open``, browser_open, web_fetch's render, page_screenshot).

robots.txt is checked only when ``robots = "respect"`` (the default for model-initiated
calls; the CLI's own commands set ``ignore`` unless ``--respect-robots``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..errors import NetworkError, Timeout, TLSError
from .domains import DomainPolicy
from .robots import RobotsChecker

__all__ = ["AccessPolicy"]


class AccessPolicy:
    """The domain policy and robots.txt for the URLs of one process.

    Args:
        domains: the domain policy.
        robots: the robots.txt checker, or ``None`` when robots.txt is ignored.
    """

    def __init__(self, domains: DomainPolicy, robots: RobotsChecker | None = None) -> None:
        self.domains = domains
        self.robots = robots

    async def check(self, url: str, *, redirect: bool = False, service: bool = False) -> None:
        """Both gates for one URL: the domain policy, then robots.txt.

        Args:
            url: the URL about to be fetched.
            redirect: the model did not choose it (a redirect hop): refusals do not echo it.
            service: a hosted service (page reader, screenshot service) fetches the URL
                from its own network: when this host cannot reach the site to read its
                robots.txt at all, there is no verdict to apply and the URL goes on.

        Raises:
            BlockedDomain: the domain policy refuses its host.
            RobotsDisallowed: robots.txt disallows it (or could not be fetched).
            NetworkError, TLSError, Timeout: the site cannot be reached (found fetching
                robots.txt; nothing was fetched).
        """
        self.domains.check(url, redirect=redirect)
        try:
            await self.check_robots(url, redirect=redirect)
        except (NetworkError, TLSError, Timeout):
            if not service:
                raise

    async def check_robots(self, url: str, *, redirect: bool = False) -> None:
        """robots.txt alone (the browser's request policy applies the domain policy itself).

        Raises:
            RobotsDisallowed, NetworkError, TLSError, Timeout: see :meth:`check`.
        """
        if self.robots is not None:
            await self.robots.check(url, redirect=redirect)

    async def check_hops(self, urls: Iterable[str], *, service: bool = False) -> None:
        """Both gates for URLs the model did not choose: the redirect hops and final URL of
        a cached result, or of a page a hosted service fetched.

        Raises:
            as :meth:`check`.
        """
        seen: set[str] = set()
        for url in urls:
            if url and url not in seen:
                seen.add(url)
                await self.check(url, redirect=True, service=service)

    async def check_provenance(self, meta: Mapping[str, object], *, service: bool = False) -> None:
        """:meth:`check_hops` over a result's provenance: its redirect targets
        (``redirects``: ``[[status, url], …]``) and its ``final_url``.

        Raises:
            as :meth:`check`.
        """
        urls: list[str] = []
        redirects = meta.get("redirects")
        if isinstance(redirects, list):
            urls += [str(hop[1]) for hop in redirects if isinstance(hop, list | tuple) and hop[1:]]
        final = meta.get("final_url")
        if isinstance(final, str):
            urls.append(final)
        await self.check_hops(urls, service=service)

    async def hop_gate(self, url: str, hop: int) -> None:
        """:meth:`check` as the guarded client's per-hop gate (``hop`` 0 is the URL asked
        for, later hops are redirects)."""
        await self.check(url, redirect=hop > 0)

"""Country codes and language tags as search providers take them, checked against the
Unicode CLDR data that Babel ships (the codes a provider's ``country`` / ``language`` can
mean), not only for their form: ``uk`` has the form of a country code but no country has
it (the United Kingdom is ``gb``; session 10 review).

* A country is an ISO 3166-1 alpha-2 code (``us``, ``DE``, any case): one of the 249
  officially assigned. CLDR's two-letter regions also hold codes that are no country: the
  exceptionally reserved ``AC``, ``CP``, ``CQ``, ``DG``, ``EA``, ``EU``, ``EZ``, ``IC``,
  ``TA``, ``UN`` and the user-assigned ``QO``, ``XA``, ``XB``, ``XK``, ``ZZ``; they are
  refused. A retired or informal code CLDR knows (``UK``, ``SU``) names its successor.
* A language tag is a BCP 47 (RFC 5646 §2.1) language subtag that CLDR names (ISO 639,
  2-3 letters), an optional script (4 letters) and an optional region (a country as above,
  or a UN M.49 area of 3 digits such as ``419``): ``en``, ``pt-BR``, ``zh-Hans``,
  ``es-419``. A deprecated subtag (``iw``, ``in``) or a three-letter one that has a
  two-letter form (``eng``) names the one to use.

Pure: a code in, ``None`` or the reason it is refused out. Babel is imported on first use
(about 50 ms), never when no code is given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

__all__ = [
    "COUNTRY_FORM",
    "LANGUAGE_FORM",
    "LanguageTag",
    "country_problem",
    "language_problem",
    "language_tag",
]

#: What a language code must be (said when one is refused).
LANGUAGE_FORM = "a language tag (BCP 47) like en, pt-BR or zh-Hans"
#: What a country code must be (said when one is refused).
COUNTRY_FORM = "a two-letter country code (ISO 3166-1 alpha-2) like us or de"

#: CLDR regions of two letters that are no country of ISO 3166-1 (see the module docstring).
_NOT_ISO_COUNTRIES = frozenset(
    {"AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "TA", "UN", "QO", "XA", "XB", "XK", "ZZ"}
)
#: A language tag's parts (RFC 5646 §2.1, without extensions or private use).
_TAG = re.compile(
    r"(?P<language>[A-Za-z]{2,3})(?:-(?P<script>[A-Za-z]{4}))?"
    r"(?:-(?P<region>[A-Za-z]{2}|[0-9]{3}))?"
)


def _names(kind: str) -> dict[str, str]:
    """CLDR's English names of ``territories``, ``languages`` or ``scripts`` by code
    (Babel caches the locale's data)."""
    from babel import Locale

    names: dict[str, str] = getattr(Locale("en"), kind)
    return names


def _global(key: str) -> Mapping[str, object]:
    """One of Babel's CLDR tables (``territory_aliases``, ``language_aliases``)."""
    from babel.core import get_global

    return get_global(key)  # type: ignore[arg-type]  # Babel types the keys as literals


def country_problem(code: str) -> str | None:
    """Why ``code`` is no ISO 3166-1 alpha-2 country code, or ``None`` when it is one.

    Returns:
        e.g. ``no country has this code (United Kingdom is gb)``, ``a country code is two
        letters``; never the code itself (the caller shows it).
    """
    upper = code.upper()
    if not (len(upper) == 2 and upper.isalpha() and upper.isascii()):
        return "a country code is two letters"
    countries = _names("territories")
    if upper in countries and upper not in _NOT_ISO_COUNTRIES:
        return None
    successors = _global("territory_aliases").get(upper)
    if isinstance(successors, list) and successors:
        named = [f"{countries.get(s, s)} is {s.lower()}" for s in successors[:3]]
        more = ", …" if len(successors) > 3 else ""
        return f"no country has this code ({', '.join(named)}{more})"
    return "no country has this code"


def language_problem(tag: str) -> str | None:
    """Why ``tag`` is no language tag a provider takes, or ``None`` when it is one.

    Returns:
        e.g. ``an old code: Hebrew is he`` (``iw``), ``no language has this code``
        (``xx``), ``script 'Hanz': no script has this code``, ``region 'UK': no country
        has this code (United Kingdom is gb)``; a part of a longer tag is named.
    """
    match = _TAG.fullmatch(tag)
    if match is None:
        return "a tag is a language code, then optionally -Script and -REGION"
    language = match["language"].lower()
    # A part of a longer tag is named; a tag of one part is shown by the caller already.
    part = f"language {match['language']!r}: " if match.end("language") < len(tag) else ""
    if language not in _names("languages"):
        instead = _global("language_aliases").get(language)
        if isinstance(instead, str) and instead.replace("_", "").isalpha():
            name = _names("languages").get(instead.split("_")[0], instead)
            what = "a three-letter code" if len(language) == 3 else "an old code"
            return f"{part}{what}: {name} is {instead.replace('_', '-')}"
        return f"{part}no language has this code"
    script = match["script"]
    if script is not None and script.title() not in _names("scripts"):
        return f"script {script!r}: no script has this code"
    region = match["region"]
    if region is None:
        return None
    if region.isdigit():
        return (
            None if region in _names("territories") else f"area {region!r}: no area has this code"
        )
    why = country_problem(region)
    return None if why is None else f"region {region!r}: {why}"


class LanguageTag(NamedTuple):
    """A language tag's parts in their canonical case (RFC 5646 §2.1.1).

    Attributes:
        language: ``pt`` (lower case).
        script: ``Hans`` (title case), or ``None``.
        region: ``BR`` (upper case) or ``419`` (UN M.49 digits), or ``None``.
    """

    language: str
    script: str | None
    region: str | None

    def __str__(self) -> str:
        return "-".join(p for p in (self.language, self.script, self.region) if p)


def language_tag(tag: str) -> LanguageTag:
    """The parts of a tag :func:`language_problem` accepts (form only: no Babel, no I/O).

    Raises:
        ValueError: ``tag`` has not the form of a language tag.
    """
    match = _TAG.fullmatch(tag.strip())
    if match is None:
        raise ValueError(f"not a language tag: {tag!r}")
    script, region = match["script"], match["region"]
    return LanguageTag(
        match["language"].lower(),
        script.title() if script else None,
        region.upper() if region else None,
    )

"""How a person writes a browser action on one line (``webresearch browse``), declared by each
row of the action table (:data:`webresearch.tools.browser_actions.ACTIONS`) next to what the
model sees, so the CLI's parser and its help derive from the same table as the tool's schema.

    fill '#user name' alice smith   →  {"action": "fill", "selector": "#user name", "text": "alice smith"}

A line is the action's name (or an alias) and its words. Required parameters take the words
in order; optional ones take any remaining word that has their shape (a number, one of their
choices, ``X,Y,W,H``, a ref), in any order. Pure data: no parsing happens here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ActionParam", "BrowserActionInfo", "ParamKind"]

#: How a parameter reads words:
#:
#: * ``word`` — one word, as is (``url``, ``key``);
#: * ``target`` — one word: a snapshot ref (``d1e5``) fills ``ref``, anything else ``selector``;
#: * ``ref`` — one word shaped like a ref;
#: * ``text`` — the remaining words, joined by single spaces;
#: * ``source`` — the rest of the line exactly as typed (JavaScript);
#: * ``int`` — one non-negative whole number;
#: * ``choice`` — one of :attr:`ActionParam.choices`;
#: * ``flag`` — the word :attr:`ActionParam.label` itself sets the argument to true;
#: * ``region`` — ``X,Y,W,H`` (four whole numbers).
ParamKind = Literal["word", "target", "ref", "text", "source", "int", "choice", "flag", "region"]


@dataclass(frozen=True, slots=True)
class ActionParam:
    """One parameter of an action line.

    Attributes:
        argument: the tool argument it fills (``target`` fills ``ref`` or ``selector``).
        kind: how it reads words (:data:`ParamKind`).
        label: how the help names it (``URL``, ``SELECTOR|REF``; for a flag, the word).
        optional: it may be left out (it is then matched by shape, in any order).
        choices: the words a ``choice`` accepts.
        minimum: the smallest number an ``int`` accepts.
    """

    argument: str
    kind: ParamKind
    label: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    minimum: int = 0

    @property
    def usage(self) -> str:
        """The parameter in a usage line: ``URL``, ``[PX]``."""
        return f"[{self.label}]" if self.optional else self.label


@dataclass(frozen=True, slots=True)
class BrowserActionInfo:
    """A browser action as people see it (``webresearch.browser_actions()``).

    Attributes:
        name: the action's one name (the ``action`` argument).
        aliases: other names accepted for it (``navigate``, ``eval``).
        summary: what it does, in a few words (the help's second column).
        params: its words on an action line, in order.
        pictures: its result may hold pictures (the CLI saves them to a file).
    """

    name: str
    aliases: tuple[str, ...]
    summary: str
    params: tuple[ActionParam, ...]
    pictures: bool = False

    @property
    def usage(self) -> str:
        """The action line's form: ``fill SELECTOR|REF TEXT``."""
        return " ".join([self.name, *(p.usage for p in self.params)])

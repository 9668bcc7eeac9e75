"""Names as people give them: the one check of a player's, a seat's or a
guest's name on its way in, so that no name shows as another.

A name is enforced with the PRECIS Nickname profile (RFC 8266, in RFC
8264's framework; the ``precis-i18n`` package), its case kept for showing:
spaces of any kind become one ASCII space and none is left at either end,
and NFKC maps wide, narrow and other compatibility forms to their plain
ones ("Ａｎｎ" is "Ann"). The profile refuses what is not text one can see
and tell apart: control characters, format characters (a bidi override, a
zero-width space) and code points Unicode has not assigned. Beyond the
profile, a name must keep something after the mapping (not blank), and its
letters may not mix scripts that are not written together (a Cyrillic "а"
among Latin letters is the classic look-alike); Latin with Han, Hiragana,
Katakana, Hangul or Bopomofo is how Chinese, Japanese and Korean names are
written, and allowed. A letter's script is read from its Unicode name (its
first word), which holds for every script names are written in.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from precis_i18n import get_profile
from precis_i18n.profile import Profile

#: The longest name, counted after it is mapped.
MAX_LENGTH = 40
#: The scripts that may be mixed in one name (each name's letters within one of these sets, or one script).
_WRITTEN_TOGETHER = ({"LATIN", "CJK", "HIRAGANA", "KATAKANA"}, {"LATIN", "CJK", "BOPOMOFO"},
                     {"LATIN", "CJK", "HANGUL"})


class NameRefused(Exception):
    """A name that cannot be used; ``detail`` says why, to a person."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


@cache
def _profile(name: str) -> Profile:
    return get_profile(name)


def normalised(name: str) -> str:
    """``name`` as it is kept and shown; :class:`NameRefused` if it cannot be one."""
    try:
        mapped: str = _profile("NicknameCasePreserved").enforce(name)
    except UnicodeEncodeError as error:
        raise NameRefused(_why(error)) from None
    if len(mapped) > MAX_LENGTH:
        raise NameRefused(f"A name is at most {MAX_LENGTH} characters long.")
    scripts = {_script(c) for c in mapped if unicodedata.category(c).startswith("L")}
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in _WRITTEN_TOGETHER):
        raise NameRefused(f"A name cannot mix the letters of {' and '.join(sorted(s.title() for s in scripts))}:"
                          " it could pass for another name.")
    return mapped


def _script(letter: str) -> str:
    """A letter's script, as its Unicode name begins ("LATIN", "CYRILLIC", "CJK" for Han, ...)."""
    return unicodedata.name(letter, "UNKNOWN").split(" ")[0].split("-")[0]


#: What the profile refuses, by Unicode general category, in words.
_KINDS = {"Cc": "a control character", "Cf": "an invisible formatting character (a direction override or a"
          " zero-width character, say)", "Cn": "a character Unicode has not assigned",
          "Co": "a private-use character", "Cs": "half of a surrogate pair"}


def _why(error: UnicodeEncodeError) -> str:
    """Why the profile refused a name, as a sentence."""
    if error.reason.endswith("/empty"):
        return "A name needs something to show: this one is blank."
    bad = str(error.object)[error.start:error.end][:1]
    if not bad:
        return "A name cannot hold this text."
    kind = _KINDS.get(unicodedata.category(bad), "a character names cannot hold")
    return f"A name cannot hold {kind} (U+{ord(bad):04X})."

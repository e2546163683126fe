"""Every yaku the engine can score has an English, Japanese and Chinese label in the client
(a missing one showed its raw id, "sanshoku_doujun", on the win screen)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.rules.scoring.yaku import REGULAR, YAKUMAN

I18N = Path(__file__).resolve().parents[2] / "static" / "js" / "i18n.js"
#: what the scorer adds beside the yaku: dora, red fives, ura, sanma's kita; and the draw
EXTRA = {"dora", "aka", "ura", "kita", "nagashi_mangan"}


def _labels() -> tuple[set[str], set[str]]:
    text = I18N.read_text(encoding="utf-8")
    en_ja = set(re.findall(r'\["(\w+)", "[^"]+", "[^"]+"\]', text))
    start = text.index("const YAKU_ZH = {")
    zh = set(re.findall(r"(\w+): \"", text[start : text.index("};", start)]))
    return en_ja, zh


def test_every_scored_yaku_has_a_label_in_every_language() -> None:
    names = {y.name for y in REGULAR} | {y.name for y in YAKUMAN} | EXTRA
    en_ja, zh = _labels()
    assert len(names) > 50
    assert sorted(names - en_ja) == []
    assert sorted(names - zh) == []

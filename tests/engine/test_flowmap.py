"""The checked-in event-flow map is what the code generates."""

from pathlib import Path

from engine.game.flowmap import edges, render

DOC = Path(__file__).resolve().parents[2] / "docs" / "event-flow.md"


def test_event_flow_doc_is_up_to_date() -> None:
    assert DOC.read_text() == render(), "run: python -m engine.game.flowmap > docs/event-flow.md"


def test_a_discard_leads_to_claims_and_a_tsumo_answer_to_agari() -> None:
    found = set(edges())
    assert ("Discard", "WaitPlayerAction", "") in found
    assert ("WaitPlayerAction", "Agari", "TSUMO") in found
    assert ("Discard", "DoraRevealed", "") in found

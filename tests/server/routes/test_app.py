"""The HTTP and WebSocket protocol through Starlette's TestClient (no network)."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from server.edge.codec import encode
from server.edge.messaging import (
    Answer,
    Answered,
    End,
    Hello,
    InquiryMsg,
    Snapshot,
    Welcome,
    WireError,
    decode_server,
)
from server.version import VERSION
from tests.server.http import TestClient
from tests.server.live import by_place

JSON = {"content-type": "application/json"}


def test_health_and_presets(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"ok": True, "version": VERSION}
    assert {"tenhou-hanchan", "tenhou-tonpuu"} <= {
        p["name"] for p in client.get("/api/presets").json()["presets"]
    }


def test_room_requests_that_cannot_be_met_get_clear_errors(client: TestClient) -> None:
    bad = client.post("/api/rooms", json={"preset": "mahjong-soul"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_preset"
    assert client.post("/api/rooms", json={"bots": 5}).json()["code"] == "bad_bots"
    assert client.post("/api/rooms", content=b"{nope", headers=JSON).json()["code"] == "bad_request"
    assert client.post("/api/rooms", json={"colour": "red"}).json()["code"] == "bad_request"
    assert client.post("/api/rooms/ZZZZZZ/join", json={}).status_code == 404
    assert client.get("/api/games/nope/record").status_code == 404


def test_a_room_fills_by_code_and_a_fifth_player_is_refused(client: TestClient) -> None:
    grant = client.post("/api/rooms", json={"name": "A", "bots": 0, "public": True}).json()
    code = grant["room"]["code"]
    assert grant["room"]["practice"] is False and len(grant["room"]["commitment"]) == 64
    chosen = client.post("/api/rooms", json={"bots": 0, "seed": 7, "public": False})
    assert chosen.status_code == 400 and chosen.json()["code"] == "seed_not_allowed"
    assert len(code) == 6 and len(grant["token"]) >= 40
    assert [r["code"] for r in client.get("/api/rooms").json()["rooms"]] == [code]
    tokens = {grant["token"]}
    for name in "BCD":
        joined = client.post(f"/api/rooms/{code.lower()}/join", json={"name": name}).json()
        tokens.add(joined["token"])
    assert len(tokens) == 4
    room = client.get(f"/api/rooms/{code}").json()
    assert room["status"] == "playing"  # full: started, the seats drawn from the seed
    assert [s["name"] for s in by_place(room["seats"], room["draw"])] == ["A", "B", "C", "D"]
    late = client.post(f"/api/rooms/{code}/join", json={"name": "E"})
    assert late.status_code == 409 and late.json()["code"] == "started"


def test_an_unknown_token_is_refused_and_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/play") as ws:
        ws.send_text(encode(Hello("forged")))
        error = decode_server(ws.receive_text())
        assert isinstance(error, WireError) and error.code == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 4001


def test_a_player_plays_a_tonpuusen_with_three_bots_to_the_end(client: TestClient) -> None:
    body = {"name": "Solo", "preset": "tenhou-tonpuu", "bots": 3, "base_s": 5, "bank_s": 5}
    grant = client.post("/api/rooms", json=body).json()
    game = grant["room"]["game"]
    answered = 0
    with client.websocket_connect("/ws/play") as ws:
        ws.send_text(encode(Hello(grant["token"])))
        welcome = decode_server(ws.receive_text())
        assert isinstance(welcome, Welcome) and welcome.seat == grant["seat"]  # drawn
        while True:
            msg = decode_server(ws.receive_text())
            inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
            if isinstance(inquiry, InquiryMsg):
                choice = inquiry.default
                ws.send_text(encode(Answer(inquiry.id, choice.action, choice.option)))
            if isinstance(msg, Answered):  # taken (a bot's ron may settle a claim first)
                assert not msg.timeout
                answered += 1
            if isinstance(msg, End):
                break
    assert answered > 20
    record = client.get(f"/api/games/{game}/record").json()
    assert record["status"] == "finished" and record["seed"] >= 0
    mine = [d for d in record["decisions"] if d[1] == grant["seat"]]
    assert len(mine) == answered and not any(d[4] for d in mine)  # none timed out


def test_the_polled_api_shows_my_view_and_takes_my_answer(client: TestClient) -> None:
    grant = client.post("/api/rooms", json={"name": "Poll", "bots": 3}).json()
    game = grant["room"]["game"]
    token = grant["token"]
    with client.websocket_connect("/ws/play") as ws:  # connecting starts the deal
        ws.send_text(encode(Hello(token)))
        while not isinstance(msg := decode_server(ws.receive_text()), InquiryMsg):
            pass
        auth = {"authorization": f"Bearer {token}"}
        mine = client.get(f"/api/games/{game}/state", headers=auth).json()
        assert mine["inquiry"]["id"] == msg.id
        seat = grant["seat"]  # drawn at the start (the room started at its creation)
        players = mine["state"]["players"]
        assert players[seat]["hand"] is not None
        assert all(p["hand"] is None for i, p in enumerate(players) if i != seat)
        spectator = client.get(f"/api/games/{game}/state").json()
        assert spectator["inquiry"] is None and spectator["state"] is None
        answer = {"token": token, "inquiry": msg.id, "action": 0, "option": 0}
        assert client.post(f"/api/games/{game}/answer", json=answer).json() == {"ok": True}
        again = client.post(f"/api/games/{game}/answer", json=answer)
        assert again.status_code == 409
        assert again.json()["code"] in ("already_answered", "stale_inquiry")
        forged = client.post(f"/api/games/{game}/answer", json={**answer, "token": "x"})
        assert forged.status_code == 403
        playing = client.get(f"/api/games/{game}/record", params={"format": "tenhou"})
        assert playing.status_code == 409
        so_far = client.get(f"/api/games/{game}/record").json()
        assert so_far["status"] == "playing" and so_far["seed"] is None  # it makes the walls
        # who was asked what in the hand in play would tell who can call: none of it yet
        assert so_far["decisions"] == []

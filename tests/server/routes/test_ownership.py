"""Rooms belong to their creator: only they start, lock or remove a player (docs/security.md).

A stranger who finds a public waiting room cannot take its free seats and start it, nor
push a seated friend out; a locked room is joined only through the owner's invite key.
"""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from server.edge.codec import encode
from server.edge.messaging import Hello, WireError, decode_server
from tests.server.http import TestClient


def _room(client: TestClient, **body: object) -> dict[str, object]:
    grant = client.post("/api/rooms", json={"name": "Owner", "bots": 0, **body}).json()
    assert grant["seat"] == 0 and grant["room"]["owner"] == 0
    return dict(grant)


def test_only_the_owner_starts_the_room(client: TestClient) -> None:
    grant = _room(client)
    code = grant["room"]["code"]  # type: ignore[index]
    guest = client.post(f"/api/rooms/{code}/join", json={"name": "Guest"}).json()
    refused = client.post(f"/api/rooms/{code}/start", json={"token": guest["token"]})
    assert refused.status_code == 403 and refused.json()["code"] == "not_owner"
    assert client.get(f"/api/rooms/{code}").json()["status"] == "waiting"
    started = client.post(f"/api/rooms/{code}/start", json={"token": grant["token"]})
    assert started.status_code == 200 and started.json()["status"] == "playing"


def test_the_owner_removes_a_player_whose_token_then_opens_nothing(client: TestClient) -> None:
    grant = _room(client)
    code = grant["room"]["code"]  # type: ignore[index]
    guest = client.post(f"/api/rooms/{code}/join", json={"name": "Guest"}).json()
    stranger = client.post(f"/api/rooms/{code}/join", json={"name": "Stranger"}).json()
    with client.websocket_connect("/ws/play") as ws:
        ws.send_text(encode(Hello(stranger["token"])))
        # only the owner may remove; nobody removes the owner
        for token, seat in ((guest["token"], stranger["seat"]), (grant["token"], 0)):
            body = {"token": token, "seat": seat}
            assert client.post(f"/api/rooms/{code}/kick", json=body).status_code in (403, 409)
        body = {"token": grant["token"], "seat": stranger["seat"]}
        room = client.post(f"/api/rooms/{code}/kick", json=body).json()
        assert room["seats"][stranger["seat"]]["name"] == ""
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
        assert closed.value.code == 4006
    with client.websocket_connect("/ws/play") as ws:
        ws.send_text(encode(Hello(stranger["token"])))
        error = decode_server(ws.receive_text())
        assert isinstance(error, WireError) and error.code == "bad_token"
    # the freed seat can be taken again; the guest was never touched
    again = client.post(f"/api/rooms/{code}/join", json={"name": "Next"}).json()
    assert again["seat"] == stranger["seat"]
    assert client.get(f"/api/rooms/{code}").json()["seats"][guest["seat"]]["name"] == "Guest"


def test_a_locked_room_is_joined_only_with_the_invite_key(client: TestClient) -> None:
    grant = _room(client)
    code = grant["room"]["code"]  # type: ignore[index]
    guest = client.post(f"/api/rooms/{code}/join", json={"name": "Guest"}).json()
    assert client.post(f"/api/rooms/{code}/lock", json={"token": guest["token"]}).status_code == 403
    locked = client.post(f"/api/rooms/{code}/lock", json={"token": grant["token"]}).json()
    invite = locked["invite"]
    assert locked["room"]["locked"] and len(invite) >= 16
    for body in ({"name": "X"}, {"name": "X", "invite": "guess"}):
        refused = client.post(f"/api/rooms/{code}/join", json=body)
        assert refused.status_code == 403 and refused.json()["code"] == "locked"
    # the key is not in anything the room shows
    assert invite not in client.get(f"/api/rooms/{code}").text
    assert invite not in client.get("/api/rooms").text
    joined = client.post(f"/api/rooms/{code}/join", json={"name": "Friend", "invite": invite})
    assert joined.status_code == 200

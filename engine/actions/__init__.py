"""Actions, inquiries and the action center protocol (seed 000)."""

import abc

from engine.actions.center import ActionCenter
from engine.actions.inquiry import MultiPlayerInquiry, SinglePlayerInquiry
from engine.actions.types import (
    PRIORITY,
    Action,
    ActionType,
    Choice,
    Decision,
    InvalidResponse,
    Option,
    TenpaiInfo,
)
from engine.actions.types import DiscardOptions as _DiscardOptions

# Compiled by mypyc, DiscardOptions (a Sequence) is made without ABCMeta.__new__ and so reads
# Sequence's own ABC cache: once a list was checked against Sequence, every list passed
# ``isinstance(x, DiscardOptions)``. abc's initialiser gives it a cache of its own (what
# ABCMeta.__new__ does for an interpreted class, which has one already).
if "_abc_impl" not in _DiscardOptions.__dict__:
    abc._abc_init(_DiscardOptions)  # type: ignore[attr-defined]

__all__ = [
    "PRIORITY",
    "Action",
    "ActionCenter",
    "ActionType",
    "Choice",
    "Decision",
    "InvalidResponse",
    "MultiPlayerInquiry",
    "Option",
    "SinglePlayerInquiry",
    "TenpaiInfo",
]

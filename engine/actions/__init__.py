"""Actions, inquiries and the action center protocol (seed 000)."""

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

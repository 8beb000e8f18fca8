"""The program protocol's lines: one message of `proto/arena/v1/bot.proto` a line, in protobuf's
canonical JSON mapping (docs/program-protocol.md).

protobuf's own `json_format` walks every field in Python and is the costliest step of a program's
decision, so the arena writes lines with a converter of its own, cached per field, that gives the
same JSON for every message of the protocol (tests compare the two over real games of every
game); a message holding a field kind it does not handle (floats, bytes, protobuf's well-known
types: none in the protocol today) is left to `json_format`. The answer a program sends most, an
action reply by index, is read straight from its JSON; every other line goes through
`json_format`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from arena.v1 import bot_pb2

_INT64 = (FieldDescriptor.CPPTYPE_INT64, FieldDescriptor.CPPTYPE_UINT64)
_UNHANDLED = (FieldDescriptor.CPPTYPE_FLOAT, FieldDescriptor.CPPTYPE_DOUBLE)
UINT32_END = 1 << 32


def encode(message: bot_pb2.ConnectResponse | bot_pb2.ConnectRequest) -> bytes:
    """One line of the protocol: compact canonical JSON, newline-terminated."""
    return json.dumps(to_json_object(message), separators=(",", ":")).encode() + b"\n"


def to_json_object(message: Message) -> dict[str, Any]:
    """`json_format.MessageToDict(message)` with its default options, faster."""
    if not _handled(message.DESCRIPTOR):
        return json_format.MessageToDict(message)
    return _object(message)


def _object(message: Message) -> dict[str, Any]:
    fields = {}
    for field, value in message.ListFields():
        name, convert = _PLANS.get(field) or _plan(field)
        fields[name] = value if convert is None else convert(value)
    return fields


Convert = Callable[[Any], Any] | None  # None: the value is written as it is
_PLANS: dict[FieldDescriptor, tuple[str, Convert]] = {}


def _plan(field: FieldDescriptor) -> tuple[str, Convert]:
    """The JSON name of `field` and how `json_format` writes its value, remembered."""
    plan = _PLANS[field] = (field.json_name, _converter(field))
    return plan


@cache
def _handled(descriptor: Descriptor, seen: frozenset[str] = frozenset()) -> bool:
    """Whether every field of `descriptor`, and of the messages it holds, is of a kind the
    converter writes as `json_format` does."""
    if descriptor.full_name.startswith("google.protobuf."):
        return False
    seen = seen | {descriptor.full_name}
    for field in descriptor.fields:
        if field.cpp_type in _UNHANDLED or field.type == FieldDescriptor.TYPE_BYTES:
            return False
        nested = field.message_type
        if nested is not None and nested.full_name not in seen and not _handled(nested, seen):
            return False
    return True


def _converter(field: FieldDescriptor) -> Convert:
    """How `json_format` writes the value of `field` (a list for a repeated one)."""
    nested = field.message_type
    if nested is not None and nested.GetOptions().map_entry:
        value = _single(nested.fields_by_name["value"]) or _same
        is_bool = nested.fields_by_name["key"].cpp_type == FieldDescriptor.CPPTYPE_BOOL
        return lambda entries: {
            (("true" if k else "false") if is_bool else str(k)): value(entries[k]) for k in entries
        }
    single = _single(field)
    if not field.is_repeated:
        return single
    if single is None:
        return list
    return lambda values: [single(v) for v in values]


def _single(field: FieldDescriptor) -> Convert:
    if field.cpp_type == FieldDescriptor.CPPTYPE_MESSAGE:
        return _object
    if field.enum_type is not None:
        names = {value.number: value.name for value in field.enum_type.values}
        return lambda number: names.get(number, number)
    if field.cpp_type in _INT64:
        return str
    return None


def _same(value: Any) -> Any:
    return value


def decode_request(line: bytes) -> bot_pb2.ConnectRequest:
    """A line from a program; ValueError (json_format.ParseError is one) when it is not one."""
    try:
        fields = json.loads(line, object_pairs_hook=_unique)
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"Failed to load JSON: {error}") from None
    reply = _index_reply(fields)
    if reply is not None:
        return bot_pb2.ConnectRequest(action_reply=reply)
    try:
        return json_format.ParseDict(fields, bot_pb2.ConnectRequest())
    except json_format.ParseError as error:
        raise ValueError(str(error)) from None


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different, as `json_format` requires."""
    fields = dict(pairs)
    if len(fields) != len(pairs):
        keys = [key for key, _ in pairs]
        twice = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"the key {twice!r} appears twice in one object")
    return fields


def _index_reply(fields: Any) -> bot_pb2.ActionReply | None:
    """The action reply `fields` holds when it is exactly {"actionReply": {"requestId": ...,
    "legalIndex": ...}} with a string and an int in range; None for anything else."""
    if type(fields) is not dict or fields.keys() != {"actionReply"}:
        return None
    reply = fields["actionReply"]
    if type(reply) is not dict or reply.keys() != {"requestId", "legalIndex"}:
        return None
    request_id, index = reply["requestId"], reply["legalIndex"]
    if type(request_id) is not str or type(index) is not int or not 0 <= index < UINT32_END:
        return None
    return bot_pb2.ActionReply(request_id=request_id, legal_index=index)


def decode_response(line: bytes) -> bot_pb2.ConnectResponse:
    """A line from the arena, as a program reads it."""
    return json_format.Parse(line, bot_pb2.ConnectResponse(), ignore_unknown_fields=True)

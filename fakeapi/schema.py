"""Validation of Bot API calls against the machine-readable schema in ``botapi/api.json``.

The schema gives names, types and required flags; limits that live only in the prose
("1-64 bytes", "0-1024 characters after entities parsing", "Required if inline_message_id is not
specified", "must be photo") are read from the descriptions with a few patterns, and the rules
written in sentences (at most 100 buttons, one action per button) are in ``_EXTRA_RULES``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .entities import EntityParseError, parse_html

API_JSON = Path(__file__).with_name("botapi") / "api.json"

_LENGTH = re.compile(
    r"(\d+)-(\d+) (characters|bytes)( with at most \d+ line feeds)?( after entities parsing)?"
)
_CONSTANT = re.compile(r'(?:must be|always) "?([\w-]+)"?')
_REQUIRED_UNLESS = re.compile(r"^Required if (\w+)(?: and (\w+))? (?:is|are) not specified")
_INT = re.compile(r"[+-]?\d+")
_BOOLEANS = {"true": True, "false": False, "1": True, "0": False}
_ARRAY = "Array of "
_ATTACH = "attach://"


@dataclass(frozen=True)
class Uploaded:
    """One file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class FieldSpec:
    """One parameter of a method or field of a type, with the limits read from its prose."""

    name: str
    types: tuple[str, ...]
    required: bool
    length: tuple[int, int, str] | None = None
    after_entities: bool = False
    constant: str | None = None
    required_unless: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObjectSpec:
    """A method's parameters or a type's fields; ``subtypes`` for unions like InputMedia."""

    name: str
    fields: Mapping[str, FieldSpec]
    subtypes: tuple[str, ...] = ()
    returns: tuple[str, ...] = ()


class _MismatchError(Exception):
    """The value does not have the shape of the type at all (a string for an object)."""


@dataclass
class _Context:
    files: Mapping[str, Uploaded]
    attached: set[str] = field(default_factory=set)


def _field_spec(raw: Mapping[str, Any]) -> FieldSpec:
    description: str = raw.get("description", "")
    length = _LENGTH.search(description)
    constant = (
        _CONSTANT.search(description) if raw["name"] in ("type", "status", "source") else None
    )
    unless = _REQUIRED_UNLESS.search(description)
    return FieldSpec(
        name=raw["name"],
        types=tuple(raw["types"]),
        required=bool(raw["required"]),
        length=(int(length[1]), int(length[2]), length[3]) if length else None,
        after_entities=bool(length and length[5]),
        constant=constant[1] if constant else None,
        required_unless=tuple(name for name in unless.groups() if name) if unless else (),
    )


def _object_spec(raw: Mapping[str, Any]) -> ObjectSpec:
    return ObjectSpec(
        name=raw["name"],
        fields={f["name"]: _field_spec(f) for f in raw.get("fields", [])},
        subtypes=tuple(raw.get("subtypes", ())),
        returns=tuple(raw.get("returns", ())),
    )


def _parse_mode_sibling(name: str) -> str:
    return "parse_mode" if name in ("text", "caption", "message_text") else f"{name}_parse_mode"


def plain_length(text: str, parse_mode: str | None) -> int:
    """Length in characters after entity parsing; raises EntityParseError for broken HTML."""
    if parse_mode is not None and parse_mode.upper() == "HTML":
        return len(parse_html(text).text)
    return len(text)


def _check_keyboard(value: Mapping[str, Any]) -> list[str]:
    buttons = sum(len(row) for row in value.get("inline_keyboard", []) if isinstance(row, list))
    if buttons > 100:
        return [f"inline keyboard has {buttons} buttons, at most 100 are allowed"]
    return []


_BUTTON_PLAIN_FIELDS = {"text", "icon_custom_emoji_id", "style"}


def _check_button(value: Mapping[str, Any]) -> list[str]:
    actions = sorted(k for k in value if k not in _BUTTON_PLAIN_FIELDS)
    if len(actions) != 1:
        return [f"exactly one button action field must be used, got {actions or 'none'}"]
    return []


_EXTRA_RULES: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "InlineKeyboardMarkup": _check_keyboard,
    "InlineKeyboardButton": _check_button,
}


class Schema:
    """The Bot API schema: looks up methods and validates calls and result objects."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.version: str = raw.get("version", "")
        self.methods = {name: _object_spec(m) for name, m in raw["methods"].items()}
        self.types = {name: _object_spec(t) for name, t in raw["types"].items()}
        self._methods_lower = {name.lower(): name for name in self.methods}

    def method_name(self, name: str) -> str | None:
        """The canonical method name; Telegram matches method names case-insensitively."""
        return self._methods_lower.get(name.lower())

    def validate_call(
        self, method: str, params: Mapping[str, Any], files: Mapping[str, Uploaded]
    ) -> tuple[dict[str, Any], list[str]]:
        """Coerce raw parameters (form strings or JSON values) to their types; list problems."""
        spec = self.methods[method]
        context = _Context(files)
        values = dict(params)
        for name in files:
            if name in spec.fields and name not in values:
                values[name] = None  # a file uploaded as the part named after the field
        coerced, problems = self._check_fields(spec, values, context, top_level=True, path="")
        for name, upload in files.items():
            if name not in context.attached:
                problems.append(f"uploaded file part {name!r} ({upload.filename}) is not used")
        return coerced, problems

    def validate_object(self, type_name: str, value: Any) -> list[str]:
        """Problems of a JSON value against a type expression such as ``Array of Message``."""
        try:
            return self._check_value(value, type_name, _Context({}), False, type_name)[1]
        except _MismatchError as mismatch:
            return [str(mismatch)]

    def _check_fields(
        self,
        spec: ObjectSpec,
        values: Mapping[str, Any],
        context: _Context,
        *,
        top_level: bool,
        path: str,
    ) -> tuple[dict[str, Any], list[str]]:
        problems: list[str] = []
        coerced: dict[str, Any] = {}
        for name in values:
            if name not in spec.fields:
                problems.append(f"unknown field {path}{name}")
        for name, fspec in spec.fields.items():
            if name not in values:
                missing = fspec.required or (
                    fspec.required_unless
                    and not any(other in values for other in fspec.required_unless)
                )
                if missing:
                    problems.append(f"required field {path}{name} is missing")
                continue
            value, field_problems = self._check_union(
                values[name], fspec, context, top_level, f"{path}{name}"
            )
            coerced[name] = value
            problems.extend(field_problems)
        for fspec in spec.fields.values():
            if fspec.name in coerced:
                problems.extend(self._check_limits(fspec, coerced, path))
        extra = _EXTRA_RULES.get(spec.name)
        if extra is not None:
            problems.extend(f"{path.rstrip('.') or spec.name}: {p}" for p in extra(coerced))
        return coerced, problems

    def _check_limits(self, fspec: FieldSpec, values: Mapping[str, Any], path: str) -> list[str]:
        value = values[fspec.name]
        where = f"{path}{fspec.name}"
        if fspec.constant is not None and value != fspec.constant:
            return [f"{where} must be {fspec.constant!r}, got {value!r}"]
        if fspec.length is None or not isinstance(value, str):
            return []
        low, high, unit = fspec.length
        if unit == "bytes":
            size = len(value.encode("utf-8"))
        elif fspec.after_entities:
            parse_mode = values.get(_parse_mode_sibling(fspec.name))
            try:
                size = plain_length(value, parse_mode if isinstance(parse_mode, str) else None)
            except EntityParseError as error:
                return [f"{where}: can't parse entities: {error}"]
        else:
            size = len(value)
        if not low <= size <= high:
            return [f"{where} must be {low}-{high} {unit}, got {size}"]
        return []

    def _check_union(
        self, value: Any, fspec: FieldSpec, context: _Context, top_level: bool, path: str
    ) -> tuple[Any, list[str]]:
        return self._check_any(value, fspec.types, context, top_level, path, field_name=fspec.name)

    def _check_any(
        self,
        value: Any,
        types: tuple[str, ...],
        context: _Context,
        top_level: bool,
        path: str,
        field_name: str = "",
    ) -> tuple[Any, list[str]]:
        attempts: list[tuple[Any, list[str]]] = []
        reasons: list[str] = []
        for type_name in types:
            try:
                if type_name == "InputFile":
                    attempts.append((self._check_file(value, field_name, context, path), []))
                else:
                    attempts.append(self._check_value(value, type_name, context, top_level, path))
            except _MismatchError as mismatch:
                if str(mismatch) != path and str(mismatch) not in reasons:
                    reasons.append(str(mismatch))
                continue
            if not attempts[-1][1]:
                return attempts[-1]
        if not attempts:
            shown = value if len(repr(value)) < 60 else f"{repr(value)[:57]}..."
            why = f" ({'; '.join(reasons)})" if reasons else ""
            return value, [f"{path} must be {' or '.join(types)}, got {shown!r}{why}"]
        return min(attempts, key=lambda attempt: len(attempt[1]))

    def _check_file(self, value: Any, field_name: str, context: _Context, path: str) -> Uploaded:
        if value is None and field_name in context.files:
            context.attached.add(field_name)
            return context.files[field_name]
        if isinstance(value, str) and value.startswith(_ATTACH):
            name = value.removeprefix(_ATTACH)
            if name in context.files:
                context.attached.add(name)
                return context.files[name]
        raise _MismatchError(f"{path} is not an uploaded file")

    def _check_value(
        self, value: Any, type_name: str, context: _Context, top_level: bool, path: str
    ) -> tuple[Any, list[str]]:
        if type_name.startswith(_ARRAY):
            items = self._decoded(value, list, top_level, path)
            inner = type_name.removeprefix(_ARRAY)
            coerced: list[Any] = []
            problems: list[str] = []
            for index, item in enumerate(items):
                item_value, item_problems = self._check_any(
                    item, (inner,), context, False, f"{path}[{index}]"
                )
                coerced.append(item_value)
                problems.extend(item_problems)
            return coerced, problems
        scalar = _SCALARS.get(type_name)
        if scalar is not None:
            return scalar(value, top_level, path), _attach_problems(value, context, path)
        spec = self.types.get(type_name)
        if spec is None:
            raise _MismatchError(f"{path}: unknown type {type_name}")
        obj = self._decoded(value, dict, top_level, path)
        if spec.subtypes:
            return obj, self._check_subtypes(spec, obj, context, path)
        return self._check_fields(spec, obj, context, top_level=False, path=f"{path}.")

    def _check_subtypes(
        self, spec: ObjectSpec, obj: Mapping[str, Any], context: _Context, path: str
    ) -> list[str]:
        chosen = [
            self.types[name]
            for name in spec.subtypes
            if any(
                f.constant is not None and obj.get(f.name) == f.constant
                for f in self.types[name].fields.values()
            )
        ]
        discriminated = any(
            f.constant is not None
            for name in spec.subtypes
            for f in self.types[name].fields.values()
        )
        if discriminated and not chosen:
            return [f"{path} is not any of {', '.join(spec.subtypes)}"]
        candidates = chosen or [self.types[name] for name in spec.subtypes]
        results = [
            self._check_fields(candidate, obj, context, top_level=False, path=f"{path}.")[1]
            for candidate in candidates
        ]
        return min(results, key=len)

    @staticmethod
    def _decoded(value: Any, kind: type, top_level: bool, path: str) -> Any:
        """Objects and arrays may come JSON-serialized in a string (always so in form data)."""
        if isinstance(value, str) and top_level:
            try:
                value = json.loads(value)
            except ValueError as error:
                raise _MismatchError(f"{path} is not valid JSON: {error}") from error
        if not isinstance(value, kind):
            raise _MismatchError(f"{path} is not a JSON {kind.__name__}")
        return value


def _integer(value: Any, top_level: bool, path: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if top_level and isinstance(value, str) and _INT.fullmatch(value):
        return int(value)
    raise _MismatchError(path)


def _float(value: Any, top_level: bool, path: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if top_level and isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
    raise _MismatchError(path)


def _boolean(value: Any, top_level: bool, path: str) -> bool:
    if isinstance(value, bool):
        return value
    if top_level and isinstance(value, str) and value.lower() in _BOOLEANS:
        return _BOOLEANS[value.lower()]
    raise _MismatchError(path)


def _string(value: Any, top_level: bool, path: str) -> str:
    if not isinstance(value, str):
        raise _MismatchError(path)
    return value


def _attach_problems(value: Any, context: _Context, path: str) -> list[str]:
    """An ``attach://name`` string must name an uploaded part (which then counts as used)."""
    if not isinstance(value, str) or not value.startswith(_ATTACH):
        return []
    name = value.removeprefix(_ATTACH)
    if name not in context.files:
        return [f"{path} refers to file part {name!r}, which was not uploaded"]
    context.attached.add(name)
    return []


def _true(value: Any, top_level: bool, path: str) -> bool:
    if value is True:
        return True
    raise _MismatchError(path)


_SCALARS: dict[str, Callable[[Any, bool, str], Any]] = {
    "Integer": _integer,
    "Float": _float,
    "Boolean": _boolean,
    "String": _string,
    "True": _true,
}


@cache
def load_schema(path: Path = API_JSON) -> Schema:
    """The schema shipped beside this module, parsed once per process."""
    return Schema(json.loads(path.read_text(encoding="utf-8")))

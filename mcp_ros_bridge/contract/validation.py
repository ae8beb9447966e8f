"""
Strict argument validation: compiled Draft 2020-12 validators, no coercion.

``"15N"``, ``"0.2"`` and ``true`` are never numbers; unknown keys are refused
by ``additionalProperties: false``; NaN and infinities are refused before the
schema runs (JSON Schema bounds do not catch them). ``pattern`` has ECMA-262
semantics as JSON Schema says: ``$`` is the end of the string, so a value
with a trailing newline does not match ``^[a-z]+$`` (``re.search`` would).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
import math
import re
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError
from mcp_ros_bridge.messages import t

MAX_DEPTH = 16
MAX_STRING = 4096


_DOLLAR = re.compile(r'(?<!\\)\$')


@lru_cache(maxsize=256)
def ecma_regex(pattern: str) -> re.Pattern[str]:
    """Compile a JSON Schema pattern so that an unescaped ``$`` matches only at the end."""
    return re.compile(_DOLLAR.sub(r'\\Z', pattern))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    if validator.is_type(instance, 'string') and not ecma_regex(pattern).search(instance):
        yield ValidationError(f'{instance!r} does not match {pattern!r}')


StrictValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {'pattern': _pattern})


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the arguments, located at ``path``."""

    path: tuple[Any, ...]
    message: str
    schema: dict[str, Any]
    instance: Any
    validator: str


def field_name(path: tuple[Any, ...]) -> str:
    """Render an argument path like ``waypoints[1].z``; the root is ``arguments``."""
    out = ''
    for part in path:
        out += f'[{part}]' if isinstance(part, int) else (f'.{part}' if out else str(part))
    return out or 'arguments'


def _prescan(value: Any, path: tuple[Any, ...], depth: int, out: list[Problem]) -> None:
    if len(out) >= 5:
        return
    if depth > MAX_DEPTH:
        out.append(Problem(path, t('problem_depth', depth=MAX_DEPTH), {}, None, 'depth'))
        return
    if isinstance(value, float) and not math.isfinite(value):
        out.append(Problem(path, t('problem_not_finite', value=repr(value)), {}, value,
                           'finite'))
    elif isinstance(value, str) and len(value) > MAX_STRING:
        out.append(Problem(path, t('problem_too_long', length=len(value), limit=MAX_STRING),
                           {}, value[:40] + '...', 'maxLength'))
    elif isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                out.append(Problem(path, t('problem_key_type', key=repr(k)), {}, k, 'type'))
                continue
            _prescan(v, path + (k,), depth + 1, out)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _prescan(v, path + (i,), depth + 1, out)


_REQUIRED = re.compile(r'^(.+) is a required property$', re.DOTALL)
_UNEXPECTED = re.compile(r'^Additional properties are not allowed \((.+) (was|were) unexpected\)$',
                         re.DOTALL)


def _message(err: ValidationError) -> str:
    """Return jsonschema's message, from the table for the validators agents meet most."""
    m = _REQUIRED.match(err.message) if err.validator == 'required' else None
    if m:
        return t('problem_required', key=m.group(1))
    m = _UNEXPECTED.match(err.message) if err.validator == 'additionalProperties' else None
    if m:
        return t('problem_unexpected', keys=m.group(1), verb=t(f'verb_{m.group(2)}'))
    return err.message


def _relevance(err: ValidationError) -> tuple[int, int]:
    # Prefer the deepest, most specific failure (as jsonschema's best_match does).
    return (-len(err.path), 0 if err.validator in ('type', 'enum', 'const') else 1)


def _leaf_errors(err: ValidationError) -> list[ValidationError]:
    if err.context:
        best = sorted(err.context, key=_relevance)
        return _leaf_errors(best[0])
    return [err]


class ArgumentValidator:
    """A compiled validator for one tool's input schema."""

    def __init__(self, schema: dict[str, Any]) -> None:
        """Compile ``schema`` once (checked against the meta-schema by the catalog)."""
        self.schema = schema
        self._validator = StrictValidator(schema, format_checker=FormatChecker())

    def problems(self, args: Any) -> list[Problem]:
        """Return every problem with ``args`` (empty when they are valid)."""
        found: list[Problem] = []
        _prescan(args, (), 0, found)
        if found:
            return found
        try:
            errors = sorted(self._validator.iter_errors(args), key=_relevance)
        except RecursionError:
            return [Problem((), t('problem_too_deep'), {}, None, 'depth')]
        for err in errors[:5]:
            for leaf in _leaf_errors(err):
                found.append(Problem(tuple(leaf.absolute_path), _message(leaf),
                                     leaf.schema if isinstance(leaf.schema, dict) else {},
                                     leaf.instance, str(leaf.validator)))
        return found


def problem_field(p: Problem) -> str:
    """Name the field a problem is about: the missing or unknown key itself where known."""
    if isinstance(p.instance, dict) and p.validator in ('required', 'additionalProperties'):
        props = p.schema.get('properties', {})
        if p.validator == 'required':
            keys = [k for k in p.schema.get('required', []) if k not in p.instance]
        else:
            keys = [k for k in p.instance if k not in props]
        if keys:
            return field_name(p.path + (keys[0],))
    return field_name(p.path)

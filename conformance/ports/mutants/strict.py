"""Strict readers of the JSON files the judge publishes (report, coverage, ledger, tracer data).

[CONF.PMUT.STRICT]

A schema is a small value: ``Obj({member: schema, ...})`` (every member present, no other),
``List(schema)``, ``Alt(schema, ...)`` (the first that fits), ``Enum(v, ...)``, ``Const(v)``,
or one of ``STR``, ``LINE`` (a non-empty string without a newline), ``INT`` (not a bool),
``NUM`` (an int or a float, not a bool), ``BOOL``, ``NULL``, ``HEX12``.  ``read(path, schema_name,
version, schema)`` checks the ``schema`` and ``version`` members first (an unsupported version is
its own error), then the whole value; an error names the file and the member path
(``mutants[3].families[0].reached``).  Nothing missing is ever filled with a default.
"""

import json
import re


class StrictError(Exception):
    """A file that is not what its schema says: ``file: path: what``."""


class Obj(object):
    def __init__(self, members):
        self.members = members


class List(object):
    def __init__(self, item):
        self.item = item


class Alt(object):
    def __init__(self, *options):
        self.options = options


class Enum(object):
    def __init__(self, *values):
        self.values = values


class Const(object):
    def __init__(self, value):
        self.value = value


STR, LINE, INT, NUM, BOOL, NULL, HEX12 = "str", "line", "int", "num", "bool", "null", "hex12"


def _kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a bool"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    return "an object"


def _describe(schema):
    if isinstance(schema, Obj):
        return "an object"
    if isinstance(schema, List):
        return "a list"
    if isinstance(schema, Enum):
        return "one of " + ", ".join(json.dumps(v) for v in schema.values)
    if isinstance(schema, Const):
        return json.dumps(schema.value)
    if isinstance(schema, Alt):
        return " or ".join(_describe(o) for o in schema.options)
    return {STR: "a string", LINE: "a non-empty one-line string", INT: "an integer",
            NUM: "a number", BOOL: "a bool", NULL: "null",
            HEX12: "12 lowercase hex digits"}[schema]


def check(value, schema, path="(top)"):
    """Raise ``StrictError("path: what")`` unless ``value`` fits ``schema``."""
    if isinstance(schema, Alt):
        errors = []
        for option in schema.options:
            try:
                check(value, option, path)
                return
            except StrictError as e:
                errors.append(e)
        # the most specific error: one inside the option whose kind fits
        for option, e in zip(schema.options, errors):
            if isinstance(option, Obj) and isinstance(value, dict):
                raise e
            if isinstance(option, List) and isinstance(value, list):
                raise e
        raise StrictError("%s: expected %s, found %s" % (path, _describe(schema), _kind(value)))
    if isinstance(schema, Obj):
        if not isinstance(value, dict):
            raise StrictError("%s: expected an object, found %s" % (path, _kind(value)))
        for k in value:
            if k not in schema.members:
                raise StrictError("%s: unknown member %s" % (path, json.dumps(k)))
        for k, sub in schema.members.items():
            if k not in value:
                raise StrictError("%s: missing member %s" % (path, json.dumps(k)))
            check(value[k], sub, k if path == "(top)" else "%s.%s" % (path, k))
        return
    if isinstance(schema, List):
        if not isinstance(value, list):
            raise StrictError("%s: expected a list, found %s" % (path, _kind(value)))
        for i, v in enumerate(value):
            check(v, schema.item, "%s[%d]" % (path, i))
        return
    if isinstance(schema, Enum):
        if not any(type(value) is type(v) and value == v for v in schema.values):
            raise StrictError("%s: expected %s, found %s" % (path, _describe(schema), json.dumps(value)))
        return
    if isinstance(schema, Const):
        if type(value) is not type(schema.value) or value != schema.value:
            raise StrictError("%s: expected %s, found %s" % (path, json.dumps(schema.value),
                                                             json.dumps(value)))
        return
    ok = {
        STR: lambda v: isinstance(v, str),
        LINE: lambda v: isinstance(v, str) and v.strip() != "" and "\n" not in v,
        INT: lambda v: isinstance(v, int) and not isinstance(v, bool),
        NUM: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        BOOL: lambda v: isinstance(v, bool),
        NULL: lambda v: v is None,
        HEX12: lambda v: isinstance(v, str) and re.fullmatch("[0-9a-f]{12}", v) is not None,
    }[schema]
    if not ok(value):
        raise StrictError("%s: expected %s, found %s" % (path, _describe(schema), _kind(value)))


def load(path):
    """The JSON value of ``path``; ``StrictError`` naming the file when it cannot be read."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise StrictError("%s: cannot read: %s" % (path, e.strerror or e))
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise StrictError("%s: not UTF-8" % path)
    except ValueError as e:
        raise StrictError("%s: not JSON: %s" % (path, e))


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def validate(value, name, schema_name, version, schema):
    """Check ``value`` (the content of file ``name``): schema and version first, then all."""
    if not isinstance(value, dict):
        raise StrictError("%s: expected an object, found %s" % (name, _kind(value)))
    if "schema" not in value:
        raise StrictError("%s: schema: missing member \"schema\"" % name)
    if value["schema"] != schema_name:
        raise StrictError("%s: schema: expected %s, found %s"
                          % (name, json.dumps(schema_name), json.dumps(value["schema"])))
    if "version" not in value:
        raise StrictError("%s: version: missing member \"version\"" % name)
    v = value["version"]
    if not (isinstance(v, int) and not isinstance(v, bool)) or v != version:
        raise StrictError("%s: version: unsupported version %s of %s (this tool reads version %d)"
                          % (name, json.dumps(v), schema_name, version))
    try:
        check(value, schema)
    except StrictError as e:
        raise StrictError("%s: %s" % (name, e))
    return value


def read(path, schema_name, version, schema):
    return validate(load(path), path, schema_name, version, schema)

"""The one envelope of every vector file (spec/conformance.md [CONF.VEC.ENVELOPE]).

A vector file is ``{"schema": "onepath.vector", "version": 1, "id", "family", "_comment",
"cases"}`` with exactly these members in this order; a file in one of the retired per-family
schemas is rejected by name ([CONF.VEC.RETIRED]).
"""

import json

SCHEMA = "onepath.vector"
VERSION = 1
MEMBERS = ["schema", "version", "id", "family", "_comment", "cases"]
RETIRED = ("onepath.graph-scenario", "onepath.grid-vector", "onepath.state-vector",
           "onepath.state-hostile")


class VectorFileError(ValueError):
    """A file that is not a vector file of the expected family (message names the file)."""


def read(path, family):
    """The parsed envelope of ``path``, checked against ``family``."""
    with open(path) as fh:
        d = json.load(fh)
    if not isinstance(d, dict):
        raise VectorFileError("%s: not a JSON object" % path)
    schema = d.get("schema")
    if schema in RETIRED:
        raise VectorFileError("%s: schema %r is retired; this port reads %r version %d"
                              % (path, schema, SCHEMA, VERSION))
    if schema != SCHEMA or d.get("version") != VERSION:
        raise VectorFileError("%s: schema %r version %r, expected %r %d"
                              % (path, schema, d.get("version"), SCHEMA, VERSION))
    if list(d.keys()) != MEMBERS:
        raise VectorFileError("%s: members %r, expected %r" % (path, list(d.keys()), MEMBERS))
    if d["family"] != family:
        raise VectorFileError("%s: family %r, expected %r" % (path, d["family"], family))
    return d


def single(path, family, tag=None):
    """The one case of ``path`` merged with its ``id`` (the case under key ``tag`` when the
    family's cases are tagged, as the state family's ``golden`` and ``hostile``)."""
    d = read(path, family)
    if len(d["cases"]) != 1:
        raise VectorFileError("%s: %d cases, expected 1" % (path, len(d["cases"])))
    case = d["cases"][0]
    if tag is not None:
        if list(case.keys()) != [tag]:
            raise VectorFileError("%s: case %r, expected %r" % (path, list(case.keys()), tag))
        case = case[tag]
    out = dict(case)
    out["id"] = d["id"]
    return out

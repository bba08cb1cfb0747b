"""What every module of the port-mutation judge shares: the repository's paths and bad input.

``InputError`` is bad input: the CLI exits 2 with its one-line message ([CONF.PMUT.VERDICT]).
``read_text`` reads a port file, ``write_json`` and ``check_out_path`` write a report or check
where it will go, ``display_path`` names a file relative to the repository.  Stdlib only
(Python 3.11).
"""

import hashlib
import json
import os
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DEFAULT_PORT = os.path.join(REPO, "conformance", "ports", "python")
DEFAULT_KIT = os.path.join(REPO, "target", "release", "onepath-conformance")
TRACER = os.path.join(HERE, "traced_driver.py")
COVERAGE_ENV = "ONEPATH_PORT_COVERAGE_DIR"


class InputError(Exception):
    """Bad input: exit 2 with this one-line message."""


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise InputError("%s: not UTF-8" % path)


def sha256_text(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_json(path, value):
    d = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".port-mutants-", dir=d)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(value, f, indent=1, ensure_ascii=False)
            f.write("\n")
        os.replace(tmp, path)
    except OSError as e:
        raise InputError("%s: cannot write: %s" % (path, e.strerror or e))


def check_out_path(path):
    if path is None:
        return
    d = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(d):
        raise InputError("%s: no such directory %s" % (path, d))
    if os.path.isdir(path):
        raise InputError("%s: is a directory" % path)


def display_path(path):
    a = os.path.abspath(path)
    r = os.path.relpath(a, REPO)
    return a if r.startswith("..") else r

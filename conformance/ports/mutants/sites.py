"""Mutation sites of Python source: parse with ``ast``, splice only the mutated span.

[CONF.PMUT.OPERATORS] [CONF.PMUT.SPLICE] [CONF.PMUT.ID] and the exclusions of [CONF.PMUT.FILES].

``Source(rel, text)`` parses one file; ``enumerate_sites(source)`` returns its ``Site`` list in
file order; ``assign_ids(sites)`` gives each its stable id; ``splice(text, site)`` returns the
mutated text.  Every mutant replaces one span ``(line, col)..(end_line, end_col)`` (1-based lines,
0-based character columns, end exclusive) with a replacement that has exactly as many newlines as
the span, so every other byte of the file and every line number stay the same.

Operators (class names as in the report):

- ``compare``   ``<`` -> ``<=``, ``>=``; ``<=`` -> ``<``, ``>``; ``>`` -> ``>=``, ``<=``;
                ``>=`` -> ``>``, ``<``; ``==`` <-> ``!=``; ``is`` <-> ``is not``;
                ``in`` <-> ``not in`` (each to its boundary neighbour and its negation)
- ``arith``     ``+`` <-> ``-``, ``*`` -> ``/``, ``/`` -> ``*``, ``//`` -> ``/``, ``%`` -> ``*``,
                ``**`` -> ``*``, ``<<`` <-> ``>>``, ``&`` <-> ``|``, ``^`` -> ``|``; the same on
                augmented assignments (``+=`` -> ``-=`` ...); not string formatting (``%`` with
                a string on the left) nor ``+``/``*`` with a string or bytes literal operand
- ``const``     an integer literal (not a bool; a negative literal ``-n`` counts as one) -> n+1
                and n-1, in the literal's base
- ``boolop``    ``and`` <-> ``or`` (each operator token of a chain on its own)
- ``negate``    the test of ``if``, ``elif``, ``while``, a conditional expression or a
                comprehension ``if`` -> ``not (test)``; not when the test is itself ``not x``
                (``unary_not`` covers it)
- ``unary_not`` ``not x`` -> ``x``
- ``delete``    a simple statement (assignment, annotated assignment with a value, augmented
                assignment, expression call, ``raise``, ``del``) -> ``pass``; never a
                docstring, ``pass``, a ``__slots__`` assignment, ``return`` (see ``return``),
                ``assert``, ``break``/``continue``
- ``return``    ``return X`` -> ``return None`` (X not None; not in a generator);
                ``return True`` <-> ``return False`` (instead of None); an integer-valued X
                (``len(..)``, ``int(..)``, integer arithmetic) also -> ``(X) + 1``

Not mutated (not port behaviour): imports, statements that call ``sys.path.*`` (import
machinery), module, class and function docstrings, the ``if __name__ == "__main__":`` block,
``assert`` statements, f-strings, annotations, and any statement whose first line carries the
comment ``# pragma: no mutate`` (with everything inside it).
"""

import ast
import bisect
import hashlib
import io
import json
import re
import tokenize

OPERATORS = ("compare", "arith", "const", "boolop", "negate", "unary_not", "delete", "return")
PRAGMA = "# pragma: no mutate"

COMPARE_SWAPS = {
    "<": ("<=", ">="), "<=": ("<", ">"), ">": (">=", "<="), ">=": (">", "<"),
    "==": ("!=",), "!=": ("==",), "is": ("is not",), "is not": ("is",),
    "in": ("not in",), "not in": ("in",),
}
ARITH_SWAPS = {
    "+": ("-",), "-": ("+",), "*": ("/",), "/": ("*",), "//": ("/",), "%": ("*",), "**": ("*",),
    "<<": (">>",), ">>": ("<<",), "&": ("|",), "|": ("&",), "^": ("|",),
}
ARITH_TOKENS = set(ARITH_SWAPS) | {"@"}
INT_CALLS = {"len", "int", "ord", "sum", "round", "hash"}
INT_METHODS = {"bit_length", "count", "index", "find", "rfind"}


class SourceError(Exception):
    """A port file that cannot be read or parsed."""


class Site(object):
    """One mutant: a span of one file and its replacement."""

    __slots__ = ("file", "line", "col", "end_line", "end_col", "operator", "original",
                 "replacement", "function", "context", "node_lines", "occurrence", "id")

    def __init__(self, file, span, operator, original, replacement, function, context, node_lines):
        self.file = file
        self.line, self.col, self.end_line, self.end_col = span
        self.operator = operator
        self.original = original
        self.replacement = replacement
        self.function = function
        self.context = context
        self.node_lines = node_lines  # (first, last) line of the mutated node (coverage anchor)
        self.occurrence = None
        self.id = None

    def key(self):
        return (self.file, self.function, self.context, self.operator, self.replacement)

    def describe(self):
        """``file:line:col op original->replacement`` on one line (texts shortened)."""
        return "%s:%d:%d %s %s->%s" % (self.file, self.line, self.col, self.operator,
                                       shorten(self.original), shorten(self.replacement))

    def as_json(self):
        return {"id": self.id, "describe": self.describe(), "file": self.file, "line": self.line,
                "col": self.col, "end_line": self.end_line, "end_col": self.end_col,
                "operator": self.operator, "original": self.original,
                "replacement": self.replacement, "function": self.function,
                "context": self.context, "occurrence": self.occurrence}


def shorten(text, limit=48):
    one = " ".join(text.replace("\\\n", " ").split())
    if len(one) > limit:
        one = one[:limit - 3] + "..."
    return one


class Source(object):
    """One file's text, its lines, tokens and syntax tree (columns in characters)."""

    def __init__(self, rel, text):
        self.rel = rel
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for m in re.finditer("\n", text):
            self.starts.append(m.end())
        try:
            self.tree = ast.parse(text, filename=rel)
            self.tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                           if t.type in (tokenize.OP, tokenize.NAME)]
        except (SyntaxError, tokenize.TokenError, ValueError) as e:
            raise SourceError("%s: does not parse: %s" % (rel, e))
        self.token_starts = [t.start for t in self.tokens]

    def col(self, lineno, byte_col):
        """ast's UTF-8 byte column -> character column."""
        line = self.lines[lineno - 1]
        if line.isascii():
            return byte_col
        return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))

    def span(self, node):
        return (node.lineno, self.col(node.lineno, node.col_offset),
                node.end_lineno, self.col(node.end_lineno, node.end_col_offset))

    def offset(self, line, col):
        return self.starts[line - 1] + col

    def text_of(self, span):
        return self.text[self.offset(span[0], span[1]):self.offset(span[2], span[3])]

    def tokens_between(self, start, end):
        """OP and NAME tokens lying entirely within positions ``start`` .. ``end``."""
        i = bisect.bisect_left(self.token_starts, start)
        out = []
        while i < len(self.tokens) and self.tokens[i].start < end:
            if self.tokens[i].end <= end:
                out.append(self.tokens[i])
            i += 1
        return out


def splice(text, site):
    """[CONF.PMUT.SPLICE] The mutated text: ``site``'s span replaced, every other character kept."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    a = starts[site.line - 1] + site.col
    b = starts[site.end_line - 1] + site.end_col
    if text[a:b] != site.original:
        raise SourceError("%s:%d:%d: the source changed since the sites were listed (expected %r)"
                          % (site.file, site.line, site.col, shorten(site.original)))
    return text[:a] + site.replacement + text[b:]


def _is_docstring(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


def _is_main_block(stmt):
    t = getattr(stmt, "test", None)
    return (isinstance(stmt, ast.If) and isinstance(t, ast.Compare) and len(t.ops) == 1
            and isinstance(t.ops[0], ast.Eq) and isinstance(t.left, ast.Name)
            and t.left.id == "__name__" and isinstance(t.comparators[0], ast.Constant)
            and t.comparators[0].value == "__main__")


def _is_sys_path(stmt):
    """``sys.path.insert(...)`` and the like: import machinery."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return False
    f = stmt.value.func
    while isinstance(f, ast.Attribute):
        if isinstance(f.value, ast.Name) and f.value.id == "sys" and f.attr == "path":
            return True
        f = f.value
    return False


def _is_slots(stmt):
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == "__slots__")


def _is_str_literal(node):
    return (isinstance(node, ast.JoinedStr)
            or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))))


def _is_int_const(node):
    return isinstance(node, ast.Constant) and type(node.value) is int


def _is_generator(fn):
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(fn))


def _own_nodes(fn):
    """The nodes of ``fn``'s body, not descending into nested scopes."""
    stack = list(fn.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def is_intish(node):
    """Whether ``node`` is an integer-valued expression (by its form, not by types)."""
    if _is_int_const(node):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Name) and f.id in INT_CALLS:
            return True
        if isinstance(f, ast.Attribute) and f.attr in INT_METHODS:
            return True
        return False
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Mod) and _is_str_literal(node.left):
            return False
        if isinstance(node.op, (ast.FloorDiv, ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr,
                                ast.BitXor)):
            return True
        if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Mod)):
            return is_intish(node.left) or is_intish(node.right)
        return False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert)):
        return is_intish(node.operand)
    if isinstance(node, ast.IfExp):
        return is_intish(node.body) and is_intish(node.orelse)
    return False


def _int_text(original, value):
    """``value`` in the base of the literal ``original`` (``0x..``, ``0o..``, ``0b..``)."""
    body = original.lstrip("-").strip()
    sign = "-" if value < 0 else ""
    prefix = body[:2].lower()
    if prefix == "0x":
        return "%s%s%x" % (sign, body[:2], abs(value))
    if prefix == "0o":
        return "%s%s%o" % (sign, body[:2], abs(value))
    if prefix == "0b":
        return "%s%s%s" % (sign, body[:2], bin(abs(value))[2:])
    return str(value)


def _keep_lines(original, replacement, statement=False):
    """``replacement`` padded to the newline count of ``original``: a statement with
    backslash continuations, an expression inside parentheses."""
    k = original.count("\n")
    if k == 0:
        return replacement
    if statement:
        return replacement + " \\\n" * k
    return "(" + replacement + "\n" * k + ")"


class _Walker(object):
    def __init__(self, src):
        self.src = src
        self.sites = []

    # -------------------------------------------------------------- helpers

    def add(self, operator, span, replacement, qual, node):
        original = self.src.text_of(span)
        if replacement == original or original.count("\n") != replacement.count("\n"):
            return
        context = self.src.lines[span[0] - 1].strip()
        self.sites.append(Site(self.src.rel, span, operator, original, replacement, qual, context,
                               (node.lineno, node.end_lineno)))

    def op_tokens(self, left, right, accept):
        """The operator tokens between nodes ``left`` and ``right``; one span covering them."""
        a = (left.end_lineno, self.src.col(left.end_lineno, left.end_col_offset))
        b = (right.lineno, self.src.col(right.lineno, right.col_offset))
        toks = [t for t in self.src.tokens_between(a, b) if t.string not in ("(", ")")]
        if not toks or not all(t.string in accept for t in toks):
            return None, None
        text = " ".join(t.string for t in toks)
        return text, (toks[0].start[0], toks[0].start[1], toks[-1].end[0], toks[-1].end[1])

    def skipped(self, stmt):
        """[CONF.PMUT.FILES] Statements that are not port behaviour."""
        return (isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Assert))
                or _is_main_block(stmt) or _is_sys_path(stmt)
                or PRAGMA in self.src.lines[stmt.lineno - 1])

    # -------------------------------------------------------------- statements

    def body(self, stmts, qual, fn=None, doc=False):
        """A statement list; ``doc``: a module, class or function body (its docstring skipped)."""
        for i, st in enumerate(stmts):
            if doc and i == 0 and _is_docstring(st):
                continue
            if self.skipped(st):
                continue
            self.stmt(st, qual, fn)

    def stmt(self, st, qual, fn):
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in st.decorator_list:
                self.expr(d, qual)
            for d in st.args.defaults + [d for d in st.args.kw_defaults if d is not None]:
                self.expr(d, qual)
            inner = self.child_qual(qual, fn, st.name)
            self.body(st.body, inner, st, doc=True)
            return
        if isinstance(st, ast.ClassDef):
            for e in st.decorator_list + st.bases + [k.value for k in st.keywords]:
                self.expr(e, qual)
            self.body(st.body, self.child_qual(qual, fn, st.name), None, doc=True)
            return
        if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Raise,
                           ast.Delete)):
            self.delete(st, qual)
        if isinstance(st, ast.AugAssign):
            self.augassign(st, qual)
        if isinstance(st, ast.Return):
            self.ret(st, qual, fn)
        if isinstance(st, (ast.If, ast.While)):
            self.negate(st.test, qual)
        if isinstance(st, ast.AnnAssign):
            # the annotation is not behaviour; the target and value are
            self.expr(st.target, qual)
            if st.value is not None:
                self.expr(st.value, qual)
            return
        for field, value in ast.iter_fields(st):
            if isinstance(value, list):
                if value and all(isinstance(v, ast.stmt) for v in value):
                    self.body(value, qual, fn)
                    continue
                for v in value:
                    self.node(v, qual, fn)
            elif isinstance(value, ast.AST):
                self.node(value, qual, fn)

    def node(self, v, qual, fn):
        if isinstance(v, ast.expr):
            self.expr(v, qual)
        elif isinstance(v, ast.stmt):
            if not self.skipped(v):
                self.stmt(v, qual, fn)
        elif isinstance(v, (ast.excepthandler, ast.withitem, ast.match_case, ast.keyword,
                            ast.comprehension, ast.arguments, ast.pattern)):
            for field, value in ast.iter_fields(v):
                if isinstance(value, list):
                    if value and all(isinstance(x, ast.stmt) for x in value):
                        self.body(value, qual, fn)
                    else:
                        for x in value:
                            if isinstance(x, ast.AST):
                                self.node(x, qual, fn)
                elif isinstance(value, ast.AST):
                    self.node(value, qual, fn)

    @staticmethod
    def child_qual(qual, fn, name):
        if qual == "<module>":
            return name
        if fn is not None:
            return "%s.<locals>.%s" % (qual, name)
        return "%s.%s" % (qual, name)

    def delete(self, st, qual):
        if isinstance(st, ast.Expr) and not isinstance(st.value, (ast.Call, ast.Await, ast.Yield,
                                                                  ast.YieldFrom)):
            return
        if isinstance(st, ast.AnnAssign) and st.value is None:
            return
        if _is_slots(st):
            return
        span = self.src.span(st)
        original = self.src.text_of(span)
        self.add("delete", span, _keep_lines(original, "pass", statement=True), qual, st)

    def augassign(self, st, qual):
        accept = {s + "=" for s in ARITH_TOKENS}
        text, span = self.op_tokens(st.target, st.value, accept)
        if text is None:
            return
        if isinstance(st.op, (ast.Add, ast.Mult, ast.Mod)) and _is_str_literal(st.value):
            return
        for r in ARITH_SWAPS.get(text[:-1], ()):
            self.add("arith", span, r + "=", qual, st)

    def ret(self, st, qual, fn):
        v = st.value
        if v is None or (isinstance(v, ast.Constant) and v.value is None):
            return
        if fn is not None and _is_generator(fn):
            return
        span = self.src.span(v)
        original = self.src.text_of(span)
        if isinstance(v, ast.Constant) and type(v.value) is bool:
            self.add("return", span, "False" if v.value else "True", qual, st)
            return
        self.add("return", span, _keep_lines(original, "None"), qual, st)
        if is_intish(v) and not _is_int_const(v):
            atom = isinstance(v, (ast.Name, ast.Call, ast.Attribute, ast.Subscript))
            text = original + " + 1" if atom and "\n" not in original else "(" + original + ") + 1"
            self.add("return", span, text, qual, st)

    def negate(self, test, qual):
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return
        span = self.src.span(test)
        self.add("negate", span, "not (" + self.src.text_of(span) + ")", qual, test)

    # -------------------------------------------------------------- expressions

    def expr(self, e, qual):
        if isinstance(e, ast.JoinedStr):
            return
        if isinstance(e, ast.Lambda):
            for d in e.args.defaults + [d for d in e.args.kw_defaults if d is not None]:
                self.expr(d, qual)
            self.expr(e.body, qual)
            return
        if isinstance(e, ast.Compare):
            prev = e.left
            for op, right in zip(e.ops, e.comparators):
                text, span = self.op_tokens(prev, right, {"<", "<=", ">", ">=", "==", "!=", "is",
                                                          "not", "in"})
                if text is not None:
                    for r in COMPARE_SWAPS.get(text, ()):
                        self.add("compare", span, r, qual, e)
                prev = right
        elif isinstance(e, ast.BinOp):
            text, span = self.op_tokens(e.left, e.right, ARITH_TOKENS)
            string_op = ((isinstance(e.op, ast.Mod) and _is_str_literal(e.left))
                         or (isinstance(e.op, (ast.Add, ast.Mult))
                             and (_is_str_literal(e.left) or _is_str_literal(e.right))))
            if text is not None and not string_op:
                for r in ARITH_SWAPS.get(text, ()):
                    self.add("arith", span, r, qual, e)
        elif isinstance(e, ast.BoolOp):
            for left, right in zip(e.values, e.values[1:]):
                text, span = self.op_tokens(left, right, {"and", "or"})
                if text is not None:
                    self.add("boolop", span, "or" if text == "and" else "and", qual, e)
        elif isinstance(e, ast.UnaryOp):
            if isinstance(e.op, ast.Not):
                # from ``not`` to the next token (the operand or its opening parenthesis)
                a = self.src.span(e)
                b = self.src.span(e.operand)
                toks = self.src.tokens_between((a[0], a[1]), (b[0], b[1]))
                if toks and toks[0].string == "not":
                    end = toks[1].start if len(toks) > 1 else (b[0], b[1])
                    self.add("unary_not", (a[0], a[1], end[0], end[1]), "", qual, e)
            elif isinstance(e.op, ast.USub) and _is_int_const(e.operand):
                self.const(e, -e.operand.value, qual)
                return
        elif isinstance(e, ast.IfExp):
            self.negate(e.test, qual)
        elif _is_int_const(e):
            self.const(e, e.value, qual)
            return
        elif isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for c in e.generators:
                for cond in c.ifs:
                    self.negate(cond, qual)
        for child in ast.iter_child_nodes(e):
            if isinstance(child, ast.expr):
                self.expr(child, qual)
            elif isinstance(child, (ast.comprehension, ast.keyword, ast.arguments)):
                self.node(child, qual, None)

    def const(self, e, value, qual):
        span = self.src.span(e)
        original = self.src.text_of(span)
        if "\n" in original:
            return
        for v in (value + 1, value - 1):
            self.add("const", span, _int_text(original, v), qual, e)


def enumerate_sites(src):
    """Every mutation site of ``src`` in file order (by span start, then operator order)."""
    w = _Walker(src)
    w.body(src.tree.body, "<module>", None, doc=True)
    order = {op: i for i, op in enumerate(OPERATORS)}
    w.sites.sort(key=lambda s: (s.line, s.col, order[s.operator], s.end_line, s.end_col))
    return w.sites


def mutant_id(key, occurrence):
    """[CONF.PMUT.ID] A short SHA-256 prefix of (file, function, context, operator, replacement, occurrence)."""
    raw = json.dumps(list(key) + [occurrence], ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(raw.encode("ascii")).hexdigest()[:12]


def assign_ids(sites):
    """Give each site its occurrence index among identical keys (in file order) and its id."""
    seen = {}
    for s in sites:
        k = s.key()
        s.occurrence = seen.get(k, 0)
        seen[k] = s.occurrence + 1
        s.id = mutant_id(k, s.occurrence)
    return sites

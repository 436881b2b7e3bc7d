"""cmut.py: the mutants of one C source file (used by tests/mutate/mutate.py).

A small C lexer (comments, strings, characters and #include/#if lines are
never mutated) and the generic operators, each a single edit of the text:

  CMP_NEG    a comparison negated: < >=, > <=, == !=
  CMP_BOUND  a comparison's boundary moved: < <=, <= <, > >=, >= >
  LOGIC      && ||
  CONST_INC  an integer constant plus one; a real constant times 1.5
  CONST_DEC  an integer constant minus one (not 0); a real one halved
  CALL_DEL   a call made as a statement of its own removed
  RET_DEL    a return that is not the function's last removed
  ARG_SWAP   two neighbouring arguments of a call swapped
  COND_NEG   an if's or while's condition negated

Each mutant's id is stable across unrelated edits: the file, the function
(or the table) it is in, the operator, a hash of the line's text without
its indentation, and which match on that line it is (file:func:OP:hash:k),
so a list of ids (equivalent.txt, ci-mutants.txt) survives lines moving.
"""
import hashlib
import re

MULTI = ["<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
         "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="]
NUM = re.compile(r"(0[xX][0-9a-fA-F]+|(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?)([uUlLfF]*)")
IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "do", "else", "case",
            "_Static_assert", "static_assert", "defined", "va_arg", "offsetof",
            "__attribute__", "_Alignof", "alignof"}
NEG = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}
BOUND = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
# Calls whose removal only changes what is logged or freed, never a verdict
# or an output a test can read: not generated at all (listed here, once).
NO_DEL = {"free", "fclose", "close", "closedir", "va_end", "va_start", "fflush", "regfree",
          "archive_read_free", "archive_entry_free", "pthread_mutex_unlock",
          "pthread_mutex_lock", "nvrtcDestroyProgram"}


class Tok:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind, text, start, end):
        self.kind, self.text, self.start, self.end = kind, text, start, end

    def __repr__(self):
        return f"{self.kind}:{self.text}"


def lex(src):
    """Tokens of src: ('id'|'num'|'op'|'str', text, start, end). Comments,
    #include / #if... lines and the contents of strings are skipped (a
    string is one 'str' token, never mutated)."""
    toks, i, n = [], 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "\\" and i + 1 < n and src[i + 1] == "\n":
            i += 2
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == "#" and line_start:
            m = re.match(r"#\s*(\w+)", src[i:])
            word = m.group(1) if m else ""
            if word != "define":
                # the directive and its continuation lines: not code
                j = i
                while True:
                    k = src.find("\n", j)
                    if k < 0:
                        j = n
                        break
                    if src[k - 1] == "\\":
                        j = k + 1
                        continue
                    j = k
                    break
                i = j
                continue
            toks.append(Tok("op", "#define", i, i + m.end()))
            i += m.end()
            line_start = False
            continue
        line_start = False
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            toks.append(Tok("str", src[i:j + 1], i, j + 1))
            i = j + 1
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            m = NUM.match(src, i)
            toks.append(Tok("num", m.group(0), i, m.end()))
            i = m.end()
            continue
        m = IDENT.match(src, i)
        if m:
            toks.append(Tok("id", m.group(0), i, m.end()))
            i = m.end()
            continue
        for op in MULTI:
            if src.startswith(op, i):
                toks.append(Tok("op", op, i, i + len(op)))
                i += len(op)
                break
        else:
            toks.append(Tok("op", c, i, i + 1))
            i += 1
    return toks


def match_parens(toks):
    """Index of the matching bracket for each (, [, {, ) ] }."""
    pair, stack = {}, []
    for k, t in enumerate(toks):
        if t.kind != "op":
            continue
        if t.text in "([{" and len(t.text) == 1:
            stack.append(k)
        elif t.text in ")]}" and len(t.text) == 1 and stack:
            o = stack.pop()
            pair[o], pair[k] = k, o
    return pair


def owners(toks, pair):
    """For each token, the name of the function or table it is in."""
    own, name, k = [""] * len(toks), "", 0
    depth = pdepth = 0
    last_id = ""
    while k < len(toks):
        t = toks[k]
        if depth == 0 and t.kind == "op" and t.text in "()" and len(t.text) == 1:
            pdepth += 1 if t.text == "(" else -1
        if depth == 0 and (pdepth == 0 or (pdepth == 1 and t.text == "(")):
            if t.kind == "id" and k + 1 < len(toks) and toks[k + 1].text == "(" and \
                    t.text not in KEYWORDS and t.text != "__attribute__":
                last_id = t.text
            elif t.kind == "id" and k + 1 < len(toks) and toks[k + 1].text in ("[", "="):
                last_id = t.text
            elif t.text == "#define" and k + 1 < len(toks):
                last_id = "#" + toks[k + 1].text
                own[k] = last_id
                # a #define's tokens up to the end of its line
                line_end = _line_end_of(toks, k)
                j = k
                while j < len(toks) and toks[j].start < line_end:
                    own[j] = last_id
                    j += 1
                k = j
                continue
            if t.text == "{":
                name = last_id
        own[k] = name if depth > 0 or t.text == "{" else last_id
        if t.kind == "op" and t.text == "{":
            depth += 1
        elif t.kind == "op" and t.text == "}":
            depth -= 1
        k += 1
    return own


_SRC = [""]


def _line_end_of(toks, k):
    src = _SRC[0]
    e = toks[k].start
    while True:
        j = src.find("\n", e)
        if j < 0:
            return len(src)
        if src[j - 1] == "\\":
            e = j + 1
            continue
        return j


class Mutant:
    __slots__ = ("id", "file", "func", "op", "start", "end", "repl", "line", "lineno", "desc")

    def apply(self, src):
        return src[:self.start] + self.repl + src[self.end:]


def _fmt_real(x, suffix):
    s = repr(float(x))
    if "e" not in s and "." not in s:
        s += ".0"
    return s + suffix


def mutants(path, src, defines_only=False):
    """Every mutant of the file's text, in text order, with stable ids."""
    _SRC[0] = src
    toks = lex(src)
    pair = match_parens(toks)
    own = owners(toks, pair)
    in_define = [o.startswith("#") for o in own]
    out = []

    def add(op, k0, start, end, repl, desc):
        out.append((op, own[k0], start, end, repl, desc))

    def prev_text(k):
        return toks[k - 1].text if k > 0 else ";"

    def stmt_start(k):
        """Does token k start a statement?"""
        p = prev_text(k)
        if p in (";", "{", "}", "else", ":"):
            return p != ":" or _is_label_colon(toks, k - 1)
        if p == ")" and (k - 1) in pair:
            o = pair[k - 1]
            return o > 0 and toks[o - 1].text in ("if", "while", "for")
        return False

    for k, t in enumerate(toks):
        if defines_only and not in_define[k]:
            continue
        if t.kind == "op" and t.text in NEG and not in_define[k]:
            add("CMP_NEG", k, t.start, t.end, NEG[t.text], f"{t.text} -> {NEG[t.text]}")
            if t.text in BOUND:
                add("CMP_BOUND", k, t.start, t.end, BOUND[t.text], f"{t.text} -> {BOUND[t.text]}")
        elif t.kind == "op" and t.text in ("&&", "||"):
            r = "||" if t.text == "&&" else "&&"
            add("LOGIC", k, t.start, t.end, r, f"{t.text} -> {r}")
        elif t.kind == "num" and not _skip_const(toks, k):
            m = NUM.fullmatch(t.text)
            body, suf = m.group(1), m.group(4)
            real = ("." in body or "e" in body.lower()) and not body.lower().startswith("0x") \
                or "f" in suf.lower() and not body.lower().startswith("0x")
            if real:
                v = float(body)
                if v == 0:
                    add("CONST_INC", k, t.start, t.end, _fmt_real(1.0, suf), f"{t.text} -> 1.0")
                else:
                    add("CONST_INC", k, t.start, t.end, _fmt_real(v * 1.5, suf), f"{t.text} * 1.5")
                    add("CONST_DEC", k, t.start, t.end, _fmt_real(v / 2, suf), f"{t.text} / 2")
            else:
                octal = len(body) > 1 and body[0] == "0" and body[1].isdigit()
                v = int(body, 8) if octal else int(body, 0)
                fmt = (lambda x: "0%o" % x) if octal else \
                    (lambda x: hex(x)) if body.lower().startswith("0x") else str
                add("CONST_INC", k, t.start, t.end, fmt(v + 1) + suf, f"{t.text} -> {fmt(v + 1)}")
                if v > 0:
                    add("CONST_DEC", k, t.start, t.end, fmt(v - 1) + suf,
                        f"{t.text} -> {fmt(v - 1)}")
        elif t.kind == "id" and t.text in ("if", "while") and k + 1 < len(toks) \
                and toks[k + 1].text == "(" and (k + 1) in pair and not in_define[k]:
            o, c = k + 1, pair[k + 1]
            if t.text == "while" and c + 1 < len(toks) and toks[c + 1].text == ";":
                pass    # do { } while (x);: negating it loops forever, not a bug found
            else:
                inner = src[toks[o].start + 1:toks[c].start]
                add("COND_NEG", k, toks[o].start, toks[c].end, f"(!({inner}))",
                    f"{t.text} (...) negated")
        elif t.kind == "id" and t.text == "return" and not in_define[k] and stmt_start(k):
            j = k
            while j < len(toks) and toks[j].text != ";":
                j = pair.get(j, j) + 1 if toks[j].text in "([{" and toks[j].kind == "op" else j + 1
            if j + 1 < len(toks) and not _closes_function(toks, pair, j + 1):
                add("RET_DEL", k, t.start, toks[j].end, "{}", "return removed")
        elif t.kind == "id" and t.text not in KEYWORDS and not in_define[k] and stmt_start(k):
            # a call statement: name ((-> | .) name)* ( args ) ;
            j = k
            while j + 2 < len(toks) and toks[j + 1].text in ("->", ".") and toks[j + 2].kind == "id":
                j += 2
            name = toks[j].text
            if j + 1 < len(toks) and toks[j + 1].text == "(" and (j + 1) in pair:
                c = pair[j + 1]
                if c + 1 < len(toks) and toks[c + 1].text == ";" and name not in NO_DEL:
                    add("CALL_DEL", k, t.start, toks[c + 1].end, "{}", f"call to {name} removed")
        if t.kind == "id" and t.text not in KEYWORDS and not in_define[k] and k + 1 < len(toks) \
                and toks[k + 1].text == "(" and (k + 1) in pair and prev_text(k) not in ("struct",):
            if own[k] and k > 0 and _is_definition(toks, pair, k):
                continue
            o, c = k + 1, pair[k + 1]
            args, j, a0 = [], o + 1, o + 1
            while j < c:
                if toks[j].text in "([{" and toks[j].kind == "op" and j in pair:
                    j = pair[j] + 1
                    continue
                if toks[j].text == ",":
                    args.append((a0, j - 1))
                    a0 = j + 1
                j += 1
            if a0 < c:
                args.append((a0, c - 1))
            for ai in range(len(args) - 1):
                (s0, e0), (s1, e1) = args[ai], args[ai + 1]
                # a format's arguments (after a string): swapping them only
                # reorders a message's numbers; not generated
                if any(toks[x].kind == "str" for x in range(o, e1 + 1)):
                    break
                t0 = src[toks[s0].start:toks[e0].end]
                t1 = src[toks[s1].start:toks[e1].end]
                if t0 == t1:
                    continue
                add("ARG_SWAP", k, toks[s0].start, toks[e1].end, f"{t1}, {t0}",
                    f"{t.text}: arguments {ai + 1} and {ai + 2} swapped")

    # stable ids: file:owner:op:hash(line text):k-th such match on the line
    res, seen = [], {}
    for op, func, start, end, repl, desc in out:
        ls = src.rfind("\n", 0, start) + 1
        le = src.find("\n", start)
        le = len(src) if le < 0 else le
        line = src[ls:le].strip()
        h = hashlib.sha1(line.encode()).hexdigest()[:8]
        key = (path, func, op, h)
        seen[key] = seen.get(key, 0) + 1
        m = Mutant()
        m.id = f"{path}:{func or '-'}:{op}:{h}:{seen[key]}"
        m.file, m.func, m.op, m.start, m.end, m.repl = path, func, op, start, end, repl
        m.line, m.lineno, m.desc = line, src.count("\n", 0, start) + 1, desc
        res.append(m)
    return res


def _closes_function(toks, pair, k):
    """Is token k the } that ends a function body (its { at depth 0)?"""
    if toks[k].text != "}" or k not in pair:
        return False
    o = pair[k]
    depth = 0
    for j in range(o):
        if toks[j].kind == "op" and toks[j].text == "{":
            depth += 1
        elif toks[j].kind == "op" and toks[j].text == "}":
            depth -= 1
    return depth == 0


def _is_definition(toks, pair, k):
    """name ( ... ) { at depth 0: a function's definition, not a call."""
    c = pair.get(k + 1)
    return c is not None and c + 1 < len(toks) and toks[c + 1].text == "{" and \
        _depth_at(toks, k) == 0


def _depth_at(toks, k):
    d = 0
    for j in range(k):
        if toks[j].kind == "op":
            if toks[j].text == "{":
                d += 1
            elif toks[j].text == "}":
                d -= 1
    return d


def _is_label_colon(toks, k):
    # case X: / default: / label: start a statement; a ?: does not
    j = k - 1
    while j >= 0 and toks[j].text not in (";", "{", "}", "case", "default", "?"):
        j -= 1
    return j >= 0 and toks[j].text in ("case", "default")


def _skip_const(toks, k):
    """Constants that only size an array in a declaration: skipped (a
    bigger buffer never changes a result)."""
    if k > 0 and toks[k - 1].text == "[" and k + 1 < len(toks) and toks[k + 1].text == "]" \
            and k > 1 and toks[k - 2].kind == "id":
        j = k - 3
        # a declaration: a type word before the name (char buf[256], int x[4])
        if j >= 0 and (toks[j].kind == "id" or toks[j].text == "*"):
            return True
    return False

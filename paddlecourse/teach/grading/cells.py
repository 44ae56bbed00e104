"""A notebook cell as the grader reads it: whose it is (nbgrader's metadata), what its source defines,
calls and hides, and its hidden tests made to leave the random generators as they found them.

Parsing only; nothing here runs a cell.
"""
import ast
import re
import threading

from .answers import Unsupported, encode


# grade_class judges several submissions at once in threads, and CPython 3.11's AST constructor
# keeps its recursion depth in state shared by all threads: two parses at once can fail with
# "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905). One at a time.
_PARSING = threading.Lock()


def parse(source):
    with _PARSING:
        return ast.parse(source)


def grader(cell):
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def is_answer(cell):
    return bool(grader(cell).get("solution"))


def is_test(cell):
    meta = grader(cell)
    return bool(meta.get("grade")) and not meta.get("solution") and cell.get("cell_type") == "code"


def is_locked(cell):
    meta = grader(cell)
    return bool(meta.get("locked")) and not meta.get("solution")


HIDDEN = re.compile(r"^[ \t]*#+ *BEGIN HIDDEN TESTS.*?^[ \t]*#+ *END HIDDEN TESTS[^\n]*\n?", re.M | re.S)


def without_hidden_tests(source):
    return HIDDEN.sub("", source)


def hidden_part(source):
    return "\n".join(HIDDEN.findall(source))


def code_lines(source):
    return [line.rstrip() for line in source.splitlines() if line.strip()]


def defined_names(source):
    """Top-level names a solution cell binds: (data names, function names). Imports are left alone."""
    try:
        tree = parse(source)
    except SyntaxError:
        return [], []
    data, functions = [], []

    def targets(node):
        return [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            functions.append(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                data += targets(target)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            data += targets(node.target)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            data += targets(node.target)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    data += targets(item.optional_vars)
    seen = set()
    data = [n for n in data if not (n in seen or seen.add(n)) and n not in functions]
    return data, functions


def top_level(source):
    try:
        return parse(source).body
    except SyntaxError:
        return []


def literal_calls(sources, functions):
    """{function: [{"args": [...], "kwargs": {...}}]} for every call with literal arguments in ``sources``."""
    calls = {name: [] for name in functions}
    for source in sources:
        try:
            tree = parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in calls:
                try:
                    args = [encode(ast.literal_eval(a)) for a in node.args]
                    kwargs = {k.arg: encode(ast.literal_eval(k.value)) for k in node.keywords if k.arg}
                except (ValueError, TypeError, SyntaxError, Unsupported):
                    continue
                entry = {"args": args, "kwargs": kwargs}
                if entry not in calls[node.func.id]:
                    calls[node.func.id].append(entry)
    return calls


def name_uses(source, names):
    '''(names mentioned in ``source``, those mentioned other than as a by-name call with literal arguments).'''
    try:
        tree = parse(source)
    except SyntaxError:
        return set(), set()
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    used, not_literal = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            used.add(node.id)
            call = parents.get(node)
            literal = isinstance(call, ast.Call) and call.func is node
            for value in ([*call.args, *[k.value for k in call.keywords]] if literal else []):
                try:
                    ast.literal_eval(value)
                except (ValueError, TypeError, SyntaxError):
                    literal = False
            if not literal:
                not_literal.add(node.id)
    return used, not_literal


SAVE_RANDOM = "_pc_random = __import__('paddlecourse.teach.grading.effects', fromlist=['random_state']).random_state()"


RESTORE_RANDOM = "__import__('paddlecourse.teach.grading.effects', fromlist=['random_state']).restore_random_state(_pc_random)"


def _continued_lines(source):
    """Line numbers (1-based) that begin inside a string started on an earlier line: never re-indented."""
    import io
    import tokenize

    inside = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                inside |= set(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return inside


def neutral_hidden(source):
    """A test cell whose hidden part leaves the random generators as it found them (try/finally, markers kept
    on their lines). The student's notebook never ran the hidden tests: with this the judge's run, and the
    answer run that holds some of them, draw the same random numbers after each test as that notebook did."""
    lines = source.split("\n")
    begin = next((i for i, line in enumerate(lines) if "BEGIN HIDDEN TESTS" in line), None)
    end = next((i for i, line in enumerate(lines) if "END HIDDEN TESTS" in line), None)
    if begin is None or end is None or end < begin:
        return source
    continued = _continued_lines(source)
    body = [line if (number + 1) in continued else "    " + line
            for number, line in enumerate(lines[begin + 1:end], start=begin + 1)]
    indent = lines[begin][:len(lines[begin]) - len(lines[begin].lstrip())]
    if indent:  # a hidden region inside a block: left as it is
        return source
    return "\n".join(lines[:begin] + [SAVE_RANDOM, "try:  " + lines[begin].strip()] + body + ["    pass",
                      "finally:  " + lines[end].strip(), "    " + RESTORE_RANDOM] + lines[end + 1:])

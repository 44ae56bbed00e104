"""Hostile code a determined student could hand in, by kind, for any lesson.

Each function returns cell source to put in front of (or in place of) an answer. The
attackers are given the real paths of the course directory (worst case: the student knows
them). tests/test_nbgrader_e2e.py and tests/test_grading_l02.py grade them and assert that none
raises a score, none touches anything outside its own sandbox, and honest students lose nothing.
"""
import textwrap

DETACHED_MARKER = "paddlecourse-detached-attacker"


def _code(text):
    return textwrap.dedent(text).strip("\n")


# ---- code in the student's kernel tries to decide the grade

HOOKS = _code('''
    import ast
    from IPython import get_ipython

    _ip = get_ipython()

    class _SwallowEverything(ast.NodeTransformer):
        """Wrap every later cell in try/except BaseException: pass."""
        def visit_Module(self, node):
            handler = ast.ExceptHandler(type=ast.Name("BaseException", ast.Load()), name=None, body=[ast.Pass()])
            node.body = [ast.Try(body=node.body or [ast.Pass()], handlers=[handler], orelse=[], finalbody=[])]
            return ast.fix_missing_locations(node)

    _ip.ast_transformers.append(_SwallowEverything())
    _ip.set_custom_exc((BaseException,), lambda shell, etype, value, tb, tb_offset=None: None)
    # an execute_result before every cell: nbgrader takes a number there as the cell's (partial) score
    _ip.events.register("pre_run_cell", lambda *args: _ip.displayhook(1000.0))
    _ip.events.register("post_run_cell", lambda result: setattr(result, "error_in_exec", None))
''')

PATCHES = _code('''
    import builtins, numpy, paddle
    numpy.isclose = lambda *args, **kwargs: numpy.bool_(True)
    numpy.allclose = lambda *args, **kwargs: True
    numpy.asarray = lambda value, *args, **kwargs: numpy.array(1.0)
    paddle.Tensor.__eq__ = lambda self, other: True
    import paddlecourse, paddlecourse.checks
    for _name in ["check_value", "check_shape", "check_dtype", "check_grad", "check_answer", "check_true"]:
        setattr(paddlecourse, _name, lambda *args, **kwargs: print("✓ (faked)"))
        setattr(paddlecourse.checks, _name, lambda *args, **kwargs: print("✓ (faked)"))
''')

LIAR_CLASSES = _code('''
    class _EqualsEverything(float):
        """A float that equals, contains and is close to everything."""
        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __lt__(self, other): return True
        def __gt__(self, other): return True
        def __hash__(self): return 0
        def __contains__(self, item): return True
        def __iter__(self): return iter([])
        def __len__(self): return 60
        def __getitem__(self, index): return self
        def __float__(self): return 0.0
        def numpy(self): return self
        def __array__(self, *args, **kwargs):
            import numpy
            return numpy.array(8.0)

    class _SetOfEverything(set):
        def __eq__(self, other): return True
        __hash__ = None
''')


def forged_report(answers):
    """After every cell, print a report line claiming ``answers`` (so it lands in the report cell's
    output too). The judge takes only data: a claim must be right to count."""
    return _code(f'''
        import json as _json
        from IPython import get_ipython as _get_ipython
        _forged = "PADDLECOURSE-REPORT " + _json.dumps({{"answers": {answers!r}, "calls": {{}}}})
        _get_ipython().events.register("post_run_cell", lambda result: print(_forged))
    ''')


# ---- the instructor's files, other students, the network, and time

def reach(course, exchange, victim, canary):
    """Everything a submission could do to the course directory if it could see it."""
    return _code(f'''
        import glob, os, socket, sqlite3, subprocess, sys
        _reached = []
        try:  # the solutions, to run their answer cells
            for _path in glob.glob({str(course)!r} + "/source/*/*.ipynb") + glob.glob("/work/*/solutions/*.ipynb"):
                _reached.append(("read", _path, len(open(_path).read())))
        except OSError:
            pass
        try:  # own manual score up, another student's down
            _db = sqlite3.connect({str(course / "gradebook.db")!r})
            _db.execute("UPDATE grade SET manual_score = 100")
            _db.commit()
            _reached.append(("gradebook", "written"))
        except Exception as _error:
            _reached.append(("gradebook", type(_error).__name__))
        for _target in glob.glob({str(course)!r} + "/submitted/{victim}/*/*.ipynb"):
            try:
                open(_target, "w").write("{{}}")
                _reached.append(("victim", _target))
            except OSError:
                pass
        try:  # code that nbgrader would run in the instructor's process
            with open({str(course / "nbgrader_config.py")!r}, "a") as _config:
                _config.write("\\nc.GenerateFeedback.preprocessors = []\\n")
            _reached.append(("config", "appended"))
        except OSError:
            pass
        try:
            with open({str(canary)!r}, "w") as _canary:
                _canary.write("written from a submission")
        except OSError:
            pass
        try:  # the exchange: drop a feedback page for everyone
            os.makedirs({str(exchange)!r} + "/paddlecourse/feedback", exist_ok=True)
            open({str(exchange)!r} + "/paddlecourse/feedback/planted.html", "w").write("planted")
        except OSError:
            pass
        # catch-up back on, for every answer
        os.environ["PADDLECOURSE_CATCHUP"] = "on"
        os.environ.pop("NBGRADER_EXECUTION", None)
        try:
            from paddlecourse.catchup import catchup
            catchup("l00-ex1", run=True)
        except Exception:
            pass
        try:  # the network
            socket.create_connection(("1.1.1.1", 80), timeout=2)
            _reached.append(("network", "open"))
        except OSError:
            pass
        # a detached child that acts after grading ended
        subprocess.Popen([sys.executable, "-c",
                          "import time, sys; time.sleep(8); open(sys.argv[1], 'w').write('after grading')",
                          {str(canary) + ".late"!r}, "{DETACHED_MARKER}"],
                         start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print("reached:", _reached)
    ''')


def cpu_hog(children=4):
    """Child processes that spin on every core for the rest of the run; each cell stays under its limit."""
    return _code(f'''
        import subprocess, sys
        _hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range({children})]
    ''')


def flood(megabytes=200):
    """200 lines of 1 MiB each: far over any sensible output limit, in bytes and in lines."""
    return _code(f'''
        import sys
        for _ in range({megabytes}):
            sys.stdout.write("x" * (1 << 20) + "\\n")
        for _ in range(5000):
            print("line")
    ''')


# patched builtins break the kernel's own messaging (its run then stops: "needs a look"), so
# they go last, after the other attacks of a submission have run
BUILTINS = _code('''
    import builtins
    _real_isinstance = builtins.isinstance
    builtins.isinstance = lambda obj, kind: False if kind in (str, bytes) else _real_isinstance(obj, kind)
    builtins.abs = lambda value: 0.0
''')

HONEST_NOISE = _code('''
    import logging, sys, warnings
    logging.warning("a warning from my answer goes to stderr")
    warnings.warn("a UserWarning from my answer")
    print("also on stderr", file=sys.stderr)
''')

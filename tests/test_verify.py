"""verify(): five real checks on the installed Paddle, and a report that says what to do."""
from paddlecourse import verify
from paddlecourse.verify import check_dynamic_backward, run_checks


def test_all_five_checks_pass_on_this_install():
    report = verify()
    assert [r.name for r in report.results] == [
        "1. import and version", "2. device", "3. paddle.utils.run_check()",
        "4. dynamic forward + backward", "5. static program on an Executor",
    ]
    assert report.ok, str(report)
    assert str(report).endswith("All five checks passed.")


def test_a_failing_or_crashing_check_is_reported_with_what_to_do():
    def no_gradient():
        return False, "backward() ran but a.grad is None", "Set stop_gradient=False."

    def crashes():
        raise ImportError("libpaddle.so: cannot open shared object file")

    report = run_checks([("dynamic", no_gradient), ("import", crashes), ("fine", check_dynamic_backward)])
    assert not report.ok
    text = str(report)
    assert "✗ dynamic: backward() ran but a.grad is None\n    what to do: Set stop_gradient=False." in text
    assert "✗ import: raised ImportError: libpaddle.so: cannot open shared object file" in text
    assert "✓ fine" in text
    assert text.endswith("Some checks failed: see 'what to do' above.")
    assert "<table" in report._repr_html_() and "Set stop_gradient=False." in report._repr_html_()


def test_a_long_paddle_error_is_reported_in_whole_sentences_without_its_cpp_location():
    def long_error():
        raise ValueError(
            "(InvalidArgument) The place of the input tensor is a GPU place, but this build of Paddle was compiled "
            "without CUDA support, so no GPU kernel can run here. Install the GPU package instead.\n"
            "  [Hint: Expected place.GetType() == phi::AllocationType::CPU.] (at /paddle/paddle/fluid/pybind/place.cc:451)")

    seen = run_checks([("device", long_error)]).results[0].seen
    assert seen.startswith("raised ValueError: The place of the input tensor is a GPU place")
    assert seen.endswith("no GPU kernel can run here.") or seen.endswith("Install the GPU package instead.")
    assert "/paddle/" not in seen and "[Hint" not in seen


def test_the_command_line_verify_exits_zero_when_everything_works(capsys):
    from paddlecourse.cli import main

    assert main(["verify"]) == 0
    assert "All five checks passed." in capsys.readouterr().out


def test_another_paddle_3_passes_check_1_with_a_note_that_points_to_the_facts(monkeypatch):
    """Issue 24: the lessons run on every 3.x, so an earlier 3.x is a note, not a failure."""
    import paddle

    from paddlecourse.verify import check_version, pinned_paddle_version

    monkeypatch.setattr(paddle, "__version__", "3.0.0")
    ok, seen, note, is_note = check_version()
    assert ok and is_note
    assert seen == f"paddle 3.0.0; the course is checked on {pinned_paddle_version()}"
    assert "paddlecourse verify --facts" in note
    report = run_checks([("1. import and version", check_version)])
    assert report.ok and str(report).startswith("! 1. import and version: paddle 3.0.0")
    assert "    note: " in str(report) and str(report).endswith("All five checks passed; read the note above.")


def test_paddle_2_or_an_unimportable_paddle_still_fails(monkeypatch):
    import builtins

    import paddle

    from paddlecourse.verify import check_version

    monkeypatch.setattr(paddle, "__version__", "2.6.2")
    assert not check_version()[0]
    assert not run_checks([("1. import and version", check_version)]).ok

    real_import = builtins.__import__

    def no_paddle(name, *args, **kwargs):
        if name == "paddle":
            raise ImportError("libpaddle.so: cannot open shared object file")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_paddle)
    report = run_checks([("1. import and version", check_version)])
    assert not report.ok and "raised ImportError" in str(report)

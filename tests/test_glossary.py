"""The glossary: one entry per anchor lessons link to, each with its Chinese term and lesson; the pipeline picture."""
import base64
import re
import struct
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from paddlecourse.teach import grading
from paddlecourse.author.build import build_lessons
from paddlecourse.author.sources import solution_paths
from paddlecourse.catchup import known_exercises
from paddlecourse.widgets.graphs import graphviz_available
from paddlecourse.widgets.pipeline import pipeline_picture, pipeline_text

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "lessons" / "glossary.ipynb"
# The anchors lessons may link to (briefs/API.md item 6): exactly these ids.
ANCHORS = """dynamic-graph static-graph dynamic-to-static tensor stop-gradient autograd backward gradient-accumulation
optimizer program startup-program block scope place executor feed-fetch pir value op sot ast full-graph inputspec
jit-save jit-load predictor onednn paddle-lite wheel-tag mirror nbgrader catch-up""".split()
CJK = re.compile(r"[\u4e00-\u9fff]")


def entries():
    """{anchor: markdown source} of the glossary's term entries."""
    found = {}
    for cell in nbformat.read(GLOSSARY, as_version=4).cells:
        for anchor in re.findall(r'<a id="([^"]+)"', cell.source):
            found.setdefault(anchor, []).append(cell.source)
    return found


def test_every_anchor_has_exactly_one_entry_and_nothing_else_is_an_entry():
    found = entries()
    assert sorted(a for a in found if a != "pipeline") == sorted(ANCHORS)
    assert all(len(sources) == 1 for sources in found.values())


@pytest.mark.parametrize("anchor", ANCHORS)
def test_each_entry_has_a_chinese_term_a_plain_explanation_and_the_lesson(anchor):
    source = entries()[anchor][0]
    heading = next(line for line in source.splitlines() if line.startswith("### "))
    assert " · " in heading, "### English · 中文"
    chinese = heading.split(" · ", 1)[1]
    assert CJK.search(chinese), f"{anchor}: the Chinese term is missing from {heading!r}"
    body = source.split(heading, 1)[1].split("*Taught in:*")[0].strip()
    assert 40 < len(body) < 600, f"{anchor}: one or two plain sentences"
    lessons = re.findall(r"\]\((\d\d_[a-z0-9_]+\.ipynb)\)", source.split("*Taught in:*")[1])
    assert lessons and all((ROOT / "lessons" / name).is_file() for name in lessons), lessons


def test_links_inside_the_glossary_point_at_its_own_entries():
    text = "\n".join(cell.source for cell in nbformat.read(GLOSSARY, as_version=4).cells)
    targets = set(re.findall(r"\]\(#([a-z-]+)\)", text))
    assert targets <= set(ANCHORS) | {"pipeline"}, targets - set(ANCHORS)


def test_the_pipeline_picture_is_in_the_student_copy_with_a_text_equivalent():
    cells = nbformat.read(GLOSSARY, as_version=4).cells
    figure = next(c for c in cells if '<a id="pipeline"' in c.source)
    # A PNG: JupyterLab 4 renders bitmap attachments only ("Cannot render unknown image mime type
    # image/svg+xml" left a broken image where the glossary promised a drawn picture).
    assert list(figure.attachments) == ["pipeline.png"]
    png = base64.b64decode(figure.attachments["pipeline.png"]["image/png"])
    width, height = struct.unpack(">II", png[16:24])
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and 300 <= width <= 1200 and height >= 300, (width, height)
    alt = re.search(r"!\[([^\]]+)\]\(attachment:pipeline\.png\)", figure.source).group(1)
    assert alt.startswith("The pipeline: eager model") and alt.endswith("or the Paddle Inference predictor")
    for line in pipeline_text().splitlines():
        assert line in figure.source, "the steps are also written out in words"


def test_the_pipeline_draws_as_svg_and_as_text():
    picture = pipeline_picture()
    bundle = picture._repr_mimebundle_()
    assert bundle["text/plain"].splitlines()[1] == "[value] eager model (paddle.nn.Layer, dynamic graph)"
    assert pipeline_text().splitlines()[0] == ("eager model (paddle.nn.Layer, dynamic graph) → paddle.jit.to_static "
                                                "(SOT, or AST with full_graph=True)")
    if graphviz_available():
        svg = picture.svg()
        assert "paddle.jit.save" in svg and 'class="graph"' in svg
        # Shown as an image with alt text on a light card, so it reads in dark themes and to screen readers.
        assert "data:image/svg+xml;base64," in bundle["text/html"] and 'alt="' in bundle["text/html"]


def test_the_glossary_is_built_but_is_no_lesson_assignment_or_exercise(tmp_path):
    assert "glossary.ipynb" in [p.name for p in build_lessons(ROOT / "solutions", tmp_path)]
    assert "glossary.ipynb" not in [p.name for p in solution_paths(ROOT / "solutions")]
    assert "glossary.ipynb" in [p.name for p in solution_paths(ROOT / "solutions", include_extras=True)]
    assert all(p.name[:2].isdigit() for p in grading.lessons_by_assignment().values())
    assert all(re.fullmatch(r"l\d\d-ex\d+", e) for e in known_exercises())


def test_nbgrader_validate_accepts_the_glossary(tmp_path):
    result = subprocess.run([sys.executable, "-m", "nbgrader", "validate", str(ROOT / "solutions" / "glossary.ipynb")],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0 and "Success!" in result.stdout, result.stdout[-2000:] + result.stderr[-2000:]

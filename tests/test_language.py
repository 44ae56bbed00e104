"""The Chinese edition's library side: every message a learner reads comes out in the language in force.

- the library's own sentences (checks, setup, verify, widgets) through ``paddlecourse.po``;
- the text a lesson's code hands in (a hint, a check's label, a check_parts title, a plot title)
  through the lesson's catalogue, here a temporary one (``language.LOCALE`` pointed at a copy);
- English byte for byte as before; a learner's variable name never translated;
- the command line speaks $PADDLECOURSE_LANG; setup(lang="zh") picks a CJK font for matplotlib
  and Graphviz draws Chinese with one.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

import paddlecourse
from paddlecourse import CheckFailed, check_answer, check_parts, check_true, check_value, language
from paddlecourse.author.catalogues import library_messages, new_catalogue

ROOT = Path(__file__).resolve().parent.parent
REAL_LOCALE = language.LOCALE
LIBRARY_PO = REAL_LOCALE / "zh" / "LC_MESSAGES" / "paddlecourse.po"

# What a lesson's catalogue would hold for its code's text (msgid -> msgstr); the f-string entry is a template.
LESSON_ENTRIES = {
    "Add the two numbers before you square them.": "先把两个数相加，再求平方。",
    "the loss after {steps} steps": "{steps} 步之后的损失",
    "your chain rule at w = -1": "你在 w = -1 处用链式法则算出的结果",
    "the four projects": "四个项目",
    "the loss did not fall": "损失没有下降",
    "Loss per step": "每一步的损失",
    "training steps": "训练步数",
    "lesson label": "课程标签",
    "mode": "模式",  # a plot label in some lesson: a learner's variable called mode must stay `mode`
}


@pytest.fixture(autouse=True)
def english_again(monkeypatch):
    """Every test starts and ends in English, with the real catalogues and matplotlib's defaults."""
    import matplotlib

    monkeypatch.delenv(language.ENVIRONMENT, raising=False)
    monkeypatch.setattr(language, "_chosen", None)
    saved = {key: matplotlib.rcParams[key] for key in ("font.sans-serif", "axes.unicode_minus")}
    language.reload()
    yield
    language._chosen = None
    matplotlib.rcParams.update(saved)
    from paddlecourse import session

    session._FONT_CHANGES.clear()
    language.LOCALE = REAL_LOCALE
    language.reload()


@pytest.fixture
def lesson_catalogue(tmp_path, monkeypatch):
    """The real library catalogue plus a small lesson catalogue, in a temporary locale folder."""
    folder = tmp_path / "locale" / "zh" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(LIBRARY_PO, folder / "paddlecourse.po")
    catalogue = new_catalogue("zh", "99_test_lesson")
    for msgid, msgstr in LESSON_ENTRIES.items():
        catalogue.append(polib.POEntry(msgctxt="code abc123", msgid=msgid, msgstr=msgstr))
    catalogue.save(str(folder / "99_test_lesson.po"))
    monkeypatch.setattr(language, "LOCALE", tmp_path / "locale")
    language.reload()
    language.set_language("zh")
    return folder


def failure(call, *args, **kwargs):
    with pytest.raises(CheckFailed) as raised:
        call(*args, **kwargs)
    return str(raised.value)


def has_chinese(text):
    return bool(re.search(r"[\u4e00-\u9fff]", text))


# ---------------------------------------------------------------- the catalogue itself

def test_every_library_message_is_in_the_catalogue_and_translated_with_its_placeholders():
    catalogue = polib.pofile(str(LIBRARY_PO))
    entries = {e.msgid: e for e in catalogue if not e.obsolete}
    wanted = {m.text for m in library_messages()}
    assert wanted - set(entries) == set(), "run tools/update_library_catalogue.py"
    assert set(entries) - wanted == set(), "paddlecourse.po holds messages the library no longer has"
    placeholder = re.compile(r"\{[^{}]+\}")
    for msgid, entry in entries.items():
        assert entry.msgstr.strip() and "fuzzy" not in entry.flags, f"not translated: {msgid!r}"
        assert set(placeholder.findall(entry.msgstr)) == set(placeholder.findall(msgid)), msgid
        assert entry.msgstr.count("\n") == msgid.count("\n"), msgid


# ---------------------------------------------------------------- checks in Chinese

def test_a_wrong_value_fails_in_chinese_and_english_is_unchanged():
    assert failure(check_value, "w_grad", 41, 42) == "w_grad: expected 42, found 41."
    language.set_language("zh")
    assert failure(check_value, "w_grad", 41, 42) == "w_grad: 应为 42，实际为 41。"


def test_an_untouched_answer_says_so_in_chinese_with_the_variable_name():
    language.set_language("zh")
    message = failure(check_value, "dz_dw", None, 42)
    assert message.startswith("`dz_dw` 还没有答案")
    assert "# YOUR CODE HERE" in message
    message = failure(check_answer, "which_mode", ..., "dynamic")
    assert "`which_mode` 还没有答案" in message


def test_a_wrong_choice_and_a_wrong_part_fail_in_chinese():
    language.set_language("zh")
    assert failure(check_answer, "which_mode", "static", "dynamic") == "which_mode: 'static' 不对。"
    with pytest.raises(CheckFailed) as raised:
        with check_parts("the parts") as parts:
            parts.check_value("a", 1, 2)
            parts.check_value("b", 2, 2)
            parts.check_value("c", None, 3)
    lines = str(raised.value).splitlines()
    assert lines[0] == "the parts：检查了 3 项，2 项未通过。"
    assert lines[1] == "✗ a: 应为 2，实际为 1。"
    assert lines[2] == "✓ b: 2"
    assert lines[3].startswith("✗ `c` 还没有答案")


def test_a_lessons_hint_label_and_title_come_out_translated(lesson_catalogue):
    message = failure(check_value, "your chain rule at w = -1", 3, 4, hint="Add the two numbers before you square them.")
    assert message == "你在 w = -1 处用链式法则算出的结果: 应为 4，实际为 3。\n提示：先把两个数相加，再求平方。"
    # an f-string's text, matched against its template entry: the number is put back in place
    message = failure(check_value, "the loss after 60 steps", 0.9, 0.5)
    assert message.startswith("60 步之后的损失: 应为 0.5，实际为 0.9。")
    assert failure(check_true, "loss_fell", False, because="the loss did not fall") == "loss_fell: 不成立，损失没有下降。"
    with pytest.raises(CheckFailed) as raised:
        with check_parts("the four projects") as parts:
            parts.check_value("a", 1, 2, hint="Add the two numbers before you square them.")
    assert str(raised.value) == "四个项目：唯一的一项检查未通过。\n✗ a: 应为 2，实际为 1。 提示：先把两个数相加，再求平方。"
    # a lesson's own CheckFailed is translated where it is made
    assert str(CheckFailed("the loss after 8 steps", hint="Add the two numbers before you square them.")) == (
        "8 步之后的损失\n提示：先把两个数相加，再求平方。")


def test_a_learners_variable_name_is_never_translated(lesson_catalogue):
    # "mode" is in a catalogue (a lesson's plot label), but as a check's name it is the learner's variable
    assert failure(check_answer, "mode", "static", "dynamic") == "mode: 'static' 不对。"


def test_without_a_catalogue_entry_the_lessons_english_is_kept(lesson_catalogue):
    message = failure(check_value, "the slope", 3, 4, hint="No translation for this one.")
    assert message == "the slope: 应为 4，实际为 3。\n提示：No translation for this one."


def test_the_same_lesson_text_stays_english_in_english(lesson_catalogue):
    language.set_language("en")
    message = failure(check_value, "your chain rule at w = -1", 3, 4, hint="Add the two numbers before you square them.")
    assert message == "your chain rule at w = -1: expected 4, found 3.\nHint: Add the two numbers before you square them."


def test_the_undefined_name_sentence_is_chinese():
    from paddlecourse.session import undefined_name_sentence

    english = undefined_name_sentence(NameError("name 'w_grad' is not defined"))
    assert english.startswith("`w_grad` is not defined yet: run the cell that defines it")
    language.set_language("zh")
    sentence = undefined_name_sentence(NameError("name 'w_grad' is not defined"))
    assert sentence.startswith("`w_grad` 还没有定义：请运行定义它的单元格")
    assert '"B"' in undefined_name_sentence(NameError("name 'B' is not defined"))


# ---------------------------------------------------------------- a real course kernel

def test_in_a_course_kernel_setup_lang_zh_makes_checks_and_names_chinese():
    from jupyter_client.manager import start_new_kernel

    from paddlecourse.kernel import KERNEL_NAME

    manager, client = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=90)
    errors = []

    def keep(message):
        if message["msg_type"] == "error":
            errors.append((message["content"]["ename"], message["content"]["evalue"],
                           "\n".join(message["content"]["traceback"])))

    try:
        reply = client.execute_interactive('import paddlecourse\npaddlecourse.setup(lang="zh")', timeout=180,
                                           output_hook=keep)
        assert reply["content"]["status"] == "ok", errors
        client.execute_interactive("answer = None\npaddlecourse.check_value('answer', answer, 42)", timeout=60,
                                   output_hook=keep)
        client.execute_interactive("print(w_grad)", timeout=60, output_hook=keep)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    (check_name, check_text, check_shown), (name_error, _value, name_shown) = errors
    assert check_name == "CheckFailed" and check_text.startswith("`answer` 还没有答案")
    assert check_shown == f"CheckFailed: {check_text}", "one sentence, no traceback"
    assert name_error == "NameError" and "`w_grad` 还没有定义" in name_shown


# ---------------------------------------------------------------- the command line

def test_paddlecourse_verify_speaks_chinese_with_paddlecourse_lang_zh():
    command = shutil.which("paddlecourse", path=str(Path(sys.executable).parent)) or "paddlecourse"
    env = dict(os.environ, PADDLECOURSE_LANG="zh", GLOG_minloglevel="2")
    done = subprocess.run([command, "verify"], capture_output=True, text=True, env=env, timeout=300)
    assert "1. 导入与版本" in done.stdout, done.stdout + done.stderr
    assert "4. 动态图前向 + 反向" in done.stdout
    last = done.stdout.strip().splitlines()[-1]
    assert last in ("五项检查全部通过。", "有检查未通过：见上面的“怎么办”。")


def test_paddlecourse_progress_speaks_chinese_with_paddlecourse_lang_zh():
    command = shutil.which("paddlecourse", path=str(Path(sys.executable).parent)) or "paddlecourse"
    env = dict(os.environ, PADDLECOURSE_LANG="zh")
    done = subprocess.run([command, "progress", str(ROOT / "lessons" / "00_setup_and_first_run.ipynb")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert "道练习通过了" in done.stdout, done.stdout + done.stderr
    assert "未运行" in done.stdout


# ---------------------------------------------------------------- pictures

def test_setup_lang_zh_puts_a_cjk_font_first_and_leaves_the_backend_alone():
    import matplotlib

    from paddlecourse.session import CJK_FONTS

    backend = matplotlib.get_backend()
    before = list(matplotlib.rcParams["font.sans-serif"])
    paddlecourse.setup(lang="zh")
    assert language.language() == "zh"
    first = matplotlib.rcParams["font.sans-serif"][0]
    assert first in CJK_FONTS, f"no CJK font first: {matplotlib.rcParams['font.sans-serif'][:3]}"
    assert matplotlib.rcParams["axes.unicode_minus"] is False
    assert matplotlib.get_backend() == backend
    paddlecourse.setup()  # no lang: the language chosen stays
    assert language.language() == "zh"
    paddlecourse.setup(lang="en")
    assert list(matplotlib.rcParams["font.sans-serif"]) == before
    assert matplotlib.get_backend() == backend


def test_setup_says_one_sentence_when_no_cjk_font_is_found(monkeypatch, capsys):
    from paddlecourse import session

    monkeypatch.setattr(session, "cjk_font", lambda: None)
    paddlecourse.setup(lang="zh")
    printed = capsys.readouterr().out.strip().splitlines()
    assert len(printed) == 1 and "fonts-wqy-microhei" in printed[0] and "README" in printed[0]


def test_a_figure_shown_in_chinese_has_its_lesson_texts_translated(lesson_catalogue):
    from IPython.core.interactiveshell import InteractiveShell
    from matplotlib.figure import Figure

    from paddlecourse.session import _plot_language
    from paddlecourse.widgets.figures import register_figure_html

    _plot_language()  # the CJK font setup(lang="zh") picks, so the picture has no missing glyphs
    shell = InteractiveShell.instance()
    register_figure_html(shell)
    figure = Figure()
    ax = figure.subplots()
    ax.plot([1, 2, 3], [3, 2, 1], label="lesson label")
    ax.set_title("Loss per step")
    ax.set_xlabel("training steps")
    ax.set_ylabel("w")  # a name: no entry, stays
    ax.legend()
    data, _metadata = shell.display_formatter.format(figure)
    assert ax.get_title() == "每一步的损失"
    assert ax.get_xlabel() == "训练步数" and ax.get_ylabel() == "w"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["课程标签"]
    assert "每一步的损失" in data["text/html"] and "以文本显示" not in data["text/html"]
    assert "显示 课程标签" in data["text/html"]  # the alt text, in Chinese


def test_a_figure_shown_in_english_is_left_as_it_is():
    from paddlecourse.widgets.figures import translate_figure
    from matplotlib.figure import Figure

    figure = Figure()
    figure.subplots().set_title("Loss per step")
    assert translate_figure(figure).axes[0].get_title() == "Loss per step"


def test_a_graphviz_picture_in_chinese_draws_chinese_in_a_cjk_font():
    from paddlecourse.widgets.graphs import GraphPicture, graphviz_available
    from paddlecourse.widgets.pipeline import pipeline_picture

    if not graphviz_available():
        pytest.skip("Graphviz (dot) is not installed: sudo apt-get install graphviz")
    english = pipeline_picture().svg()
    assert "Helvetica" in english and "动态图模型" not in english
    language.set_language("zh")
    from paddlecourse.session import cjk_font

    svg = pipeline_picture().svg()
    assert "动态图模型" in svg and "从动态图模型到部署的静态图模型" in svg
    assert f'font-family="{cjk_font()}' in svg and "Helvetica" not in svg
    picture = GraphPicture(title="我的图")
    picture.add_node("a", "a", "leaf")
    assert "输入或常量：浅黄色框，虚线边框" in picture.svg()
    assert picture.alt_text() == "图：我的图。按顺序共 1 个节点：a。"


# Every lesson's checks failing in Chinese when the answers are untouched: tests/test_untouched_lessons.py,
# in the same run as the English (the Chinese student copy's code cells are the English ones).

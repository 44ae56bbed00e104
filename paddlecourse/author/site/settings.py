"""Where the site is configured and written, its two languages, and the error it stops with."""
from ..deploy_links import REPO_ROOT


SITE_CONFIG = REPO_ROOT / "site"
DEFAULT_OUT = REPO_ROOT / "build" / "site"
HUB_URL_ENV = "PADDLECOURSE_HUB_URL"
MARKER = ".paddlecourse-site"  # in an output folder this module wrote, so a rebuild may empty it
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
STATIC_FORMS = ("text/html", "image/svg+xml", "image/png", "text/plain")  # a widget's static form, in this order
SECRET_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")

# Each language: where its student copies and solutions are, its folder in the site, and its words.
LANGUAGES = {
    "en": {
        "lessons": "lessons", "solutions": "solutions", "folder": "", "sphinx": "en", "other": "zh",
        "name": "English",
        "title": "paddlecourse: dynamic graph vs static graph in PaddlePaddle",
        "intro": "An interactive Jupyter course on PaddlePaddle 3.3.1's two programming modes: **dynamic graph "
                 "(动态图)**, where every line runs as Python reaches it, and **static graph (静态图)**, where you "
                 "describe the whole computation first and run it later, and on when to use which. These pages "
                 "show each lesson as it is, with the outputs of a real run; to run it yourself, use a lesson's "
                 "**Binder** button (nothing to install), your class hub's button, or download the notebook.",
        "table": ("#", "Lesson", "What you will do", "Time"),
        "minutes": "{} min (core path {})",
        "bar": "Run this page",
        "binder": "Launch on Binder",
        "colab": "Open in Colab",
        "kaggle": "Open in Kaggle",
        "hub": "Open on the class JupyterHub",
        "download": "Download the notebook",
        "no_address": "To run it yourself, download it and open it in a Jupyter where the course is installed: your "
                      "own Python, Colab, Kaggle or AI Studio (the README's \"Where you already work\" says how).",
        "switch": "中文",
        "switch_label": "这一页的中文版",
        "widget_note": "A still picture of an interactive widget: launch the lesson (Binder or JupyterHub) to use it.",
        "answer_note": "Your answer goes in the cell below, once you run the lesson.",
        "check_note": "The check: run it after your answer to see whether it is right, with a hint if not.",
    },
    "zh": {
        "lessons": "lessons/zh", "solutions": "solutions/zh", "folder": "zh", "sphinx": "zh_CN", "other": "en",
        "name": "中文",
        "title": "paddlecourse：动手学飞桨的动态图与静态图",
        "intro": "这是一门交互式 Jupyter 课程，讲解飞桨（PaddlePaddle 3.3.1）的两种编程模式，以及何时该用哪一种："
                 "**动态图**，Python 执行到哪一行就运行哪一行；**静态图**，先描述完整个计算，再统一运行。"
                 "这些网页按原样展示每一课，并附上一次真实运行的输出；想自己动手运行，请点击课程页上的 "
                 "**Binder** 按钮（无需安装），或你所在班级 JupyterHub 的按钮，或下载 notebook。",
        "table": ("#", "课程", "你将做什么", "用时"),
        "minutes": "{} 分钟（核心路径 {}）",
        "bar": "运行这一页",
        "binder": "在 Binder 上启动",
        "colab": "在 Colab 中打开",
        "kaggle": "在 Kaggle 中打开",
        "hub": "在班级 JupyterHub 上打开",
        "download": "下载 notebook",
        "no_address": "想自己运行，请下载后在装好本课程的 Jupyter 中打开：你自己的 Python、Colab、Kaggle 或 AI Studio"
                      "（做法见 README 的“在你已经在用的地方学”）。",
        "switch": "English",
        "switch_label": "This page in English",
        "widget_note": "这是交互式组件的静态画面：启动本课（Binder 或 JupyterHub）后即可操作。",
        "answer_note": "运行本课时，把你的答案写在下面这个单元格里。",
        "check_note": "检查：写好答案后运行它，看答案是否正确；不正确时会给出提示。",
    },
}


class SiteError(RuntimeError):
    """The site cannot be built as asked; the message says why and what to do."""

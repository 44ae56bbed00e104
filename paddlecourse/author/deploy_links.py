"""nbgitpuller links: one per lesson, for an instructor to hand out on a JupyterHub.

A learner who clicks one logs in to the hub; nbgitpuller then clones the course
repository into their home (or, on later clicks, merges new commits into it without
overwriting what the learner changed) and opens that lesson in JupyterLab.
"""
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

from ..lesson_index import lesson_paths

REPO_ROOT = Path(__file__).resolve().parents[2]  # paddlecourse/author/ -> the repository


class LinkError(ValueError):
    """Bad input for a link, said in one sentence with a hint."""


def lesson_names(lessons_dir=None):
    """The lesson notebooks' file names, in course order (lessons/NN_*.ipynb)."""
    folder = Path(lessons_dir) if lessons_dir else REPO_ROOT / "lessons"
    names = [p.name for p in lesson_paths(folder)]
    if not names:
        raise LinkError(f"no lessons found in {folder}: run this from the course checkout or pass --lessons DIR.")
    return names


def target_folder(repo):
    """The folder nbgitpuller clones into by default: the repository's last path part, without .git."""
    name = urlsplit(repo).path.rstrip("/").rsplit("/", 1)[-1]
    return name[:-4] if name.endswith(".git") else name


def lessons_folder(lang="en"):
    """Where a language's student copies are, in the repository: lessons/ or lessons/zh/."""
    return "lessons" if lang == "en" else f"lessons/{lang}"


def lesson_link(hub, repo, branch, lesson, app="lab", lang="en"):
    """The nbgitpuller link that opens `lesson` (a file name in lessons/, or lessons/zh/) on `hub`."""
    hub = hub.rstrip("/")
    if urlsplit(hub).scheme not in ("http", "https") or not urlsplit(hub).netloc:
        raise LinkError(f"--hub {hub!r} is not a web address: give the hub's address, e.g. https://hub.example.org")
    if not repo or not target_folder(repo):
        raise LinkError(f"--repo {repo!r} names no repository: give its clone URL, e.g. https://github.com/you/paddlecourse")
    if not branch:
        raise LinkError("--branch is empty: give the branch learners should get, e.g. main")
    folder = target_folder(repo)
    query = urlencode({
        "repo": repo,
        "branch": branch,
        "targetpath": folder,  # said, not left to nbgitpuller: its default keeps a trailing .git
        "urlpath": f"{app}/tree/{folder}/{lessons_folder(lang)}/{lesson}",
    }, quote_via=quote)
    # user-redirect sends each learner to their own server, starting it after login if needed
    return f"{hub}/hub/user-redirect/git-pull?{query}"


def lesson_links(hub, repo, branch="main", lessons_dir=None, lang="en"):
    """[(lesson file name, link)] for every lesson, in the edition ``lang``."""
    return [(name, lesson_link(hub, repo, branch, name, lang=lang)) for name in lesson_names(lessons_dir)]


LESSON_00 = "lessons/00_setup_and_first_run.ipynb"


def binder_url(remote, branch="HEAD", path=LESSON_00):
    """The mybinder.org address that opens `path` in JupyterLab, built from a git remote URL."""
    import re

    remote = remote.strip()
    match = re.fullmatch(r"(?:https?://|git@|ssh://git@)(github\.com|gitlab\.com)[/:]([^/]+)/(.+?)(?:\.git)?/?", remote)
    query = f"?urlpath={quote(f'lab/tree/{path}', safe='/')}"
    if match:
        host, owner, name = match.groups()
        if host == "github.com":
            return f"https://mybinder.org/v2/gh/{owner}/{name}/{branch}{query}"
        return f"https://mybinder.org/v2/gl/{quote(f'{owner}/{name}', safe='')}/{branch}{query}"
    if urlsplit(remote).scheme not in ("http", "https"):
        raise LinkError(f"the remote {remote!r} is not a public web address Binder can clone: "
                        "give one with --repo, e.g. https://github.com/you/paddlecourse")
    return f"https://mybinder.org/v2/git/{quote(remote, safe='')}/{branch}{query}"


def binder_badge(remote, branch="HEAD", lang="en"):
    """The README's Binder badge, as Markdown, for this remote (README.zh.md's opens the Chinese lesson 00)."""
    path = f"{lessons_folder(lang)}/{Path(LESSON_00).name}"
    return f"[![Binder](https://mybinder.org/badge_logo.svg)]({binder_url(remote, branch, path)})"


_GITHUB = r"(?:https?://|git@|ssh://git@)github\.com[/:]([^/]+)/(.+?)(?:\.git)?/?"


def github_blob(remote, branch, path):
    """The github.com page of ``path`` on ``branch``, which Colab and Kaggle open notebooks from; None for a
    repository elsewhere (neither opens one from another host)."""
    import re

    match = re.fullmatch(_GITHUB, remote.strip())
    return f"https://github.com/{match.group(1)}/{match.group(2)}/blob/{branch}/{path}" if match else None


def colab_url(remote, branch="main", path=LESSON_00):
    """The address that opens ``path`` in Google Colab, or None when the repository is not on GitHub."""
    blob = github_blob(remote, branch, path)
    return blob and blob.replace("https://github.com/", "https://colab.research.google.com/github/", 1)


def kaggle_url(remote, branch="main", path=LESSON_00):
    """The address that imports ``path`` into a new Kaggle notebook, or None when the repository is not on GitHub."""
    blob = github_blob(remote, branch, path)
    return blob and f"https://kaggle.com/kernels/welcome?src={quote(blob, safe=':/')}"


def install_spec(remote):
    """What `pip install` takes to install the course straight from its repository (it is on no package index)."""
    web = remote.strip()
    if web.startswith("git@"):
        web = "https://" + web[len("git@"):].replace(":", "/", 1)
    return f"paddlecourse @ git+{web}"


def public_repository(root=REPO_ROOT):
    """The course's public repository, the one place every launch link is made from: ``Repository`` under
    ``[project.urls]`` in pyproject.toml (a fork writes its own). None while it is not set."""
    import tomllib

    try:
        project = tomllib.loads((Path(root) / "pyproject.toml").read_text(encoding="utf-8")).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return None
    address = str((project.get("urls") or {}).get("Repository", "")).strip()
    return address or None


NO_ADDRESS = ("no public address is set: write the repository's address as Repository under [project.urls] in "
              "pyproject.toml, or pass --repo URL")

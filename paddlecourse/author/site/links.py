"""The bar at the top of every page: the other language, Binder, the class hub, the download."""
import html
import re
import subprocess
from urllib.parse import urlsplit, urlunsplit

from ..deploy_links import (NO_ADDRESS, REPO_ROOT, binder_url, colab_url, kaggle_url, lesson_link, lessons_folder,
                            public_repository)
from .settings import LANGUAGES


# ---------------------------------------------------------------------------------------------
# Links


def _web_address(remote):
    """A git remote as the https address Binder and nbgitpuller clone (git@github.com:o/r.git -> https://github.com/o/r)."""
    remote = remote.strip()
    found = re.fullmatch(r"(?:git@|ssh://git@)([^/:]+)[/:](.+?)(?:\.git)?/?", remote)
    if found:
        return f"https://{found.group(1)}/{found.group(2)}"
    parts = urlsplit(remote)
    if parts.username or parts.password:  # a token in the remote (some CI put one there) is never published
        remote = urlunsplit(parts._replace(netloc=parts.hostname + (f":{parts.port}" if parts.port else "")))
    return remote[:-4] if remote.endswith(".git") else remote


def repository(repo=None, notes=None):
    """The repository the launch links open: --repo, else the course's public address (pyproject.toml); None
    when neither is set: then the pages have no launch links (never a placeholder that leads nowhere)."""
    if repo:
        return _web_address(repo)
    address = public_repository()
    if address:
        return _web_address(address)
    if notes is not None:
        notes.append(f"no launch links on the pages: {NO_ADDRESS}")
    return None


def default_branch(repo_dir=REPO_ROOT):
    """The origin's default branch (refs/remotes/origin/HEAD), else main."""
    try:
        result = subprocess.run(["git", "-C", str(repo_dir), "symbolic-ref", "--short", "refs/remotes/origin/HEAD"],
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "main"
    name = result.stdout.strip()
    return name.split("/", 1)[1] if result.returncode == 0 and "/" in name else "main"


def page_bar(lang, page, repo, branch, hub_url):
    """The bar on top of a page: the other language's page, and for a notebook page the launch links."""
    words, other = LANGUAGES[lang], LANGUAGES[LANGUAGES[lang]["other"]]
    up = "../" if words["folder"] else ""
    switch_href = up + (other["folder"] + "/" if other["folder"] else "") + f"{page}.html"
    parts = [f'<a class="pc-lang" href="{switch_href}" hreflang="{other["sphinx"][:2]}" lang="{other["sphinx"][:2]}" '
             f'title="{html.escape(words["switch_label"])}">{html.escape(words["switch"])}</a>']
    if page != "index":
        path = f"{lessons_folder(lang)}/{page}.ipynb"
        if repo:
            parts.append(f'<a class="pc-launch" href="{html.escape(binder_url(repo, branch, path))}">'
                         f'{html.escape(words["binder"])}</a>')
            # Colab and Kaggle open notebooks from GitHub only: elsewhere their links are None and left out
            for key, url in (("colab", colab_url(repo, branch, path)), ("kaggle", kaggle_url(repo, branch, path))):
                if url:
                    parts.append(f'<a class="pc-launch" href="{html.escape(url)}">{html.escape(words[key])}</a>')
        if repo and hub_url:
            link = lesson_link(hub_url, repo, branch, f"{page}.ipynb", lang=lang)
            parts.append(f'<a class="pc-launch" href="{html.escape(link)}">{html.escape(words["hub"])}</a>')
        parts.append(f'<a class="pc-launch" href="notebooks/{page}.ipynb" download="{page}.ipynb" type="application/x-ipynb+json">'
                     f'{html.escape(words["download"])}</a>')
        if not repo:
            parts.append(f'<span class="pc-no-address">{html.escape(words["no_address"])}</span>')
    return f'<nav class="pc-bar" aria-label="{html.escape(words["bar"])}">' + " ".join(parts) + "</nav>"

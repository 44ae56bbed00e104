"""The bar at the top of every page: the other language, Binder, the class hub, the download."""
import html
import re
import subprocess
from urllib.parse import urlsplit, urlunsplit

from ..deploy_links import REPO_ROOT, LinkError, binder_url, lesson_link, lessons_folder, origin_remote
from .settings import LANGUAGES, PLACEHOLDER_REPO


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
    """The repository the launch links open: --repo, else this checkout's origin, else the README's placeholder."""
    if repo:
        return _web_address(repo)
    try:
        remote = _web_address(origin_remote())
        binder_url(remote)  # a public web address Binder can clone?
        return remote
    except LinkError as error:
        if notes is not None:
            notes.append(f"the launch links open the placeholder {PLACEHOLDER_REPO}, as the README's badge does, "
                         f"because {str(error)[0].lower()}{str(error)[1:]}")
        return PLACEHOLDER_REPO


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
        parts.append(f'<a class="pc-launch" href="{html.escape(binder_url(repo, branch, path))}">'
                     f'{html.escape(words["binder"])}</a>')
        if hub_url:
            link = lesson_link(hub_url, repo, branch, f"{page}.ipynb", lang=lang)
            parts.append(f'<a class="pc-launch" href="{html.escape(link)}">{html.escape(words["hub"])}</a>')
        parts.append(f'<a class="pc-launch" href="notebooks/{page}.ipynb" download="{page}.ipynb" type="application/x-ipynb+json">'
                     f'{html.escape(words["download"])}</a>')
    return f'<nav class="pc-bar" aria-label="{html.escape(words["bar"])}">' + " ".join(parts) + "</nav>"

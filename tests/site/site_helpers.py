"""What the website tests share: the build's settings and a reader for the built HTML."""
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPO = "https://github.com/example-owner/paddlecourse"  # launch links with a known owner, not this clone's origin
BRANCH = "main"
HUB = "https://hub.example.org"
LANG_FOLDERS = {"en": "", "zh": "zh"}


class BuiltSite:
    def __init__(self, out, output):
        self.out, self.output = Path(out), output

    def folder(self, lang):
        return self.out / LANG_FOLDERS[lang] if LANG_FOLDERS[lang] else self.out

    def pages(self):
        return sorted(self.out.rglob("*.html"))


class Page(HTMLParser):
    """What a test needs from one HTML file: its text, ids, links, pictures and the launch bar."""

    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.path, self.text, self.ids, self.refs, self.imgs, self.svgs = Path(path), [], set(), [], [], []
        self.bar, self.lang, self._svg, self._in_bar, self._skip = [], None, [], False, 0
        self.feed(self.path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        for key in ("id", "name"):
            if attrs.get(key) and (key == "id" or tag == "a"):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            if attrs.get(key) is not None and tag in ("a", "link", "img", "script", "iframe", "source", "use"):
                self.refs.append((tag, key, attrs[key]))
        if tag == "img":
            self.imgs.append(attrs)
        if tag == "svg":
            self._svg.append({"attrs": attrs, "title": False})
        if tag == "title" and self._svg:
            self._svg[-1]["title"] = True
        if tag == "nav" and "pc-bar" in (attrs.get("class") or ""):
            self._in_bar = True
        if tag == "a" and self._in_bar:
            self.bar.append(attrs)
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag == "svg" and self._svg:
            self.svgs.append(self._svg.pop())
        if tag == "nav":
            self._in_bar = False
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)

    @property
    def plain(self):
        return " ".join("".join(self.text).split())

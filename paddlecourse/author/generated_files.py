"""Files `paddlecourse build` writes from the course's own sources (a README's launch paragraph, the settings
pages): each module says which are out of date as {path: the text it should hold}; this writes them."""


def write_stale(stale):
    """Write every {path: text} of ``stale``; returns the paths written."""
    for path, text in stale.items():
        path.write_text(text, encoding="utf-8")
    return list(stale)

"""The Chinese edition of a lesson, made from the English one and its catalogue.

Authors' tool, called by ``paddlecourse build``. The English solution stays the single source of
code: a Chinese solution (``solutions/zh/NN_name.ipynb``) is the English notebook with each
markdown cell replaced by its translation and the first cell's ``paddlecourse.setup()`` asking for
Chinese (``setup(lang="zh")``). Every other code cell, the cell ids, the nbgrader metadata and grade
ids are the English ones, so a class may mix both editions. The code's text a learner reads (hints,
labels, plot titles) is translated when it is shown, by ``paddlecourse.language``.

Stored outputs are a Chinese run's: a code cell whose source did not change keeps the outputs it
had in the previous Chinese solution; ``paddlecourse build --execute`` runs them all again.
"""
import copy

from .catalogues import open_catalogue, translation_of
from .deploy_links import public_repository
from .first_cell import first_cell

# Pictures a notebook carries as attachments that the library draws: redrawn in the edition's language.
REDRAWN_ATTACHMENTS = {"pipeline.png": ("paddlecourse.widgets.pipeline", "pipeline_png")}


class MissingTranslation(Exception):
    pass


def edition_setup_source(source, lang, repo=None):
    """The first code cell of a ``lang`` edition, made from the English one (``source``): its head in ``lang``,
    for the course's public address (``repo``; by default the one pyproject.toml names), the rest unchanged."""
    return first_cell(source, lang, repo if repo is not None else public_repository())


def translated_notebook(english, domain, lang, previous=None, strict=False, repo=None):
    """(notebook, missing): ``english`` in ``lang``; ``missing`` lists the cells left in English
    (no usable translation yet). With ``strict``, a missing translation raises instead."""
    usable = translation_of(open_catalogue(lang, domain))
    repo = repo if repo is not None else public_repository()
    notebook = copy.deepcopy(english)
    old_outputs = {}
    if previous is not None:
        old_outputs = {cell.id: cell for cell in previous.cells if cell.cell_type == "code"}
    missing, first_code = [], True
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown" and cell.source.strip():
            text = usable.get((f"markdown {cell.id}", cell.source))
            if text is None:
                missing.append(index)
                if strict:
                    raise MissingTranslation(f"{domain}: markdown cell {index} ({cell.id}) has no translation")
            else:
                cell.source = text
            _redraw_attachments(cell, lang)
        elif cell.cell_type == "code":
            if first_code:
                cell.source = edition_setup_source(cell.source, lang, repo)
                first_code = False
            before = old_outputs.get(cell.id)
            if before is not None and before.source == cell.source:
                cell.outputs = copy.deepcopy(before.outputs)
                cell.execution_count = before.get("execution_count")
            else:
                cell.outputs, cell.execution_count = [], None
    notebook.metadata["paddlecourse"] = {"lang": lang, "translated_from": domain}
    notebook.metadata.pop("widgets", None)
    return notebook, missing


def _redraw_attachments(cell, lang):
    """A picture the library draws (the glossary's pipeline), drawn again in ``lang``."""
    import base64
    import importlib

    from ..language import speaking

    for name in list(getattr(cell, "attachments", None) or {}):
        if name in REDRAWN_ATTACHMENTS:
            module, function = REDRAWN_ATTACHMENTS[name]
            with speaking(lang):
                png = getattr(importlib.import_module(module), function)()
            cell.attachments[name] = {"image/png": base64.b64encode(png).decode("ascii")}

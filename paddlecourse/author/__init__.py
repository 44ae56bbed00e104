"""The course author's room: the tools that make the course from ``solutions/``, never imported by a lesson.

``build`` (student copies in ``lessons/``), ``first_cell`` (every lesson's first cell: set-up, or how to install
the course), ``sources`` (which notebooks are lessons), ``catalogues`` and
``editions`` (translating: the ``.po`` catalogues and the Chinese edition), ``site`` (the course as a website),
``deploy_links`` and ``readme_links`` (launch links and the README's Binder badge). Run through
``paddlecourse build``, ``translations``, ``site`` and ``links`` (``paddlecourse/cli.py``). May use the
learner's modules (the language, the notebooks' cells), never the instructor's (``paddlecourse.teach``).
"""

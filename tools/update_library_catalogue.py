"""Refresh only the library's catalogue (paddlecourse.po) from the package's _()/N_()/ngettext() calls.

`paddlecourse translations update` rewrites every catalogue, the lessons' too; while the lesson
catalogues are being translated elsewhere, this touches paddlecourse.po alone:

    .venv/bin/python tools/update_library_catalogue.py [--lang zh]
"""
import argparse

from paddlecourse.author import catalogues


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="zh")
    args = parser.parse_args()
    catalogue = catalogues.open_catalogue(args.lang, catalogues.LIBRARY_DOMAIN)
    counts = catalogues.merge(catalogue, catalogues.library_messages())
    path = catalogues.save(catalogue, args.lang, catalogues.LIBRARY_DOMAIN)
    print(path)
    print(catalogues._status_line(catalogues.LIBRARY_DOMAIN, catalogue, counts))


if __name__ == "__main__":
    main()

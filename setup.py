"""The wheel carries the lessons and the course's lock, which live outside the package.

lessons/ and solutions/ stay at the top of the repository (Binder, nbgitpuller links and the README open
them there); a built wheel gets copies as paddlecourse/lessons/ and paddlecourse/solutions/ (both editions):
`paddlecourse lessons DIR` writes the student copies out, `%catchup` and `progress()` read the solutions. It
also gets paddlecourse/requirements.lock, from which `paddlecourse wheelhouse` takes the exact versions. An
editable install reads all of them from the checkout instead (paddlecourse/lesson_copies.py,
teach/wheelhouse.py).
Everything else about the package is in pyproject.toml.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# the student copies, and the solutions that %catchup and progress() read (both public in the repository anyway)
COURSE_FOLDERS = ["lessons", "solutions"]


class build_py_with_course_files(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        package = Path(self.build_lib) / "paddlecourse"
        for folder in COURSE_FOLDERS:
            shutil.rmtree(package / folder, ignore_errors=True)
            for notebook in sorted((ROOT / folder).rglob("*.ipynb")):
                if ".ipynb_checkpoints" in notebook.parts:
                    continue
                target = package / folder / notebook.relative_to(ROOT / folder)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(notebook, target)
        shutil.copyfile(ROOT / "requirements.lock", package / "requirements.lock")


setup(cmdclass={"build_py": build_py_with_course_files})

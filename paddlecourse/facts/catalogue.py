"""The catalogue of facts: one module per lesson, or per theme that lessons share."""
from .autograd import FACTS as AUTOGRAD
from .export import FACTS as EXPORT
from .predictor import FACTS as PREDICTOR
from .setup import FACTS as SETUP
from .shapes import FACTS as SHAPES
from .static_programs import FACTS as STATIC_PROGRAMS
from .fact import Fact

__all__ = ["Fact", "catalogue"]


def catalogue(lessons=None):
    """Every fact, in lesson order; ``lessons`` (e.g. ["00", "04"]) keeps only those lessons' facts."""
    facts = [*SETUP, *SHAPES, *AUTOGRAD, *STATIC_PROGRAMS, *EXPORT, *PREDICTOR]
    facts.sort(key=lambda fact: fact.lesson)   # stable: a module's own order stays
    if lessons:
        wanted = {lesson.zfill(2) for lesson in lessons}
        facts = [fact for fact in facts if fact.lesson in wanted]
    return facts

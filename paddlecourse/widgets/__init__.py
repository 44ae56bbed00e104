"""Widgets: pictures and controls a learner plays with.

Each widget keeps its state in a small plain class (testable without a
browser), draws it with ipywidgets 8, and has a static text/HTML/SVG form so
nbconvert, GitHub and nbval show something meaningful.
"""

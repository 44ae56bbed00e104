"""A keyboard focus a learner can see on every control of the course's widgets (WCAG 2.2, 2.4.7 Focus Visible,
and a ring that contrasts 3:1 as 2.4.13 Focus Appearance asks).

JupyterLab draws a focused widget button with a 1 px light-blue outline on light grey: hard to find.
`with_visible_focus` gives a widget's outer box the class ``pc-widget`` and a hidden style element whose
rules apply only inside such boxes (the rest of the learner's page is untouched): a 3 px dark-blue ring
with a white ring inside it, both drawn inside the control's own box, where no row or output area can
clip them. The blue stands out on a light theme, the white on a dark one, so the ring contrasts at least
3:1 with what it surrounds in both.
"""
FOCUS_CSS = """
.pc-widget :is(button, select, input, textarea, [tabindex]):focus-visible {
  outline: 3px solid #1d4ed8 !important;
  outline-offset: -3px !important;
  box-shadow: inset 0 0 0 6px #ffffff !important;
}
"""


def with_visible_focus(box):
    """``box`` (an ipywidgets Box) marked ``pc-widget``, with the focus rules as its first, hidden child."""
    import ipywidgets as widgets

    style = widgets.HTML(f"<style>{FOCUS_CSS}</style>", layout=widgets.Layout(display="none"))
    box.children = (style,) + tuple(box.children)
    box.add_class("pc-widget")
    return box

"""Exercises of several parts: every part checked, one report listing each (check_parts)."""
from ..language import _, ngettext, translate, translate_label
from .calling import _function_name, run_answer
from .failure import _is_placeholder, CheckFailed
from .values import check_answer, check_dtype, check_grad, check_shape, check_true, check_value


class _Part:
    def __init__(self, name, passed, text, hint=None):
        self.name, self.passed, self.text, self.hint = translate_label(name), passed, text, hint
        self.placeholder = False  # the learner's function is still the untouched stub

    def line(self):
        if self.passed:
            return self.text or f"✓ {self.name}"
        text = self.text
        if text.startswith(f"{self.name}: "):
            text = text[len(self.name) + 2:]
        elif text.startswith((f"{self.name} ", f"{self.name}.", "`")):  # the message names it already
            return f"✗ {text}" + self._hint_text()
        return f"✗ {self.name}: {text}" + self._hint_text()

    def _hint_text(self):
        # Translators: a part's hint after its ✗ line, with its leading space (English: " (the hint)")
        return _(" ({hint})").format(hint=self.hint) if self.hint else ""


class Parts:
    """The checks of one multi-part exercise; each failure is recorded, not raised (see check_parts)."""

    def __init__(self, title, fold=False):
        self.title = title  # translated when the report is made
        self.fold = fold  # see _folded_report
        self.parts = []
        self._failed_calls = []  # (label, function name, still a placeholder?) of run_answer calls that failed

    def _record(self, check, name, found, *args, **kwargs):
        import contextlib
        import io

        if _is_placeholder(found):
            for label, function_name, placeholder in self._failed_calls:
                if str(name) in (label, function_name) or str(name).startswith(f"{function_name}("):
                    shown = translate_label(label)
                    self.parts.append(_Part(name, False, _("not checked: `{call}` failed above.").format(call=shown)))
                    self.parts[-1].stopped_by = shown
                    self.parts[-1].waits_for_answer = placeholder
                    return None
            last = self.parts[-1] if self.parts else None
            if self.fold and last is not None and getattr(last, "call_failed", False):
                # the value came from the call that just failed: that failure is the message
                self.parts.append(_Part(name, False, _("not checked: `{call}` failed above.").format(call=last.name)))
                self.parts[-1].stopped_by = last.name
                self.parts[-1].waits_for_answer = last.placeholder
                return None
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                check(name, found, *args, **kwargs)
        except CheckFailed as failed:
            self.parts.append(_Part(name, False, failed.message, failed.hint))
            self.parts[-1].unanswered = getattr(failed, "unanswered", None)
            return None
        self.parts.append(_Part(name, True, printed.getvalue().strip()))
        return None

    def check_value(self, name, found, expected, **kwargs):
        return self._record(check_value, name, found, expected, **kwargs)

    def check_shape(self, name, found, expected, **kwargs):
        return self._record(check_shape, name, found, expected, **kwargs)

    def check_dtype(self, name, found, expected, **kwargs):
        return self._record(check_dtype, name, found, expected, **kwargs)

    def check_grad(self, name, tensor, expected, **kwargs):
        return self._record(check_grad, name, tensor, expected, **kwargs)

    def check_answer(self, name, found, expected, **kwargs):
        return self._record(check_answer, name, found, expected, **kwargs)

    def check_true(self, name, condition, **kwargs):
        return self._record(check_true, name, condition, **kwargs)

    def check(self, check_function, name, found, *args, **kwargs):
        """Any check function with the signature ``check_function(name, found, ...)``, recorded as a part.

        Returns True when the part passed, so later parts can depend on it.
        """
        self._record(check_function, name, found, *args, **kwargs)
        return bool(self.parts) and self.parts[-1].passed

    def run_answer(self, label, function, *args, **kwargs):
        """Like run_answer(), but a failure is recorded as a part and None is returned."""
        try:
            return run_answer(label, function, *args, **kwargs)
        except CheckFailed as failed:
            self.parts.append(_Part(str(label), False, failed.message, failed.hint))
            self.parts[-1].call_failed = True
            self.parts[-1].placeholder = getattr(failed, "placeholder", False)
            self.parts[-1].unanswered = getattr(failed, "unanswered", None)  # run_answer(label, None)
            self._failed_calls.append((str(label), _function_name(label, function), self.parts[-1].placeholder))
            return None

    def report(self):
        """The one message: a headline, then ✓/✗ per part."""
        if self.fold:
            return self._folded_report()
        wrong = [p for p in self.parts if not p.passed]
        lines = [p.line() for p in self.parts]
        if not wrong:
            return "\n".join(lines)
        head = self._headline(wrong)
        return "\n".join([head, *lines])

    def _headline(self, wrong):
        title = translate(self.title)
        if len(self.parts) == 1:
            # Translators: {title} is the exercise's title, e.g. "the four projects"; the check has one part
            return _("{title}: its one part is not right yet.").format(title=title)
        # Translators: {title} is the exercise's title, e.g. "the four projects"
        return ngettext("{title}: {wrong} of {total} parts is not right yet.",
                        "{title}: {wrong} of {total} parts are not right yet.", len(wrong)).format(
            title=title, wrong=len(wrong), total=len(self.parts))

    def _folded_report(self):
        """Like report(), with each cause said once.

        Variables with no answer yet are named in one sentence; parts that failed the same way (the same
        error from the learner's function, the same message) are one line ending "This also stops: ...";
        a part that could not be checked because a call failed is named on that call's line. When one
        line is left and nothing passed, the message is that one sentence.
        """
        lines, wrong, groups = [], [p for p in self.parts if not p.passed], {}
        unanswered = [p for p in wrong if getattr(p, "unanswered", None)]
        for part in self.parts:
            if part.passed:
                lines.append(part.line())
                continue
            if getattr(part, "unanswered", None):
                if part is unanswered[0]:
                    lines.append(None)  # filled in below, where the first unanswered part was
                continue
            stopped_by = getattr(part, "stopped_by", None)
            if stopped_by is not None and stopped_by in groups:
                continue  # its call's line says why
            key = (part.text.replace(str(part.name), "\0"), (part.hint or "").replace(str(part.name), "\0"))
            if key in groups:
                groups[key][1].append(part.name)
                groups[str(part.name)] = groups[key]
                continue
            groups[key] = groups[str(part.name)] = (len(lines), [])
            lines.append(part)
        if unanswered:
            names = [f"`{p.unanswered}`" for p in unanswered]
            if len(names) == 1:
                text = unanswered[0].text
            else:
                # Translators: {names} is a list of variables, e.g. `a`, `b`; {last} the last one, e.g. `c`
                text = _("{names} and {last} have no answer yet: write them in the answer cell above (where it "
                         "says # YOUR CODE HERE, in place of `raise NotImplementedError()`), run that cell, then "
                         "this one (if you wrote them already, that cell stopped with an error before reaching "
                         "them: the error's last line says why).").format(
                    names=_(", ").join(names[:-1]), last=names[-1])
            lines[lines.index(None)] = "✗ " + text
        seen = set()
        for position, also in groups.values():
            if position in seen:
                continue
            seen.add(position)
            part = lines[position]
            line = part.line()
            also = [n for n in also if n != part.name and not part.placeholder]
            if also:
                more = _(", ").join(n if str(n).startswith("`") else f"`{n}`" for n in dict.fromkeys(also))
                if getattr(part, "call_failed", False):
                    # Translators: after a failed call's line; {names} are the parts it kept from being checked
                    line += " " + _("This also stops: {names}.").format(names=more)
                else:
                    # Translators: after a part's line; {names} are parts that failed the same way
                    line += " " + _("The same for: {names}.").format(names=more)
            lines[position] = line
        failing_lines = [x for x in lines if x.startswith("✗")]
        if not wrong:
            return "\n".join(lines)
        if len(failing_lines) == 1 and len(lines) == 1:
            return failing_lines[0][2:]
        head = self._headline(wrong)
        return "\n".join([head, *lines])


class check_parts:  # noqa: N801 - used like a function: `with check_parts("...") as parts:`
    """Check every part of a multi-part exercise and report them all in one message.

        with check_parts("the four projects") as parts:
            parts.check_answer("project_a", project_a, "dynamic", options=[...])
            parts.check_value("loss_after", loss_after, 0.5, rtol=1e-3)

    If any part failed, one CheckFailed lists every part as "✓ name" or
    "✗ name: message (hint)"; if all passed, the ✓ lines are printed. An error
    in the block itself (a module-level check, a learner's object that breaks
    the cell) is reported as a last ✗ line, not as a traceback.
    """

    def __init__(self, title, fold=False):
        self.parts = Parts(title, fold=fold)  # fold=True: each cause said once (Parts._folded_report)

    def __enter__(self):
        return self.parts

    def __exit__(self, etype, error, tb):
        __tracebackhide__ = True
        if etype is not None and not issubclass(etype, Exception):
            return False  # KeyboardInterrupt and friends go through
        if isinstance(error, CheckFailed):
            name = error.message.split(":", 1)[0].strip("` ") if ":" in error.message else "check"
            self.parts.parts.append(_Part(name, False, error.message, error.hint))
            self.parts.parts[-1].placeholder = getattr(error, "placeholder", False)
        elif error is not None:
            from ..errors import first_sentence, undefined_name_sentence

            sentence = undefined_name_sentence(error, tb)
            if sentence is not None:  # a name the exercise asks for is not defined: the one friendly sentence
                raise CheckFailed(sentence).with_traceback(None) from None
            self.parts.parts.append(
                _Part(_("the rest of this check"), False,
                      # Translators: {error} is "TypeName: the first sentence of the error" (English)
                      _("it stopped at {error}").format(error=first_sentence(error)),
                      _("Run the answer cells above again, then this one.")))
        wrong = [p for p in self.parts.parts if not p.passed]
        if wrong:
            failure = CheckFailed(self.parts.report())
            # every part still waits for its answer: progress() says "no answer yet" rather than "failed"
            # (a part not checked because a stub's call failed waits for the same answer)
            failure.no_answer = all(getattr(p, "unanswered", None) or getattr(p, "placeholder", False)
                                    or getattr(p, "waits_for_answer", False) for p in wrong)
            raise failure.with_traceback(None) from None
        if self.parts.parts:
            print(self.parts.report())
        return False
